import OutlineInterchange
import Outliner
import PodDocArchive
import PodDocDocument
import PodDocFileSystem
import PodDocStore
import PodSpecs

/// A failure reported to the user: one line saying what happened and what to do next, a
/// short code for `--json`, and the exit status.
struct CommandFailure: Error, Sendable, CustomStringConvertible {
    /// The exit status.
    let status: ExitStatus
    /// A stable short name (`locked`, `notADocument`, `malformedJSON` …) for scripts.
    let code: String
    /// What happened and what to do next, on one line.
    let message: String

    init(_ status: ExitStatus, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    var description: String { message }

    /// The failure for an error thrown by poddoc's libraries; nil for errors the argument
    /// parser reports itself (help, usage).
    static func from(_ error: any Error) -> CommandFailure? {
        switch error {
        case let failure as CommandFailure:
            return failure
        case let error as DocumentError:
            return CommandFailure(status(for: error.code), code: error.code.description, error.message)
        case let error as OutlineError:
            let documentCodes: [OutlineError.Code] = [.storeFailed, .damagedDocument, .exportFailed]
            let status: ExitStatus = documentCodes.contains(error.code) ? .document : .badInput
            return CommandFailure(status, code: error.code.description, error.message)
        case let error as PodSpecsError:
            return CommandFailure(status(for: error.code), code: error.code.description, error.message)
        case let error as OutlineFormatError:
            return CommandFailure(.badInput, code: "\(error.code)", error.description)
        case let error as FileSystemError:
            return CommandFailure(.document, code: "fileSystem", error.message)
        case let error as StoreError:
            if error.code == .notInHistory { return CommandFailure(.badInput, code: "notInHistory", error.message) }
            return CommandFailure(error.code == .corrupt ? .integrity : .document, code: "store", error.message)
        case let error as ArchiveError:
            return CommandFailure(.document, code: "archive", error.message)
        case is CancellationError:
            return CommandFailure(.interrupted, code: "interrupted", "Interrupted; what was saved before stays saved.")
        default:
            return nil
        }
    }

    private static func status(for code: DocumentError.Code) -> ExitStatus {
        switch code {
        case .locked, .inConflict, .recoveryAvailable: .locked
        case .corrupt: .integrity
        default: .document
        }
    }

    private static func status(for code: PodSpecsError.Code) -> ExitStatus {
        switch code {
        case .malformedJSON, .invalidSpec, .invalidPage, .invalidArgument: .badInput
        case .network, .httpStatus, .timeout, .server: .unavailable
        default: .document
        }
    }
}
