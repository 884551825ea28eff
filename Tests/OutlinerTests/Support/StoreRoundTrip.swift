import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocStore
import XCTest

// MARK: - Round trips through the store

extension OutlineStoreTestCase {
    /// Imports OPML `data` into a new document, saves it, reopens the file and exports;
    /// then imports that export into a second document, saves, reopens and exports again.
    /// Both exports must equal what the OPML reader makes of `data` (titles, notes, order,
    /// attributes, head fields, version, body attributes).
    func assertOPMLRoundTripsThroughTheStore(
        _ data: Data, _ name: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let tree = try OutlineTree(opml: data)
        let first = try makeDocument("first")
        let top = try first.outline.importOutline(data, as: .opml)
        XCTAssertEqual(top.count, tree.children(of: tree.root).count, name, file: file, line: line)
        try first.save()
        let exported = try TestDocument(url: first.url).outline.exportOutline()
        XCTAssertEqual(exported, tree, "\(name): import → export", file: file, line: line)

        let second = try makeDocument("second")
        try second.outline.importOutline(exported.opmlData(), as: .opml)
        try second.save()
        let reopened = try TestDocument(url: second.url)
        XCTAssertEqual(try reopened.outline.exportOutline(), tree, "\(name): import → export → import", file: file, line: line)
        try reopened.assertOrderInvariant(name, file: file, line: line)
        try assertStreamedExportsMatchTheTree(reopened, name, file: file, line: line)
    }

    /// What a saved document writes streaming from its store (``OutlineStore/savedOutline(from:)``,
    /// one item at a time) is byte for byte what its tree in memory writes, in every format;
    /// a format that cannot hold the outline refuses both ways.
    func assertStreamedExportsMatchTheTree(
        _ doc: TestDocument, from id: ObjectID? = nil, _ name: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let tree = try doc.outline.exportOutline(from: id)
        let streamed = try doc.outline.savedOutline(from: id)
        for format in OutlineFormat.allCases {
            var bytes: [UInt8] = []
            let written = Result { try streamed.write(format: format) { bytes += $0 } }
            switch Result(catching: { () throws(OutlineFormatError) -> Data in try tree.data(format: format) }) {
            case .success(let data):
                XCTAssertNoThrow(try written.get(), "\(name), \(format)", file: file, line: line)
                XCTAssertEqual(Data(bytes), data, "\(name), \(format): streamed from the store", file: file, line: line)
            case .failure(let error):
                XCTAssertEqual(
                    (try? written.get()) == nil, true, "\(name), \(format): refused from the tree (\(error)), so from the store",
                    file: file, line: line)
            }
            XCTAssertEqual(
                try streamed.estimatedSize(format: format), try tree.estimatedSize(format: format), "\(name), \(format)", file: file,
                line: line)
        }
    }

    /// Tries to import OPML `data` that is not well-formed into a document holding an
    /// outline already: the error names the line and column, and nothing changes.
    func assertOPMLIsRefusedWithoutChange(
        _ data: Data, _ name: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> OutlineFormatError? {
        let doc = try makeDocument("refusing")
        try doc.outline.importOutline(TreeGenerator.random(seed: 3, count: 40))
        try doc.save()
        try doc.outline.add(OutlineItem(title: "unsaved"), under: doc.outline.rootID)
        let before = try doc.rows()
        let undoCount = doc.undo.undoCount
        let error = assertOutlineError(.importFailed, { try doc.outline.importOutline(data, as: .opml) }, file: file, line: line)
        let cause = error?.cause as? OutlineFormatError
        XCTAssertEqual(cause?.code, .notWellFormed, name, file: file, line: line)
        XCTAssertNotNil(cause?.line, name, file: file, line: line)
        XCTAssertNotNil(cause?.column, name, file: file, line: line)
        XCTAssertEqual(error?.message, cause?.description, name, file: file, line: line)
        XCTAssertTrue(error?.message.contains("nothing was imported") ?? false, name, file: file, line: line)
        XCTAssertEqual(try doc.rows(), before, "\(name): the document is unchanged", file: file, line: line)
        XCTAssertEqual(doc.undo.undoCount, undoCount, name, file: file, line: line)
        return cause
    }
}
