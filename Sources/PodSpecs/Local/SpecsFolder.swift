import Foundation
import PodDocFileSystem

/// A CocoaPods `Specs/` folder, in the 2014 layout (`Specs/Name/version/Name.podspec.json`) or
/// today's sharded one (`Specs/a/b/c/Name/version/Name.podspec.json`).
///
/// A spec file is any `Name.podspec.json` file at any depth: inside a `version` folder inside
/// a `Name` folder (both layouts, and a mix), or loose (a folder of specs as CocoaPods' own
/// fixtures keep them). Everything else (LICENSE files, `.gitkeep`, symbolic links…) is
/// skipped and listed.
/// Files are read in path order, a page of ``filesPerPage`` entries at a time, so a resumed
/// import of an unchanged folder continues where it stopped.
///
/// ```swift
/// let folder = SpecsFolder(url: URL(fileURLWithPath: "Specs"))
/// let summary = try await importer.importFolder(folder)
/// print(summary.created, "specs;", summary.skipped.count, "files skipped")
/// ```
public struct SpecsFolder: Sendable {
    /// One item of the folder, by path relative to it.
    public enum Entry: Sendable, Hashable {
        /// A spec file.
        case spec(String)
        /// A file (or link, or special file) that is not a spec.
        case stray(String)
    }

    /// The folder.
    public let url: URL
    /// How many entries make one page of the import.
    public let filesPerPage: Int
    let fileSystem: FileSystem

    /// The deepest folder nesting followed (the sharded layout needs 5).
    static let maximumDepth = 12

    /// Describes a folder.
    ///
    /// - Parameters:
    ///   - url: The `Specs/` folder.
    ///   - filesPerPage: Entries per import page (default 500).
    ///   - fileSystem: The file system to read through.
    /// - Precondition: `filesPerPage` is at least 1.
    public init(url: URL, filesPerPage: Int = 500, fileSystem: FileSystem = FileSystem()) {
        precondition(filesPerPage >= 1, "a page holds at least one file")
        self.url = url
        self.filesPerPage = filesPerPage
        self.fileSystem = fileSystem
    }

    /// The identity of the folder for checkpoints: its absolute path.
    public var sourceIdentifier: String { url.standardizedFileURL.path }

    // MARK: - Listing

    /// Lists the folder's spec files and stray items, in path order.
    ///
    /// - Throws: ``PodSpecsError`` (`.fileSystem`) when the folder cannot be read, naming it.
    public func entries() throws -> [Entry] {
        var entries: [Entry] = []
        do {
            try walk("", depth: 0, into: &entries)
        } catch {
            throw PodSpecsError(
                .fileSystem, "Could not list the specs folder \(url.path): \(error). Check that it exists and can be read.",
                location: url.path, cause: error)
        }
        return entries.sorted { path(of: $0) < path(of: $1) }
    }

    private func walk(_ relative: String, depth: Int, into entries: inout [Entry]) throws {
        let folder = relative.isEmpty ? url : url.appending(path: relative)
        for item in try fileSystem.contentsOfDirectory(at: folder) {
            let path = relative.isEmpty ? item.name : relative + "/" + item.name
            switch item.kind {
            case .directory where depth < SpecsFolder.maximumDepth:
                try walk(path, depth: depth + 1, into: &entries)
            case .regularFile where SpecsFolder.isSpecPath(path):
                entries.append(.spec(path))
            default:
                entries.append(.stray(path))
            }
        }
    }

    /// The ending of a spec file's name.
    static let specSuffix = ".podspec.json"

    /// Whether a relative path names a spec file: `Name.podspec.json`, anywhere.
    static func isSpecPath(_ path: String) -> Bool {
        guard let file = path.split(separator: "/").last, file.hasSuffix(specSuffix) else { return false }
        return file.count > specSuffix.count
    }

