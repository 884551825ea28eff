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
            let report = try succeed("crash-test", "--kind", kind, "--format", format, "--cycles", "4", "--seed", "7",
                                     "--specs", Self.sampleSpecs, "--json").json(ReportShape.self)
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

    func testBadOptionsAreUsageErrors() throws {
        let result = try run(["crash-test", "--cycles", "0"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--cycles must be at least 1"), result.stderr)
        XCTAssertEqual(try run(["crash-test", "--kind", "film"]).status, 64)
    }
}
