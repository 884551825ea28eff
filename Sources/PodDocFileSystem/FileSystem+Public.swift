import Foundation

// MARK: - Moving and removing whole items

extension FileSystem {
    /// Moves a fully written, synced file or folder to `target`, replacing what is there with
    /// an atomic swap where the file system can, `fsync`s the parent folder, then removes the
    /// previous version. Documents use it to commit content staged earlier (for instance
    /// after the store save that refers to it).
    ///
    /// - Parameters:
    ///   - staged: The finished item; it is consumed when the move succeeds. When it fails,
    ///     `staged` stays where it is: it may be the only copy of content already committed
    ///     (the store refers to it), so a later open can still move it into place.
    ///   - target: Where it goes; its parent must exist.
    /// - Throws: ``FileSystemError`` naming the step; the previous `target` is then unchanged.
    public func moveIntoPlace(_ staged: URL, replacing target: URL) throws {
        try install(staged.path, at: target.path, replacingExisting: true, keepingStaged: true)
    }

    /// Removes a file or a folder tree, then `fsync`s the parent so the removal is durable.
    /// Removing something that does not exist does nothing.
    ///
    /// - Throws: ``FileSystemError`` naming the item that could not be removed.
    public func removeItem(at url: URL) throws {
        guard itemKind(atPath: url.path) != nil else { return }
        try removeTree(url.path)
        try syncDirectory(TemporarySibling.parent(of: url.path))
    }

    /// Removes the temporary items that saves interrupted by a crash left in `folder` (hidden
    /// `.name.tmp-…` siblings); a previous version kept aside (`.name.old-…`) is never touched.
    /// Call it only while holding the lock that keeps other writers out of `folder`.
    ///
    /// - Returns: How many items were removed.
    /// - Throws: ``FileSystemError`` when the folder cannot be listed or an item removed.
    @discardableResult
    public func removeTemporaryItems(in folder: URL) throws -> Int {
        let leftovers = try contentsOfDirectory(at: folder).filter { TemporarySibling.isTemporary($0.name) }
        for entry in leftovers { try removeItem(at: folder.appendingPathComponent(entry.name)) }
        return leftovers.count
    }
}
