import Dispatch
import Foundation

/// SIGTERM and SIGHUP: the shell and the server stop cleanly (save, close) instead of dying.
@MainActor
enum TerminationSignals {
    private static var sources: [any DispatchSourceSignal] = []

    /// Calls `handler` on the main actor when SIGTERM or SIGHUP arrives.
    static func onTermination(_ handler: @escaping @MainActor (Int32) -> Void) {
        for number in [SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { handler(number) } }
            source.resume()
            sources.append(source)
        }
    }
}
