/// Computes the ``ResultsChanges`` between two ordered, sectioned lists of objects.
///
/// Objects present in both lists stay put when they keep their section and their order
/// relative to the others; the fewest moves are reported by keeping the longest increasing
/// subsequence of old positions.
package enum ResultsDiff {
    struct Entry {
        let id: ObjectID
        let section: StoreValue
    }

    static func changes(from old: [Entry], to new: [Entry], updated: Set<ObjectID>) -> ResultsChanges {
        var changes = ResultsChanges()
        let oldPaths = indexPaths(old)
        let newPaths = indexPaths(new)
        let oldKeys = sectionKeys(old)
        let newKeys = sectionKeys(new)
        let newKeySet = Set(newKeys)
        let oldKeySet = Set(oldKeys)
        changes.deletedSections = oldKeys.indices.filter { !newKeySet.contains(oldKeys[$0]) }
        changes.insertedSections = newKeys.indices.filter { !oldKeySet.contains(newKeys[$0]) }.map { ($0, newKeys[$0]) }
        let deletedSectionSet = Set(changes.deletedSections)

        var oldIndex: [ObjectID: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (i, entry) in old.enumerated() { oldIndex[entry.id] = i }
        var inNew = Set<ObjectID>()
        inNew.reserveCapacity(new.count)

        // Survivors that may stay in place, in new order, with their old positions.
        var candidates: [(newIndex: Int, oldIndex: Int)] = []
        for (j, entry) in new.enumerated() {
            inNew.insert(entry.id)
            guard let i = oldIndex[entry.id] else {
                changes.inserts.append((newPaths[j], entry.id))
                continue
            }
            if old[i].section == entry.section {
                candidates.append((j, i))
            } else {
                changes.moves.append((oldPaths[i], newPaths[j], entry.id))
            }
        }
        let staying = longestIncreasingSubsequence(candidates.map(\.oldIndex))
        for (k, candidate) in candidates.enumerated() {
            let id = new[candidate.newIndex].id
            if staying.contains(k) {
                if updated.contains(id) { changes.updates.append(oldPaths[candidate.oldIndex]) }
            } else {
                changes.moves.append((oldPaths[candidate.oldIndex], newPaths[candidate.newIndex], id))
            }
        }
        for (i, entry) in old.enumerated() where !inNew.contains(entry.id) && !deletedSectionSet.contains(oldPaths[i].section) {
            changes.deletes.append(oldPaths[i])
        }
        return changes
    }

    /// Groups consecutive entries with the same section key.
    static func sections(_ entries: [Entry]) -> [ResultsSection] {
        var sections: [ResultsSection] = []
        for entry in entries {
            if sections.last?.key == entry.section {
                sections[sections.count - 1].ids.append(entry.id)
            } else {
                sections.append(ResultsSection(key: entry.section, ids: [entry.id]))
            }
        }
        return sections
    }

    private static func sectionKeys(_ entries: [Entry]) -> [StoreValue] {
        sections(entries).map(\.key)
    }

    private static func indexPaths(_ entries: [Entry]) -> [ResultsIndexPath] {
        var paths: [ResultsIndexPath] = []
        paths.reserveCapacity(entries.count)
        var section = -1
        var item = 0
        var previous: StoreValue?
        for entry in entries {
            if previous != entry.section || section < 0 {
                section += 1
                item = 0
                previous = entry.section
            }
            paths.append(ResultsIndexPath(section: section, item: item))
            item += 1
        }
        return paths
    }

    /// Positions (into `values`) of one longest strictly increasing subsequence.
    package static func longestIncreasingSubsequence(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = []  // positions of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0
            var hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var result = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 {
            result.insert(k)
            k = previous[k]
        }
        return result
    }
}
