import Foundation
import PodDocFileSystem
import PodDocStore

/// Writes the specs of a store out: as pages of the web service's format, as a `Specs/` tree
/// of `.podspec.json` files, or as CSV.
///
/// Specs are written as their original JSON, byte for byte, in list order (name, then
/// version order). Every file goes through `PodDocFileSystem.FileSystem`'s safe save
/// (temporary file, `fsync`, rename, `fsync` of the folder); a folder export is built beside
/// its target and swapped into place whole, so a failure leaves the previous one intact.
/// The store is read in one transaction: a consistent snapshot, during which saves wait.
/// Call it off the main actor.
///
/// ```swift
/// let summary = try SpecsExporter(store: store).exportTree(to: URL(fileURLWithPath: "Specs"))
/// ```
public struct SpecsExporter: Sendable {
    typealias E = PodSpecsSchema.PodSpecEntity

    /// The store read.
    public let store: PersistentStore
    /// The file system written through.
    public let fileSystem: FileSystem
    /// Whether an existing target is replaced (swapped out whole once the export is
    /// complete); when false, an existing target is an error and is left as it is.
    public let replacesExisting: Bool

    /// Makes an exporter.
    ///
    /// - Parameters:
    ///   - store: The store to read.
    ///   - fileSystem: The file system to write through.
    ///   - replacingExisting: Whether an existing file or folder at the target may be
    ///     replaced; when false, the export refuses it (`.fileSystem`, `alreadyExists`).
    public init(store: PersistentStore, fileSystem: FileSystem = FileSystem(), replacingExisting: Bool = true) {
        self.store = store
        self.fileSystem = fileSystem
        self.replacesExisting = replacingExisting
    }

    // MARK: - Pages

    /// Writes a folder of page files `page-0.json`, `page-1.json`… in the web service's format.
    ///
    /// - Parameters:
    ///   - folder: The folder to create (replaced whole if it exists and ``replacesExisting``).
    ///   - pageSize: Specs per page.
    /// - Throws: ``PodSpecsError`` (`.store`, `.fileSystem`); the previous folder is kept.
    /// - Precondition: `pageSize` is at least 1.
    @discardableResult
    public func exportPages(to folder: URL, pageSize: Int = 20) throws -> ExportSummary {
        precondition(pageSize >= 1, "a page holds at least one spec")
        var summary = ExportSummary()
        try run("export pages to \(folder.path)") { snapshot in
            let count = try snapshot.count(SpecsQueries.listRequest())
            let pages = (count + pageSize - 1) / pageSize
            let cursor = try snapshot.rows(SpecsQueries.listRequest(), reading: [E.json.name])
            try fileSystem.writeDirectory(at: folder, replacingExisting: replacesExisting) { staging in
                for page in 0..<pages {
                    try fileSystem.createFile(at: staging.appending(path: "page-\(page).json")) { sink in
                        var out = PageWriter(sink: sink, numberOfPages: pages)
                        for _ in 0..<pageSize {
                            guard let row = try cursor.next() else { break }
                            try out.append(row[E.json].text)
                            summary.specs += 1
                        }
                        try out.finish()
                    }
                    summary.files += 1
                }
            }
        }
        return summary
    }

    /// Writes every spec as one page file (`number_of_pages` 1), like the sample document.
    ///
    /// - Throws: ``PodSpecsError`` (`.store`, `.fileSystem`); the previous file is kept.
    @discardableResult
    public func exportPageFile(to file: URL) throws -> ExportSummary {
        var summary = ExportSummary(files: 1)
        try run("export a page file to \(file.path)") { snapshot in
            let cursor = try snapshot.rows(SpecsQueries.listRequest(), reading: [E.json.name])
            try fileSystem.write(to: file, replacingExisting: replacesExisting) { sink in
                var out = PageWriter(sink: sink, numberOfPages: 1)
                while let row = try cursor.next() {
                    try out.append(row[E.json].text)
                    summary.specs += 1
                }
                try out.finish()
            }
        }
        return summary
    }

    // MARK: - Specs tree

    /// Writes a `Specs/` folder in the 2014 layout: `Name/version/Name.podspec.json`.
    ///
    /// Every spec is written: a name or version that cannot be a file name as it is (`.`,
    /// `..`, a `/`, a NUL byte, over 200 bytes) is escaped (`SpecFileName`), and an import
    /// of the folder reads every spec back under its own name.
    ///
    /// - Parameter folder: The `Specs` folder to create (replaced whole if it exists and ``replacesExisting``).
    /// - Throws: ``PodSpecsError`` (`.store`, `.fileSystem`); the previous folder is kept.
    @discardableResult
    public func exportTree(to folder: URL) throws -> ExportSummary {
        var summary = ExportSummary()
        try run("export a Specs folder to \(folder.path)") { snapshot in
            let cursor = try snapshot.rows(SpecsQueries.listRequest(), reading: [E.json.name, E.nameKey.name, E.version.name])
            try fileSystem.writeDirectory(at: folder, replacingExisting: replacesExisting) { staging in
                var madeFolders = Set<String>()
                while let row = try cursor.next() {
                    let name = SpecFileName.of(row[E.nameKey])
                    let version = SpecFileName.of(row[E.version])
                    let json = row[E.json].text
                    for path in [name, name + "/" + version] where madeFolders.insert(path).inserted {
                        try fileSystem.createDirectory(at: staging.appending(path: path))
                    }
                    let data = Data(json.utf8)
                    try fileSystem.createFile(at: staging.appending(path: "\(name)/\(version)/\(name).podspec.json")) { sink in
                        try sink.write(data)
                    }
                    summary.bytes += data.count
                    summary.files += 1
                    summary.specs += 1
                }
            }
        }
        return summary
    }

    // MARK: - Reading

    /// Runs `body` on one snapshot of the store; its own errors (a failed write, say) come
    /// out as themselves, not as a store error.
    func run(_ action: String, _ body: (StoreSnapshot) throws -> Void) throws {
        do {
            try store.readSnapshot(body)
        } catch {
            throw PodSpecsError.wrapping(error, while: action)
        }
    }
}

/// Streams `{"number_of_pages":P,"result":[…]}` into a file, spec by spec.
struct PageWriter {
    let sink: FileSink
    let numberOfPages: Int
    private var buffer = ""
    private var count = 0

    init(sink: FileSink, numberOfPages: Int) {
        self.sink = sink
        self.numberOfPages = numberOfPages
        buffer = "{\"number_of_pages\":\(numberOfPages),\"result\":["
    }

    mutating func append(_ json: String) throws {
        if count > 0 { buffer += ",\n" }
        buffer += json
        count += 1
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    mutating func finish() throws {
        buffer += "]}\n"
        try flush()
    }

    private mutating func flush() throws {
        try sink.write(Data(buffer.utf8))
        buffer = ""
    }
}
