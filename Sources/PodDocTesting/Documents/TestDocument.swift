public import Foundation
public import PodDocDocument
public import PodDocFileSystem

// MARK: - TestDocument

/// A managed document in a fresh temporary folder: what a test of an app built on poddoc
/// starts from.
///
/// The document's working copies live in a state folder of its own under the temporary
/// folder, so a test never reads or writes the user's `~/.local/state/poddoc`. Autosave is off
/// unless a ``ManualClock`` drives it, and every write can go through a file system with
/// injected faults (`FileSystem(faults:)`, see `FaultPlan`). ``remove()`` closes the document
/// and deletes the folder.
///
/// ```swift
/// let test = try await TestDocument.create(type: tasks)
/// test.document.mainContext.insert("Task")[Task.title] = "Write tests"
/// try await test.document.save()
/// let again = try await test.reopen()      // what a later launch would see
/// try await test.remove()
/// ```
@MainActor
public final class TestDocument {
    /// The temporary folder holding the document and its state folder.
    public let folder: URL
    /// Where the document is: a package, or an archive when its name ends in `.tar.zst`,
    /// `.zip` or `.tar.gz`.
    public let url: URL
    /// The document's type.
    public let type: DocumentType
    /// The options it is opened with: its state folder, the autosave the clock drives (or
    /// none), and the file system given.
    public let options: ManagedDocument.OpenOptions
    /// The open document (the latest, after ``reopen()``).
    public private(set) var document: ManagedDocument

    private init(folder: URL, url: URL, type: DocumentType, options: ManagedDocument.OpenOptions, document: ManagedDocument) {
        self.folder = folder
        self.url = url
        self.type = type
        self.options = options
        self.document = document
    }

    /// Creates a new document of `type` in a fresh temporary folder.
    ///
    /// - Parameters:
    ///   - type: The document's type.
    ///   - name: The document's file name: `Name.poddoc` for a package, or an archive name.
    ///   - clock: With a clock, autosave runs every `autosaveInterval` of the clock's time;
    ///     without one, autosave is off.
    ///   - autosaveInterval: The autosave interval the clock drives.
    ///   - fileSystem: The file system every write goes through (faults injected there).
    /// - Throws: The file system's error when the folder cannot be made; `DocumentError`
    ///   when the document cannot be created.
    public static func create(
        type: DocumentType, name: String = "Test.poddoc", clock: ManualClock? = nil, autosaveInterval: Duration = .seconds(15),
        fileSystem: FileSystem = FileSystem()
    ) async throws -> TestDocument {
        let folder = try TemporaryFolder.make("poddoc-test-document")
        var options = ManagedDocument.OpenOptions.isolated(in: folder)
        options.fileSystem = fileSystem
        if let clock {
            options.autosaveInterval = autosaveInterval
            options.sleep = { try await clock.sleep(for: $0) }
        }
        let url = folder.appending(path: name)
        do {
            let document = try await ManagedDocument.create(at: url, type: type, options: options)
            return TestDocument(folder: folder, url: url, type: type, options: options, document: document)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Closes the document (saving what it holds) and opens it again from disk, as a later
    /// launch of the app would.
    ///
    /// - Throws: `DocumentError` from the close or the open.
    @discardableResult
    public func reopen() async throws -> ManagedDocument {
        try await document.close()
        document = try await ManagedDocument.open(url, as: type, options: options)
        return document
    }

    /// Closes the document (saving what it holds) and deletes the temporary folder, working
    /// copies included.
    ///
    /// - Throws: `DocumentError` from the close; the folder is deleted all the same.
    public func remove() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try await document.close()
    }
}

extension ManagedDocument.OpenOptions {
    /// Options for a test's documents kept in `folder`: working copies in `folder/state` (the
    /// user's state folder is never touched) and autosave off.
    public static func isolated(in folder: URL) -> Self {
        var options = Self()
        options.autosaveInterval = nil
        options.environment = ["XDG_STATE_HOME": folder.appending(path: "state").path, "HOME": folder.path]
        return options
    }
}
