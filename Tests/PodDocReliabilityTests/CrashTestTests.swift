import Foundation
import PodDocDocument
import PodDocReliability
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
            ["--kind", "pods"], ["--document", "x", "--kind", "film", "--seed", "1", "--autosave-ms", "5"],
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
