import Foundation
import Glibc
import PodDocFileSystem
import PodDocTesting
import XCTest

/// Every step of a save is made to fail in turn, with `ENOSPC` and with `EIO`.
final class FaultInjectionTests: XCTestCase {
    private let errnos: [Int32] = [ENOSPC, EIO]

    // MARK: - Files

    /// Steps of replacing an existing file, in the order they run.
    private let fileSaveSteps: [SystemCall] = [.open, .write, .fsync, .close, .renameExchange, .directoryFsync]

    func testEachStepOfReplacingAFileFailsCleanly() throws {
        for step in fileSaveSteps {
            for code in errnos {
                let folder = try makeTemporaryFolder()
                let target = folder.appendingPathComponent("persistentStore")
                try FileSystem().write(Data("previous version".utf8), to: target)
                let failing = FileSystem(faults: .failing(step, with: code))
                let error = try expectFileSystemError { try failing.write(Data("new version".utf8), to: target) }
                let context = "\(step) / \(describe(code)): \(error.message)"
                XCTAssertEqual(error.systemCall, step, context)
                XCTAssertEqual(error.errno, code, context)
                XCTAssertEqual(error.code, code == ENOSPC ? .noSpace : .io, context)
                XCTAssertTrue(error.message.contains(step.description), context)
                XCTAssertTrue(error.message.contains("Could not save '\(target.path)'"), context)
                XCTAssertTrue(error.message.contains("The previous version is unchanged."), context)
                XCTAssertEqual(try text(of: target), "previous version", context)
                XCTAssertEqual(try names(in: folder), ["persistentStore"], context)
            }
        }
    }

    func testEachStepOfCreatingAFileFailsCleanly() throws {
        for step: SystemCall in [.open, .write, .fsync, .close, .rename, .directoryFsync] {
            for code in errnos {
                let folder = try makeTemporaryFolder()
                let target = folder.appendingPathComponent("DocumentMetadata.json")
                let failing = FileSystem(faults: .failing(step, with: code))
                let error = try expectFileSystemError { try failing.write(Data("{}".utf8), to: target) }
                let context = "\(step) / \(describe(code)): \(error.message)"
                XCTAssertEqual(error.systemCall, step, context)
                XCTAssertTrue(error.message.contains("Nothing was created."), context)
                XCTAssertEqual(try names(in: folder), [], context)
            }
        }
    }

