import PodDocJSON
import XCTest

/// The one JSON scanner: structure walks with a depth limit, tokens for readers that keep
/// their own stack, lone surrogates replaced or refused, and the escaper that writes back.
final class JSONScannerTests: XCTestCase {
    private func scanning<T>(
        _ text: String, maxDepth: Int = JSONScanner.defaultMaxDepth,
        loneSurrogates: JSONScanner.LoneSurrogates = .replace,
        _ body: (inout JSONScanner) throws -> T
    ) throws -> T {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, maxDepth: maxDepth, loneSurrogates: loneSurrogates)
            return try body(&scanner)
        }
    }

    private func syntaxError(
        _ text: String, loneSurrogates: JSONScanner.LoneSurrogates = .replace,
        _ body: (inout JSONScanner) throws -> Void
    ) -> JSONScanner.SyntaxError? {
        do {
            try scanning(text, loneSurrogates: loneSurrogates, body)
            return nil
        } catch {
            return error as? JSONScanner.SyntaxError
        }
    }

    func testTokensCarryTheirOffsets() throws {
        let tokens = try scanning(#" {"a": [1.5e3, true, null, "x\ny"]} "#) { scanner in
            var tokens: [JSONToken] = []
            repeat { tokens.append(try scanner.nextToken()) } while tokens.last?.kind != .endOfInput
            return tokens
        }
        XCTAssertEqual(
            tokens.map(\.kind),
            [
                .beginObject, .string("a"), .colon, .beginArray, .number, .comma, .boolean, .comma,
                .null, .comma, .string("x\ny"), .endArray, .endObject, .endOfInput,
            ])
        XCTAssertEqual(tokens.map(\.offset), [1, 2, 5, 7, 8, 13, 15, 19, 21, 25, 27, 33, 34, 36])
    }

    func testTheDepthLimitIsAnOption() throws {
        let deep = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        XCTAssertNoThrow(try scanning(deep, maxDepth: 10) { try $0.skipValue() })
        let error = try XCTUnwrap(
            syntaxError(deep) { scanner in
                var limited = JSONScanner(scanner.bytes, maxDepth: 9)
                try limited.skipValue()
            })
        XCTAssertEqual(error.reason, "nesting deeper than 9 levels")
        XCTAssertEqual(error.offset, 9)
    }

    func testLoneSurrogatesAreReplacedOrRefused() throws {
        let text = #""a\ud83cb\udc00c\ud83c\ude00""#
        XCTAssertEqual(try scanning(text) { try $0.parseString() }, "a\u{FFFD}b\u{FFFD}c\u{1F200}")
        XCTAssertEqual(
            syntaxError(text, loneSurrogates: .reject) { _ = try $0.parseString() }?.reason,
            "a high surrogate \\u escape must be followed by a low surrogate")
        XCTAssertEqual(
            syntaxError(#""\udc00""#, loneSurrogates: .reject) { _ = try $0.parseString() }?.reason,
            "a lone low surrogate \\u escape is not a character")
    }

    func testErrorsNameTheSpotAndTheReason() {
        let cases: [(String, Int, String)] = [
            (#""never"#, 0, "the string is never closed (cut short?)"),
            (#""a\qb""#, 2, #"'\q' is not a JSON escape"#),
            ("\"a\u{1}\"", 2, "control character 0x01 must be escaped in a string"),
            (#""\u12""#, 1, "\\u must be followed by four hexadecimal digits"),
            ("01", 0, "malformed number '01'"),
            ("1.", 0, "a number needs digits after '.'"),
            ("-", 0, "a number needs digits"),
            ("truth", 0, "unexpected 'truth'"),
            ("é", 0, "unexpected character 'é'"),
            ("", 0, "the text ends where a value was expected (cut short?)"),
        ]
        for (text, offset, reason) in cases {
            let error = syntaxError(text) { try $0.skipValue() }
            XCTAssertEqual(error?.reason, reason, text)
            XCTAssertEqual(error?.offset, offset, text)
        }
    }

    func testTheEscaperWritesWhatTheScannerReadsBack() throws {
        let texts = ["plain", "quote \" and \\ backslash", "lines\n\r\ttabs", "\u{0}\u{1F}\u{7F}", "é 简单 🎉", ""]
        for text in texts {
            var bytes: [UInt8] = []
            JSONEscaping.appendQuoted(text, to: &bytes)
            var string = ""
            JSONEscaping.appendQuoted(text, to: &string)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), string)
            XCTAssertEqual(try scanning(string) { try $0.parseString() }, text)
        }
        var escaped = ""
        JSONEscaping.appendQuoted("\u{1}\u{1F}", to: &escaped)
        XCTAssertEqual(escaped, #""\u0001\u001F""#)
    }
}
