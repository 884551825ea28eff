import Foundation
import Glibc

// MARK: - StateDirectory

/// The per-user folder where poddoc keeps state such as autosave working copies:
/// `$XDG_STATE_HOME/poddoc/`, or `~/.local/state/poddoc/` when that variable is unset, empty
/// or relative (as the XDG Base Directory specification requires).
public enum StateDirectory {
    /// Where the state folder is, without creating it.
    ///
    /// - Parameter environment: The environment to read `XDG_STATE_HOME` and `HOME` from.
    /// - Returns: The `poddoc` state folder.
    /// - Throws: ``FileSystemError/Code-swift.struct/notFound`` when neither variable is usable
    ///   and the user has no home folder in the password database.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("poddoc", isDirectory: true)
        }
        let home: String
        if let value = environment["HOME"], value.hasPrefix("/") {
            home = value
        } else if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
            home = String(cString: directory)
        } else {
            throw FileSystemError(
                code: .notFound,
                message:
                    "Cannot find a folder for poddoc's state: HOME and XDG_STATE_HOME are not set. Set one of them to an absolute path.",
                path: "")
        }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/poddoc", isDirectory: true)
    }

    /// Returns the state folder, creating it (and missing parents) with mode `0700`.
    ///
    /// An existing `poddoc` folder that others can read is tightened to `0700`, since it holds
    /// copies of the user's documents. Existing parent folders are left as they are.
    ///
    /// - Parameters:
    ///   - environment: The environment to read `XDG_STATE_HOME` and `HOME` from.
    ///   - fileSystem: The file system to go through.
    /// - Returns: The `poddoc` state folder.
    /// - Throws: ``FileSystemError`` if a folder cannot be created, or if a file is in the way
    ///   (``FileSystemError/Code-swift.struct/notADirectory``).
    public static func create(
        environment: [String: String] = ProcessInfo.processInfo.environment, fileSystem: FileSystem = FileSystem()
    ) throws -> URL {
        let directory = try url(environment: environment)
        try createChain(directory.path, fileSystem: fileSystem)
        var status = stat()
        if lstat(directory.path, &status) == 0, status.st_mode & 0o777 != 0o700, chmod(directory.path, 0o700) != 0 {
            let code = errno
            throw FileSystemError(
                code: FileSystemError.Code(errno: code),
                message:
                    "Cannot make poddoc's state folder '\(directory.path)' private (chmod 0700): \(describeErrno(code)). Check that you own it.",
                path: directory.path, errno: code)
        }
        return directory
    }

    /// Creates `path` and its missing parents with mode `0700`.
    private static func createChain(_ path: String, fileSystem: FileSystem) throws {
        switch fileSystem.itemKind(atPath: path) {
        case .directory?:
            return
        case nil:
            try createChain(TemporarySibling.parent(of: path), fileSystem: fileSystem)
            do {
                try fileSystem.makeDirectory(path, mode: 0o700)
            } catch let error as FileSystemError where error.errno == EEXIST {
                return  // Created concurrently by another process.
            }
        case .some:
            throw FileSystemError(
                code: .notADirectory,
                message:
                    "Cannot create poddoc's state folder: '\(path)' exists but is not a folder. Move it away, or set XDG_STATE_HOME to another folder.",
                path: path)
        }
    }
}
