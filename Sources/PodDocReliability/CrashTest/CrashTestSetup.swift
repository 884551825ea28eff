import Foundation
import PodDocContent
import PodDocDocument
import PodDocFileSystem

/// The files a crash test works in: the document, the per-user state folder (working copies),
/// and the spec batches pods children import.
struct CrashTestSetup: Sendable {
    let options: CrashTest.Options
    let folder: URL
    let isTemporary: Bool
    let document: URL
    let specBatches: URL?
    /// `XDG_STATE_HOME` and `HOME` inside the work folder, for the children and the reopens.
    let environment: [String: String]

    /// Specs per batch file: a batch is one import (one save) in a pods child.
    static let specsPerBatch = 10

    /// The names the test makes in its work folder; ``marker`` says a crash test made it.
    static let madeNames: Set<String> = [marker, "Crash.poddoc", "Crash.poddoc.tar.zst", "state", "batches"]
    /// The file that marks a work folder as a crash test's, so another run may use it again.
    static let marker = ".poddoc-crash-test"

    init(_ options: CrashTest.Options) throws(CrashTestError) {
        self.options = options
        isTemporary = options.workFolder == nil
        folder =
            options.workFolder ?? FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-crash-test-\(UUID().uuidString)")
        document = folder.appendingPathComponent(options.format == .package ? "Crash.poddoc" : "Crash.poddoc.tar.zst")
        environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "HOME": folder.path]
        let madeFolder = try Self.prepare(folder, replacing: options.replacesWorkFolder)
        do {
            if FileManager.default.fileExists(atPath: document.path) { try FileManager.default.removeItem(at: document) }
            specBatches =
                options.kind == .pods ? try Self.writeBatches(of: options.specsSample, into: folder.appendingPathComponent("batches")) : nil
        } catch {
            // What this run made goes; a folder that was there keeps what the test did not make.
            if let madeFolder {
                try? FileManager.default.removeItem(at: madeFolder)
            } else {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent("batches"))
            }
            if let error = error as? CrashTestError { throw error }
            throw CrashTestError(.setup, "Could not prepare the crash test's folder \(folder.path): \(Self.describe(error))")
        }
    }

    /// Makes the work folder, or checks that an existing one holds only what a crash test
    /// makes (or nothing), unless `replacing`; marks it as a crash test's.
    ///
    /// - Returns: The topmost folder made here (the work folder or a parent), nil when it
    ///   existed.
    private static func prepare(_ folder: URL, replacing: Bool) throws(CrashTestError) -> URL? {
        var isFolder: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder)
        if existed {
            guard isFolder.boolValue else {
                throw CrashTestError(.setup, "The work folder \(folder.path) is a file, not a folder; name a new or empty folder.")
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            } catch {
                throw CrashTestError(
                    .setup, "Cannot use \(folder.path) as the work folder: \(describe(error)); name a new or empty folder.")
            }
            let others = names.filter { !isMadeByATest($0) }.sorted()
            if !replacing, !names.isEmpty, !others.isEmpty || !names.contains(marker) {
                let what =
                    others.isEmpty
                    ? "was not made by a crash test and holds \(count(names.count)) (such as \(names.sorted()[0]))"
                    : "holds \(count(others.count)) a crash test did not make (such as \(others[0]))"
                throw CrashTestError(
                    .setup,
                    "The work folder \(folder.path) \(what), and the test replaces its Crash.poddoc, state and batches there: name a new or empty folder, or pass --force."
                )
            }
        }
        var missing: [URL] = []
        var ancestor = folder.standardizedFileURL
        while !existed, ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) {
            missing.append(ancestor)
            ancestor = ancestor.deletingLastPathComponent()
        }
        do {
            for url in missing.reversed() { try FileSystem().createDirectory(at: url) }
            try FileSystem().write(
                Data("A poddoc crash test's work folder: it replaces Crash.poddoc, state and batches here.\n".utf8),
                to: folder.appendingPathComponent(marker))
        } catch {
            if let made = missing.last { try? FileManager.default.removeItem(at: made) }
            throw CrashTestError(
                .setup, "Cannot use \(folder.path) as the work folder (\(describe(error))); name a folder you can write in.")
        }
        return missing.last
    }

    /// Whether a crash test makes an item of this name in its work folder: its own names, the
    /// copies its children merge (`Theirs-Crash.poddoc`), and the temporary siblings a killed
    /// save leaves (`.Crash.poddoc.tmp-…`).
    private static func isMadeByATest(_ name: String) -> Bool {
        madeNames.contains(name) || name.contains("Crash.poddoc")
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }

    /// An error of making the folder or its marker as one short phrase: the POSIX reason.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? FileSystemError { return error.message }
        let ns = error as NSError
        if let posix = ns.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return ns.localizedDescription
    }

    var autosaveMilliseconds: Int { max(1, Int(options.autosaveInterval / .milliseconds(1))) }

    /// The child's environment: this process's, with the state folder inside the work folder.
    var childEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(environment) { _, ours in ours }
    }

    func childConfiguration(seed: UInt64, crashPoint: CrashPoint?) -> ChildConfiguration {
        ChildConfiguration(
            document: document, kind: options.kind, seed: seed, autosaveMilliseconds: autosaveMilliseconds,
            specBatches: specBatches, crashPoint: crashPoint)
    }

    /// How the parent reopens the document: no autosave, recover any working copy, check
    /// the store first.
    /// Makes the test's document a copy of `template` (read, never written), in the test's
    /// format.
    ///
    /// - Throws: ``CrashTestError`` (`.setup`) when it cannot be read or copied, or is of
    ///   another kind than the test's.
    @MainActor
    func copy(_ template: URL) async throws(CrashTestError) {
        var options = reopenOptions
        options.readOnly = true
        options.recovery = .ask
        do {
            let source = try await ManagedDocument.open(template, options: options)
            defer { Task { try? await source.close() } }
            guard source.metadata.kind == self.options.kind else {
                throw CrashTestError(
                    .usage, "\(template.path) is a document of kind '\(source.metadata.kind)', not '\(self.options.kind)'.")
            }
            try await source.save(to: document, format: self.options.format == .package ? .package : .archive(.tarZstd))
            try await source.close()
        } catch let error as CrashTestError {
            throw error
        } catch {
            throw CrashTestError(.setup, "Could not copy \(template.path) for the crash test: \(error)")
        }
    }

    var reopenOptions: ManagedDocument.OpenOptions {
        var options = ManagedDocument.OpenOptions()
        options.autosaveInterval = nil
        options.recovery = .recover
        options.untrustedStore = true
        options.environment = environment
        return options
    }

    /// The package a reopen will read: the document itself, or the archive's working copy
    /// holding autosaved work (nil when the archive will be unpacked afresh).
    @MainActor
    func recoverablePackage() -> URL? {
        guard options.format == .archive else { return document }
        let path = document.standardizedFileURL.path
        return ManagedDocument.recoverableDocuments(environment: environment)
            .first { $0.archive?.standardizedFileURL.path == path }?.workingCopy
    }

    /// Removes the temporary folder (a work folder the user named stays, for inspection).
    func removeIfTemporary() {
        if isTemporary { try? FileManager.default.removeItem(at: folder) }
    }

    /// Splits the sample page file (or the generated page) into page files of
    /// ``specsPerBatch`` specs.
    private static func writeBatches(of sample: URL?, into batches: URL) throws -> URL {
        let page: [String: Any]?
        if let sample {
            let data: Data
            do {
                data = try Data(contentsOf: sample)
            } catch {
                throw CrashTestError(
                    .setup,
                    "Could not read the sample specs \(sample.path) (\(error.localizedDescription)); pass a page file of specs, or no --specs for made-up ones."
                )
            }
            page = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        } else {
            page = GeneratedSpecs.page()
        }
        guard let specs = page?["result"] as? [Any], !specs.isEmpty else {
            throw CrashTestError(
                .setup, "\(sample?.path ?? "The specs") is not a page of specs ({\"number_of_pages\": 1, \"result\": [...]}).")
        }
        try? FileManager.default.removeItem(at: batches)
        try FileManager.default.createDirectory(at: batches, withIntermediateDirectories: true)
        let fileSystem = FileSystem()
        for (index, start) in stride(from: 0, to: specs.count, by: specsPerBatch).enumerated() {
            let batch = Array(specs[start..<min(start + specsPerBatch, specs.count)])
            let json = try JSONSerialization.data(withJSONObject: ["number_of_pages": 1, "result": batch])
            try fileSystem.write(json, to: batches.appendingPathComponent(String(format: "batch-%03d.json", index)))
        }
        return batches
    }
}
