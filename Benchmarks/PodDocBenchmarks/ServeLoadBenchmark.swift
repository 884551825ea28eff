import Foundation
import PodDocBenchmarkSupport
import PodDocStore
import PodSpecs
import PodSpecsServer

/// Load on the specs server: 50 importing clients at once over loopback, each a real
/// `SpecsImporter` into a store of its own, in several rounds. Reports failed imports, the
/// requests served, and the process's resident memory after each round (flat if the server
/// keeps nothing per client). Server and clients share the process; each round's clients
/// close and delete their stores before the memory is read.
enum ServeLoadBenchmark {
    static let clients = 50
    static let rounds = 4
    static let specs = 5_000
    static let pageSize = 100

    static func run() async throws -> [String] {
        guard let catalog = try SyntheticCatalog.load(sharedData: SpecsImportBenchmark.sharedData, limit: specs) else { return [] }
        let server = SpecsServer(catalog: catalog, configuration: .init(pageSize: pageSize))
        _ = try await server.start()
        let configuration = try SpecsServiceConfiguration(baseURL: server.baseURL!)
        let folder = try scratchFolder("serve-load")
        defer { try? FileManager.default.removeItem(at: folder) }
        var rows = ["| round | clients | imports failed | requests | seconds | RSS after (MiB) |", "|---|---|---|---|---|---|"]
        for round in 1...rounds {
            let started = ContinuousClock.now
            let outcomes = await withTaskGroup(of: Int?.self) { group in
                for client in 0..<clients {
                    group.addTask { try? await importAll(configuration, into: folder.appending(path: "client-\(round)-\(client)")) }
                }
                return await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let failed = outcomes.count { $0 == nil }
            let pages = outcomes.compactMap { $0 }.reduce(0, +)
            rows.append(
                "| \(round) | \(clients) | \(failed) | \(pages) | \(String(format: "%.1f", seconds)) | \(String(format: "%.0f", residentMemoryMiB())) |"
            )
        }
        await server.stop()
        return rows
    }

    /// Imports the whole catalog into a new store; returns the pages fetched.
    private static func importAll(_ configuration: SpecsServiceConfiguration, into file: URL) async throws -> Int {
        let store = try PersistentStore(url: file, model: PodSpecsSchema.makeModel())
        let summary = try await SpecsImporter(root: ObjectContext(store: store)).importService(SpecsClient(configuration: configuration))
        try store.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
        guard summary.isComplete, summary.created == specs else { throw CancellationError() }
        return summary.pages
    }

    /// The process's resident memory now (`VmRSS`), in MiB.
    private static func residentMemoryMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return .nan }
        return kib / 1024
    }
}
