import CEditLine
import Foundation
import Synchronization

/// The shell's input, read on a thread of its own (never on the main actor): on a terminal
/// through libedit, with line editing and history; otherwise plain lines from standard
/// input. A line is read only when the shell asks for it (after the previous command
/// finished), so the prompt shows the document as it is then.
final class LineSource: Sendable {
    /// The lines read; it finishes at the end of input (Ctrl-D).
    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let requests = DispatchSemaphore(value: 0)
    private let prompt = Mutex("")
    private let interactive: Bool

    /// Starts the reading thread.
    ///
    /// - Parameter interactive: Standard input is a terminal: edit lines and keep history.
    init(interactive: Bool) {
        (lines, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.interactive = interactive
        let thread = Thread { [self] in readLoop() }
        thread.name = "poddoc shell input"
        thread.start()
    }

    /// Asks for the next line, showing `prompt` first on a terminal.
    func requestLine(prompt text: String) {
        prompt.withLock { $0 = text }
        requests.signal()
    }

    /// Ends the lines now (the shell stops on a signal): lines read later are dropped.
    func finish() {
        continuation.finish()
    }

    private func readLoop() {
        while true {
            requests.wait()
            guard let line = interactive ? readEdited() : readLine(strippingNewline: true) else {
                continuation.finish()
                return
            }
            continuation.yield(line)
        }
    }

    /// One line through libedit's readline interface; nil at the end of input.
    private func readEdited() -> String? {
        let text = prompt.withLock { $0 }
        guard let raw = readline(text) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { add_history(raw) }
        return line
    }
}
