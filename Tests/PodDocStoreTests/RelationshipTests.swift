import Foundation
import GRDB
import XCTest

@testable import PodDocStore

final class RelationshipTests: StoreTestCase {
    func testInverseFollowsToOneAndToManyChanges() throws {
        try forEachStore { store in
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                let inbox = ctx.insert("Item")
                inbox[Item.title] = "Inbox"
                let work = ctx.insert("Item")
                work[Item.title] = "Work"
                let a = ctx.insert("Item")
                a[Item.title] = "a"
                let b = ctx.insert("Item")
                b[Item.title] = "b"
                a[Item.parent] = inbox
                b[Item.parent] = inbox
                XCTAssertEqual(Set(inbox[Item.children].map { $0[Item.title] }), ["a", "b"])
                try ctx.save()
                XCTAssertEqual(Set(inbox[Item.children].map { $0[Item.title] }), ["a", "b"], "after saving, read from the store")
                a[Item.parent] = work
                XCTAssertEqual(inbox[Item.children].map { $0[Item.title] }, ["b"])
                XCTAssertEqual(work[Item.children].map { $0[Item.title] }, ["a"])
                work[Item.children] = [b]
                XCTAssertNil(a[Item.parent])
                XCTAssertTrue(b[Item.parent] === work)
                XCTAssertTrue(inbox[Item.children].isEmpty)
                try ctx.save()
            }
            try ObjectContext(store: store, name: "reader").performAndWait { ctx in
                let work = try XCTUnwrap(ctx.fetchFirst(FetchRequest("Item", where: Item.title == "Work")))
                XCTAssertEqual(work[Item.children].map { $0[Item.title] }, ["b"])
            }
        }
    }

    func testOneToOneKeepsBothSidesInStep() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            let ann = ctx.insert("Person")
            ann[Person.name] = "Ann"
            let bob = ctx.insert("Person")
            bob[Person.name] = "Bob"
            let p = ctx.insert("Passport")
            p[Passport.number] = "X1"
            ann[Person.passport] = p
            XCTAssertTrue(p[Passport.holder] === ann)
            try ctx.save()
            p[Passport.holder] = bob
            XCTAssertNil(ann[Person.passport], "the old holder lets go")
            XCTAssertTrue(bob[Person.passport] === p)
            try ctx.save()
            ctx.delete(bob)  // cascade: the passport goes too
            XCTAssertTrue(p.isDeleted)
            try ctx.save()
            XCTAssertEqual(try ctx.count(for: FetchRequest("Passport")), 0)
        }
    }

    func testNullifyCascadeAndDenyRules() throws {
        try forEachStore { store in
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                let top = ctx.insert("Item")
                top[Item.title] = "top"
                let mid = ctx.insert("Item")
                mid[Item.title] = "mid"
                mid[Item.parent] = top
                let leaf = ctx.insert("Item")
                leaf[Item.title] = "leaf"
                leaf[Item.parent] = mid
                try ctx.save()
                ctx.delete(top)  // children cascade
                XCTAssertTrue(mid.isDeleted && leaf.isDeleted)
                try ctx.save()
                XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 0)

                let folder = ctx.insert("Folder")
                folder[Folder.name] = "f"
                let doc = ctx.insert("Document")
                doc[Document.name] = "d"
                doc[Document.folder] = folder
                try ctx.save()
                ctx.delete(folder)
                XCTAssertThrowsError(try ctx.save()) { error in
                    XCTAssertEqual((error as? StoreError)?.code, .validation)
                    XCTAssertTrue("\(error)".contains("deny"), "\(error)")
                }
                ctx.rollback()
                ctx.delete(doc)  // nullify: the folder just loses it
                XCTAssertTrue(folder[Folder.documents].isEmpty)
                ctx.delete(folder)
                try ctx.save()
            }
        }
    }

    func testCascadeDeleteOfTenThousandDeepChainDoesNotOverflow() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let depth = 10_000
        try root.performAndWait { ctx in
            var parent = ctx.insert("Item")
            parent[Item.title] = "0"
            let top = parent
            for i in 1..<depth {
                let child = ctx.insert("Item")
                child[Item.title] = "\(i)"
                child[Item.parent] = parent
                parent = child
            }
            try ctx.save()
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), depth)
            ctx.delete(top)
            XCTAssertEqual(ctx.deletedObjects.count, depth)
            try ctx.save()
        }
        XCTAssertEqual(try otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Item""#) }, 0)
    }

    func testDeleteInChildAlsoCascadesToObjectsOnlyTheParentKnows() throws {
        let root = ObjectContext(store: try makeStore())
        let (folderID, _) = try root.performAndWait { ctx -> (ObjectID, ObjectID) in
            let top = ctx.insert("Item")
            top[Item.title] = "top"
            try ctx.save()
            let late = ctx.insert("Item")
            late[Item.title] = "late"
            late[Item.parent] = top
            return (top.objectID, late.objectID)  // `late` is unsaved in root
        }
        let worker = ObjectContext(.privateQueue, parent: root)
        try worker.performAndWait { ctx in
            XCTAssertEqual(ctx.object(with: folderID)[Item.children].count, 1, "the child sees the parent's unsaved object")
            ctx.delete(ctx.object(with: folderID))
            try ctx.save()
        }
        try root.performAndWait { ctx in
            XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 0)
            try ctx.save()
        }
    }
}
