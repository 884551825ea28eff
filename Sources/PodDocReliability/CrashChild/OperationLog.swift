import Foundation

// MARK: - OperationLog

/// The child's most recent operations (edits with the objects they touched, saves, undo),
/// printed on standard error when the child stops on its own, so that a failure can be
/// replayed step by step as a store-level test.
@MainActor
final class OperationLog {
    /// How many operations are kept: a failing save usually follows the few dozen edits
    /// made since the previous one, and a few hundred lines still fit a report.
    static let capacity = 300

    private var entries: [String] = []
    private var next = 0
    private var count = 0

    /// Records one operation.
    func record(_ operation: String) {
        count += 1
        let line = "\(count) \(operation)"
        if entries.count < Self.capacity {
            entries.append(line)
        } else {
            entries[next] = line
            next = (next + 1) % Self.capacity
        }
    }

    /// The kept operations, oldest first, one per line, behind a heading.
    var report: String {
        let kept = Array(entries[next...] + entries[..<next])
        let skipped = count - kept.count
        return "the child's last \(kept.count) operations\(skipped > 0 ? " (\(skipped) earlier ones not kept)" : ""):\n"
            + kept.joined(separator: "\n")
    }
}
