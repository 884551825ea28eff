import Foundation
import Glibc

// MARK: - LockHolder

/// Who holds a document lock, as recorded in the lock file (JSON).
///
/// ```json
/// {"acquiredAt":"2025-01-02T03:04:05Z","host":"box","pid":4242,"toolVersion":"0.1.0","user":"ann"}
/// ```
public struct LockHolder: Codable, Sendable, Hashable {
    /// The holder's process id.
    public var pid: Int32
    /// The host name of the holder's machine.
    public var host: String
    /// The holder's user name.
    public var user: String
    /// When the lock was acquired.
    public var acquiredAt: Date
    /// The version of the tool that took the lock.
    public var toolVersion: String

    /// Creates a holder record.
    ///
    /// - Parameters:
    ///   - pid: The holder's process id.
    ///   - host: The host name of the holder's machine.
    ///   - user: The holder's user name.
    ///   - acquiredAt: When the lock was acquired.
    ///   - toolVersion: The version of the tool that took the lock.
    public init(pid: Int32, host: String, user: String, acquiredAt: Date, toolVersion: String) {
        self.pid = pid
        self.host = host
        self.user = user
        self.acquiredAt = acquiredAt
        self.toolVersion = toolVersion
    }

    /// A record describing this process, now.
    ///
    /// - Parameter toolVersion: The version of the tool taking the lock.
    public static func currentProcess(toolVersion: String) -> LockHolder {
        LockHolder(
            pid: getpid(), host: currentHostName(), user: currentUserName(),
            acquiredAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)),
            toolVersion: toolVersion)
    }

    /// Whether the holder's process is still running: `nil` when it ran on another host, where
    /// this cannot be checked.
    public var isRunning: Bool? {
        guard host == Self.currentHostName() else { return nil }
        return kill(pid, 0) == 0 || errno == EPERM
    }

    /// `pid N on host H (user U, since T, poddoc V)`, for messages.
    var summary: String {
        let since = ISO8601DateFormatter().string(from: acquiredAt)
        return "pid \(pid) on host \(host) (user \(user), since \(since), \(toolVersion))"
    }

    // MARK: Encoding

    /// The JSON stored in the lock file.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Decodes the JSON stored in a lock file.
    static func decode(_ data: Data) throws -> LockHolder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(LockHolder.self, from: data)
    }

    // MARK: This process

    private static func currentHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown-host" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func currentUserName() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name {
            return String(cString: name)
        }
        return ProcessInfo.processInfo.environment["USER"] ?? "uid \(geteuid())"
    }
}
