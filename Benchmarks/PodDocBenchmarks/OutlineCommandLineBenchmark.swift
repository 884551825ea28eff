import Foundation
import PodDocBenchmarkSupport

/// `poddoc import DOC --opml FILE` with the release binary, 200,001 and 1,000,001 items,
/// against two floors run in the same process: a short Python script (expat, then sqlite3's
/// `executemany` in one transaction, WAL, `synchronous=FULL`) and `sqlite3 .import` of the
/// same rows from CSV. Each figure is the best of three runs, the three programs taking turns;
/// wall time and peak memory come from GNU time. A floor whose program is missing is skipped.
@MainActor
enum OutlineCommandLineBenchmark {
    /// The benchmark outline (``OutlineBenchmarkDocument/benchmarkTree(archiveYears:projects:)``,
    /// `projects` × 9 parts × 110 tasks and an empty "Archive") as an OPML file.
    static func writeOPML(projects: Int, to url: URL) throws -> Int {
        let tree = OutlineBenchmarkDocument.benchmarkTree(archiveYears: 0, projects: projects)
        try tree.opmlData().write(to: url)
        return tree.count
    }

    /// The Python floor, as lean as a user would write it: parse with expat into a list of
    /// rows, insert them with one `executemany` in one transaction (WAL, `synchronous=FULL`).
    /// It times itself from its first line to the database's close and writes the seconds to
    /// its third argument, so the interpreter's own start is not counted.
    static let pythonFloor = #"""
        import time; t0 = time.perf_counter()
        import sys, sqlite3, json, xml.parsers.expat
        src, dst, report = sys.argv[1], sys.argv[2], sys.argv[3]
        db = sqlite3.connect(dst, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL")
        db.execute('CREATE TABLE item (id INTEGER PRIMARY KEY, parent INTEGER, "order" INTEGER, title TEXT, note TEXT, attributes TEXT, created REAL, modified REAL)')
        rows = []; stack = [[None, 0]]; now = time.time()
        def start(name, attrs):
            if name != 'outline': return
            top = stack[-1]
            rows.append((None, top[0], top[1], attrs.pop('text', ''), attrs.pop('_note', None), json.dumps(attrs) if attrs else None, now, now))
            top[1] += 1
            stack.append([len(rows), 0])
        def end(name):
            if name == 'outline': stack.pop()
        p = xml.parsers.expat.ParserCreate(); p.StartElementHandler = start; p.EndElementHandler = end
        with open(src, 'rb') as f: p.ParseFile(f)
        db.execute("BEGIN"); db.executemany("INSERT INTO item VALUES (?,?,?,?,?,?,?,?)", rows); db.execute("COMMIT")
        db.close()
        with open(report, 'w') as f: f.write(str(time.perf_counter() - t0))
        """#

    /// One timed run: wall seconds and peak resident MiB of `arguments` under GNU time.
    struct Timed {
        var seconds: Double
        var peakMiB: Double
    }

    static func timed(_ arguments: [String], input: URL? = nil, in folder: URL) throws -> Timed {
        let report = folder.appending(path: "time-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%e %M", "-o", report.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed") }
        let fields = try String(contentsOf: report, encoding: .utf8).split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let seconds = Double(fields[fields.count - 2]), let kib = Double(fields[fields.count - 1]) else {
            throw BenchmarkError("GNU time wrote no figures for \(arguments[0])")
        }
        return Timed(seconds: seconds, peakMiB: kib / 1024)
    }

    /// The release `poddoc` built beside this program.
    /// The release `poddoc`: `$PODDOC_BINARY` (`make bench-e2e` sets it to the root package's
    /// `.build/release/poddoc`), else `poddoc` beside this program.
    static var poddocBinary: URL {
        if let path = ProcessInfo.processInfo.environment["PODDOC_BINARY"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().appending(
            path: "poddoc")
    }

    /// Runs the release `poddoc` with `arguments` (its state in `state`, output dropped) and
    /// returns how long it took; throws when it fails.
    static func timedRun(_ arguments: [String], state: URL) throws -> Double {
        let process = Process()
        process.executableURL = poddocBinary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state.path
        process.environment = environment
        let clock = ContinuousClock()
        let start = clock.now
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("poddoc \(arguments.joined(separator: " ")) failed") }
        return (clock.now - start).seconds
    }

    static func which(_ program: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    static func run() throws -> [String] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            return ["| outline import with the command line | skipped: GNU time (/usr/bin/time) is not installed | | |"]
        }
        let poddoc = poddocBinary.path
        guard FileManager.default.isExecutableFile(atPath: poddoc) else {
            throw BenchmarkError("\(poddoc) is missing: `swift build -c release --product poddoc` first (make bench-e2e does)")
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "poddoc-bench-outline-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appending(path: "state").path
        setenv("XDG_STATE_HOME", state, 1)
        let python = which("python3")
        let sqlite = which("sqlite3")
        let script = folder.appending(path: "floor.py")
        try Data(pythonFloor.utf8).write(to: script)

        var rows = [
            "| work | poddoc (best of 3) | Python floor, its own clock (the interpreter's start not counted) | Python, the whole process | `sqlite3 .import` floor |",
            "|---|---|---|---|---|",
        ]
        for projects in [200, 1_000] {
            let opml = folder.appending(path: "in-\(projects).opml")
            let items = try writeOPML(projects: projects, to: opml)
            var ours: [Timed] = []
            var pythons: [Timed] = []
            var pythonOwnClock: [Double] = []
            var imports: [Timed] = []
            for run in 0..<3 {
                let doc = folder.appending(path: "D\(run)-\(projects).poddoc").path
                try DocumentBenchmarks.run(poddoc, ["new", doc, "--kind", "outline"])
                ours.append(try timed([poddoc, "import", doc, "--opml", opml.path], in: folder))
                if let python {
                    let db = folder.appending(path: "py\(run)-\(projects).db").path
                    let report = folder.appending(path: "py\(run)-\(projects).seconds")
                    pythons.append(try timed([python, script.path, opml.path, db, report.path], in: folder))
                    pythonOwnClock.append(Double(try String(contentsOf: report, encoding: .utf8)) ?? .infinity)
                    if let sqlite, run == 0 {
                        // The same rows as CSV, made once (not timed).
                        let csv = folder.appending(path: "rows-\(projects).csv")
                        _ = FileManager.default.createFile(atPath: csv.path, contents: nil)
                        let dump = Process()
                        dump.executableURL = URL(fileURLWithPath: sqlite)
                        dump.arguments = ["-csv", db, "SELECT * FROM item"]
                        dump.standardOutput = try FileHandle(forWritingTo: csv)
                        try dump.run()
                        dump.waitUntilExit()
                    }
                }
                if let sqlite, FileManager.default.fileExists(atPath: folder.appending(path: "rows-\(projects).csv").path) {
                    let commands = folder.appending(path: "import-\(projects).sql")
                    try Data(
                        """
                        PRAGMA journal_mode=WAL;
                        PRAGMA synchronous=FULL;
                        CREATE TABLE item (id INTEGER PRIMARY KEY, parent INTEGER, "order" INTEGER, title TEXT, note TEXT, attributes TEXT, created REAL, modified REAL);
                        .mode csv
                        .import \(folder.appending(path: "rows-\(projects).csv").path) item

                        """.utf8
                    ).write(to: commands)
                    let db = folder.appending(path: "csv\(run)-\(projects).db").path
                    imports.append(try timed([sqlite, db], input: commands, in: folder))
                }
            }
            let best = ours.min { $0.seconds < $1.seconds }!
            func floor(_ runs: [Timed], _ missing: String) -> String {
                guard let floor = runs.min(by: { $0.seconds < $1.seconds }) else { return "skipped: \(missing) is not installed" }
                return String(format: "%.2f s, %.0f MiB: poddoc **%.2fx**", floor.seconds, floor.peakMiB, best.seconds / floor.seconds)
            }
            let size = Double((try? FileManager.default.attributesOfItem(atPath: opml.path)[.size] as? Int) ?? 0) / 1e6
            let runs = ours.map { String(format: "%.2f", $0.seconds) }.joined(separator: ", ")
            rows.append(
                "| OPML import, \(items.formatted()) items (\(String(format: "%.1f", size)) MB) | "
                    + String(format: "%.2f s", best.seconds)
                    + " (\(runs)), peak \(String(format: "%.0f", ours.map(\.peakMiB).max()!)) MiB | "
                    + (pythonOwnClock.min().map { String(format: "%.2f s: poddoc **%.2fx**", $0, best.seconds / $0) }
                        ?? "skipped: python3 is not installed")
                    + " | " + floor(pythons, "python3") + " | "
                    + floor(imports, python == nil ? "python3 (which makes its CSV)" : "sqlite3") + " |"
            )
        }
        return rows
    }
}
