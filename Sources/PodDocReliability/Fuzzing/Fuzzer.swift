import Foundation
import Glibc
import PodDocRandom
import Synchronization

// MARK: - Fuzzer

/// Runs fuzz targets for a bounded time: mutates seed inputs (and inputs that were read
/// without error, which go back into the pool), feeds each to the reader, and records what
/// is not a clean refusal. A crash kills the process after it names the target and the
/// input's number; a hang (one input over ``Options/inputTimeLimit``) is reported the same
/// way. Either replays from the seed with ``Options/replay``.
public enum Fuzzer {
    /// How to run.
    public struct Options: Sendable {
        /// How long to run each target.
        public var duration: Duration = .seconds(15)
        /// Seeds the mutations; the same seed replays the same inputs.
        public var seed: UInt64 = 1
        /// The fixtures folder the seeds come from (`Tests/Fixtures`).
        public var fixtures: URL
        /// A scratch folder (created and removed by the run).
        public var scratch: URL = FileManager.default.temporaryDirectory.appendingPathComponent("poddoc-fuzz-\(UUID().uuidString)")
        /// Longest time one input may take before the run stops as hung.
        public var inputTimeLimit: Duration = .seconds(5)
        /// Largest input made.
        public var maximumInputSize = 256 * 1024
        /// Instead of running for ``duration``: run this many inputs, write the last one to
        /// `<scratch>/../fuzz-<target>-<n>.bin`, and stop (to replay a crash).
        public var replay: Int?

        /// Options reading seeds from `fixtures`.
        public init(fixtures: URL) {
            self.fixtures = fixtures
        }
    }

    /// What a target's run did.
    public struct Result: Sendable, Codable, Hashable {
        /// The target.
        public var target: String
        /// Inputs read.
        public var executions = 0
        /// Inputs refused with a clean error.
        public var refused = 0
        /// Seconds spent.
        public var seconds = 0.0
        /// Inputs that got anything but a clean refusal, each with the file it was saved to.
        public var findings: [String] = []
    }

    /// Runs one target. Blocks the calling thread for the run's duration.
    ///
    /// - Throws: When the seeds cannot be built or the scratch folder cannot be made.
    public static func run(_ target: FuzzTarget, options: Options) throws -> Result {
        let scratch = options.scratch.appendingPathComponent(target.name)
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var pool = try target.seeds(options.fixtures, scratch).map { Array($0) }
        if pool.isEmpty { pool = [[]] }
        let seedCount = pool.count
        var mutator = Mutator(
            random: SeededRandom(seed: options.seed), tokens: target.tokens.map { Array($0.utf8) },
            maximumSize: options.maximumInputSize)
        var result = Result(target: target.name)
        Watchdog.shared.start(limit: options.inputTimeLimit)
        CrashReport.target(target.name)
        let clock = ContinuousClock()
        let started = clock.now
        while options.replay.map({ result.executions <= $0 }) ?? (clock.now - started < options.duration) {
            let input =
                result.executions < seedCount
                ? pool[result.executions]
                : mutator.mutate(pool[mutator.random.below(pool.count)], splicingWith: pool[mutator.random.below(pool.count)])
            if let replay = options.replay, result.executions == replay {
                let file = options.scratch.deletingLastPathComponent().appendingPathComponent("fuzz-\(target.name)-\(replay).bin")
                try Data(input).write(to: file)
                print("input \(replay) of \(target.name) written to \(file.path)")
            }
            CrashReport.input(result.executions)
            Watchdog.shared.began()
            do {
                try target.read(Data(input), scratch)
                if pool.count < 2_000 && input.count < 64 * 1024 { pool.append(input) }
            } catch  where target.isClean(error) {
                result.refused += 1
            } catch {
                let file = options.scratch.deletingLastPathComponent().appendingPathComponent(
                    "fuzz-\(target.name)-finding-\(result.findings.count).bin")
                try? Data(input).write(to: file)
                result.findings.append("\(type(of: error)): \(error) (input in \(file.path))")
            }
            Watchdog.shared.ended()
            result.executions += 1
        }
        Watchdog.shared.stop()
        result.seconds = (clock.now - started) / .seconds(1)
        return result
    }
}

// MARK: - Hangs and crashes

/// Stops the process when one input runs longer than the limit, naming it.
final class Watchdog: Sendable {
    static let shared = Watchdog()
    /// When the current input began (nanoseconds of the monotonic clock), or 0 between inputs.
    private let startedAt = Atomic<UInt64>(0)
    private let limit = Atomic<UInt64>(0)
    private let running = Atomic<Bool>(false)

    func start(limit: Duration) {
        self.limit.store(UInt64(limit / .nanoseconds(1)), ordering: .relaxed)
        guard !running.exchange(true, ordering: .relaxed) else { return }
        Thread.detachNewThread { [self] in
            while running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: 0.1)
                let start = startedAt.load(ordering: .relaxed)
                if start != 0, DispatchTime.now().uptimeNanoseconds - start > self.limit.load(ordering: .relaxed) {
                    CrashReport.hang()
                }
            }
        }
    }

    func began() { startedAt.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed) }
    func ended() { startedAt.store(0, ordering: .relaxed) }
    func stop() { running.store(false, ordering: .relaxed) }
}

/// Names the target and input a crash or hang happened in, so it can be replayed.
enum CrashReport {
    /// The current target's name; written between targets only, read by the signal handler.
    nonisolated(unsafe) static var targetName: UnsafeMutablePointer<CChar>? = nil
    /// The current input's number.
    static let inputNumber = Atomic<Int>(0)

    /// Names the target about to run and installs the crash handler.
    static func target(_ target: String) {
        let old = targetName
        targetName = strdup(target)
        free(old)
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            _ = Glibc.signal(signal) { _ in
                CrashReport.tell("crashed")
                _exit(70)
            }
        }
    }

    static func input(_ number: Int) { inputNumber.store(number, ordering: .relaxed) }

    static func hang() {
        tell("hung (over the time limit)")
        _exit(71)
    }

    /// Writes `poddoc-fuzz: <what> on input N of TARGET` with write(2) and a stack buffer
    /// only, as a signal handler may.
    private static func tell(_ what: StaticString) {
        func bytes(_ pointer: UnsafeRawPointer, _ count: Int) { _ = Glibc.write(STDERR_FILENO, pointer, count) }
        func text(_ text: StaticString) { bytes(text.utf8Start, text.utf8CodeUnitCount) }
        text("poddoc-fuzz: ")
        text(what)
        text(" on input ")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { digits in
            var number = inputNumber.load(ordering: .relaxed)
            var index = 24
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(number % 10)
                number /= 10
            } while number > 0 && index > 0
            bytes(digits.baseAddress! + index, 24 - index)
        }
        text(" of ")
        if let name = targetName { bytes(name, strlen(name)) }
        text("; replay it with: poddoc-fuzz --replay N TARGET (same --seed)\n")
    }
}
