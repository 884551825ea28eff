import Foundation

/// The contents of `DocumentMetadata.json` (see docs/FORMAT.md).
///
/// The metadata is derived from the store and the additional content; if a crash leaves it
/// behind them (its ``saveSequence`` differs from the store's), opening rewrites it.
public struct DocumentMetadata: Codable, Sendable, Hashable {
    /// The newest format this poddoc writes and reads.
    public static let currentFormatVersion = 1

    /// One file of `AdditionalContent/`.
    public struct File: Codable, Sendable, Hashable {
        /// Its path below `AdditionalContent/`.
        public var path: String
        /// Its SHA-256, lowercase hex.
        public var sha256: String
    }

    /// The document format version.
    public var formatVersion: Int
    /// What the document holds.
    public var kind: DocumentKind
    /// A unique identifier, kept by copies and exports.
    public var documentID: UUID
    /// When the document was created.
    public var created: Date
    /// When it was last saved.
    public var modified: Date
    /// The program that last saved it, e.g. `poddoc 0.1.0`.
    public var writer: String
    /// The store's schema version (`user_version`).
    public var schemaVersion: Int
    /// Incremented by every save; the store records the same number in the same transaction.
    public var saveSequence: Int
    /// `sha256:<hex>` of the store's logical content: unchanged by VACUUM or a page-size
    /// change, equal across copies and archives.
    public var storeHash: String
    /// The save whose store ``storeHash`` describes. Autosaves do not hash the store (that
    /// reads all of it, so a long import saving every few thousand objects would be quadratic);
    /// explicit saves, copies, closing, and opening a writable document bring the hash up to
    /// date. Nil (metadata written before this field existed): the hash is current.
    public var storeHashSaveSequence: Int?
    /// The additional content's files, sorted by path.
    public var additionalContent: [File]

    /// Whether ``storeHash`` describes the store as of the last save.
    public var isStoreHashCurrent: Bool { (storeHashSaveSequence ?? saveSequence) == saveSequence }

    // MARK: - Reading and writing

    /// Reads `DocumentMetadata.json` (untrusted input: any bytes get a clean error).
    ///
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - path: The file, for the error message.
    /// - Throws: ``DocumentError`` (`.invalidMetadata`) saying what is wrong.
    public static func decode(_ data: Data, path: String) throws -> DocumentMetadata {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(DocumentMetadata.self, from: data)
        } catch {
            throw DocumentError(
                .invalidMetadata,
                "\(path) is not valid document metadata (\(DocumentMetadata.explain(error))). Open the document with a poddoc that wrote it, or run `poddoc check`.",
                path: path, cause: error)
        }
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Encoding a struct of strings, numbers and dates cannot fail.
        return (try? encoder.encode(self)).map { $0 + Data("\n".utf8) } ?? Data()
    }

    private static func explain(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "bad value at \(context.codingPath.map { $0.stringValue }.joined(separator: "."))"
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        default: return "\(error)"
        }
    }
}
