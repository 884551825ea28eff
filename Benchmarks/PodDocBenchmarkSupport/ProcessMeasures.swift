import Foundation

/// The process's peak resident memory so far (`VmHWM` in /proc/self/status), in MiB.
public func peakMemoryMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return .nan }
    return kib / 1024
}

/// CPU time used by the whole process so far (user + system), in seconds: unlike wall-clock
/// time, it does not grow when other processes compete for the machine's cores.
public func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU time used so far by the child processes that ended and were waited for (user +
/// system), in seconds: `tar` and the `zstd` it runs, for comparison with the process's own.
public func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// CPU time of the calling thread, in seconds: the main actor's, since the benchmarks drain
/// the main queue on the main thread.
@MainActor
public func mainThreadCPUTime() -> Double {
    precondition(Thread.isMainThread, "the benchmarks drain the main queue on the main thread")
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