    func testFailingToRemoveThePreviousVersionReportsTheLeftover() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        try FileSystem().write(Data("v1".utf8), to: target)
        let failing = FileSystem(faults: .failing(.unlink, with: EIO))
        let error = try expectFileSystemError { try failing.write(Data("v2".utf8), to: target) }
        XCTAssertEqual(error.code, .cleanupFailed)
        XCTAssertEqual(error.systemCall, .unlink)
        XCTAssertTrue(error.message.contains("Saved '\(target.path)'"), error.message)
        XCTAssertTrue(error.message.contains(error.path), error.message)
        XCTAssertEqual(try text(of: target), "v2")
        XCTAssertEqual(try text(of: URL(fileURLWithPath: error.path)), "v1")
        XCTAssertEqual(try names(in: folder).count, 2)
    }

    func testFileSystemWithoutSwapSupportFallsBackToRename() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        try FileSystem().write(Data("v1".utf8), to: target)
        let noSwap = FileSystem(faults: .failing(.renameExchange, with: EINVAL))
        try noSwap.write(Data("v2".utf8), to: target)
        XCTAssertEqual(try text(of: target), "v2")
        XCTAssertEqual(try names(in: folder), ["doc"])
    }

    func testWithoutSwapSupportAFailedFolderSyncIsReportedAsUnconfirmed() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("doc")
        try FileSystem().write(Data("v1".utf8), to: target)
        let failing = FileSystem(
            faults: FaultPlan([
                .init(.renameExchange, errno: EINVAL),
                .init(.directoryFsync, errno: EIO),
            ]))
        let error = try expectFileSystemError { try failing.write(Data("v2".utf8), to: target) }
        XCTAssertEqual(error.systemCall, .directoryFsync)
        XCTAssertTrue(error.message.contains("Could not confirm that '\(target.path)' was saved"), error.message)
        XCTAssertEqual(try names(in: folder), ["doc"])
    }

    func testFaultCanTargetOnePath() throws {
        let folder = try makeTemporaryFolder()
        let failing = FileSystem(faults: .failing(.write, with: ENOSPC, path: .containing("persistentStore")))
        try failing.write(Data("{}".utf8), to: folder.appendingPathComponent("DocumentMetadata.json"))
        let error = try expectFileSystemError {
            try failing.write(Data("db".utf8), to: folder.appendingPathComponent("persistentStore"))
        }
        XCTAssertEqual(error.systemCall, .write)
        XCTAssertEqual(try names(in: folder), ["DocumentMetadata.json"])
    }

    func testCopyFailsCleanlyWhenReadingFails() throws {
        let folder = try makeTemporaryFolder()
        let source = folder.appendingPathComponent("source")
        try Data("source bytes".utf8).write(to: source)
        let target = folder.appendingPathComponent("copy")
        try Data("old copy".utf8).write(to: target)
        let failing = FileSystem(faults: .failing(.read, with: EIO))
        let error = try expectFileSystemError { try failing.copyFile(at: source, to: target) }
        XCTAssertEqual(error.systemCall, .read)
        XCTAssertTrue(error.message.contains(source.path), error.message)
        XCTAssertEqual(try text(of: target), "old copy")
        XCTAssertEqual(try names(in: folder), ["copy", "source"])
    }

    // MARK: - Folders

    /// Steps of replacing an existing folder tree, in the order they run.
    private let folderSaveSteps: [SystemCall] = [
        .mkdir, .open, .write, .close, .stat, .fsync, .directoryFsync, .renameExchange,
    ]

    func testEachStepOfReplacingAFolderFailsCleanly() throws {
        for step in folderSaveSteps {
            for code in errnos {
                let folder = try makeTemporaryFolder()
                let target = folder.appendingPathComponent("Name.poddoc")
                try writePackage(at: target, version: "v1", fileSystem: FileSystem())
                let failing = FileSystem(faults: .failing(step, with: code))
                let error = try expectFileSystemError { try writePackage(at: target, version: "v2", fileSystem: failing) }
                let context = "\(step) / \(describe(code)): \(error.message)"
                XCTAssertEqual(error.systemCall, step, context)
                XCTAssertEqual(error.errno, code, context)
                XCTAssertTrue(error.message.contains(target.path), context)
                XCTAssertTrue(error.message.contains("The previous version is unchanged."), context)
                XCTAssertEqual(try text(of: target.appendingPathComponent("StoreContent/persistentStore")), "v1", context)
                XCTAssertEqual(try names(in: folder), ["Name.poddoc"], context)
            }
        }
    }

    func testFailedParentSyncAfterFolderSwapIsUndone() throws {
        for swapFault: [FaultPlan.Fault] in [[], [.init(.renameExchange, errno: EINVAL)]] {
            let folder = try makeTemporaryFolder()
            let target = folder.appendingPathComponent("Name.poddoc")
            try writePackage(at: target, version: "v1", fileSystem: FileSystem())
            let failing = FileSystem(faults: FaultPlan(swapFault + [.init(.directoryFsync, errno: EIO, path: .exactly(folder.path))]))
            let error = try expectFileSystemError { try writePackage(at: target, version: "v2", fileSystem: failing) }
            XCTAssertEqual(error.systemCall, .directoryFsync, error.message)
            XCTAssertTrue(error.message.contains("The previous version is unchanged."), error.message)
            XCTAssertEqual(try text(of: target.appendingPathComponent("StoreContent/persistentStore")), "v1")
            XCTAssertEqual(try names(in: folder), ["Name.poddoc"])
        }
    }

    func testFolderSwapFallsBackToMovingAside() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        try writePackage(at: target, version: "v1", fileSystem: FileSystem())
        try writePackage(at: target, version: "v2", fileSystem: FileSystem(faults: .failing(.renameExchange, with: EOPNOTSUPP)))
        XCTAssertEqual(try text(of: target.appendingPathComponent("StoreContent/persistentStore")), "v2")
        XCTAssertEqual(try names(in: folder), ["Name.poddoc"])
    }

    func testEachStepOfCreatingAFolderFailsCleanly() throws {
        for step: SystemCall in [.mkdir, .write, .fsync, .directoryFsync, .rename] {
            for code in errnos {
                let folder = try makeTemporaryFolder()
                let target = folder.appendingPathComponent("Name.poddoc")
                let failing = FileSystem(faults: .failing(step, with: code))
                let error = try expectFileSystemError { try writePackage(at: target, version: "v1", fileSystem: failing) }
                XCTAssertEqual(error.systemCall, step, error.message)
                XCTAssertEqual(try names(in: folder), [], error.message)
            }
        }
    }

    func testFailingToRemoveThePreviousFolderReportsTheLeftover() throws {
        let folder = try makeTemporaryFolder()
        let target = folder.appendingPathComponent("Name.poddoc")
        try writePackage(at: target, version: "v1", fileSystem: FileSystem())
        let error = try expectFileSystemError {
            try writePackage(at: target, version: "v2", fileSystem: FileSystem(faults: .failing(.unlink, with: EIO)))
        }
        XCTAssertEqual(error.code, .cleanupFailed)
        XCTAssertTrue(error.message.contains("Delete '\(error.path)' by hand"), error.message)
        XCTAssertEqual(try text(of: target.appendingPathComponent("StoreContent/persistentStore")), "v2")
        XCTAssertEqual(
            try text(of: URL(fileURLWithPath: error.path).appendingPathComponent("StoreContent/persistentStore")), "v1")
    }

    // MARK: - Helpers

    /// Writes a small package whose store file holds `version`.
    private func writePackage(at target: URL, version: String, fileSystem: FileSystem) throws {
        try fileSystem.writeDirectory(at: target) { staging in
            try fileSystem.createDirectory(at: staging.appendingPathComponent("StoreContent"))
            try fileSystem.createDirectory(at: staging.appendingPathComponent("AdditionalContent"))
            try fileSystem.createFile(at: staging.appendingPathComponent("StoreContent/persistentStore")) {
                try $0.write(Data(version.utf8))
            }
            try fileSystem.createFile(at: staging.appendingPathComponent("DocumentMetadata.json")) {
                try $0.write(Data("{}".utf8))
            }
        }
    }

    private func describe(_ code: Int32) -> String {
        code == ENOSPC ? "ENOSPC" : "EIO"
    }
}
