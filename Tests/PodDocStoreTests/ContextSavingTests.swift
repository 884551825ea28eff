import Foundation
import GRDB
import XCTest

@testable import PodDocStore

final class ContextSavingTests: StoreTestCase {
    func testSaveOrderChildToMainToRootToFile() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = await MainActor.run { ObjectContext(.main, parent: root) }
        let worker = ObjectContext(.privateQueue, parent: main)

        try await worker.perform { ctx in
            ctx.insert("Item")[Item.title] = "from worker"
            try ctx.save()
        }
        XCTAssertEqual(try titlesOnDisk(), [], "a child save stays in memory")
        let mainSees = try await main.perform { ctx in
            (ctx.hasChanges, try ctx.fetch(FetchRequest("Item")).map { $0[Item.title] })
        }
        XCTAssertEqual(mainSees.0, true)
        XCTAssertEqual(mainSees.1, ["from worker"])

        try await main.perform { try $0.save() }
        XCTAssertEqual(try titlesOnDisk(), [], "the main context's save goes into the root, still in memory")
        let rootHasChanges = try await root.perform { $0.hasChanges }
        XCTAssertTrue(rootHasChanges)

        try await root.perform { try $0.save() }
        XCTAssertEqual(try titlesOnDisk(), ["from worker"], "only the root writes the file")
    }

    func testTemporaryIDsBecomePermanentInEveryContext() async throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let main = await MainActor.run { ObjectContext(.main, parent: root) }
        let temporary = try await main.perform { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "one"
            XCTAssertTrue(item.objectID.isTemporary)
            try ctx.save()
            XCTAssertTrue(item.objectID.isTemporary, "saving into the root does not make the ID permanent")
            return item.objectID
        }
        try await root.perform { try $0.save() }
        await drain(main)
        let (permanent, title) = await main.perform { ctx -> (ObjectID, String) in
            let item = ctx.object(with: temporary)
            return (item.objectID, item[Item.title])
        }
        XCTAssertFalse(permanent.isTemporary)
        XCTAssertEqual(permanent.rowID, 1)
        XCTAssertEqual(title, "one")
        XCTAssertEqual(store.resolve(temporary), permanent)
        // URIs round-trip.
        let uri = permanent.uriRepresentation(storeIdentifier: store.identifier)
        XCTAssertEqual(uri.absoluteString, "x-poddoc://\(store.identifier)/Item/p1")
        XCTAssertEqual(ObjectID.parse(uri: uri)?.id, permanent)
        XCTAssertEqual(ObjectID.parse(uri: temporary.uriRepresentation(storeIdentifier: "s"))?.id, temporary)
        XCTAssertNil(ObjectID.parse(uri: URL(string: "https://example.com/Item/p1")!))
    }

    func testOneInstancePerIDAndFaulting() throws {
        let store = try makeStore()
        let root = ObjectContext(store: store)
        let id = try root.performAndWait { ctx -> ObjectID in
            let item = ctx.insert("Item")
            item[Item.title] = "faulty"
            try ctx.save()
            return item.objectID
        }
        let other = ObjectContext(store: store, name: "other")
        try other.performAndWait { ctx in
            let a = ctx.object(with: id)
            XCTAssertTrue(a.isFault)
            let b = try ctx.fetch(FetchRequest("Item")).first
            XCTAssertTrue(a === b, "one instance per ID per context")
            XCTAssertFalse(a.isFault)
            XCTAssertEqual(a[Item.title], "faulty")
            XCTAssertNil(try ctx.existingObject(with: ObjectID.permanent(entity: "Item", rowID: 99)))
        }
    }

    func testChangeSetsRollbackResetAndRefresh() throws {
        try forEachStore { store in
            let root = ObjectContext(store: store)
            try root.performAndWait { ctx in
                let a = ctx.insert("Item")
                a[Item.title] = "a"
                let b = ctx.insert("Item")
                b[Item.title] = "b"
                try ctx.save()
                XCTAssertFalse(ctx.hasChanges)
                a[Item.title] = "a2"
                ctx.delete(b)
                let c = ctx.insert("Item")
                c[Item.title] = "c"
                XCTAssertEqual(ctx.updatedObjects.map(\.objectID), [a.objectID])
                XCTAssertEqual(ctx.deletedObjects.map(\.objectID), [b.objectID])
                XCTAssertEqual(ctx.insertedObjects.map(\.objectID), [c.objectID])
                XCTAssertEqual(a.changedKeys, ["title"])
                ctx.rollback()
                XCTAssertFalse(ctx.hasChanges)
                XCTAssertEqual(a[Item.title], "a")
                XCTAssertFalse(b.isDeleted)
                XCTAssertEqual(try ctx.count(for: FetchRequest("Item")), 2)

                a[Item.title] = "a3"
                try ctx.refresh(a, mergeChanges: true)
                XCTAssertEqual(a[Item.title], "a3", "merge keeps unsaved changes")
                try ctx.refresh(a, mergeChanges: false)
                XCTAssertEqual(a[Item.title], "a")
                XCTAssertFalse(ctx.hasChanges)

                ctx.reset()
                XCTAssertEqual(ctx.registeredObjectCount, 0)
                XCTAssertNil(a.context)
            }
        }
    }

    func testRequiredAttributesAndUniqueKeysAreValidated() throws {
        let root = ObjectContext(store: try makeStore())
        try root.performAndWait { ctx in
            let pod = ctx.insert("Pod")
            pod[Pod.key] = "AFNetworking/1.0"
            XCTAssertThrowsError(try ctx.save()) { error in
                XCTAssertEqual((error as? StoreError)?.code, .validation)
                XCTAssertTrue("\(error)".contains("required attribute 'name'"), "\(error)")
            }
            pod[Pod.name] = "AFNetworking"
            pod[Pod.version] = "1.0"
            try ctx.save()
            let twin = ctx.insert("Pod")
            twin[Pod.key] = "AFNetworking/1.0"
            twin[Pod.name] = "x"
            twin[Pod.version] = "1.0"
            XCTAssertThrowsError(try ctx.save()) { error in
                XCTAssertEqual((error as? StoreError)?.code, .uniqueConstraint, "\(error)")
                XCTAssertTrue("\(error)".contains("Pod.key"), "\(error)")
            }
            XCTAssertTrue(ctx.hasChanges, "a failed save keeps the changes")
            twin[Pod.key] = "AFNetworking/1.1"
            try ctx.save()
        }
        XCTAssertEqual(try otherConnection().read { try Int.fetchOne($0, sql: #"SELECT count(*) FROM "Pod""#) }, 2)
    }

    func testAllAttributeTypesRoundTrip() throws {
        let store = try makeStore()
        let date = Date(timeIntervalSince1970: 1_400_000_000.25)
        let id = try ObjectContext(store: store).performAndWait { ctx -> ObjectID in
            let pod = ctx.insert("Pod")
            pod[Pod.key] = "é/ü 😀"
            pod[Pod.name] = "n"
            pod[Pod.version] = "0.1"
            pod[Pod.score] = 2.5
            pod[Pod.payload] = Data([0, 1, 2, 255])
            pod[Pod.json] = JSONText(#"{"a":[1,2]}"#)
            let item = ctx.insert("Item")
            item[Item.done] = true
            item[Item.created] = date
            try ctx.save()
            return pod.objectID
        }
        try ObjectContext(store: try makeStore()).performAndWait { ctx in
            let pod = ctx.object(with: id)
            XCTAssertEqual(pod[Pod.key], "é/ü 😀")
            XCTAssertEqual(pod[Pod.score], 2.5)
            XCTAssertEqual(pod[Pod.payload], Data([0, 1, 2, 255]))
            XCTAssertEqual(try pod[Pod.json]?.decode([String: [Int]].self), ["a": [1, 2]])
            XCTAssertNil(pod[Pod.summary])
            let item = try XCTUnwrap(ctx.fetch(FetchRequest("Item")).first)
            XCTAssertEqual(item[Item.done], true)
            XCTAssertEqual(item[Item.created], date)
        }
    }

    func testSaveNotificationsAsCallbackAndAsyncSequence() async throws {
        let root = ObjectContext(store: try makeStore())
        let received = Collector<SaveNotification>()
        let observation = root.observeSaves { received.append($0) }
        let stream = root.saves()
        try await root.perform { ctx in
            let a = ctx.insert("Item")
            a[Item.title] = "a"
            try ctx.save()
            a[Item.title] = "b"
            try ctx.save()
            ctx.delete(a)
            try ctx.save()
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        XCTAssertEqual(first?.inserted.count, 1)
        XCTAssertTrue(first?.wroteToStore ?? false)
        let notes = received.values
        XCTAssertEqual(notes.count, 3)
        let id = try XCTUnwrap(notes[0].inserted.first)
        XCTAssertEqual(notes[0].permanentIDs.values.first, id)
        XCTAssertEqual(notes[1].updated, [id])
        XCTAssertEqual(notes[1].changedKeys[id], ["title"])
        XCTAssertEqual(notes[2].deleted, [id])
        observation.cancel()
        try await root.perform { ctx in
            ctx.insert("Item")
            try ctx.save()
        }
        XCTAssertEqual(received.values.count, 3, "a cancelled observation is not called")
    }

    func testWorkContextOffItsQueueIsDetected() async throws {
        let root = ObjectContext(store: try makeStore())
        XCTAssertFalse(root.isOnQueue)
        let inside = await root.perform { $0.isOnQueue }
        XCTAssertTrue(inside)
        let main = await MainActor.run { ObjectContext(.main, parent: root) }
        let onMain = await MainActor.run { main.isOnQueue }
        XCTAssertTrue(onMain)
        let offMain = await root.perform { _ in main.isOnQueue }
        XCTAssertFalse(offMain)
    }
}

final class AsyncMainSaveTests: StoreTestCase {
    /// The main context's asynchronous save lets the main actor edit while the root applies
    /// the changes; edits made meanwhile stay unsaved, earlier ones are saved.
    @MainActor
    func testEditsMadeDuringAnAsynchronousSaveStayUnsaved() async throws {
        let root = ObjectContext(store: try makeStore())
        let main = ObjectContext(.main, parent: root)
        let a = main.insert("Item")
        a[Item.title] = "a"
        // A pod has no relationships: deleting it needs no fetch through the (held) root.
        let b = main.insert("Pod")
        b[Pod.key] = "b"
        b[Pod.name] = "b"
        b[Pod.version] = "1"
        let gate = DispatchSemaphore(value: 0)
        root.queue.async { gate.wait() }  // hold the root's queue
        let save = Task { @MainActor in try await main.save() }
        try await Task.sleep(for: .milliseconds(20))
        a[Item.title] = "a, edited during the save"  // the main actor is not blocked
        main.delete(b)
        gate.signal()
        try await save.value
        XCTAssertTrue(main.hasChanges)
        XCTAssertTrue(a.isUpdated, "an inserted object edited during the save is now an update")
        XCTAssertEqual(a.changedKeys, ["title"])
        XCTAssertTrue(b.isDeleted)
        let rootSees = try await root.perform { ctx in
            (try ctx.fetch(FetchRequest("Item")).map { $0[Item.title] }, try ctx.count(for: FetchRequest("Pod")))
        }
        XCTAssertEqual(rootSees.0, ["a"], "the root has what was saved")
        XCTAssertEqual(rootSees.1, 1)
        try await main.save()
        XCTAssertFalse(main.hasChanges)
        let after = try await root.perform { ctx in
            (try ctx.fetch(FetchRequest("Item")).map { $0[Item.title] }, try ctx.count(for: FetchRequest("Pod")))
        }
        XCTAssertEqual(after.0, ["a, edited during the save"])
        XCTAssertEqual(after.1, 0, "the delete made during the first save was saved by the second")
    }
}
