import Foundation

// MARK: - XMLTextDecoder

/// Turns the bytes of an XML document into checked, normalized UTF-8 for ``XMLReader``.
///
/// It picks the encoding the way XML 1.0 Appendix F describes (byte order mark, then the
/// `encoding` of the XML declaration, else UTF-8), decodes every scalar, refuses bytes that
/// are invalid in that encoding and scalars that XML forbids (such as U+0001), and turns CRLF
/// and lone CR into LF. Lines and columns therefore stay those of the original document.
enum XMLTextDecoder {
    /// The document as normalized UTF-8, without a byte order mark.
    ///
    /// - throws: ``OutlineFormatError`` with code `unsupportedEncoding`, `invalidEncoding` or
    ///   `notWellFormed`, located where the problem is.
    static func decode(_ data: Data) throws(OutlineFormatError) -> [UInt8] {
        let bytes = [UInt8](data)
        let (encoding, start) = try detectEncoding(bytes)
        var sink = NormalizedUTF8()
        sink.output.reserveCapacity(bytes.count + bytes.count / 8)
        switch encoding {
        case .utf8, .usASCII: try decodeUTF8(bytes, from: start, asciiOnly: encoding == .usASCII, into: &sink)
        case .latin1, .windows1252: try decodeSingleByte(bytes, from: start, encoding: encoding, into: &sink)
        case .utf16LittleEndian, .utf16BigEndian: try decodeUTF16(bytes, from: start, encoding: encoding, into: &sink)
        }
        if encoding.isUTF16 { try checkUTF16Declaration(sink.output) }
        return sink.output
    }

    // MARK: - Detection

