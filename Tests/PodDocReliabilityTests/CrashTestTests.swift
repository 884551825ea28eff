import Foundation
import PodDocContent
import PodDocDocument
import PodDocReliability
import PodDocStore
import XCTest

/// Runs the crash test for each kind and format: a real child process edits a document with
/// autosave on and is killed with SIGKILL, at random moments and at crash points inside saves;
/// every reopen must be sound and hold at least the last save the child reported.
///
/// `PODDOC_CRASH_CYCLES` sets the cycles per kind and format (a few by default; `make
/// test-crash` runs 200); `PODDOC_CRASH_REPORTS`, a folder, receives each report as JSON.
final class CrashTestTests: XCTestCase {
    @MainActor func testPodsPackage() async throws { try await crashTest(.pods, .package) }
    @MainActor func testPodsArchive() async throws { try await crashTest(.pods, .archive) }
    @MainActor func testOutlinePackage() async throws { try await crashTest(.outline, .package) }
    @MainActor func testOutlineArchive() async throws { try await crashTest(.outline, .archive) }
    @MainActor func testAnAppsOwnKindPackage() async throws { try await crashTestOfAnAppsKind(.package) }
    @MainActor func testAnAppsOwnKindArchive() async throws { try await crashTestOfAnAppsKind(.archive) }

    /// A kind declared only here: every attribute type, a unique key, a relationship between
    /// two entities and an ordered tree. The children know it only by the model its store
    /// records, and edit it from that model.
    @MainActor
    private func crashTestOfAnAppsKind(_ format: CrashTest.Format) async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "poddoc-app-kind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let parent = ToOne("parent", to: "Folder", inverse: "children")
        let folderEntity = EntityDescription(
            "Folder",
            members: [
                Attribute<String>("name", default: ""), Attribute<Int>("order", default: 0), parent,
                ToMany("children", to: "Folder", inverse: "parent", deleteRule: .cascade),
                ToMany("files", to: "File", inverse: "folder", deleteRule: .cascade),
            ])
        let fileEntity = EntityDescription(
            "File",
            members: [
                Attribute<String>("path", unique: true), Attribute<Int>("size", default: 0), Attribute<Double?>("score"),
                Attribute<Bool>("hidden", default: false), Attribute<Date>("modified"), Attribute<Data?>("thumbnail"),
                Attribute<JSONText?>("tags"), ToOne("folder", to: "Folder", inverse: "files"),
            ])
        let model = try ObjectModel(
            entities: [folderEntity, fileEntity],
            merging: MergeDescription(trees: [OrderedTree(entity: "Folder", parent: parent, order: Attribute<Int>("order"))]))
        let type = DocumentType(kind: DocumentKind("org.example.files"), displayName: "Files", model: model)
        var open = ManagedDocument.OpenOptions()
        open.autosaveInterval = nil
        open.environment = ["XDG_STATE_HOME": folder.appending(path: "state").path, "HOME": folder.path]
        let template = folder.appending(path: "Files.poddoc")
        let document = try await ManagedDocument.create(at: template, type: type, options: open)
        document.mainContext.insert("Folder").setValue(.text("top"), forKey: "name")
        try await document.close()
        let before = try Data(contentsOf: template.appending(path: "StoreContent/persistentStore"))

