import Crypto
import Foundation
import PodDocArchive
import PodDocTesting
import XCTest

final class ManifestTests: XCTestCase {
    private let items: [String: Data] = [
        "StoreContent/persistentStore": noise(count: 1_500_000, seed: 2),
        "DocumentMetadata.json": Data("{}".utf8),
        "AdditionalContent/100% done.txt": Data("percent".utf8),
        "AdditionalContent/empty/": Data(),
        "zero": Data(),
    ]

    // MARK: - Creating

    func testCreateWritesTheDocumentedFormat() throws {
        let root = try makeTemporaryFolder()
        try makeTree(at: root, items)
        let manifest = try Manifest.create(in: root)
        let paths = ["AdditionalContent/100% done.txt", "DocumentMetadata.json", "StoreContent/persistentStore", "zero"]
        var expected = "# Payload-Oxum: \(1_500_000 + 2 + 7).4\n"
        for path in paths {
            let digest = SHA256.hash(data: items[path]!).map { String(format: "%02x", $0) }.joined()
            expected += "\(digest)  \(path.replacingOccurrences(of: "%", with: "%25"))\n"
        }
        let written = try String(decoding: Data(contentsOf: root.appendingPathComponent(Manifest.fileName)), as: UTF8.self)
        XCTAssertEqual(written, expected)
        XCTAssertEqual(manifest.entries.map(\.path), paths)
        XCTAssertEqual(manifest.totalBytes, 1_500_009)
        XCTAssertEqual(try Manifest(parsing: manifest.serialized(), source: "round trip"), manifest)
        XCTAssertEqual(try Manifest.verify(directory: root), manifest)
    }

