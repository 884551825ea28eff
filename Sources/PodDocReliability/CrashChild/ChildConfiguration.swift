import Foundation
import PodDocContent
public import PodDocDocument
public import PodDocFileSystem

// MARK: - What the parent tells the child

/// The command line of a crash-test child: which document to edit, how, and where to stop.
///
/// The parent builds it and passes ``arguments`` to the child executable; the child parses
/// them back with ``init(arguments:)``. A tool hosting the child (a hidden `poddoc` subcommand)
/// passes its remaining arguments through unchanged.
public struct ChildConfiguration: Sendable, Hashable {
    /// The document to open, or to create when it does not exist.
    public var document: URL
    /// What the document holds, and so which edits the child makes.
    public var kind: DocumentKind
    /// Seeds the child's choice of edits.
    public var seed: UInt64
    /// The autosave interval, in milliseconds.
    public var autosaveMilliseconds: Int
    /// A folder of spec page files the child imports from (pods documents).
    public var specBatches: URL?
    /// Where the child kills itself inside a save, if anywhere.
    public var crashPoint: CrashPoint?

    /// Describes a child.
    public init(
        document: URL, kind: DocumentKind, seed: UInt64, autosaveMilliseconds: Int,
        specBatches: URL? = nil, crashPoint: CrashPoint? = nil
    ) {
        self.document = document
        self.kind = kind
        self.seed = seed
        self.autosaveMilliseconds = autosaveMilliseconds
        self.specBatches = specBatches
        self.crashPoint = crashPoint
    }

    /// The arguments to start the child with.
    public var arguments: [String] {
        var arguments = [
            "--document", document.path, "--kind", kind.rawValue, "--seed", String(seed),
            "--autosave-ms", String(autosaveMilliseconds),
        ]
        if let specBatches { arguments += ["--spec-batches", specBatches.path] }
        if let crashPoint { arguments += ["--crash-at", crashPoint.argument] }
        return arguments
    }

    /// Parses the arguments ``arguments`` made.
    ///
    /// - Throws: ``CrashTestError`` (`.usage`) naming the argument that is missing or wrong.
    public init(arguments: [String]) throws(CrashTestError) {
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let name = remaining.popFirst() {
            guard name.hasPrefix("--"), let value = remaining.popFirst() else {
                throw CrashTestError(.usage, "Unexpected argument '\(name)'. \(Self.usage)")
            }
            values[String(name.dropFirst(2))] = value
        }
        func required(_ name: String) throws(CrashTestError) -> String {
            guard let value = values[name] else { throw CrashTestError(.usage, "Missing --\(name). \(Self.usage)") }
            return value
        }
        guard let kind = DocumentKind(rawValue: try required("kind")) else {
            throw CrashTestError(.usage, "--kind must be a document kind: pods, outline, or an app's own. \(Self.usage)")
        }
        guard let seed = UInt64(try required("seed")), let milliseconds = Int(try required("autosave-ms")), milliseconds > 0 else {
            throw CrashTestError(.usage, "--seed and --autosave-ms take positive whole numbers. \(Self.usage)")
        }
        self.init(
            document: URL(fileURLWithPath: try required("document")), kind: kind, seed: seed,
            autosaveMilliseconds: milliseconds, specBatches: values["spec-batches"].map { URL(fileURLWithPath: $0) },
            crashPoint: try values["crash-at"].map { (text) throws(CrashTestError) in try CrashPoint(argument: text) })
    }

    static let usage =
        "Usage: --document PATH --kind pods|outline --seed N --autosave-ms N [--spec-batches FOLDER] [--crash-at CALL:SKIP[:PATH-PART]]"
}

// MARK: - CrashPoint

/// A step of a save where the child kills itself (`SIGKILL`): the `skip`+1-th call of
/// `systemCall`, on a path containing `pathPart`, made after the document opened.
///
/// Only saves write files once the document is open, so the child always dies inside one.
public struct CrashPoint: Sendable, Hashable {
    /// The system call to die at.
    public var systemCall: SystemCall
    /// How many matching calls to let through first.
    public var skip: Int
    /// Only calls on paths containing this text match; every path when nil.
    public var pathPart: String?

    /// Describes a crash point.
    public init(systemCall: SystemCall, skip: Int, pathPart: String? = nil) {
        self.systemCall = systemCall
        self.skip = skip
        self.pathPart = pathPart
    }

    /// `call:skip[:path-part]`, as passed to the child.
    var argument: String {
        ([systemCall.rawValue, String(skip)] + (pathPart.map { [$0] } ?? [])).joined(separator: ":")
    }

    init(argument: String) throws(CrashTestError) {
        let parts = argument.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, let call = SystemCall(rawValue: parts[0]), let skip = Int(parts[1]), skip >= 0 else {
            throw CrashTestError(
                .usage,
                "--crash-at takes CALL:SKIP[:PATH-PART] with CALL one of \(SystemCall.allCases.map(\.rawValue).joined(separator: ", ")); got '\(argument)'."
            )
        }
        self.init(systemCall: call, skip: skip, pathPart: parts.count == 3 ? parts[2] : nil)
    }

    /// The fault plan that kills the process there, with its trigger (armed once the
    /// document is open).
    func faultPlan() -> (plan: FaultPlan, trigger: FaultTrigger) {
        let trigger = FaultTrigger(armed: false, skipping: skip)
        let path: FaultPlan.PathMatch = pathPart.map { .containing($0) } ?? .any
        return (FaultPlan([.init(systemCall, errno: 0, path: path, effect: .killProcess, trigger: trigger)]), trigger)
    }
}
