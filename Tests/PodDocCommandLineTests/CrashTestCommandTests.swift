import Foundation
import XCTest

/// `poddoc crash-test`, through the real binary: it starts itself as the child (the hidden
/// `crash-child` command), kills it, and reports as a table or as JSON.
final class CrashTestCommandTests: CommandLineTestCase {
    private struct ReportShape: Decodable {
        let kind: String
        let format: String
        let cycles: Int
        let recovered: Int
        let corrupt: Int
        let savedWorkLost: Int
        let failures: [String]
    }

    func testCrashTestOfEachKindRecoversEveryCycle() throws {
        for (kind, format) in [("pods", "package"), ("outline", "archive")] {
            let report = try succeed(
                "crash-test", "--kind", kind, "--format", format, "--cycles", "4", "--seed", "7",
                "--specs", Self.sampleSpecs, "--json"
            ).json(ReportShape.self)
            XCTAssertEqual(report.kind, kind)
            XCTAssertEqual(report.format, format)
            XCTAssertEqual(report.cycles, 4)
            XCTAssertEqual(report.recovered, 4)
            XCTAssertEqual(report.corrupt, 0)
            XCTAssertEqual(report.savedWorkLost, 0)
            XCTAssertEqual(report.failures, [])
        }
        let table = try succeed("crash-test", "--cycles", "2", "--specs", Self.sampleSpecs).stdout
        XCTAssertTrue(table.contains("result                        PASS"), table)
    }

    func testAMigrationCrashTestKillsUpgradesAndFindsEveryDocumentOldOrUpgraded() throws {
        for format in ["package", "archive"] {
            let report = try succeed(
                "crash-test", "--kind", "migration", "--format", format, "--cycles", "12", "--seed", "5", "--json"
            ).json(ReportShape.self)
            XCTAssertEqual(report.kind, "migration")
            XCTAssertEqual(report.format, format)
            XCTAssertEqual(report.cycles, 12)
            XCTAssertEqual(report.recovered, 12)
            XCTAssertEqual(report.corrupt, 0)
            XCTAssertEqual(report.savedWorkLost, 0)
            XCTAssertEqual(report.failures, [])
        }
        let table = try succeed("crash-test", "--kind", "migration", "--cycles", "2").stdout
        XCTAssertTrue(table.contains("killed after the upgrade") && table.contains("result                    PASS"), table)
        XCTAssertEqual(try run(["crash-test", "--kind", "migration", "--specs", Self.sampleSpecs]).status, 64)
    }

