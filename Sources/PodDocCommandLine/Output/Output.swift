import Foundation

/// Where a command prints: data on standard output (as text or as JSON), messages and
/// progress on standard error. Writes go straight to the file descriptors, unbuffered, so
/// lines from the shell, its autosave reports and a progress bar come out in order.
struct Output: Sendable {
    /// Print data as JSON.
    let json: Bool

    /// Prints `value` as JSON, or `text` (a line break is added when missing).
    func emit<T: Encodable>(_ value: T, text: @autoclosure () -> String) {
        if json {
            Output.write(Output.encode(value) + "\n", to: .standardOutput)
        } else {
            line(text())
        }
    }

    /// Prints data text on standard output; nothing for an empty text.
    func line(_ text: String) {
        guard !text.isEmpty else { return }
        Output.write(text.hasSuffix("\n") ? text : text + "\n", to: .standardOutput)
    }

    /// Prints a message on standard error (never data, so scripts can read standard output).
    func message(_ text: String) {
        Output.write(text + "\n", to: .standardError)
    }

    /// Reports a failure on standard error: `poddoc: message`, or a JSON object with `--json`.
    func failure(_ failure: CommandFailure) {
        if json {
            let body = FailureShape(error: .init(code: failure.code, message: failure.message, exitStatus: failure.status.rawValue))
            Output.write(Output.encode(body) + "\n", to: .standardError)
        } else {
            Output.write("poddoc: \(failure.message)\n", to: .standardError)
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