        let environment = ProcessInfo.processInfo.environment
        var options = CrashTest.Options(kind: type.kind, format: format)
        options.template = template
        options.cycles = environment["PODDOC_CRASH_CYCLES"].flatMap(Int.init) ?? 6
        options.seed = environment["PODDOC_CRASH_SEED"].flatMap(UInt64.init) ?? 2026
        options.workFolder = folder.appending(path: "work")
        // Edits made from a model are cheap, so each autosave carries more of them and takes
        // longer than an outline's: the children live long enough for a few.
        options.lifetime = .milliseconds(80) ... .milliseconds(300)
        let report = try await CrashTest.run(options, childExecutable: try childExecutable())
        print(report.table)
        XCTAssertTrue(report.passed, report.table)
        XCTAssertEqual(report.recovered, options.cycles)
        // A child killed at a crash point may die in its first save; the others save.
        XCTAssertGreaterThanOrEqual(
            report.savesReported, (options.cycles - report.crashPointKills) / 2, "the children saved often: \(report.table)")
        XCTAssertEqual(try Data(contentsOf: template.appending(path: "StoreContent/persistentStore")), before, "the template is only read")
        // The children edited both entities, from the model alone.
        var reopen = open
        reopen.environment = ["XDG_STATE_HOME": folder.appending(path: "work/state").path, "HOME": folder.path]
        let crashed = folder.appending(path: format == .package ? "work/Crash.poddoc" : "work/Crash.poddoc.tar.zst")
        let edited = try await ManagedDocument.open(crashed, types: [], options: reopen)
        XCTAssertEqual(edited.metadata.kind, type.kind)
        XCTAssertEqual(edited.model.versionHash, model.versionHash, "opened with the model its store records")
        let history = try edited.rootContext.store.history().map(\.summary).joined(separator: "; ")
        XCTAssertTrue(history.contains("File: ") && history.contains("inserted"), history)
        XCTAssertTrue(history.contains("Folder: "), history)
        let verification = try await edited.verify()
        XCTAssertTrue(verification.isSound, verification.problems.joined(separator: " "))
        try await edited.close()
    }

    @MainActor
    private func crashTest(_ kind: DocumentKind, _ format: CrashTest.Format) async throws {
        let environment = ProcessInfo.processInfo.environment
        var options = CrashTest.Options(kind: kind, format: format)
        options.cycles = environment["PODDOC_CRASH_CYCLES"].flatMap(Int.init) ?? 6
        options.seed = environment["PODDOC_CRASH_SEED"].flatMap(UInt64.init) ?? 2026
        options.specsSample = repositoryRoot.appending(path: "SampleDocuments/specs-2014-sample.json")
        let report = try await CrashTest.run(options, childExecutable: try childExecutable())
        print(report.table)
        if let folder = environment["PODDOC_CRASH_REPORTS"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try report.json.write(to: URL(fileURLWithPath: folder).appending(path: "crash-\(kind.rawValue)-\(format.rawValue).json"))
        }
        XCTAssertTrue(report.passed, report.table)
        XCTAssertEqual(report.cycles, options.cycles)
        XCTAssertEqual(report.recovered, options.cycles)
        XCTAssertGreaterThanOrEqual(report.savesReported, options.cycles / 2, "the children saved often")
        XCTAssertGreaterThan(report.killsInsideSave, 0, "some kills landed inside a save")
    }

    func testChildConfigurationRoundTripsThroughArguments() throws {
        let configuration = ChildConfiguration(
            document: URL(fileURLWithPath: "/tmp/a b/Crash.poddoc"), kind: .outline, seed: 42, autosaveMilliseconds: 25,
            specBatches: URL(fileURLWithPath: "/tmp/batches"),
            crashPoint: CrashPoint(systemCall: .directoryFsync, skip: 3, pathPart: "DocumentMetadata.json"))
        XCTAssertEqual(try ChildConfiguration(arguments: configuration.arguments), configuration)
    }

    func testChildRejectsBadArgumentsWithUsage() {
        for arguments in [
            ["--kind", "pods"], ["--document", "x", "--kind", "no kind!", "--seed", "1", "--autosave-ms", "5"],
            ["--document", "x", "--kind", "pods", "--seed", "1", "--autosave-ms", "5", "--crash-at", "teleport:1"],
            ["stray"],
        ] {
            XCTAssertThrowsError(try ChildConfiguration(arguments: arguments)) { error in
                XCTAssertEqual((error as? CrashTestError)?.code, .usage, "\(arguments)")
            }
        }
    }

    func testMissingSampleSpecsIsASetupError() async throws {
        var options = CrashTest.Options(kind: .pods, format: .package)
        options.specsSample = URL(fileURLWithPath: "/nonexistent/specs.json")
        do {
            _ = try await CrashTest.run(options, childExecutable: try childExecutable())
            XCTFail("a missing sample must stop the test")
        } catch let error as CrashTestError {
            XCTAssertEqual(error.code, .setup)
            XCTAssertTrue(error.message.contains("/nonexistent/specs.json"), error.message)
        }
    }

    private var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    private func childExecutable() throws -> URL {
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [products, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            .map { $0.appending(path: "poddoc-crash-child") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            // `swift test` builds every product: a missing child is a broken build, not a reason to skip.
            throw MissingExecutable(description: "poddoc-crash-child was not built next to the tests (\(candidates.map(\.path)))")
        }
        return found
    }
}

/// A product the tests run was not built.
private struct MissingExecutable: Error, CustomStringConvertible {
    let description: String
}
