import Foundation
import PodDocFileSystem
import PodDocStore

/// The user's ``ReplicaLedger``: one small file a replica in `replicas/` of the state folder
/// (`$XDG_STATE_HOME/poddoc/replicas/<replica>`), holding the newest save number that replica
/// made on this machine. With it, a document put back to an older version at the same place
/// (a `git checkout` of another branch, a backup restored) takes a new identity before its
/// next save, so that its saves and new objects never take names and ids the version that
/// went on already gave.
struct StateReplicaLedger: ReplicaLedger {
    let folder: URL
    private let environment: [String: String]

    /// The ledger of the user's state folder; nil when there is none to use (no home).
    init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let state = try? StateDirectory.url(environment: environment) else { return nil }
        folder = state.appendingPathComponent("replicas", isDirectory: true)
        self.environment = environment
    }

    func newestSave(of replica: String) -> Int64? {
        guard Self.isName(replica), let data = FileManager.default.contents(atPath: file(replica).path) else { return nil }
        return Int64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func note(_ sequence: Int64, of replica: String) {
        guard Self.isName(replica) else { return }
        let fileSystem = FileSystem()
        // Best effort: a state folder that cannot be written costs only the check.
        do {
            if !FileManager.default.fileExists(atPath: folder.path) {
                _ = try StateDirectory.create(environment: environment, fileSystem: fileSystem)
                try fileSystem.createDirectory(at: folder)
            }
            try fileSystem.write(Data("\(sequence)\n".utf8), to: file(replica))
        } catch {}
    }

    private func file(_ replica: String) -> URL { folder.appendingPathComponent(replica) }

    /// Replica ids are 16 hex digits; anything else (a damaged store's) names no file.
    private static func isName(_ replica: String) -> Bool {
        replica.count == 16 && replica.allSatisfy(\.isHexDigit)
    }
}
