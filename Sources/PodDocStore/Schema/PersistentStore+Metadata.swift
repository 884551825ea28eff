internal import GRDB
internal import GRDBSQLite

// MARK: - Store metadata

extension PersistentStore {
    /// A value a root save wrote with ``ObjectContext/save(storeMetadata:note:)``, or nil.
    ///
    /// The key `identifier` holds the store identifier; other keys belong to the application.
    ///
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func metadataValue(forKey key: String) throws -> String? {
        try unsafeRead { db in
            try String.fetchOne(db, sql: "SELECT value FROM _poddoc_store WHERE key = ?", arguments: [key])
        }
    }
}

// MARK: - Logical content

extension PersistentStore {
    /// Streams the store's content in a canonical form that depends only on the objects: per
    /// entity in name order, a header with the entity and column names, then each row in id
    /// order with its id and its values (type-tagged, length-prefixed). Row versions, page
    /// layout, free pages and bookkeeping tables do not appear, so the bytes (and any hash of
    /// them) survive `VACUUM`, a page-size change, or a copy through an archive.
    ///
    /// - Parameter consume: Receives the bytes in chunks; it must not keep the buffer.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func streamLogicalContent(_ consume: (UnsafeRawBufferPointer) -> Void) throws {
        try unsafeRead { db in
            // Every page goes through the cache once: a big save's cache (64 MiB) would hold
            // them, beside a long value being hashed and the objects' own copy of it.
            let restore = try Self.shrinkPageCache(db, toKiB: Self.walkCacheKiB)
            defer { restore() }
            var buffer = CanonicalBytes()
            for entity in model.entities.map(\.name).sorted(by: { Collation.compareUTF8($0, $1) < 0 }) {
                let layout = model.layout(entity)
                let columns = layout.attributes.map(\.name) + layout.foreignKeys.map(\.name)
                buffer.append(.text("entity \(entity) (\(columns.joined(separator: ", ")))"))
                let list = (["\"id\""] + columns.map(SQL.quote)).joined(separator: ", ")
                let statement = try RawStatement(db, "SELECT \(list) FROM \(layout.table) ORDER BY \"id\"")
                while try statement.step() {
                    for column in 0...Int32(columns.count) {
                        switch statement.type(column) {
                        case SQLITE_NULL: buffer.append(.null)
                        case SQLITE_INTEGER: buffer.append(.integer(statement.int64(column)))
                        case SQLITE_FLOAT: buffer.append(.real(statement.double(column)))
                        default:
                            // Text and blobs are read where SQLite holds them, never copied
                            // into a value; text that is not valid UTF-8 is hashed as the
                            // repaired `String` a read of it gives.
                            guard let value = statement.longValue(column, atLeast: 0) else {
                                buffer.append(statement.value(column))
                                continue
                            }
                            buffer.appendHeader(tag: value.isText ? 3 : 4, length: value.bytes.count)
                            if value.bytes.count >= 1 << 16 {
                                // A long one goes on as it is: a copy of a 50 MB note would
                                // double what hashing it costs.
                                buffer.flush(consume)
                                consume(UnsafeRawBufferPointer(value.bytes))
                            } else {
                                buffer.bytes.append(contentsOf: value.bytes)
                            }
                        }
                    }
                    if buffer.bytes.count >= 1 << 16 { buffer.flush(consume) }
                }
                statement.reset()
            }
            buffer.flush(consume)
        }
    }
}

/// Canonical, type-tagged, length-prefixed bytes of store values.
private struct CanonicalBytes {
    var bytes: [UInt8] = []

    mutating func append(_ value: StoreValue) {
        switch value {
        case .null:
            bytes.append(0)
        case .integer(let v):
            bytes.append(1)
            withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
        case .real(let v):
            bytes.append(2)
            withUnsafeBytes(of: v.bitPattern.bigEndian) { bytes.append(contentsOf: $0) }
        case .text(let s):
            appendHeader(tag: 3, length: s.utf8.count)
            bytes.append(contentsOf: s.utf8)
        case .blob(let d):
            appendHeader(tag: 4, length: d.count)
            bytes.append(contentsOf: d)
        }
    }

    /// The tag and length of a text (3) or blob (4), whose bytes follow.
    mutating func appendHeader(tag: UInt8, length: Int) {
        bytes.append(tag)
        appendLength(length)
    }

    private mutating func appendLength(_ n: Int) {
        withUnsafeBytes(of: UInt64(n).bigEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func flush(_ consume: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes(consume)
        bytes.removeAll(keepingCapacity: true)
    }
}
