import Foundation
import OutlineInterchange
import OutlineTestSupport
import XCTest

/// Every file of the project's real OPML data set, when it is present on this machine.
final class OPMLRealDataTests: XCTestCase {
    /// The files of the data set that are not well-formed XML.
    private static let knownNotWellFormed: Set<String> = [
        "scripting_1999-project/defaults/menubar.opml",
        "scripting_1999-project/defaults/template.opml",
    ]

    func testEveryRealFileRoundTripsOrIsRefusedWithAPlace() throws {
        let directory = Fixtures.realDataDirectory
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw XCTSkip("the real OPML data set is not on this machine (\(directory.path)); the fixtures cover a slice of it")
        }
        let files = Fixtures.opmlFiles(under: directory)
        XCTAssertEqual(files.count, 148)
        let statistics = try Self.statistics(in: directory)
        var roundTripped = 0
        var refused: Set<String> = []
        for file in files {
            let relative = String(file.path.dropFirst(directory.path.count + 1))
            let tree: OutlineTree
            do {
                tree = try OutlineTree(opml: Data(contentsOf: file))
            } catch let error as OutlineFormatError {
                refused.insert(relative)
                XCTAssertEqual(error.code, .notWellFormed, "\(relative): \(error)")
                XCTAssertNotNil(error.line, relative)
                XCTAssertNotNil(error.column, relative)
                continue
            }
            let exported = try tree.opmlData()
            XCTAssertEqual(try OutlineTree(opml: exported), tree, relative)
            XCTAssertEqual(try OutlineTree(json: tree.jsonData()), tree, relative)
            if let expected = statistics[relative] {
                XCTAssertEqual(Self.shape(of: tree), expected, relative)
            }
            roundTripped += 1
        }
        XCTAssertEqual(refused, Self.knownNotWellFormed)
        XCTAssertEqual(roundTripped, 146)
        print(
            "real OPML data: \(roundTripped) files round-tripped, \(refused.count) refused, "
                + "\(statistics.count) checked against STATS.txt")
    }

    // MARK: - STATS.txt

    /// Node count, maximum depth and the largest number of children of one node.
    private struct Shape: Equatable {
        var nodes: Int
        var depth: Int
        var children: Int
    }

    private static func shape(of tree: OutlineTree) -> Shape {
        var largest = tree.children(of: tree.root).count
        for visit in tree.depthFirst() {
            largest = max(largest, tree.children(of: visit.id).count)
        }
        return Shape(nodes: tree.count, depth: tree.maxDepth, children: largest)
    }

    /// The shapes listed in `STATS.txt`, lines like
    /// `('./a/b.opml', 2747, '2.0', 21, 3, 5, 0, ['text'])`, by path relative to the data set.
    private static func statistics(in directory: URL) throws -> [String: Shape] {
        let text = try String(contentsOf: directory.appendingPathComponent("STATS.txt"), encoding: .utf8)
        var shapes: [String: Shape] = [:]
        for line in text.split(separator: "\n") where !line.contains("PARSE ERROR") {
            guard line.hasPrefix("('./"), let pathEnd = line.range(of: "', ") else { continue }
            let path = String(line[line.index(line.startIndex, offsetBy: 4)..<pathEnd.lowerBound])
            let numbers = line[pathEnd.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard numbers.count >= 6, let nodes = Int(numbers[2]), let depth = Int(numbers[3]),
                let children = Int(numbers[4])
            else { continue }
            shapes[path] = Shape(nodes: nodes, depth: depth, children: children)
        }
        return shapes
    }
}
