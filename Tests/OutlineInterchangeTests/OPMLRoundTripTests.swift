import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// Generated outlines with every kind of awkward text survive OPML exactly.
final class OPMLRoundTripTests: XCTestCase {
    func testGeneratedTreesRoundTripExactly() throws {
        for seed in 1...12 {
            let tree = TreeGenerator.random(seed: UInt64(seed), count: 300)
            let data = try tree.opmlData()
            let back = try OutlineTree(data: data, format: .opml)
            XCTAssertEqual(back, tree, "seed \(seed)")
            XCTAssertEqual(try back.opmlData(), data, "seed \(seed)")
        }
    }

    func testEveryFormatThroughTheGenericEntryPoints() throws {
        let tree = TreeGenerator.random(seed: 99, count: 50)
        for format in OutlineFormat.allCases {
            let back = try OutlineTree(data: tree.data(format: format), format: format)
            let keepsEverything = format == .opml || format == .json
            XCTAssertEqual(keepsEverything ? back == tree : back.hasSameItems(as: tree, by: sameTitle), true, "\(format)")
        }
    }
}
