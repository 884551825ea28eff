import Foundation
import Synchronization

/// Where a command prints: data on standard output (as text or as JSON), messages and
/// progress on standard error. Writes go straight to the file descriptors, unbuffered, so
/// lines from the shell, its autosave reports and a progress bar come out in order.
struct Output: Sendable {
    /// Print data as JSON.
    let json: Bool
    /// Where data waits instead of standard output, until the command's work is saved.
    var held: HeldOutput?

    init(json: Bool, held: HeldOutput? = nil) {
        self.json = json
        self.held = held
    }

    /// The same output, holding data back in `held` (see ``HeldOutput``).
    func holding(_ held: HeldOutput) -> Output {
        Output(json: json, held: held)
    }

    /// Prints `value` as JSON, or `text` (a line break is added when missing).
    func emit<T: Encodable>(_ value: T, text: @autoclosure () -> String) {
        line(json ? Output.encode(value) : text())
    }

    /// Prints `value` as JSON, or `text`, on standard output now, even when the output is
    /// held for a save: data a command reports as it fails (a merge's conflicts).
    func emitNow<T: Encodable>(_ value: T, text: @autoclosure () -> String) {
        let text = json ? Output.encode(value) : TerminalText.safe(text())
        Output.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
    }

    /// Prints data text on standard output; nothing for an empty text. Human text is made
    /// safe for a terminal (``TerminalText``); JSON is written as it is.
    func line(_ text: String) {
        guard !text.isEmpty else { return }
        let text = json ? text : TerminalText.safe(text)
        let line = text.hasSuffix("\n") ? text : text + "\n"
        if let held { held.append(line) } else { Output.write(line, to: .standardOutput) }
    }

    /// Prints a message on standard error (never data, so scripts can read standard output).
    func message(_ text: String) {
        Output.write(TerminalText.safe(text) + "\n", to: .standardError)
    }

    /// Reports a failure on standard error: `poddoc: message`, or a JSON object with `--json`.
    func failure(_ failure: CommandFailure) {
        if json {
            let body = FailureShape(error: .init(code: failure.code, message: failure.message, exitStatus: failure.status.rawValue))
            Output.write(Output.encode(body) + "\n", to: .standardError)
        } else {
            Output.write("poddoc: \(TerminalText.oneLine(failure.message))\n", to: .standardError)
        }
    }

    /// JSON with sorted keys and ISO 8601 dates: the stable shape scripts read.
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // The shapes are structs of strings, numbers, dates and arrays: encoding cannot fail.
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}

/// `{"error": {"code": …, "message": …, "exitStatus": …}}` on standard error with `--json`.
struct FailureShape: Encodable {
    struct Body: Encodable {
        let code: String
        let message: String
        let exitStatus: Int32
    }
    let error: Body
}

/// The data a one-shot command prints about work that is not saved yet: it reaches standard
/// output only once the save committed (``flush()``), so that a failed save or a signal never
/// leaves a report of success behind.
final class HeldOutput: Sendable {
    private let text = Mutex("")

    func append(_ line: String) {
        text.withLock { $0 += line }
    }

    /// Prints what was held, once.
    func flush() {
        let held = text.withLock { text in
            defer { text = "" }
            return text
        }
        if !held.isEmpty { Output.write(held, to: .standardOutput) }
    }
}
