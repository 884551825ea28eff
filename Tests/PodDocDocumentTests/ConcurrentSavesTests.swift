import Foundation
import XCTest

@testable import PodDocDocument

/// Saves asked for while another runs wait for it and then run (or find nothing to do); none
/// of them spins on the finished one (an import's autosaves meeting the autosave timer did).
@MainActor
final class ConcurrentSavesTests: DocumentTestCase {
    func testSavesAskedForTogetherAllFinish() async throws {
        let document = try await ManagedDocument.create(at: url("Busy.poddoc"), kind: .notes, model: Note.model, options: options)
        for round in 0..<20 {
            addNote(document, "note \(round)")
            async let first: Void = document.autosave()
            async let second: Void = document.autosave()
            async let explicit: Void = document.save()
            _ = try await (first, second, explicit)
        }
        XCTAssertEqual(try titles(document).count, 20)
        XCTAssertFalse(document.hasUnsavedChanges)
        try await document.close()
    }
}
