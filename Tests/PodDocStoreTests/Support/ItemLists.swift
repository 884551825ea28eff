import Foundation
import PodDocRandom

@testable import PodDocStore

/// The test model's items as an outline edits them: every sibling list numbered 0…n-1, as the
/// outliner keeps it. Used by the random edits of the merge tests.
struct ItemLists {
    /// The items not deleted, when the lists were read.
    let items: [ManagedObject]

    init(_ context: ObjectContext) throws {
        items = try context.fetch(FetchRequest("Item")).filter { !$0.isDeleted }
    }

    /// The children of `parent` (the top level for nil), in order.
    func siblings(of parent: ManagedObject?) -> [ManagedObject] {
        items.filter { !$0.isDeleted && ($0[Item.parent] as ManagedObject?) === parent }.sorted { $0[Item.order] < $1[Item.order] }
    }

    /// Numbers a list 0…n-1 in its order.
    static func renumber(_ list: [ManagedObject]) {
        for (i, item) in list.enumerated() where item[Item.order] != i { item[Item.order] = i }
    }

    /// A new item `n<identity>` (its identity the `created` date) under `parent`, at a random
    /// place among its siblings.
    @discardableResult
    func insert(_ context: ObjectContext, identity: Int, under parent: ManagedObject?, random: inout SeededRandom) -> ManagedObject {
        var list = siblings(of: parent)
        let item = context.insert("Item")
        item[Item.created] = Date(timeIntervalSince1970: Double(identity))
        item[Item.title] = "n\(identity)"
        item[Item.parent] = parent
        list.insert(item, at: random.below(list.count + 1))
        Self.renumber(list)
        return item
    }
}