    /// The encoding of `bytes` and where the text starts (after any byte order mark).
    private static func detectEncoding(_ bytes: [UInt8]) throws(OutlineFormatError) -> (XMLEncoding, Int) {
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || bytes.starts(with: [0x00, 0x00, 0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00, 0x00, 0x00])
        {
            throw encodingError(
                "the document is encoded as UTF-32, which is not supported; "
                    + "save it as \(XMLEncoding.supportedNames)")
        }
        if bytes.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return (.utf16BigEndian, 0) }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return (.utf16LittleEndian, 0) }
        let hasUTF8Mark = bytes.starts(with: [0xEF, 0xBB, 0xBF])
        let start = hasUTF8Mark ? 3 : 0
        guard let (name, offset) = declaredEncodingName(in: bytes, from: start) else { return (.utf8, start) }
        guard let declared = XMLEncoding(declaredName: name) else {
            throw .at(
                offset, in: bytes, .unsupportedEncoding, .opml,
                "the document declares the encoding '\(name)'; supported encodings are \(XMLEncoding.supportedNames)")
        }
        if declared.isUTF16 {
            throw .at(
                offset, in: bytes, .invalidEncoding, .opml,
                "the document declares '\(name)' but its bytes are not UTF-16")
        }
        if hasUTF8Mark && declared != .utf8 {
            throw .at(
                offset, in: bytes, .invalidEncoding, .opml,
                "the document declares '\(name)' but starts with a UTF-8 byte order mark")
        }
        return (declared, start)
    }

    /// The `encoding` named by an XML declaration at `start`, read leniently as ASCII, with the
    /// offset of the name. ``XMLReader`` checks the declaration's syntax strictly later.
    static func declaredEncodingName(in bytes: [UInt8], from start: Int) -> (String, Int)? {
        let opening = Array("<?xml".utf8)
        guard bytes[start...].starts(with: opening) else { return nil }
        let limit = min(bytes.count, start + 1024)
        var index = start + opening.count
        let keyword = Array("encoding".utf8)
        while index < limit {
            if bytes[index] == ASCII.question { return nil }
            if bytes[index...].starts(with: keyword) {
                index += keyword.count
                while index < limit, XMLCharacters.isWhitespace(bytes[index]) || bytes[index] == ASCII.equals {
                    index += 1
                }
                guard index < limit, bytes[index] == ASCII.quote || bytes[index] == ASCII.apostrophe else { return nil }
                let quote = bytes[index]
                let nameStart = index + 1
                guard let nameEnd = bytes[nameStart..<limit].firstIndex(of: quote) else { return nil }
                return (String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self), nameStart)
            }
            index += 1
        }
        return nil
    }

    /// Checks that a UTF-16 document does not declare an encoding other than UTF-16.
    private static func checkUTF16Declaration(_ text: [UInt8]) throws(OutlineFormatError) {
        guard let (name, offset) = declaredEncodingName(in: text, from: 0) else { return }
        if XMLEncoding(declaredName: name)?.isUTF16 != true {
            throw .at(
                offset, in: text, .invalidEncoding, .opml,
                "the document is encoded as UTF-16 but declares '\(name)'")
        }
    }

    private static func encodingError(_ message: String) -> OutlineFormatError {
        OutlineFormatError(code: .unsupportedEncoding, format: .opml, line: 1, column: 1, message: message)
    }

    // MARK: - Decoding

    private static func decodeUTF8(
        _ bytes: [UInt8], from start: Int, asciiOnly: Bool, into sink: inout NormalizedUTF8
    ) throws(OutlineFormatError) {
        var index = start
        while index < bytes.count {
            // Printable ASCII, tabs and line feeds need no decoding: copy the run in one go.
            let runEnd = ByteSearch.firstIndex(in: bytes, index..<bytes.count) {
                ($0 < ASCII.space && $0 != ASCII.tab && $0 != ASCII.lineFeed) || $0 >= 0x80
            }
            sink.appendPlainASCII(bytes[index..<runEnd])
            index = runEnd
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                try sink.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            guard !asciiOnly else {
                throw sink.error(.invalidEncoding, "byte \(ASCII.hex(byte)) is not US-ASCII, the encoding the document declares")
            }
            guard let (scalar, length) = UTF8Scalars.decode(bytes, at: index) else {
                throw sink.error(
                    .invalidEncoding,
                    "byte \(ASCII.hex(byte)) is not valid UTF-8; "
                        + "if the file uses another encoding, declare it in <?xml … encoding=\"…\"?>")
            }
            try sink.append(scalar)
            index += length
        }
    }

    private static func decodeSingleByte(
        _ bytes: [UInt8], from start: Int, encoding: XMLEncoding, into sink: inout NormalizedUTF8
    ) throws(OutlineFormatError) {
        for byte in bytes[start...] {
            var value = UInt32(byte)
            if encoding == .windows1252, (0x80...0x9F).contains(byte) {
                value = XMLEncoding.windows1252HighControls[Int(byte - 0x80)]
            }
            // Every value here is a valid scalar (at most U+FFFF and never a surrogate).
            try sink.append(Unicode.Scalar(value)!)
        }
    }

    private static func decodeUTF16(
        _ bytes: [UInt8], from start: Int, encoding: XMLEncoding, into sink: inout NormalizedUTF8
    ) throws(OutlineFormatError) {
        guard (bytes.count - start) % 2 == 0 else {
            throw sink.error(.invalidEncoding, "the UTF-16 text has an odd number of bytes")
        }
        let littleEndian = encoding == .utf16LittleEndian
        func unit(at index: Int) -> UInt32 {
            littleEndian
                ? UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8
                : UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
        }
        var index = start
        while index < bytes.count {
            var value = unit(at: index)
            index += 2
            if (0xD800...0xDBFF).contains(value), index < bytes.count, (0xDC00...0xDFFF).contains(unit(at: index)) {
                value = 0x10000 + ((value - 0xD800) << 10 | (unit(at: index) - 0xDC00))
                index += 2
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw sink.error(.invalidEncoding, "the UTF-16 text has an unpaired surrogate")
            }
            try sink.append(scalar)
        }
    }
}

// MARK: - Normalized output

/// UTF-8 output that turns CRLF and CR into LF and refuses scalars XML does not allow.
private struct NormalizedUTF8 {
    var output: [UInt8] = []
    private var afterCarriageReturn = false

    /// Appends bytes known to be printable ASCII, tabs or line feeds.
    mutating func appendPlainASCII(_ bytes: ArraySlice<UInt8>) {
        guard let first = bytes.first else { return }
        let skipsLineFeed = afterCarriageReturn && first == ASCII.lineFeed
        output.append(contentsOf: skipsLineFeed ? bytes.dropFirst() : bytes)
        afterCarriageReturn = false
    }

    mutating func append(_ scalar: Unicode.Scalar) throws(OutlineFormatError) {
        let value = scalar.value
        if value == 0x0D {
            output.append(ASCII.lineFeed)
            afterCarriageReturn = true
            return
        }
        defer { afterCarriageReturn = false }
        if value == 0x0A && afterCarriageReturn { return }
        guard XMLCharacters.isChar(value) else {
            throw error(.notWellFormed, "the character \(ASCII.scalarName(value)) is not allowed in XML")
        }
        UTF8Scalars.append(scalar, to: &output)
    }

    /// An error at the current end of the output, which is where the offending input starts.
    func error(_ code: OutlineFormatError.Code, _ message: String) -> OutlineFormatError {
        .at(output.count, in: output, code, .opml, message)
    }
}
