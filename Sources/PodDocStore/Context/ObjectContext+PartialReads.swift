// MARK: - PartialValues

/// Some values of one object, read without its others (``ObjectContext/values(of:reading:presenceOf:)``).
public struct PartialValues: Sendable, Equatable {
    /// The values of the attributes read, in the order they were asked for.
    public let values: [StoreValue]
    /// The destinations of the to-one relationships read, in the order they were asked for.
    public let destinations: [ObjectID?]
    /// For each attribute asked about with `presenceOf`, whether it holds a value (is not
    /// NULL).
    public let present: [Bool]
}

/// Which fields of a row a partial read takes.
struct PartialRead: Sendable {
    /// Attribute indexes whose values are read.
    let attributes: [Int]
    /// Foreign-key indexes whose destinations are read.
    let foreignKeys: [Int]
    /// Attribute indexes of which only whether they are NULL is read.
    let presence: [Int]

    /// The fields of `row` this read takes; `resolve` names destinations by their permanent
    /// IDs once they have them (a row in memory can still hold the temporary one).
    func values(of row: RowData, resolve: (ObjectID) -> ObjectID) -> PartialValues {
        PartialValues(
            values: attributes.map { row.values[$0] }, destinations: foreignKeys.map { row.refs[$0].map(resolve) },
            present: presence.map { !row.values[$0].isNull })
    }
}

// MARK: - Reading some values

extension ObjectContext {
    /// The values of some attributes and to-one relationships of these objects as this
    /// context sees them (its unsaved changes included), without reading their other
    /// attributes: a long text nobody asked for stays on disk, however many objects are read.
    ///
    /// Objects this context (or a parent context) holds with their values come from memory;
    /// the store reads only the columns asked for, in one query per 500 objects. No object
    /// is registered or loaded by the read.
    ///
    /// ```swift
    /// let headings = try context.values(of: ids, reading: [Item.title], presenceOf: [Item.note])
    /// for case let heading? in headings {
    ///     print(String.fromStoreValue(heading.values[0]) ?? "", heading.present[0] ? "[note]" : "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - ids: Objects of one entity.
    ///   - attributes: Attributes whose values are read (into ``PartialValues/values``) and
    ///     to-one relationships whose destinations are read (into
    ///     ``PartialValues/destinations``), each in the order given.
    ///   - presenceOf: Attributes of which only whether they hold a value is read (into
    ///     ``PartialValues/present``): the value itself is not.
    /// - Returns: One entry per ID, in order; nil for an object that does not exist here
    ///   (deleted, or never saved).
    /// - Precondition: Every ID and member belongs to one entity; the relationships are
    ///   to-one relationships that hold their foreign key.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func values(
        of ids: [ObjectID], reading attributes: [any EntityMember], presenceOf: [any EntityMember] = []
    ) throws -> [PartialValues?] {
        preconditionOnQueue()
        guard let entity = ids.first?.entityName else { return [] }
        precondition(ids.allSatisfy { $0.entityName == entity }, "values(of:reading:) reads objects of one entity")
        let layout = model.layout(entity)
        var fields: [Int] = []
        var foreignKeys: [Int] = []
        for member in attributes {
            switch member.member {
            case .attribute(let attribute):
                fields.append(layout.attributeIndex(of: attribute.name))
            case .relationship(let relationship):
                guard case .foreignKey(let fk) = layout.relationship(named: relationship.name).storage else {
                    preconditionFailure("'\(relationship.name)' of '\(entity)' holds no foreign key to read")
                }
                foreignKeys.append(fk)
            }
        }
        let read = PartialRead(
            attributes: fields, foreignKeys: foreignKeys, presence: presenceOf.map { layout.attributeIndex(of: $0.name) })
        return try viewPartialValues(of: ids, layout: layout, read: read)
    }

    /// The partial values as this context sees them: its own rows, then the parent's answer.
    func viewPartialValues(of ids: [ObjectID], layout: EntityLayout, read: PartialRead) throws -> [PartialValues?] {
        try readingConsistently {
            var result = [PartialValues?](repeating: nil, count: ids.count)
            var missing: [(index: Int, id: ObjectID)] = []
            for (index, id) in ids.enumerated() {
                let id = resolve(id)
                if let object = registered(id) {
                    if object.state == .deleted { continue }
                    if let row = object.current ?? object.snapshot {
                        result[index] = read.values(of: row, resolve: resolve)
                        continue
                    }
                }
                missing.append((index, id))
            }
            guard !missing.isEmpty else { return result }
            let asked = missing.map(\.id)
            let answer: [PartialValues?]
            switch parent {
            case .store(let store): answer = try store.partialValues(of: asked, layout: layout, read: read)
            case .context(let parent):
                answer = try parent.performAndWait { try $0.viewPartialValues(of: asked, layout: layout, read: read) }
            }
            for (slot, values) in zip(missing, answer) { result[slot.index] = values }
            return result
        }
    }
}
