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

    init(_ options: CrashTest.Options) throws(CrashTestError) {
        self.options = options
        isTemporary = options.workFolder == nil
        folder =
            options.workFolder ?? FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-crash-test-\(UUID().uuidString)")
        document = folder.appendingPathComponent(options.format == .package ? "Crash.poddoc" : "Crash.poddoc.tar.zst")
        environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "HOME": folder.path]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if FileManager.default.fileExists(atPath: document.path) { try FileManager.default.removeItem(at: document) }
            specBatches =
                options.kind == .pods ? try Self.writeBatches(of: options.specsSample, into: folder.appendingPathComponent("batches")) : nil
        } catch let error as CrashTestError {
            throw error
        } catch {
            throw CrashTestError(.setup, "Could not prepare the crash test's folder \(folder.path): \(error)")
        }
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
