import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import XCTest

/// Every file of the project's real OPML data set through the store, when it is present.
final class OutlineStoreRealDataTests: OutlineStoreTestCase {
    func testEveryRealFileRoundTripsThroughTheStoreOrIsRefusedWithoutChange() throws {
        let directory = Fixtures.realDataDirectory
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw XCTSkip("the real OPML data set is not on this machine (\(directory.path)); the fixtures cover a slice of it")
        }
        var roundTripped = 0
        var refused = 0
        for file in Fixtures.opmlFiles(under: directory) {
            let name = String(file.path.dropFirst(directory.path.count + 1))
            let data = try Data(contentsOf: file)
            if (try? OutlineTree(opml: data)) == nil {
                _ = try assertOPMLIsRefusedWithoutChange(data, name)
                refused += 1
            } else {
                try assertOPMLRoundTripsThroughTheStore(data, name)
                roundTripped += 1
            }
        }
        XCTAssertEqual(roundTripped, 146)
        XCTAssertEqual(refused, 2)
        print("real OPML data through the store: \(roundTripped) files round-tripped, \(refused) refused unchanged")
    }
}
