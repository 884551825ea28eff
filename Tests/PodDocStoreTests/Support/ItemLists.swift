import Foundation
import PodDocRandom

@testable import PodDocStore

/// The test model's items as an outline edits them: sparse order keys (``SiblingOrder``),
/// an insert or a move taking a key between its neighbours'. Used by the random edits of the
/// merge tests.
struct ItemLists {
    /// The items not deleted, when the lists were read.
    let items: [ManagedObject]

    init(_ context: ObjectContext) throws {
        items = try context.fetch(FetchRequest("Item")).filter { !$0.isDeleted }
    }

    /// The children of `parent` (the top level for nil), in order: by key, then id.
    func siblings(of parent: ManagedObject?) -> [ManagedObject] {
        items.filter { !$0.isDeleted && ($0[Item.parent] as ManagedObject?) === parent }.sorted {
            ($0[Item.order], $0.objectID.rowID ?? .max) < ($1[Item.order], $1.objectID.rowID ?? .max)
        }
    }

    /// Puts `item` (not in `list`) at `index` of `list` by giving it a key between its new
    /// neighbours'; numbers the list afresh when they leave no room.
    static func place(_ item: ManagedObject, in list: [ManagedObject], at index: Int) {
        let before = index > 0 ? list[index - 1][Item.order] : nil
        let after = index < list.count ? list[index][Item.order] : nil
        if let key = SiblingOrder.key(between: before, and: after) {
            item[Item.order] = key
            return
        }
        for (position, sibling) in list.enumerated() {
            let key = SiblingOrder.spaced(position < index ? position : position + 1)
            if sibling[Item.order] != key { sibling[Item.order] = key }
        }
        item[Item.order] = SiblingOrder.spaced(index)
    }

    /// A new item `n<identity>` (its identity the `created` date) under `parent`, at a random
    /// place among its siblings.
    @discardableResult
    func insert(_ context: ObjectContext, identity: Int, under parent: ManagedObject?, random: inout SeededRandom) -> ManagedObject {
        let list = siblings(of: parent)
        let item = context.insert("Item")
        item[Item.created] = Date(timeIntervalSince1970: Double(identity))
        item[Item.title] = "n\(identity)"
        item[Item.parent] = parent
        Self.place(item, in: list, at: random.below(list.count + 1))
        return item
    }
}
