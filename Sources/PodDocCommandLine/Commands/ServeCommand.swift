import ArgumentParser
import Foundation
import PodDocContent
import PodDocDocument
import PodSpecs
import PodSpecsServer

/// `poddoc serve SOURCE`: serve specs over HTTP, as the reference service does.
struct ServeCommand: PodDocCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve specs over HTTP (GET /specs?page=N) from a pods document, a Specs folder or a page file.",
        discussion: Examples.discussion(
            "Prints the URL to import from (`poddoc import DOC --from URL`) and serves until Ctrl-C, SIGTERM or SIGHUP.",
            [
                "poddoc serve Specs.poddoc --port 8080",
                "poddoc serve specs.json --port 0 --page-size 50   # 0: a free port, printed",
            ]))

    @Argument(help: "A pods document, a Specs folder, or a page file (.json).", completion: .file())
    var source: String

    @Option(help: "The address to listen on (this machine only, by default).")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "The port (0 picks a free one).")
    var port = 8080

    @Option(help: "Specs per page.")
    var pageSize = 20

    @OptionGroup var outputOptions: OutputOptions
    var json: Bool { outputOptions.json }

    /// What `serve` prints with `--json` once it listens.
    struct Shape: Encodable {
        let url: String
        let port: Int
        let specs: Int
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("The port must be 0…65535, not \(port).") }
        guard pageSize >= 1 else { throw ValidationError("A page holds at least one spec.") }
    }

    func execute() async throws {
        let (catalog, document) = try await openCatalog()
        let server = SpecsServer(catalog: catalog, configuration: .init(host: host, port: port, pageSize: pageSize))
        let bound = try await server.start()
        let specs = try await catalog.count()
        let url = server.baseURL?.absoluteString ?? "http://\(host):\(bound)/specs"
        outputOptions.output.emit(Shape(url: url, port: bound, specs: specs), text: "Serving \(specs) specs at \(url) (Ctrl-C to stop)")
        // Serve until Ctrl-C (which cancels the wait) or SIGTERM/SIGHUP (which ends it).
        let (stop, stopping) = AsyncStream<Int32>.makeStream()
        TerminationSignals.onTermination { number in stopping.yield(number) }
        let stoppedBy = try? await Interrupts.shared.run { () -> Int32? in
            for await number in stop { return number }
            return nil
        }
        await server.stop()
        try await document?.close()
        outputOptions.output.message("Stopped serving.")
        // Stopped by SIGTERM or SIGHUP: the exit status says so (143, 129), as the table does.
        if let stoppedBy = stoppedBy.flatMap({ $0 }) { throw ShellExit(status: Interrupts.status(for: stoppedBy)) }
    }

    /// The catalog of the source, and the document behind it to close at the end.
    @MainActor
    private func openCatalog() async throws -> (any SpecsCatalog, ManagedDocument?) {
        let url = URL(fileURLWithPath: source)
        if !source.contains("://") && !FileManager.default.fileExists(atPath: source) {
            throw CommandFailure(
                .document, code: "notFound", "\(source) does not exist; give a pods document, a Specs folder or a page file (.json).")
        }
        let isDocument =
            url.pathExtension == "poddoc" || DocumentFormat(inferringFrom: url).isArchive
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("DocumentMetadata.json").path)
        if isDocument {
            let location = try DocumentArgument.parse([source])
            let document = try await DocumentAccess.open(location, mode: .readAlongsideEditors, kind: .pods, command: "poddoc serve")
            return (try StoreSpecsCatalog(store: document.rootContext.store), document)
        }
        switch try SpecsSource(source) {
        case .folder(let folder): return (try FolderSpecsCatalog(folder: folder), nil)
        case .pageFile(let file): return (try PageFileSpecsCatalog(file: file), nil)
        case .service:
            throw CommandFailure(
                .usage, code: "usage", "serve serves local specs: give a pods document, a Specs folder or a page file, not a URL.")
        }
    }
}
