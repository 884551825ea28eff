import CEditLine
import Foundation
import Glibc
import Synchronization

/// The shell's input, read on a thread of its own (never on the main actor): on a terminal
/// through libedit, with line editing and history; otherwise plain lines from standard
/// input. A line is read only when the shell asks for it (after the previous command
/// finished), so the prompt shows the document as it is then.
///
/// On a terminal, lines are read through libedit's callback interface, one key at a time, so
/// that the reading thread can also print what happens meanwhile (``announce(_:prompt:)``: an
/// autosave, a conflict) above the line being typed and redraw the prompt and that line with
/// libedit's own redisplay. Every libedit call is made on the reading thread.
final class LineSource: Sendable {
    /// The lines read; it finishes at the end of input (Ctrl-D).
    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let requests = DispatchSemaphore(value: 0)
    private let prompt = Mutex("")
    private let interactive: Bool
    /// Messages waiting to be printed above the line being edited, and the prompt to show
    /// after them; `editing` while libedit shows a prompt.
    private let screen = Mutex(Screen())
    /// Written to wake the reading thread when a message waits (the read end is polled
    /// with standard input).
    private let wake: (read: Int32, write: Int32)

    private struct Screen {
        var editing = false
        var messages: [String] = []
        var prompt: String?
    }

    /// Starts the reading thread.
    ///
    /// - Parameter interactive: Standard input is a terminal: edit lines and keep history.
    init(interactive: Bool) {
        (lines, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        self.interactive = interactive
        var ends: [Int32] = [-1, -1]
        if interactive, pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wake = (ends[0], ends[1])
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

    /// Prints a message on standard error. While a line is being edited on a terminal, the
    /// message goes above it, and the prompt (`prompt` when given: the document's state
    /// changed) and the line typed so far are drawn again below.
    func announce(_ message: String, prompt newPrompt: String? = nil) {
        let queued = screen.withLock { screen in
            guard screen.editing, wake.write >= 0 else { return false }
            screen.messages.append(message)
            if let newPrompt { screen.prompt = newPrompt }
            return true
        }
        if queued {
            var byte: UInt8 = 1
            _ = Glibc.write(wake.write, &byte, 1)
        } else {
            Output.write(TerminalText.safe(message) + "\n", to: .standardError)
        }
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

    /// One line through libedit; nil at the end of input.
    private func readEdited() -> String? {
        guard wake.read >= 0 else { return readEditedAtOnce() }
        let text = prompt.withLock { $0 }
        EditedLine.begin(prompt: text)
        screen.withLock { $0.editing = true }
        defer {
            screen.withLock { $0.editing = false }
            printWaitingMessages(redraw: false)
        }
        var watched = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            if let finished = EditedLine.take() { return finished.line }
            let ready = poll(&watched, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                EditedLine.end()
                return nil
            }
            if watched[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wake.read, &drained, drained.count) > 0 {}
                printWaitingMessages(redraw: true)
            }
            if watched[0].revents != 0 {
                // Readable with nothing to read, or hung up: the end of input.
                var available: Int32 = 0
                guard watched[0].revents & Int16(POLLIN) != 0, ioctl(STDIN_FILENO, UInt(FIONREAD), &available) == 0, available > 0
                else {
                    EditedLine.end()
                    return nil
                }
                rl_callback_read_char()
            }
        }
    }

    /// Prints the messages waiting above the line being edited, then has libedit draw the
    /// prompt and that line again.
    private func printWaitingMessages(redraw: Bool) {
        let (messages, newPrompt) = screen.withLock { screen in
            defer {
                screen.messages = []
                screen.prompt = nil
            }
            return (screen.messages, screen.prompt)
        }
        guard !messages.isEmpty else { return }
        let text = messages.map { TerminalText.safe($0) + "\n" }.joined()
        Output.write((redraw ? "\r\u{1B}[2K" : "") + text, to: .standardError)
        guard redraw else { return }
        if let newPrompt { _ = rl_set_prompt(newPrompt) }
        rl_forced_update_display()
    }

    /// One line through libedit's plain readline call (when no wake-up pipe could be made).
    private func readEditedAtOnce() -> String? {
        let text = prompt.withLock { $0 }
        guard let raw = readline(text) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { add_history(raw) }
        return line
    }
}

/// The line libedit's callback interface hands over: its handler is a C function, which
/// cannot capture, so the line waits here until the reading thread takes it. Only the
/// reading thread of ``LineSource`` uses it.
private enum EditedLine {
    struct Finished {
        let line: String?
    }

    private static let finished = Mutex<Finished?>(nil)

    static func begin(prompt: String) {
        finished.withLock { $0 = nil }
        rl_callback_handler_install(prompt) { raw in
            let line = raw.map { String(cString: $0) }
            if let raw {
                if !(line ?? "").trimmingCharacters(in: .whitespaces).isEmpty { add_history(raw) }
                free(raw)
            }
            EditedLine.end()
            EditedLine.finished.withLock { $0 = Finished(line: line) }
        }
    }

    static func take() -> Finished? {
        finished.withLock { value in
            defer { value = nil }
            return value
        }
    }

    static func end() {
        rl_callback_handler_remove()
    }
}