    /// The `Name` and `version` folders of a path of the shape `…/Name/version/Name.podspec.json`,
    /// or nil for a loose spec file.
    static func layoutFolders(_ path: String) -> [String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, let file = parts.last, file.hasSuffix(specSuffix) else { return nil }
        let name = file.dropLast(specSuffix.count)
        guard !name.isEmpty, parts[parts.count - 3] == name, !parts[parts.count - 2].isEmpty else { return nil }
        return [String(parts[parts.count - 3]), String(parts[parts.count - 2])]
    }

    private func path(of entry: Entry) -> String {
        switch entry {
        case .spec(let path), .stray(let path): return path
        }
    }

    // MARK: - Reading

    /// The folder's entries as import pages of ``filesPerPage`` entries, from page `first`.
    ///
    /// - Throws: ``PodSpecsError`` (`.fileSystem`) when the folder cannot be listed.
    public func pages(from first: Int = 0) throws -> SpecsFolderPages {
        let entries = try entries()
        let count = max(1, (entries.count + filesPerPage - 1) / filesPerPage)
        return SpecsFolderPages(folder: self, entries: entries, numberOfPages: count, first: first)
    }

    /// Reads one page of entries: spec files parsed (malformed ones rejected with the
    /// reason), stray items listed as skipped.
    func page(_ index: Int, of entries: [Entry], numberOfPages: Int) -> SpecsPage {
        let slice = entries.dropFirst(index * filesPerPage).prefix(filesPerPage)
        var page = SpecsPage(index: index, numberOfPages: numberOfPages, specs: [])
        page.specs.reserveCapacity(slice.count)
        for entry in slice {
            switch entry {
            case .stray(let path):
                page.skipped.append(url.appending(path: path).path)
            case .spec(let path):
                let file = url.appending(path: path)
                do {
                    let spec = try PodSpecParser.parseSpec(try fileSystem.readData(at: file), location: file.path)
                    // `…/Name/1.0.0/Name.podspec.json`: the JSON decides, the folder is only
                    // checked (against the name as it is, or escaped as an export writes it).
                    if let folders = SpecsFolder.layoutFolders(path), folders != [spec.name, spec.version],
                        folders != [SpecFileName.of(spec.name), SpecFileName.of(spec.version)]
                    {
                        page.warnings.append(
                            "\(file.path): its folder says \(folders[0]) \(folders[1]), its JSON \(spec.name) \(spec.version); imported as the JSON says"
                        )
                    }
                    page.specs.append(spec)
                } catch let error as PodSpecsError {
                    // The message names the file, which the rejection names already.
                    let reason =
                        error.message.hasPrefix(file.path + " ") ? String(error.message.dropFirst(file.path.count + 1)) : error.message
                    page.rejected.append(RejectedSpec(location: file.path, reason: reason))
                } catch {
                    page.rejected.append(RejectedSpec(location: file.path, reason: "could not be read: \(error)"))
                }
            }
        }
        return page
    }
}

/// The pages of a ``SpecsFolder``, read one at a time as the import asks for them.
public struct SpecsFolderPages: AsyncSequence, Sendable {
    /// One page of entries.
    public typealias Element = SpecsPage

    let folder: SpecsFolder
    let entries: [SpecsFolder.Entry]
    /// The number of pages.
    public let numberOfPages: Int
    let first: Int

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: self, next: first)
    }

    /// Reads the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: SpecsFolderPages
        var next: Int

        /// The next page, or nil after the last.
        ///
        /// - Throws: `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> SpecsPage? {
            try Task.checkCancellation()
            guard next < pages.numberOfPages else { return nil }
            defer { next += 1 }
            return pages.folder.page(next, of: pages.entries, numberOfPages: pages.numberOfPages)
        }
    }
}

extension SpecsFolder {
    /// Every entry read as one page.
    package func pageOfAll(_ entries: [Entry]) -> SpecsPage {
        SpecsFolder(url: url, filesPerPage: max(1, entries.count), fileSystem: fileSystem).page(0, of: entries, numberOfPages: 1)
    }
}
