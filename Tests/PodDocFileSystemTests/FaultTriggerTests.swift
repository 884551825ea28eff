import Foundation
import Glibc
import PodDocFileSystem
import PodDocTesting
import XCTest

/// Faults that fire when a test says (armed, skipping, counted), committed content that a
/// failed move keeps, and the sweep of temporary items a crash left.
final class FaultTriggerTests: XCTestCase {
    func testTriggerFiresOnlyWhenArmedAfterSkippingAndCounts() throws {
        let folder = try makeTemporaryFolder()
        let trigger = FaultTrigger(armed: false, skipping: 1)
        let fileSystem = FileSystem(faults: FaultPlan([.init(.fsync, errno: EIO, trigger: trigger)]))
        let target = folder.appendingPathComponent("file")
        try fileSystem.write(Data("1".utf8), to: target)  // Disarmed: runs.
        trigger.arm()
        try fileSystem.write(Data("2".utf8), to: target)  // Skipped once.
        let error = try expectFileSystemError { try fileSystem.write(Data("3".utf8), to: target) }
        XCTAssertEqual(error.errno, EIO)
        XCTAssertEqual(trigger.fired, 1)
        trigger.disarm()
        try fileSystem.write(Data("4".utf8), to: target)
        XCTAssertEqual(try text(of: target), "4")
        XCTAssertEqual(trigger.fired, 1)
        XCTAssertEqual(try names(in: folder), ["file"])
    }

    func testFailedMoveIntoPlaceKeepsTheStagedItem() throws {
        let folder = try makeTemporaryFolder()
        let staged = folder.appendingPathComponent(".Content.next")
        let target = folder.appendingPathComponent("Content")
        for url in [staged, target] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data(url.lastPathComponent.utf8).write(to: url.appendingPathComponent("a.txt"))
        }
        for step: SystemCall in [.renameExchange, .directoryFsync] {
            let failing = FileSystem(faults: .failing(step, with: ENOSPC))
            _ = try expectFileSystemError { try failing.moveIntoPlace(staged, replacing: target) }
            XCTAssertEqual(try text(of: staged.appendingPathComponent("a.txt")), ".Content.next", "\(step): the staged content survives")
            XCTAssertEqual(try text(of: target.appendingPathComponent("a.txt")), "Content", "\(step): the previous version stays")
        }
        try FileSystem().moveIntoPlace(staged, replacing: target)
        XCTAssertEqual(try text(of: target.appendingPathComponent("a.txt")), ".Content.next")
        XCTAssertEqual(try names(in: folder), ["Content"])
    }

    func testRemoveTemporaryItemsTakesOnlyTemporarySiblings() throws {
        let folder = try makeTemporaryFolder()
        let temporary = [".DocumentMetadata.json.tmp-1a2b3c4d", "..AdditionalContent.next.tmp-ff"]
        let kept = [".DocumentMetadata.json.old-1a2b3c4d", "notes.tmp-1a2b", ".x.tmp-notHex", "DocumentMetadata.json", ".poddoc-lock"]
        for name in temporary + kept { try Data().write(to: folder.appendingPathComponent(name)) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent(temporary[1]))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(temporary[1]).appendingPathComponent("inner"), withIntermediateDirectories: true)
        XCTAssertEqual(try FileSystem().removeTemporaryItems(in: folder), 2)
        XCTAssertEqual(try names(in: folder), kept.sorted())
    }
}
