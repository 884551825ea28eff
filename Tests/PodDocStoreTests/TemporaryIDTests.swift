import Foundation
@testable import PodDocStore
import XCTest

/// Temporary IDs resolve through a box they share with their copies, filled in by the root
/// save: the store keeps no map of them, and nothing of an ID outlives its last copy.
final class TemporaryIDTests: StoreTestCase {
    func testATemporaryIDResolvesWhileHeldAndNothingOfItOutlivesItsCopies() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let worker = ObjectContext(.privateQueue, parent: root)
        weak var box: PermanentKey?
        do {
            let ids = try worker.performAndWait { ctx -> [ObjectID] in
                let items = (0..<3).map { i -> ManagedObject in
                    let item = ctx.insert("Item")
                    item[Item.title] = "item \(i)"
                    return item
                }
                try ctx.save()
                return items.map(\.objectID)
            }
            XCTAssertTrue(ids.allSatisfy(\.isTemporary))
            box = ids[0].permanentKey
            try root.performAndWait { try $0.save() }
            XCTAssertEqual(ids.map { root.resolve($0).rowID }, [1, 2, 3])
            XCTAssertEqual(ids.map { store.resolve($0).rowID }, [1, 2, 3])
            try worker.performAndWait { ctx in
                XCTAssertEqual(ctx.object(with: ids[1])[Item.title], "item 1")
                XCTAssertFalse(ctx.object(with: ids[1]).objectID.isTemporary, "the context renamed its object")
            }
        }
        worker.performAndWait { _ in }
        root.performAndWait { _ in }
        XCTAssertNil(box, "once the contexts renamed their objects and the caller dropped its copies, nothing keeps the ID")
    }

    func testEqualityAndHashingIgnoreTheBox() {
        let temporary = ObjectID.makeTemporary(entity: "Item")
        let parsed = ObjectID.parse(uri: temporary.uriRepresentation(storeIdentifier: "s"))?.id
        XCTAssertEqual(parsed, temporary)
        XCTAssertEqual(Set([temporary, parsed!]).count, 1)
        XCTAssertNotEqual(temporary, ObjectID.permanent(entity: "Item", rowID: 1))
    }
}
