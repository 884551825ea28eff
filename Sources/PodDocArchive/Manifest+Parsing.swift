import Foundation

// MARK: - Parsing

extension Manifest {
    /// Parses a manifest file strictly; it is hostile input like any archive content.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - source: What to call the file in errors, e.g. its path.
    /// - Throws: ``ArchiveError/Code-swift.struct/invalidManifest`` naming the line and what is
    ///   wrong with it.
    public init(parsing data: Data, source: String) throws {
        func invalid(_ line: Int?, _ problem: String, entry: String? = nil) -> ArchiveError {
            let location = line.map { "line \($0) of " } ?? ""
            return ArchiveError(
                code: .invalidManifest,
                message: "The manifest \(location)'\(source)' is invalid: \(problem). Create the manifest again.",
                archive: source, entry: entry)
        }
        guard data.count <= Self.maximumSize else {
            throw invalid(nil, "it is larger than \(Self.maximumSize) bytes")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw invalid(nil, "it is not valid UTF-8")
        }
        guard text.utf8.last == UInt8(ascii: "\n") else {
            throw invalid(nil, "it does not end with a line break")
        }
        let lines = text.utf8.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard let (totalBytes, fileCount) = Self.parseHeader(lines[0]) else {
            throw invalid(1, "expected '# Payload-Oxum: <bytes>.<files>', found \(quoted(String(decoding: lines[0], as: UTF8.self)))")
        }
        var entries: [Entry] = []
        for (index, line) in lines.dropFirst().enumerated() {
            let number = index + 2
            let text = String(decoding: line, as: UTF8.self)
            let bytes = Array(line)
            guard bytes.count > 66, bytes[..<64].allSatisfy(Self.isLowercaseHexDigit),
                bytes[64] == UInt8(ascii: " "), bytes[65] == UInt8(ascii: " ")
            else {
                throw invalid(number, "expected '<64 lowercase hex digits>  <path>', found \(quoted(text))")
            }
            let encoded = String(decoding: bytes[66...], as: UTF8.self)
            guard let decoded = Self.percentDecoded(encoded) else {
                throw invalid(number, "the path \(quoted(encoded)) has a '%' not followed by '25'", entry: encoded)
            }
            let path: EntryPath
            do {
                path = try EntryPath.validating(decoded)
            } catch {
                throw invalid(number, "the path \(quoted(decoded)) \(error.reason)", entry: decoded)
            }
            guard path.string.utf8.elementsEqual(decoded.utf8), decoded != Self.fileName else {
                throw invalid(number, "the path \(quoted(decoded)) is not a plain relative path of a listed file", entry: decoded)
            }
            if let last = entries.last, !last.path.utf8.lexicographicallyPrecedes(decoded.utf8) {
                let problem = last.path == decoded ? "is listed twice" : "is out of order (paths must be sorted by bytes)"
                throw invalid(number, "the path \(quoted(decoded)) \(problem)", entry: decoded)
            }
            entries.append(Entry(path: decoded, sha256: String(decoding: bytes[..<64], as: UTF8.self)))
        }
        guard entries.count == fileCount else {
            throw invalid(1, "the header counts \(fileCount) files but \(entries.count) are listed")
        }
        self.init(entries: entries, totalBytes: totalBytes)
    }

    // MARK: Helpers

    private static let headerPrefix = Array("# Payload-Oxum: ".utf8)

    /// Parses `# Payload-Oxum: <bytes>.<files>`.
    private static func parseHeader(_ line: Substring.UTF8View.SubSequence) -> (Int64, Int)? {
        guard line.starts(with: headerPrefix) else { return nil }
        let fields = line.dropFirst(headerPrefix.count).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard fields.count == 2, let bytes = parseCount(fields[0]), let files = parseCount(fields[1]) else { return nil }
        return (bytes, Int(files))
    }

    /// A decimal count without sign or leading zeros.
    private static func parseCount(_ digits: Substring.UTF8View.SubSequence) -> Int64? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.count == 1 || digits.first != UInt8(ascii: "0")
        else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// Undoes the `%25` escape; `nil` for any other use of `%`.
    private static func percentDecoded(_ encoded: String) -> String? {
        let parts = encoded.components(separatedBy: "%25")
        guard parts.allSatisfy({ !$0.contains("%") }) else { return nil }
        return parts.joined(separator: "%")
    }
}
