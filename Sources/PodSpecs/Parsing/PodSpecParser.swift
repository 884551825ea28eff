import Foundation
import PodDocJSON
import PodDocStore

/// Reads pod specs from untrusted JSON: single `.podspec.json` files and pages of the specs
/// web service.
///
/// Every failure is a ``PodSpecsError`` naming the file or page and the reason (with line and
/// column for syntax errors); nothing here traps on bad input. Each spec keeps its exact
/// original text (``PodSpec/json``); only the fields poddoc normalises are decoded.
///
/// ```swift
/// let page = try PodSpecParser.parsePage(body, location: "page 3 of http://127.0.0.1:8080/specs")
/// for spec in page.specs { print(spec.key) }
/// ```
public enum PodSpecParser {
    // MARK: - Single specs

    /// Parses one spec (the content of a `.podspec.json` file).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - location: The file, for error messages.
    /// - Throws: ``PodSpecsError`` with code `.malformedJSON` (not JSON, cut short, not UTF-8,
    ///   trailing text) or `.invalidSpec` (JSON, but not a usable spec: no name or version…).
    public static func parseSpec(_ data: Data, location: String) throws -> PodSpec {
        try data.withUnsafeBytes { try parseSpec($0, location: location) }
    }

    /// Parses one spec from raw bytes; see ``parseSpec(_:location:)-(Data,_)``.
    ///
    /// - Throws: ``PodSpecsError`` (`.malformedJSON`, `.invalidSpec`).
    public static func parseSpec(_ raw: UnsafeRawBufferPointer, location: String) throws -> PodSpec {
        try withValidatedUTF8(raw, location: location) { bytes in
            var scanner = JSONScanner(bytes)
            do {
                guard scanner.peek() == UInt8(ascii: "{") else {
                    throw PodSpecsError(.invalidSpec, "\(location) is not a pod spec: its JSON is not an object.", location: location)
                }
                var keys = JSONKeySet()
                let result = try SpecReader.read(&scanner, depth: 0, keys: &keys)
                guard scanner.isAtEnd() else { throw scanner.error("text after the end of the spec") }
                switch result {
                case .success(let spec): return spec
                case .failure(let reason):
                    throw PodSpecsError(.invalidSpec, "\(location) is not a usable pod spec: \(reason).", location: location)
                }
            } catch let error as JSONScanner.SyntaxError {
                throw syntaxError(error, in: bytes, location: location)
            }
        }
    }

    // MARK: - Pages

    /// Parses a page of the specs web service (or a page file on disk).
    ///
    /// Elements of `result` that are well-formed JSON but not usable specs are returned in
    /// ``SpecsPage/rejected``; a syntax error anywhere fails the whole page.
    ///
    /// - Parameters:
    ///   - data: The page's bytes.
    ///   - index: The page number.
    ///   - location: The page (URL or file), for error messages.
    /// - Throws: ``PodSpecsError`` with code `.malformedJSON` or `.invalidPage` (no
    ///   `number_of_pages`, a `result` that is neither an array nor null…).
    public static func parsePage(_ data: Data, index: Int = 0, location: String) throws -> SpecsPage {
        try data.withUnsafeBytes { try parsePage($0, index: index, location: location) }
    }

    /// Parses a page from raw bytes (an HTTP body, say); see ``parsePage(_:index:location:)-(Data,_,_)``.
    ///
    /// - Throws: ``PodSpecsError`` (`.malformedJSON`, `.invalidPage`).
    public static func parsePage(_ raw: UnsafeRawBufferPointer, index: Int = 0, location: String) throws -> SpecsPage {
        try withValidatedUTF8(raw, location: location) { bytes in
            var scanner = JSONScanner(bytes)
            do {
                guard scanner.peek() == UInt8(ascii: "{") else {
                    throw invalidPage(location, "it is not a JSON object")
                }
                var numberOfPages: Int?
                var specs: [PodSpec] = []
                var rejected: [RejectedSpec] = []
                var sawResult = false
                var isPastEnd = false
                try scanner.forEachMember { key, scanner in
                    switch key {
                    case "number_of_pages":
                        guard case .number(let text) = try scanner.parseValue(), let count = Int(text), count >= 0 else {
                            throw invalidPage(location, "\"number_of_pages\" is not a whole number of 0 or more")
                        }
                        numberOfPages = count
                    case "result":
                        sawResult = true
                        if try scanner.consumeNull() {
                            isPastEnd = true
                            return
                        }
                        guard scanner.peek() == UInt8(ascii: "[") else {
                            throw invalidPage(location, "\"result\" is neither an array nor null")
                        }
                        var position = 0
                        var keys = JSONKeySet()
                        try scanner.forEachElement(depth: 1) { scanner in
                            position += 1
                            guard scanner.peek() == UInt8(ascii: "{") else {
                                try scanner.skipValue(depth: 2)
                                rejected.append(RejectedSpec(location: "\(location), spec \(position)", reason: "not a JSON object"))
                                return
                            }
                            switch try SpecReader.read(&scanner, depth: 2, keys: &keys) {
                            case .success(let spec): specs.append(spec)
                            case .failure(let problem):
                                rejected.append(RejectedSpec(location: "\(location), spec \(position)", reason: problem.description))
                            }
                        }
                    default:
                        try scanner.skipValue(depth: 1)
                    }
                }
                guard scanner.isAtEnd() else { throw scanner.error("text after the end of the page") }
                guard let numberOfPages else { throw invalidPage(location, "it has no \"number_of_pages\"") }
                guard sawResult else { throw invalidPage(location, "it has no \"result\"") }
                return SpecsPage(index: index, numberOfPages: numberOfPages, specs: specs, rejected: rejected, isPastEnd: isPastEnd)
            } catch let error as JSONScanner.SyntaxError {
                throw syntaxError(error, in: bytes, location: location)
            }
        }
    }

    // MARK: - Errors

    private static func withValidatedUTF8<T>(
        _ raw: UnsafeRawBufferPointer, location: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> T
    ) throws -> T {
        let text = String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self)
        guard var text else {
            throw PodSpecsError(
                .malformedJSON, "\(location) is not valid UTF-8 text, so it cannot be JSON. Check that the file or server sends UTF-8.",
                location: location)
        }
        // A byte order mark, which some editors write, is not JSON; RFC 8259 lets a reader
        // ignore it.
        return try text.withUTF8 { bytes in
            guard bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return try body(bytes) }
            return try body(UnsafeBufferPointer(rebasing: bytes[3...]))
        }
    }

    private static func invalidPage(_ location: String, _ reason: String) -> PodSpecsError {
        PodSpecsError(
            .invalidPage, "\(location) is not a page of specs: \(reason). Expected {\"number_of_pages\": N, \"result\": [...]}.",
            location: location)
    }

    private static func syntaxError(
        _ error: JSONScanner.SyntaxError, in bytes: UnsafeBufferPointer<UInt8>, location: String
    ) -> PodSpecsError {
        let offset = min(error.offset, bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<offset]), as: UTF8.self).count + 1
        return PodSpecsError(
            .malformedJSON,
            "\(location) is not valid JSON: \(error.reason) at line \(line), column \(column) (byte \(offset) of \(bytes.count)).",
            location: location, cause: error)
    }
}
