import Foundation
import XCTest

/// Importing from a specs service that refuses, fails or hangs, through the real binary: a
/// refused connection fails at once with what to do, and every retry is said on its own line.
final class ServiceFailureTests: CommandLineTestCase {
    /// A port on loopback with nothing listening (bound, then closed).
    private func closedPort() throws -> Int {
        let server = try runPython("import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()")
        return Int(server.trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    private func runPython(_ code: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func testNothingListeningFailsAtOnceWithWhatToDo() throws {
        try succeed("new", path("S.poddoc"), "--kind", "pods")
        let port = try closedPort()
        let started = Date()
        let result = try fail(69, "import", path("S.poddoc"), "--from", "http://127.0.0.1:\(port)/specs")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "a refused connection is not retried until a deadline")
        XCTAssertTrue(result.stderr.contains("Nothing is listening at 127.0.0.1:\(port)"), result.stderr)
    }

    func testEachRetryIsReportedAndTheImportGoesOn() throws {
        try succeed("new", path("S.poddoc"), "--kind", "pods")
        // Page 0 fails once with HTTP 500, then the server answers with the sample page.
        let script = """
        import http.server, sys, threading
        body = open(sys.argv[1], 'rb').read()
        failures = {'left': 1}
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if failures['left'] > 0:
                    failures['left'] -= 1
                    self.send_response(500); self.send_header('Content-Length', '0'); self.end_headers(); return
                self.send_response(200); self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Timer(60, server.shutdown).start()
        server.serve_forever()
        """
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", script, Self.sampleSpecs]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { server.terminate() }
        let port = try XCTUnwrap(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).split(separator: "\n").first)
        let result = try succeed("import", path("S.poddoc"), "--from", "http://127.0.0.1:\(port)/specs")
        XCTAssertTrue(result.stderr.contains("import: page 0: HTTP 500, retrying in 4 s, attempt 2 of 6"), result.stderr)
        XCTAssertTrue(result.stdout.contains("Imported 300 specs"), result.stdout)
    }
}
