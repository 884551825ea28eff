import Foundation
import Glibc

// MARK: - Loopback sockets

/// A TCP socket bound to a port the system picks on 127.0.0.1, for tests of servers that
/// refuse, hang or are missing: close it (``close()``) and nothing listens on ``port``; ask
/// for `listening` and connections are accepted by the kernel but never answered.
public struct LoopbackSocket {
    /// The socket's file descriptor.
    public let descriptor: Int32
    /// The port it is bound to.
    public let port: Int

    /// Binds a new socket (and listens, when `listening`).
    ///
    /// - Throws: `POSIXError` with the failing call's `errno`.
    public init(listening: Bool) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && (!listening || listen(descriptor, 4) == 0)
                    && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            Glibc.close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the socket: nothing listens on ``port`` any more.
    public func close() {
        Glibc.close(descriptor)
    }
}
