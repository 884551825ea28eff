import Foundation

// MARK: - Strict UTF-8

/// Strict UTF-8 decoding and encoding of single scalars: no overlong forms, no surrogates,
/// nothing above U+10FFFF.
enum UTF8Scalars {
    /// The scalar that starts at `index` and its length in bytes, or `nil` if the bytes there
    /// are not valid UTF-8.
    static func decode(_ bytes: [UInt8], at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(lead & 0x1F)
        case 0xE0:
            length = 3
            value = 0
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
            value = UInt32(lead & 0x0F)
        case 0xED:
            length = 3
            value = 0x0D
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            value = 0
            secondRange = 0x90...0xBF
        case 0xF1...0xF3:
            length = 4
            value = UInt32(lead & 0x07)
        case 0xF4:
            length = 4
            value = 4
            secondRange = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            let range: ClosedRange<UInt8> = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// Appends the UTF-8 encoding of `scalar` to `bytes`.
    static func append(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | value >> 6))
            bytes.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | value >> 12))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        default:
            bytes.append(UInt8(0xF0 | value >> 18))
            bytes.append(UInt8(0x80 | value >> 12 & 0x3F))
            bytes.append(UInt8(0x80 | value >> 6 & 0x3F))
            bytes.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

// MARK: - UTF-8 input

extension UTF8Scalars {
    /// The bytes of UTF-8 input without a leading byte order mark.
    ///
    /// - throws: ``OutlineFormatError/Code/invalidEncoding`` at the first byte that is not
    ///   valid UTF-8.
    static func validatedText(_ data: Data, format: OutlineFormat) throws(OutlineFormatError) -> [UInt8] {
        let bytes = droppingByteOrderMark([UInt8](data))
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else if let (_, length) = decode(bytes, at: index) {
                index += length
            } else {
                throw .at(
                    index, in: bytes, .invalidEncoding, format,
                    "byte \(ASCII.hex(bytes[index])) is not valid UTF-8 (\(format.displayName) is read as UTF-8)")
            }
        }
        return bytes
    }

    /// `bytes` without a leading UTF-8 byte order mark.
    static func droppingByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
    }
}
