import XCTest

@testable import PodDocReliability

/// The crash-test child's operation log: what it prints when it stops on its own.
final class OperationLogTests: XCTestCase {
    @MainActor
    func testKeepsTheLastOperationsInOrderAndSaysHowManyWentBefore() async {
        let log = OperationLog()
        log.record("opened at save 0 with 0 edits")
        XCTAssertEqual(log.report, "the child's last 1 operations:\n1 opened at save 0 with 0 edits")
        for i in 2...(OperationLog.capacity + 5) { log.record("edit \(i)") }
        let lines = log.report.split(separator: "\n")
        XCTAssertEqual(lines.first, "the child's last \(OperationLog.capacity) operations (5 earlier ones not kept):")
        XCTAssertEqual(lines.count, OperationLog.capacity + 1)
        XCTAssertEqual(lines[1], "6 edit 6")
        XCTAssertEqual(lines.last, "\(OperationLog.capacity + 5) edit \(OperationLog.capacity + 5)")
    }
}
