// MARK: - Local sources

extension SpecsImporter {
    /// Imports a `Specs/` folder (2014 or sharded layout); stray files are skipped and listed
    /// in the summary, malformed spec files rejected with their reason.
    ///
    /// - Parameters:
    ///   - folder: The folder.
    ///   - resume: Continue after the folder's checkpoint (an unchanged folder lists the same way).
    ///   - progress: Called after each save.
    /// - Returns: What the import did.
    /// - Throws: ``PodSpecsError`` (`.fileSystem` when the folder cannot be listed, `.store`),
    ///   or `CancellationError`; what was saved stays saved.
    @discardableResult
    public func importFolder(
        _ folder: SpecsFolder, resume: Bool = false,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let source = folder.sourceIdentifier
        switch try await start(for: source, resume: resume) {
        case .alreadyComplete(let summary): return summary
        case .from(let first):
            return try await importPages(try folder.pages(from: first), source: source, firstPage: first, progress: progress)
        }
    }

    /// Imports a page file (the web service's format, in one file).
    ///
    /// - Parameters:
    ///   - file: The file.
    ///   - progress: Called after the save.
    /// - Returns: What the import did.
    /// - Throws: ``PodSpecsError`` (`.fileSystem`, `.malformedJSON`, `.invalidPage`, `.store`);
    ///   a malformed file imports nothing.
    @discardableResult
    public func importPageFile(
        _ file: SpecsPageFile,
        progress: (@Sendable (ImportProgress) -> Void)? = nil
    ) async throws -> ImportSummary {
        let page = try file.read()
        return try await importPages([page].async, source: file.sourceIdentifier, firstPage: 0, progress: progress)
    }
}

// MARK: - Arrays as async sequences

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
