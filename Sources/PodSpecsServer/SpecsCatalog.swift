import Foundation
import PodDocStore
import PodSpecs

/// What a ``SpecsServer`` serves: specs in a fixed order, as their original JSON.
public protocol SpecsCatalog: Sendable {
    /// The number of specs.
    func count() async throws -> Int
    /// The original JSON of the specs at these positions, in order.
    func json(in range: Range<Int>) async throws -> [String]
}

/// The specs of a store, in list order (name, then version order), as they were when the
/// catalog was made. Only their object IDs are held; each page is read from the store.
public struct StoreSpecsCatalog: SpecsCatalog {
    private typealias E = PodSpecsSchema.PodSpecEntity
    private let store: PersistentStore
    private let objectIDs: [ObjectID]

    /// Snapshots the store's list of specs.
    ///
    /// - Throws: `PodSpecsError` (`.store`).
    public init(store: PersistentStore) throws {
        self.store = store
        do {
            objectIDs = try store.readSnapshot { try $0.objectIDs(SpecsQueries.listRequest()) }
        } catch {
            throw PodSpecsError.wrapping(error, while: "list the specs of \(store.url?.path ?? "the store")")
        }
    }

    /// The number of specs in the snapshot.
    public func count() async throws -> Int { objectIDs.count }

    /// Reads the JSON of a range of the snapshot (specs deleted since are left out).
    ///
    /// - Throws: `PodSpecsError` (`.store`).
    public func json(in range: Range<Int>) async throws -> [String] {
        let ids = Array(objectIDs[range.clamped(to: objectIDs.indices)])
        guard !ids.isEmpty else { return [] }
        do {
            return try store.readSnapshot { try $0.rows(of: ids).map { $0[E.json].text } }
        } catch {
            throw PodSpecsError.wrapping(error, while: "read specs of \(store.url?.path ?? "the store")")
        }
    }
}

/// The specs of a `Specs/` folder, read once into memory (their JSON only), in list order.
public struct FolderSpecsCatalog: SpecsCatalog {
    /// The specs' JSON, in name and version order.
    private let texts: [String]
    /// Files that are not specs, skipped.
    public let skipped: [String]
    /// Spec files that could not be read, with the reason.
    public let rejected: [RejectedSpec]

    /// Reads a folder.
    ///
    /// - Throws: `PodSpecsError` (`.fileSystem`) when the folder cannot be listed.
    public init(folder: SpecsFolder) throws {
        let entries = try folder.entries()
        let page = folder.pageOfAll(entries)
        texts = page.specs.sorted(by: PodSpec.isInListOrder).map(\.json.text)
        skipped = page.skipped
        rejected = page.rejected
    }

    /// The number of specs.
    public func count() async throws -> Int { texts.count }

    /// The JSON of a range of specs.
    public func json(in range: Range<Int>) async throws -> [String] {
        Array(texts[range.clamped(to: texts.indices)])
    }
}
