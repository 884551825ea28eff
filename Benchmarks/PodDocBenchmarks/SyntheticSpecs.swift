import Foundation
import PodDocArchive
import PodDocBenchmarkSupport
import PodSpecs
import PodSpecsServer

/// Names and versions from the real CocoaPods CDN index (`all_pods_versions_*.txt`), packed
/// into one byte buffer, and spec JSON made from them on demand: realistic shapes (the three
/// authors shapes, both license shapes, git and http sources, null deployment targets).
struct SyntheticCatalog: SpecsCatalog {
    private let bytes: [UInt8]
    /// Start of each `name/version` in `bytes`, plus the end.
    private let offsets: [Int32]

    var specCount: Int { offsets.count - 1 }

    /// Reads the index archive; nil (with a message) when it is absent.
    static func load(sharedData: URL, limit: Int? = nil) throws -> SyntheticCatalog? {
        let archive = sharedData.appending(path: "cocoapods-cdn-index-2024.tar.gz")
        guard FileManager.default.fileExists(atPath: archive.path) else {
            FileHandle.standardError.write(Data("skipped: \(archive.path) is missing (set PODDOC_SHARED_DATA)\n".utf8))
            return nil
        }
        let folder = try scratchFolder("cdn-index")
        defer { try? FileManager.default.removeItem(at: folder) }
        let extracted = folder.appending(path: "index")
        try Archive.extract(archive: archive, into: extracted)
        let shards = try FileManager.default.contentsOfDirectory(atPath: extracted.path)
            .filter { $0.hasPrefix("all_pods_versions_") }.sorted()
        var bytes: [UInt8] = []
        var offsets: [Int32] = [0]
        bytes.reserveCapacity(24 << 20)
        outer: for shard in shards {
            let text = try String(contentsOf: extracted.appending(path: shard), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "/")
                guard let name = parts.first else { continue }
                for version in parts.dropFirst() {
                    bytes += Array(name.utf8)
                    bytes.append(UInt8(ascii: "/"))
                    bytes += Array(version.utf8)
                    offsets.append(Int32(bytes.count))
                    if let limit, offsets.count > limit { break outer }
                }
            }
        }
        return SyntheticCatalog(bytes: bytes, offsets: offsets)
    }

    /// The name and version of spec `i`.
    func nameAndVersion(_ i: Int) -> (String, String) {
        let slice = bytes[Int(offsets[i])..<Int(offsets[i + 1])]
        let slash = slice.firstIndex(of: UInt8(ascii: "/"))!
        return (String(decoding: slice[..<slash], as: UTF8.self), String(decoding: slice[(slash + 1)...], as: UTF8.self))
    }

    /// Spec `i` as JSON (about 450 bytes, like a small real spec).
    func json(_ i: Int) -> String {
        let (name, version) = nameAndVersion(i)
        var out = "{\"name\":"
        quote(name, &out)
        out += ",\"version\":"
        quote(version, &out)
        out +=
            ",\"summary\":\"A library that makes \(words[i % words.count]) and \(words[(i / 7) % words.count]) simple for iOS developers.\""
        if i % 3 == 0 {
            out +=
                ",\"description\":\"Handles \(words[(i / 3) % words.count]) with a small, well-tested API; supports caching, retries and background queues.\""
        }
        out += ",\"homepage\":\"https://github.com/example/"
        out += name.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        out += "\""
        switch i % 10 {
        case 0...4: out += ",\"license\":\"MIT\""
        default: out += ",\"license\":{\"type\":\"Apache 2.0\",\"file\":\"LICENSE\"}"
        }
        switch i % 100 {
        case 0: out += ",\"authors\":[\"Ann Example\",\"Bob Example\"]"
        case 1...9: out += ",\"authors\":\"Example Team\""
        default: out += ",\"authors\":{\"Ann Example\":\"ann@example.com\"}"
        }
        if i % 20 == 0 {
            out += ",\"source\":{\"http\":\"https://example.com/\(i).zip\"}"
        } else {
            out += ",\"source\":{\"git\":\"https://github.com/example/pod\(i).git\",\"tag\":"
            quote(version, &out)
            out += "}"
        }
        out += i % 6 == 0 ? ",\"platforms\":{\"ios\":null}" : ",\"platforms\":{\"ios\":\"12.0\",\"osx\":\"10.13\"}"
        out += ",\"requires_arc\":true,\"source_files\":\"Sources/**/*.{h,m,swift}\",\"frameworks\":[\"Foundation\",\"UIKit\"]}"
        return out
    }

    private func quote(_ text: String, _ out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// A page body in the reference format.
    func page(_ index: Int, size: Int) -> String {
        let pages = (specCount + size - 1) / size
        let range = (index * size)..<min(specCount, index * size + size)
        return "{\"number_of_pages\":\(pages),\"result\":[" + range.map(json).joined(separator: ",") + "]}"
    }

    func count() async throws -> Int { specCount }

    func json(in range: Range<Int>) async throws -> [String] {
        range.clamped(to: 0..<specCount).map(json)
    }
}

private let words = [
    "networking", "JSON parsing", "image caching", "layout", "animations", "logging",
    "keychain access", "analytics", "charts", "date formatting", "websockets", "maps",
    "audio playback", "camera capture", "localization", "PDF rendering", "push messages",
]
