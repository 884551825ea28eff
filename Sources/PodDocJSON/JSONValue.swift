/// A parsed JSON value (``JSONScanner/parseValue(depth:)``).
///
/// Numbers keep their literal text (`5.0` stays `"5.0"`), so a deployment target written as a
/// number reads back exactly as written. Object members keep their order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number, as its literal text.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The string, or the text of a number; nil for anything else.
    public var text: String? {
        switch self {
        case .string(let s), .number(let s): return s
        default: return nil
        }
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
