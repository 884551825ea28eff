import Foundation
import OutlineInterchange
import OutlineTestSupport
import Outliner
import PodDocStore
import PodDocTesting
import XCTest

// MARK: - TestDocument

/// A document on disk as the document layer makes one: a store file, a root context, a main
/// context with an undo manager, and the outline on the main context. Use it on the main
/// thread (XCTest runs tests there).
final class TestDocument {
    let url: URL
    let store: PersistentStore
    let root: ObjectContext
    let main: ObjectContext
    let undo = ObjectUndoManager()
    let outline: OutlineStore

    /// Opens (or creates) the document at `url`.
    init(url: URL, clock: @escaping () -> Date = Date.init) throws {
        self.url = url
        store = try PersistentStore(url: url, model: TestDocument.model)
        root = ObjectContext(store: store)
        main = ObjectContext(.main, parent: root)
        main.undoManager = undo
        outline = try OutlineStore(context: main, clock: clock)
    }

    static let model: ObjectModel = {
        do {
            return try ObjectModel(version: 1, entities: OutlineSchema.entities)
        } catch {
            fatalError("the outline model: \(error)")
        }
    }()

    /// Saves main into root and root to the file.
    func save() throws {
        try main.save()
        try root.performAndWait { try $0.save() }
    }

    /// Every item as the main context sees it now, by ID.
    func rows() throws -> [ObjectID: ItemRow] {
        var rows: [ObjectID: ItemRow] = [:]
        for object in try main.fetch(FetchRequest(OutlineSchema.entityName)) {
            rows[object.objectID] = ItemRow(object)
        }
        return rows
    }

    /// `rows` under the IDs they have now: a root save that finished on its queue since they
    /// were read may have made some IDs permanent. Compare two readings through this.
    func resolved(_ rows: [ObjectID: ItemRow]) -> [ObjectID: ItemRow] {
        var result: [ObjectID: ItemRow] = [:]
        for (id, row) in rows {
            var row = row
            row.parent = row.parent.map(main.resolve)
            result[main.resolve(id)] = row
        }
        return result
    }

    /// Checks that the children of every item have distinct order keys (an edit of one
    /// document never makes two alike) and that there is one root.
    func assertOrderInvariant(_ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        var orders: [ObjectID: [Int]] = [:]
        var roots = 0
        for object in try main.fetch(FetchRequest(OutlineSchema.entityName)) {
            if let parent = object.destinationID(OutlineSchema.parent) {
                orders[parent, default: []].append(object[OutlineSchema.order])
            } else {
                roots += 1
            }
        }
        XCTAssertEqual(roots, 1, "one root \(message())", file: file, line: line)
        for (parent, list) in orders where Set(list).count != list.count {
            XCTFail("children of \(parent) share order keys: \(list.sorted()) \(message())", file: file, line: line)
        }
    }

    /// The IDs of the root's children, in order.
    func topLevel() throws -> [ObjectID] {
        try outline.children(of: outline.rootID).map(\.id)
    }
}

/// Every stored value of one item, for exact before/after comparisons.
struct ItemRow: Equatable {
    var title: String
    var note: String?
    var order: Int
    var parent: ObjectID?
    var attributes: String?
    var head: String?
    var opmlVersion: String?
    var created: Date
    var modified: Date

    init(_ object: ManagedObject) {
        title = object[OutlineSchema.title]
        note = object[OutlineSchema.note]
        order = object[OutlineSchema.order]
        parent = object.destinationID(OutlineSchema.parent)
        attributes = object[OutlineSchema.attributes]?.text
        head = object[OutlineSchema.head]?.text
        opmlVersion = object[OutlineSchema.opmlVersion]
        created = object[OutlineSchema.created]
        modified = object[OutlineSchema.modified]
    }
}

// MARK: - OutlineStoreTestCase

/// Base class: a temporary folder and documents in it.
class OutlineStoreTestCase: XCTestCase {
    private(set) var folder: URL!

    override func setUpWithError() throws {
        folder = try TemporaryFolder.make("poddoc-outline-tests")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new document file in the test's folder.
    func makeDocument(_ name: String = "document", clock: @escaping () -> Date = Date.init) throws -> TestDocument {
        try TestDocument(url: folder.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite"), clock: clock)
    }

    /// Runs `body`, which must throw an ``OutlineError``, and returns it.
    func assertOutlineError(
        _ code: OutlineError.Code, _ body: () throws -> Void,
        file: StaticString = #filePath, line: UInt = #line
    ) -> OutlineError? {
        do {
            try body()
            XCTFail("expected OutlineError \(code), but nothing was thrown", file: file, line: line)
        } catch let error as OutlineError {
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            return error
        } catch {
            XCTFail("expected OutlineError \(code), got \(error)", file: file, line: line)
        }
        return nil
    }
}

/// A clock that moves one second each time it is read.
final class SteppingClock {
    private(set) var current = Date(timeIntervalSince1970: 1_700_000_000)

    func read() -> Date {
        current += 1
        return current
    }
}