    /// The installed binary runs a pods crash test from any folder: with no `--specs` it
    /// imports made-up specs instead of reading the repository's sample by a relative path.
    func testPodsCrashTestRunsFromAnyFolderWithoutASpecsFile() throws {
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("SampleDocuments")), "the test runs outside the repository")
        for format in ["package", "archive"] {
            let report = try succeed("crash-test", "--kind", "pods", "--format", format, "--cycles", "3", "--seed", "5", "--json").json(
                ReportShape.self)
            XCTAssertEqual(report.recovered, 3, "\(format): \(report.failures)")
            XCTAssertEqual(report.failures, [])
        }
        let missing = try run(["crash-test", "--kind", "pods", "--specs", "SampleDocuments/specs-2014-sample.json"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("Could not read the sample specs"), missing.stderr)
    }

    func testBadOptionsAreUsageErrors() throws {
        let result = try run(["crash-test", "--cycles", "0"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--cycles must be at least 1"), result.stderr)
        XCTAssertEqual(try run(["crash-test", "--kind", "film"]).status, 64)
    }
    /// A work folder holding what the test did not make is refused unless --force, which
    /// replaces only the test's own names; a folder an earlier crash test made is used again.
    func testAWorkFolderHoldingOtherThingsIsRefusedUnlessForced() throws {
        let work = path("work")
        try FileManager.default.createDirectory(atPath: work + "/Crash.poddoc", withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: work + "/Crash.poddoc/notes.txt"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: work + "/keep.txt"))
        let refused = try fail(64, "crash-test", "--work-folder", work, "--cycles", "1")
        XCTAssertTrue(refused.stderr.contains("\(work) holds 1 item a crash test did not make (such as keep.txt)"), refused.stderr)
        XCTAssertEqual(try String(contentsOfFile: work + "/Crash.poddoc/notes.txt", encoding: .utf8), "precious")
        try FileManager.default.removeItem(atPath: work + "/keep.txt")
        let unmarked = try fail(64, "crash-test", "--work-folder", work, "--cycles", "1")
        XCTAssertTrue(unmarked.stderr.contains("was not made by a crash test"), unmarked.stderr)
        XCTAssertEqual(try String(contentsOfFile: work + "/Crash.poddoc/notes.txt", encoding: .utf8), "precious")

        try Data("mine".utf8).write(to: URL(fileURLWithPath: work + "/keep.txt"))
        try succeed("crash-test", "--work-folder", work, "--cycles", "2", "--force")
        XCTAssertEqual(try String(contentsOfFile: work + "/keep.txt", encoding: .utf8), "mine", "what the test does not make stays")
        XCTAssertFalse(FileManager.default.fileExists(atPath: work + "/Crash.poddoc/notes.txt"), "--force let it replace its document")
        try FileManager.default.removeItem(atPath: work + "/keep.txt")
        try succeed("crash-test", "--work-folder", work, "--cycles", "2", "--kind", "pods", "--format", "archive")
        try succeed("crash-test", "--work-folder", work, "--cycles", "2")
    }

    /// A work folder that cannot be one, or sample specs that cannot be read, are usage errors
    /// in one line, and the test leaves nothing of its own behind.
    func testSetupErrorsAreUsageErrorsAndLeaveNothing() throws {
        let temporary = path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        environment["TMPDIR"] = temporary
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("a-file")))
        let file = try fail(64, "crash-test", "--work-folder", path("a-file"), "--cycles", "1")
        XCTAssertTrue(file.stderr.contains("is a file, not a folder"), file.stderr)
        XCTAssertFalse(file.stderr.contains("NSCocoaErrorDomain"), file.stderr)
        try fail(64, "crash-test", "--work-folder", "/proc", "--cycles", "1")
        let proc = try fail(64, "crash-test", "--work-folder", "/proc", "--force", "--cycles", "1")
        XCTAssertTrue(proc.stderr.contains("Cannot use /proc as the work folder"), proc.stderr)
        let deep = try fail(64, "crash-test", "--work-folder", "/proc/nowhere/work", "--cycles", "1")
        XCTAssertTrue(deep.stderr.contains("No such file or directory"), deep.stderr)
        let specs = try fail(64, "crash-test", "--kind", "pods", "--specs", path("missing.json"), "--cycles", "1")
        XCTAssertTrue(specs.stderr.contains("Could not read the sample specs"), specs.stderr)
        try fail(64, "crash-test", "--kind", "pods", "--specs", path("missing.json"), "--work-folder", path("new/work"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new")), "the folders it made are removed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
    }

    /// SIGTERM and Ctrl-C stop the test at once: the child is killed and reaped, the
    /// temporary folder removed, and one line says so.
    func testAStoppedRunStopsItsChildAndRemovesItsFolder() throws {
        let temporary = path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        environment["TMPDIR"] = temporary
        for (number, status, said) in [(SIGTERM, Int32(143), "Stopped by SIGTERM after"), (SIGINT, 130, "Interrupted after")] {
            let (process, _, err) = try start(["crash-test", "--cycles", "100000", "--kind", "pods"])
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, children(in: temporary).isEmpty { Thread.sleep(forTimeInterval: 0.02) }
            XCTAssertFalse(children(in: temporary).isEmpty, "a child runs: \(err.current)")
            kill(process.processIdentifier, number)
            let stopping = Date().addingTimeInterval(30)
            while process.isRunning, Date() < stopping { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning {
                XCTFail("crash-test went on after \(number)")
                kill(process.processIdentifier, SIGKILL)
                for child in children(in: temporary) { kill(child, SIGKILL) }
            }
            process.waitUntilExit()
            err.waitForEnd()
            XCTAssertEqual(process.terminationStatus, status, err.current)
            XCTAssertTrue(err.current.contains("poddoc: \(said)") && err.current.contains("the child was stopped"), err.current)
            XCTAssertEqual(err.current.split(separator: "\n").filter { $0.hasPrefix("poddoc:") }.count, 1, err.current)
            XCTAssertEqual(children(in: temporary), [], "no child left running or unreaped")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [], "the temporary folder is removed")
        }
    }

    /// The processes whose command line names a path under `folder`: the crash-test
    /// children working there.
    private func children(in folder: String) -> [Int32] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
        return pids.filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).split(separator: "\0").contains { $0.contains(folder) }
        }
    }
}
