import PodDocRandom

// MARK: - Mutator

/// Makes new inputs from old ones, the way a fuzzer does without coverage feedback: bit flips,
/// interesting bytes, deleted, repeated and spliced ranges, truncation, and the format's own
/// words (tokens) dropped in. Seeded, so a run replays exactly.
struct Mutator {
    var random: SeededRandom
    let tokens: [[UInt8]]
    let maximumSize: Int

    private static let interestingBytes: [UInt8] = [
        0, 1, 0x7F, 0x80, 0xFF, 0x0A, 0x0D, 0x22, 0x3C, 0x3E, 0x5C, 0x7B, 0x7D, 0xC0, 0xED, 0xF4,
    ]

    mutating func mutate(_ input: [UInt8], splicingWith other: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(4) {
            let position = random.below(bytes.count + 1)
            switch random.below(9) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= 1 << UInt8(random.below(8))
            case 1 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] = Self.interestingBytes[random.below(Self.interestingBytes.count)]
            case 2:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.below(16)))
            case 3:
                let end = min(bytes.count, position + 1 + random.below(64))
                bytes.insert(contentsOf: Array(bytes[position..<end]), at: position)
            case 4...5 where !tokens.isEmpty:
                bytes.insert(contentsOf: tokens[random.below(tokens.count)], at: position)
            case 6:
                bytes.removeSubrange(position...)
            case 7 where !other.isEmpty:
                let cut = random.below(other.count)
                bytes = Array(bytes[..<position]) + other[cut...]
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            }
        }
        return bytes.count > maximumSize ? Array(bytes.prefix(maximumSize)) : bytes
    }
}
