import Foundation

/// The kinds of attribute an entity can declare, and how each maps to SQLite.
public enum AttributeType: String, Sendable, Hashable {
    /// Text, stored as `TEXT`.
    case string
    /// A 64-bit integer, stored as `INTEGER`.
    case integer
    /// A double, stored as `REAL`.
    case double
    /// A boolean, stored as `INTEGER` 0 or 1.
    case bool
    /// A point in time, stored as `REAL` seconds since 1970 (UTC).
    case date
    /// Raw bytes, stored as `BLOB`.
    case data
    /// A JSON document kept verbatim, stored as `TEXT`.
    case json

    /// The column type used in `CREATE TABLE`.
    var sqlType: String {
        switch self {
        case .string, .json: return "TEXT"
        case .integer, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .data: return "BLOB"
        }
    }
}

/// A Swift type that can be the value of an attribute.
///
/// poddoc provides conformances for `String`, `Int`, `Int64`, `Double`, `Bool`, `Date`,
/// `Data`, ``JSONText`` and `Optional` of each. Declare attributes with these types through
/// ``Attribute``.
public protocol AttributeValue: Sendable {
    /// The attribute type this Swift type is stored as.
    static var attributeType: AttributeType { get }
    /// Whether the type admits `nil` (only `Optional` says yes).
    static var admitsNil: Bool { get }
    /// Makes a value from what the store holds, or returns nil when the stored value is NULL
    /// or of an unexpected kind.
    static func fromStoreValue(_ value: StoreValue) -> Self?
    /// The value as the store holds it.
    var storeValue: StoreValue { get }
}

extension AttributeValue {
    public static var admitsNil: Bool { false }
}

// MARK: - Conformances

extension String: AttributeValue {
    public static var attributeType: AttributeType { .string }
    public static func fromStoreValue(_ value: StoreValue) -> String? {
        if case .text(let s) = value { return s }
        return nil
    }
    public var storeValue: StoreValue { .text(self) }
}

extension Int64: AttributeValue {
    public static var attributeType: AttributeType { .integer }
    public static func fromStoreValue(_ value: StoreValue) -> Int64? {
        switch value {
        case .integer(let v): return v
        case .real(let v): return Int64(exactly: v)
        default: return nil
        }
    }
    public var storeValue: StoreValue { .integer(self) }
}

extension Int: AttributeValue {
    public static var attributeType: AttributeType { .integer }
    public static func fromStoreValue(_ value: StoreValue) -> Int? {
        Int64.fromStoreValue(value).flatMap { Int(exactly: $0) }
    }
    public var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Double: AttributeValue {
    public static var attributeType: AttributeType { .double }
    public static func fromStoreValue(_ value: StoreValue) -> Double? {
        switch value {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
    public var storeValue: StoreValue { .real(self) }
}

extension Bool: AttributeValue {
    public static var attributeType: AttributeType { .bool }
    public static func fromStoreValue(_ value: StoreValue) -> Bool? {
        Int64.fromStoreValue(value).map { $0 != 0 }
    }
    public var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Date: AttributeValue {
    public static var attributeType: AttributeType { .date }
    public static func fromStoreValue(_ value: StoreValue) -> Date? {
        Double.fromStoreValue(value).map { Date(timeIntervalSince1970: $0) }
    }
    public var storeValue: StoreValue { .real(timeIntervalSince1970) }
}

extension Data: AttributeValue {
    public static var attributeType: AttributeType { .data }
    public static func fromStoreValue(_ value: StoreValue) -> Data? {
        if case .blob(let d) = value { return d }
        return nil
    }
    public var storeValue: StoreValue { .blob(self) }
}

/// A JSON document kept as its exact text, so nothing of the original is lost.
///
/// Decode it when needed with ``decode(_:)``; poddoc never rewrites the text.
public struct JSONText: AttributeValue, Hashable {
    /// The JSON text, exactly as given.
    public var text: String

    /// Wraps JSON text as given.
    public init(_ text: String) { self.text = text }

    /// Encodes a value as compact JSON with sorted keys.
    ///
    /// - Throws: whatever `JSONEncoder` throws for the value.
    public init<T: Encodable>(encoding value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes the JSON text as `T`.
    ///
    /// - Throws: `DecodingError` when the text is not a valid `T`.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    public static var attributeType: AttributeType { .json }
    public static func fromStoreValue(_ value: StoreValue) -> JSONText? {
        if case .text(let s) = value { return JSONText(s) }
        return nil
    }
    public var storeValue: StoreValue { .text(text) }
}

extension Optional: AttributeValue where Wrapped: AttributeValue {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var admitsNil: Bool { true }
    public static func fromStoreValue(_ value: StoreValue) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromStoreValue(value).map { .some($0) }
    }
    public var storeValue: StoreValue { self?.storeValue ?? .null }
}
