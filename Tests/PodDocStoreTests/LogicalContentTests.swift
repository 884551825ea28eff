import Foundation
import GRDB
import PodDocStore
import XCTest

/// The store's logical content (``PersistentStore/streamLogicalContent(_:)``): byte for byte
/// the stream docs/FORMAT.md describes, which the document's `storeHash` is the SHA-256 of.
final class LogicalContentTests: StoreTestCase {
    private static let thing = EntityDescription(
        "Thing",
        members: [
            Attribute<String>("name", default: ""), Attribute<Int?>("count"), Attribute<Double?>("weight"),
            Attribute<Data?>("bytes"), ToOne("owner", to: "Owner", inverse: "things"),
        ])
    private static let owner = EntityDescription(
        "Owner", members: [Attribute<String>("name", default: ""), ToMany("things", to: "Thing", inverse: "owner")])

    /// Every kind of value, text that is ASCII, not ASCII, long, empty and not valid UTF-8
    /// (written by another program), in the documented encoding: an invalid text counts as
    /// the repaired text a read of it gives.
    func testTheStreamIsTheDocumentedEncodingOfEveryValue() throws {
        let model = try ObjectModel(entities: [Self.thing, Self.owner])
        let store = try PersistentStore(url: storeURL, model: model)
        let long = String(repeating: "long text ", count: 10_000)
        try store.close()
        try writeFromAnotherConnection(
            """
            INSERT INTO "Owner" ("id", "name") VALUES (1, 'Zoë');
            INSERT INTO "Thing" ("id", "name", "count", "weight", "bytes", "owner") VALUES
                (1, 'plain', 42, 1.5, x'00ff', 1),
                (2, '', NULL, NULL, x'', NULL),
                (3, CAST(x'ff41' AS TEXT), -7, -0.25, NULL, 1),
                (4, ?, 0, 0.0, NULL, NULL);
            """, arguments: [long])
        let reopened = try PersistentStore(url: storeURL, model: model)
        var streamed: [UInt8] = []
        try reopened.streamLogicalContent { streamed += $0 }

        func integer(_ value: Int64) -> [UInt8] { [1] + withUnsafeBytes(of: value.bigEndian, Array.init) }
        func real(_ value: Double) -> [UInt8] { [2] + withUnsafeBytes(of: value.bitPattern.bigEndian, Array.init) }
        func bytes(_ tag: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [tag] + withUnsafeBytes(of: UInt64(payload.count).bigEndian, Array.init) + payload
        }
        func text(_ value: String) -> [UInt8] { bytes(3, Array(value.utf8)) }
        let null: [UInt8] = [0]
        // Entities in byte order of name: Owner, then Thing.
        var expected = text("entity Owner (name)") + integer(1) + text("Zoë")
        expected += text("entity Thing (name, count, weight, bytes, owner)")
        expected += integer(1) + text("plain") + integer(42) + real(1.5) + bytes(4, [0x00, 0xFF]) + integer(1)
        expected += integer(2) + text("") + null + null + bytes(4, []) + null
        expected += integer(3) + text("\u{FFFD}A") + integer(-7) + real(-0.25) + null + integer(1)
        expected += integer(4) + text(long) + integer(0) + real(0) + null + null
        XCTAssertEqual(streamed.count, expected.count)
        XCTAssertEqual(streamed, expected)
    }
}
