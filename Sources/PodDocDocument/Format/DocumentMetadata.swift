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
        let metadata: DocumentMetadata
        do {
            metadata = try decoder.decode(DocumentMetadata.self, from: data)
        } catch {
            throw invalid(path, DocumentMetadata.explain(error), cause: error)
        }
        guard metadata.formatVersion >= 1 else {
            throw invalid(path, "its formatVersion \(metadata.formatVersion) is no document format; formats count from 1")
        }
        return metadata
    }

    private static func invalid(_ path: String, _ problem: String, cause: (any Error)? = nil) -> DocumentError {
        DocumentError(
            .invalidMetadata,
            "\(path) is not valid document metadata (\(problem)). Open the document with a poddoc that wrote it, or run `poddoc check`.",
            path: path, cause: cause)
    }

    // MARK: - Newer formats

    /// Whether a newer poddoc made the document: its format is above ``currentFormatVersion``.
    public var isNewerFormat: Bool { formatVersion > Self.currentFormatVersion }

    /// What to tell the user about a document ``isNewerFormat``, naming `document` (the
    /// user's file, not a working copy): the format, its writer, and what this poddoc can do.
    ///
    /// - Parameters:
    ///   - document: The document as the user named it.
    ///   - action: What was refused, such as `edit it`.
    public func newerFormatMessage(document: String, refusing action: String) -> String {
        "\(document) was made by a newer poddoc (format \(formatVersion), written by \(writer)); this poddoc (\(PodDocVersion.current)) reads format \(Self.currentFormatVersion), so it cannot \(action). Use a newer poddoc; reading commands (and `--read-only`) still work."
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

// MARK: - Decoding

extension DocumentMetadata {
    /// Reads the fields, the whole numbers as any JSON number first: Foundation calls a
    /// number that does not fit an `Int` (`1.5`, or too big) "not valid JSON", naming no field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try Self.wholeNumber(.formatVersion, in: container)
        kind = try container.decode(DocumentKind.self, forKey: .kind)
        documentID = try container.decode(UUID.self, forKey: .documentID)
        created = try container.decode(Date.self, forKey: .created)
        modified = try container.decode(Date.self, forKey: .modified)
        writer = try container.decode(String.self, forKey: .writer)
        schemaVersion = try Self.wholeNumber(.schemaVersion, in: container)
        saveSequence = try Self.wholeNumber(.saveSequence, in: container)
        storeHash = try container.decode(String.self, forKey: .storeHash)
        let hashSave = CodingKeys.storeHashSaveSequence
        storeHashSaveSequence =
            try container.contains(hashSave) && !container.decodeNil(forKey: hashSave) ? Self.wholeNumber(hashSave, in: container) : nil
        additionalContent = try container.decode([File].self, forKey: .additionalContent)
    }

    private static func wholeNumber(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> Int {
        let number = try container.decode(Decimal.self, forKey: key)
        guard let whole = Int(number.description) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription: "its \(key.stringValue) is \(number), not a whole number up to \(Int.max)"))
        }
        return whole
    }
}
