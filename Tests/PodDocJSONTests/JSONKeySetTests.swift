import PodDocJSON
import XCTest

/// The names of one object: a repeat is found however many names came before it, equal names
/// of other lengths or escapes never confuse it, and reuse starts afresh.
final class JSONKeySetTests: XCTestCase {
    func testARepeatedNameIsFoundInSmallAndLargeObjects() {
        for count in [1, 2, 31, 32, 33, 1_000] {
            var keys = JSONKeySet()
            let names = (0..<count).map { "key\($0)" }
            for name in names { XCTAssertTrue(keys.insert(name), "\(count): \(name)") }
            for name in [names[0], names[count / 2], names[count - 1]] { XCTAssertFalse(keys.insert(name), "\(count): \(name)") }
            XCTAssertTrue(keys.insert("other"), "\(count)")
            keys.removeAll()
            XCTAssertTrue(keys.insert(names[0]), "\(count): empty again")
        }
    }

    /// Names compare by code points, as JSON's do: canonically equivalent spellings are two
    /// names, in the array and in the hash set alike.
    func testNamesCompareByCodePoints() {
        for padding in [0, 40] {
            var keys = JSONKeySet()
            for index in 0..<padding { XCTAssertTrue(keys.insert("pad\(index)")) }
            for name in ["ab", "ba", "é", "e\u{301}", "\u{1E69}", "s\u{323}\u{307}", "s\u{307}\u{323}", "", "\u{0}"] {
                XCTAssertTrue(keys.insert(name), "\(padding): \(name.debugDescription)")
            }
            for name in ["ab", "é", "e\u{301}", "s\u{307}\u{323}", "", "\u{0}"] {
                XCTAssertFalse(keys.insert(name), "\(padding): \(name.debugDescription)")
            }
        }
        let members: [(key: String, value: JSONValue)] = [("é", .null), ("e\u{301}", .null)]
        XCTAssertNil(JSONKeySet.firstRepeatedKey(in: members))
    }

    func testFirstRepeatedKeyOfParsedMembers() {
        let small: [(key: String, value: JSONValue)] = [("a", .null), ("b", .null), ("a", .bool(true))]
        XCTAssertEqual(JSONKeySet.firstRepeatedKey(in: small), "a")
        let large = (0..<20).map { (key: "k\($0)", value: JSONValue.null) } + [(key: "k7", value: .null)]
        XCTAssertEqual(JSONKeySet.firstRepeatedKey(in: large), "k7")
        XCTAssertNil(JSONKeySet.firstRepeatedKey(in: Array(large.dropLast())))
        XCTAssertNil(JSONKeySet.firstRepeatedKey(in: []))
    }
}
