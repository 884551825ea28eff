import Foundation
import PodDocDocument
import PodDocStore

/// Copies of a document as it was after earlier saves, for commands that read a past state
/// (`export --at`, `diff --from`): made in a private folder under the temporary folder
/// (`TMPDIR`), opened read-only, and removed by ``close()``.
@MainActor
final class PastCopies {
    private let folder: URL
    private var opened: [ManagedDocument] = []

    /// Makes the private folder.
    ///
    /// - Throws: ``CommandFailure`` when the temporary folder cannot hold it.
    init(for command: String) throws {
        let base = FileManager.default.temporaryDirectory
        folder = base.appendingPathComponent("poddoc-\(command)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        } catch {
            throw CommandFailure(
                .document, code: "fileSystem",
                "Could not make a folder for the copy of an earlier save in \(base.path) (the temporary folder; set TMPDIR to another): \(error.localizedDescription)"
            )
        }
    }

    /// `document` as it was after save `save`, read-only.
    ///
    /// - Throws: ``CommandFailure``, or the ``StoreError`` (`.notInHistory`) of a save the
    ///   history does not reach.
    func document(_ document: ManagedDocument, at save: Int) async throws -> ManagedDocument {
        let url = folder.appendingPathComponent("save-\(save).poddoc")
        do {
            try await document.saveCopy(to: url, asAfterSave: save)
        } catch let error as StoreError where error.code == .notInHistory {
            throw error
        } catch {
            let reason = CommandFailure.from(error)?.message ?? "\(error)"
            throw CommandFailure(
                .document, code: "fileSystem",
                "Could not make the copy of save \(save) in the temporary folder \(folder.deletingLastPathComponent().path) (set TMPDIR to a folder with room): \(reason)"
            )
        }
        var options = ManagedDocument.OpenOptions()
        options.readOnly = true
        options.autosaveInterval = nil
        let copy = try await ManagedDocument.open(url, model: document.model, options: options)
        opened.append(copy)
        return copy
    }

    /// Closes the copies and removes the folder.
    func close() async {
        for document in opened { try? await document.close() }
        opened = []
        try? FileManager.default.removeItem(at: folder)
    }
}
