import Foundation
import PodDocFileSystem
import XCTest

@testable import PodDocDocument

/// `verify()` finds a sound document sound, and each disagreement between its parts.
final class VerificationTests: DocumentTestCase {
    func testSoundDocumentPassesAndEachDisagreementIsFound() async throws {
        let package = url("Checked.poddoc")
        let document = try await ManagedDocument.create(at: package, kind: .notes, model: Note.model, options: options)
        addNote(document, "one")
        document.additionalContent = ["a.txt": Data("A".utf8)]
        try await document.save()
        let sound = try await document.verify()
        XCTAssertTrue(sound.isSound, "\(sound.problems)")
        XCTAssertEqual(sound.integrityCheck, ["ok"])
        XCTAssertEqual(sound.storeHash, document.metadata.storeHash)
        XCTAssertEqual(sound.storeSaveSequence, document.metadata.saveSequence)

        // Additional content changed behind the document's back.
        let layout = PackageLayout(root: package)
        try Data("tampered".utf8).write(to: layout.additionalContent.appending(path: "a.txt"))
        let tampered = try await document.verify()
        XCTAssertFalse(tampered.isSound)
        XCTAssertEqual(tampered.problems.count, 2, "\(tampered.problems)")  // Metadata list and committed digest.
        XCTAssertTrue(tampered.problems.allSatisfy { $0.contains("AdditionalContent") }, "\(tampered.problems)")

        // Metadata that names another save and another hash.
        try Data("A".utf8).write(to: layout.additionalContent.appending(path: "a.txt"))
        document.metadata.storeHash = "sha256:00"
        document.metadata.saveSequence += 5
        // A hash that describes an earlier save (autosaves leave it behind) is not compared.
        document.metadata.storeHashSaveSequence = document.metadata.saveSequence - 1
        let behind = try await document.verify()
        XCTAssertEqual(behind.problems.count, 1, "\(behind.problems)")
        document.metadata.storeHashSaveSequence = document.metadata.saveSequence
        let stale = try await document.verify()
        XCTAssertEqual(stale.problems.count, 2, "\(stale.problems)")
        XCTAssertTrue(stale.problems[0].contains("sha256:00"), stale.problems[0])
        XCTAssertTrue(stale.problems[1].contains("records save"), stale.problems[1])
        try await document.close()
        do {
            _ = try await document.verify()
            XCTFail("a closed document cannot be verified")
        } catch let error as DocumentError {
            XCTAssertEqual(error.code, .closed)
        }
    }
}
