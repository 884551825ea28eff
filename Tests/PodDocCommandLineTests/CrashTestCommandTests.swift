import Foundation
import XCTest

/// `poddoc crash-test`, through the real binary: it starts itself as the child (the hidden
/// `crash-child` command), kills it, and reports as a table or as JSON.
final class CrashTestCommandTests: CommandLineTestCase {
    private struct ReportShape: Decodable {
        let kind: String
        let format: String
        let cycles: Int
        let recovered: Int
        let corrupt: Int
        let savedWorkLost: Int
        let failures: [String]
    }

    func testCrashTestOfEachKindRecoversEveryCycle() throws {
        for (kind, format) in [("pods", "package"), ("outline", "archive")] {
            let report = try succeed(
                "crash-test", "--kind", kind, "--format", format, "--cycles", "4", "--seed", "7",
                "--specs", Self.sampleSpecs, "--json"
            ).json(ReportShape.self)
            XCTAssertEqual(report.kind, kind)
            XCTAssertEqual(report.format, format)
            XCTAssertEqual(report.cycles, 4)
            XCTAssertEqual(report.recovered, 4)
            XCTAssertEqual(report.corrupt, 0)
            XCTAssertEqual(report.savedWorkLost, 0)
            XCTAssertEqual(report.failures, [])
        }
        let table = try succeed("crash-test", "--cycles", "2", "--specs", Self.sampleSpecs).stdout
        XCTAssertTrue(table.contains("result                        PASS"), table)
    }

    /// The installed binary runs a pods crash test from any folder: with no `--specs` it
    /// imports made-up specs instead of reading the repository's sample by a relative path.
    func testPodsCrashTestRunsFromAnyFolderWithoutASpecsFile() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("SampleDocuments")), "the test runs outside the repository")
        for format in ["package", "archive"] {
            let report = try succeed("crash-test", "--kind", "pods", "--format", format, "--cycles", "3", "--seed", "5", "--json").json(
                ReportShape.self)
            XCTAssertEqual(report.recovered, 3, "\(format): \(report.failures)")
            XCTAssertEqual(report.failures, [])
        }
        let missing = try run(["crash-test", "--kind", "pods", "--specs", "SampleDocuments/specs-2014-sample.json"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("Could not read the sample specs"), missing.stderr)
    }

    func testBadOptionsAreUsageErrors() throws {
        let result = try run(["crash-test", "--cycles", "0"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--cycles must be at least 1"), result.stderr)
        XCTAssertEqual(try run(["crash-test", "--kind", "film"]).status, 64)
    }
}