    func testSha256sumChecksTheSameFile() throws {
        let root = try makeTemporaryFolder()
        try makeTree(at: root, ["a.txt": Data("a".utf8), "dir/b.bin": noise(count: 4096, seed: 4)])
        try Manifest.create(in: root)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = ["--check", "--quiet", Manifest.fileName]
        process.currentDirectoryURL = root
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testExcludedPathsStayOutOfTheManifest() throws {
        let root = try makeTemporaryFolder()
        try makeTree(at: root, ["a.txt": Data("a".utf8), ".poddoc-lock": Data("{}".utf8)])
        let manifest = try Manifest.create(in: root, excluding: [".poddoc-lock"])
        XCTAssertEqual(manifest.entries.map(\.path), ["a.txt"])
        try Manifest.verify(directory: root, excluding: [".poddoc-lock"])
        let error = try expectArchiveError { try Manifest.verify(directory: root) }
        XCTAssertEqual(error.code, .extraFile)
        XCTAssertEqual(error.entry, ".poddoc-lock")
    }

    // MARK: - Written while archiving

    /// An archive written with `includesManifest` carries the manifest the tree's files have,
    /// as its last entry when it sorts last (hashed in the same pass), and at its sorted place
    /// otherwise; extraction that requires it accepts the archive.
    func testArchiveWritesTheManifestOfItsFiles() throws {
        let trees: [String: [String: Data]] = [
            "sorts last": [
                "StoreContent/persistentStore": noise(count: 2_500_000, seed: 9), "DocumentMetadata.json": Data("{}".utf8),
                "AdditionalContent/100% done.txt": Data("percent".utf8),
            ],
            "sorts inside": items,
        ]
        for (name, tree) in trees {
            let work = try makeTemporaryFolder()
            let root = work.appendingPathComponent("tree")
            try makeTree(at: root, tree)
            let expected = try Manifest.compute(for: root)
            for format in ArchiveFormat.allCases {
                let archive = work.appendingPathComponent("a.\(format.fileExtension)")
                try Archive.write(directory: root, to: archive, options: ArchiveWriteOptions(modificationTime: 0, includesManifest: true))
                let out = work.appendingPathComponent("out-\(format)")
                try Archive.extract(archive: archive, into: out, manifestPolicy: .require)
                let written = try Manifest(parsing: Data(contentsOf: out.appendingPathComponent(Manifest.fileName)), source: name)
                XCTAssertEqual(written, expected, "\(name), \(format)")
            }
            // The source tree itself is left as it was: no manifest file written into it.
            XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(Manifest.fileName).path), name)
        }
    }

    /// A manifest left in the tree (say, by an older export) is replaced, never archived twice.
    func testAStaleManifestInTheTreeIsReplaced() throws {
        let work = try makeTemporaryFolder()
        let root = work.appendingPathComponent("tree")
        try makeTree(at: root, ["a.txt": Data("a".utf8), Manifest.fileName: Data("# Payload-Oxum: 9.9\n".utf8)])
        let archive = work.appendingPathComponent("a.tar.zst")
        try Archive.write(directory: root, to: archive, options: ArchiveWriteOptions(modificationTime: 0, includesManifest: true))
        let out = work.appendingPathComponent("out")
        try Archive.extract(archive: archive, into: out, manifestPolicy: .require)
        XCTAssertEqual(try Manifest.read(from: out).entries.map(\.path), ["a.txt"])
    }

    // MARK: - Tampering

    func testEachKindOfTamperingIsDetected() throws {
        let tampering: [(String, ArchiveError.Code, String, (URL) throws -> Void)] = [
            (
                "missing", .missingFile, "DocumentMetadata.json",
                { root in
                    try FileManager.default.removeItem(at: root.appendingPathComponent("DocumentMetadata.json"))
                }
            ),
            (
                "extra", .extraFile, "StoreContent/persistentStore-wal",
                { root in
                    try Data("wal".utf8).write(to: root.appendingPathComponent("StoreContent/persistentStore-wal"))
                }
            ),
            (
                "size", .sizeMismatch, "StoreContent/persistentStore",
                { root in
                    let handle = try FileHandle(forWritingTo: root.appendingPathComponent("StoreContent/persistentStore"))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data([0]))
                    try handle.close()
                }
            ),
            (
                "hash", .hashMismatch, "DocumentMetadata.json",
                { root in
                    try Data("{]".utf8).write(to: root.appendingPathComponent("DocumentMetadata.json"))  // same size
                }
            ),
        ]
        for (label, code, path, tamper) in tampering {
            let root = try makeTemporaryFolder()
            try makeTree(at: root, items)
            try Manifest.create(in: root)
            try tamper(root)
            let error = try expectArchiveError { try Manifest.verify(directory: root) }
            XCTAssertEqual(error.code, code, "\(label): \(error.message)")
            XCTAssertEqual(error.entry, path, "\(label): \(error.message)")
            XCTAssertTrue(error.message.contains("'\(path)'"), "\(label): \(error.message)")
            XCTAssertTrue(error.message.contains(root.path), "\(label): \(error.message)")
        }
    }

    func testTamperedPayloadOxumIsDetected() throws {
        let root = try makeTemporaryFolder()
        try makeTree(at: root, ["a.txt": Data("abc".utf8)])
        try Manifest.create(in: root)
        let file = root.appendingPathComponent(Manifest.fileName)
        let text = try String(decoding: Data(contentsOf: file), as: UTF8.self)
        try Data(text.replacingOccurrences(of: "Payload-Oxum: 3.1", with: "Payload-Oxum: 4.1").utf8).write(to: file)
        let error = try expectArchiveError { try Manifest.verify(directory: root) }
        XCTAssertEqual(error.code, .invalidManifest)
        XCTAssertTrue(error.message.contains("Payload-Oxum"), error.message)
    }

    func testMissingManifestIsReported() throws {
        let root = try makeTemporaryFolder()
        let error = try expectArchiveError { try Manifest.verify(directory: root) }
        XCTAssertEqual(error.code, .manifestMissing)
        XCTAssertTrue(error.message.contains(root.path), error.message)
    }

    // MARK: - Hostile manifests

    func testMalformedManifestsAreRefusedNamingTheLine() throws {
        let hash = String(repeating: "ab", count: 32)
        let cases: [(String, String, String)] = [
            ("no header", "\(hash)  a\n", "line 1"),
            ("bad header", "# Payload-Oxum: 01.1\n\(hash)  a\n", "line 1"),
            ("count mismatch", "# Payload-Oxum: 1.2\n\(hash)  a\n", "header counts 2 files"),
            ("uppercase hex", "# Payload-Oxum: 1.1\n\(hash.uppercased())  a\n", "line 2"),
            ("one space", "# Payload-Oxum: 1.1\n\(hash) a\n", "line 2"),
            ("short hash", "# Payload-Oxum: 1.1\nabc  a\n", "line 2"),
            ("no newline at end", "# Payload-Oxum: 1.1\n\(hash)  a", "line break"),
            ("crlf", "# Payload-Oxum: 1.1\r\n\(hash)  a\r\n", "line 1"),
            ("empty line", "# Payload-Oxum: 1.1\n\n\(hash)  a\n", "line 2"),
            ("traversal", "# Payload-Oxum: 1.1\n\(hash)  ../etc/passwd\n", "'..'"),
            ("absolute", "# Payload-Oxum: 1.1\n\(hash)  /etc/passwd\n", "absolute"),
            ("dot component", "# Payload-Oxum: 1.1\n\(hash)  ./a\n", "line 2"),
            ("bad percent", "# Payload-Oxum: 1.1\n\(hash)  100%.txt\n", "'%'"),
            ("unsorted", "# Payload-Oxum: 2.2\n\(hash)  b\n\(hash)  a\n", "out of order"),
            ("duplicate", "# Payload-Oxum: 2.2\n\(hash)  a\n\(hash)  a\n", "listed twice"),
            ("lists itself", "# Payload-Oxum: 1.1\n\(hash)  manifest-sha256.txt\n", "line 2"),
        ]
        for (label, text, detail) in cases {
            let error = try expectArchiveError { _ = try Manifest(parsing: Data(text.utf8), source: "/x/manifest-sha256.txt") }
            XCTAssertEqual(error.code, .invalidManifest, label)
            XCTAssertTrue(error.message.contains("/x/manifest-sha256.txt"), "\(label): \(error.message)")
            XCTAssertTrue(error.message.contains(detail), "\(label): \(error.message)")
        }
        let binary = try expectArchiveError { _ = try Manifest(parsing: Data([0xFF, 0x0A]), source: "m") }
        XCTAssertTrue(binary.message.contains("not valid UTF-8"), binary.message)
    }

    // MARK: - With extraction

    func testExtractionVerifiesTheManifest() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("source")
        try makeTree(at: source, items)
        try Manifest.create(in: source)
        try Data("{]".utf8).write(to: source.appendingPathComponent("DocumentMetadata.json"))  // same size
        let archive = work.appendingPathComponent("doc.tar.zst")
        try Archive.write(directory: source, to: archive, options: ArchiveWriteOptions(modificationTime: 0))
        let parent = work.appendingPathComponent("extract-here")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
        let error = try expectArchiveError { try Archive.extract(archive: archive, into: parent.appendingPathComponent("doc")) }
        XCTAssertEqual(error.code, .hashMismatch)
        XCTAssertEqual(error.entry, "DocumentMetadata.json")
        XCTAssertTrue(error.message.contains(archive.path), error.message)
        XCTAssertEqual(try names(in: parent), [])
    }

    func testRequiredManifestMustBePresent() throws {
        let work = try makeTemporaryFolder()
        let source = work.appendingPathComponent("source")
        try makeTree(at: source, ["a.txt": Data("a".utf8)])
        let archive = work.appendingPathComponent("doc.zip")
        try Archive.write(directory: source, to: archive, options: ArchiveWriteOptions(modificationTime: 0))
        let destination = work.appendingPathComponent("doc")
        let error = try expectArchiveError { try Archive.extract(archive: archive, into: destination, manifestPolicy: .require) }
        XCTAssertEqual(error.code, .manifestMissing)
        XCTAssertTrue(error.message.contains(archive.path), error.message)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))

        try Manifest.create(in: source)
        try Archive.write(directory: source, to: archive, options: ArchiveWriteOptions(modificationTime: 0))
        try Archive.extract(archive: archive, into: destination, manifestPolicy: .require)
        XCTAssertEqual(try names(in: destination), ["a.txt", Manifest.fileName])
    }
}
