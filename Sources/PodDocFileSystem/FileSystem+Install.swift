// MARK: - Moving a finished item into place

extension FileSystem {
    /// How the previous version was moved out of the way.
    private enum Placement {
        /// `renameat2(RENAME_EXCHANGE)` swapped them: the previous version is now at `staged`.
        case exchanged
        /// `rename(2)` replaced a file (no swap support): the previous version is gone.
        case replaced
        /// No swap support for folders: the previous version was renamed to this path first.
        case movedAside(String)
    }

    /// Turns a failure that left the previous version untouched into a save error for `target`.
    func saveFailed(_ error: any Error, target: String, targetExisted: Bool) -> any Error {
        guard let error = error as? FileSystemError else { return error }
        let state = targetExisted ? "The previous version is unchanged." : "Nothing was created."
        return error.rephrased("Could not save '\(target)'", path: target, suffix: state)
    }

    /// Moves the fully written and synced item at `staged` to `target`, `fsync`s the parent
    /// folder, then removes the previous version.
    ///
    /// Takes ownership of `staged`: whenever the save fails it is removed (unless
    /// `keepingStaged`, for content that is already committed elsewhere and must survive a
    /// failed move), except in the rare case where it then holds the only copy of the previous
    /// version, which the error names. When the parent's `fsync` fails after the move, the
    /// move is undone before reporting.
    func install(_ staged: String, at target: String, replacingExisting: Bool, keepingStaged: Bool = false) throws {
        let dropStaged = { if !keepingStaged { self.discard(staged) } }
        let parent = TemporarySibling.parent(of: target)
        let stagedKind = itemKind(atPath: staged)
        guard let existingKind = itemKind(atPath: target) else {
            do {
                try renameNoReplace(staged, to: target)
            } catch {
                dropStaged()
                throw saveFailed(error, target: target, targetExisted: false)
            }
            do {
                try syncDirectory(parent)
            } catch {
                guard (try? renameItem(target, to: staged)) != nil else {
                    throw unconfirmed(error, target: target)
                }
                dropStaged()
                throw saveFailed(error, target: target, targetExisted: false)
            }
            return
        }
        guard replacingExisting, (existingKind == .directory) == (stagedKind == .directory) else {
            dropStaged()
            let what = existingKind == .directory ? "a folder" : "a file"
            throw FileSystemError(
                code: .alreadyExists,
                message:
                    "Could not save '\(target)': \(what) with that name is already there. Choose another name, or move it away first. Nothing was changed.",
                path: target)
        }
        let placement = try place(staged, at: target, isDirectory: existingKind == .directory, keepingStaged: keepingStaged)
        do {
            try syncDirectory(parent)
        } catch {
            try undo(placement, staged: staged, target: target, failure: error)
            dropStaged()
            throw saveFailed(error, target: target, targetExisted: true)
        }
        let previous: String
        switch placement {
        case .exchanged: previous = staged
        case .replaced: return
        case .movedAside(let aside): previous = aside
        }
        do {
            try removeTree(previous)
        } catch let error as FileSystemError {
            throw FileSystemError(
                code: .cleanupFailed,
                message:
                    "Saved '\(target)', but could not remove its previous version kept at '\(previous)': \(error.message) Delete '\(previous)' by hand.",
                path: previous, systemCall: error.systemCall, errno: error.errno, cause: error)
        }
    }

    /// Puts `staged` at `target`, which exists: an atomic swap where the file system can.
    ///
    /// On failure `staged` is removed (kept when `keepingStaged`) and the previous version is
    /// back at `target`.
    private func place(_ staged: String, at target: String, isDirectory: Bool, keepingStaged: Bool) throws -> Placement {
        do {
            if try exchange(staged, target) { return .exchanged }
            guard isDirectory else {
                try renameItem(staged, to: target)
                return .replaced
            }
            let aside = TemporarySibling.path(for: target, kind: "old")
            try renameItem(target, to: aside)
            do {
                try renameItem(staged, to: target)
            } catch {
                guard (try? renameItem(aside, to: target)) != nil else {
                    throw stranded(error, target: target, previous: aside)
                }
                throw error
            }
            return .movedAside(aside)
        } catch {
            if !keepingStaged { discard(staged) }
            if let error = error as? FileSystemError, error.code == .cleanupFailed { throw error }
            throw saveFailed(error, target: target, targetExisted: true)
        }
    }

    /// Puts the previous version back at `target` and the new one back at `staged`.
    ///
    /// - Throws: A ``FileSystemError/Code-swift.struct/cleanupFailed`` error naming where the
    ///   previous version is when it cannot be put back.
    private func undo(_ placement: Placement, staged: String, target: String, failure: any Error) throws {
        switch placement {
        case .exchanged:
            guard (try? exchange(staged, target)) == true else {
                throw stranded(failure, target: target, previous: staged)
            }
        case .replaced:
            throw unconfirmed(failure, target: target)
        case .movedAside(let aside):
            guard (try? renameItem(target, to: staged)) != nil, (try? renameItem(aside, to: target)) != nil else {
                throw stranded(failure, target: target, previous: aside)
            }
        }
    }

    /// The error for a save whose new version is in place but whose parent `fsync` failed.
    private func unconfirmed(_ failure: any Error, target: String) -> any Error {
        guard let failure = failure as? FileSystemError else { return failure }
        return failure.rephrased(
            "Could not confirm that '\(target)' was saved", path: target,
            suffix: "The new version is in place but may be lost in a crash; save again.")
    }

    /// The error for a failed save whose previous version could not be put back.
    private func stranded(_ failure: any Error, target: String, previous: String) -> FileSystemError {
        let inner = (failure as? FileSystemError)
        return FileSystemError(
            code: .cleanupFailed,
            message:
                "Could not save '\(target)': \(inner?.message ?? "\(failure)") The previous version could not be put back and is kept at '\(previous)'; move it back to '\(target)' by hand.",
            path: previous, systemCall: inner?.systemCall, errno: inner?.errno, cause: failure)
    }

    /// Removes a temporary item after a failed save, ignoring failures (the save already failed).
    ///
    /// This cleanup does not consult the fault plan: a plan models one failing step of a save,
    /// and what tests check is that the save cleans up after it.
    func discard(_ path: String) {
        try? FileSystem().removeTree(path)
    }
}
