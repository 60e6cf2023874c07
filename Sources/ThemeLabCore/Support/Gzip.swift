/// A gzip file (RFC 1952) written as its text comes: one member, no name, modification time 0 (so the same text gives the
/// same bytes on every machine), its data compressed with DEFLATE (RFC 1951) in fixed-Huffman blocks (§3.2.6) over LZ77
/// matches found through hash chains in a 32 KiB window, then the CRC-32 and the length of the text. Any gzip reader
/// reads it (Python's gzip module and `gzip -dc` in the tests); it compresses repetitive text such as assignments several
/// times over, less tightly than zlib's dynamic codes.
package struct GzipWriter {
    private var deflater = Deflater()
    private var crc = CRC32()
    private var length: UInt32 = 0
    private var started = false

    package init() {}

    /// The compressed bytes `bytes` add (the header first), ready to be written; some stay buffered until `finish`.
    package mutating func append(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = started ? [] : [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        started = true
        crc.update(bytes)
        length = length &+ UInt32(truncatingIfNeeded: bytes.count)
        out += deflater.append(bytes)
        return out
    }

    /// The last bytes: what the deflater held, the final block, the CRC-32 and the length (modulo 2³²), little-endian.
    package mutating func finish() -> [UInt8] {
        var out = append([])
        out += deflater.finish()
        for value in [crc.value, length] { out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return out
    }

    /// `bytes` compressed whole.
    package static func compress(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var w = GzipWriter()
        return w.append(bytes) + w.finish()
    }
}

extension FileContents {
    /// The text `write` hands a line at a time, streamed into the file gzip-compressed when `gzip`, else as it is.
    package static func text(gzip: Bool, _ write: @escaping ((String) throws -> Void) throws -> Void) -> FileContents {
        .stream { stream in
            guard gzip else { return try write(stream.write) }
            var writer = GzipWriter()
            try write { try stream.write(bytes: writer.append($0.utf8)) }
            try stream.write(bytes: writer.finish())
        }
    }
}

/// The CRC-32 of ISO 3309 and RFC 1952 §8 (reflected polynomial 0xEDB88320, initial and final XOR all ones), a table of
/// 256 entries.
package struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        (0..<8).reduce(UInt32(n)) { c, _ in c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    private var register: UInt32 = 0xFFFF_FFFF

    package init() {}

    package mutating func update(_ bytes: some Collection<UInt8>) {
        for b in bytes { register = Self.table[Int((register ^ UInt32(b)) & 0xFF)] ^ (register >> 8) }
    }

    package var value: UInt32 { register ^ 0xFFFF_FFFF }
}

/// DEFLATE with fixed Huffman codes. Input is held until a block's worth (`blockSize`) and a longest match's lookahead
/// have come; each such block starts where the last ended. Matches: the longest of up to `chain` earlier positions with the same three-byte
/// hash within the window, at least 3 and at most 258 bytes.
struct Deflater {
    static let window = 32_768, blockSize = 1 << 16, minimumMatch = 3, maximumMatch = 258, chain = 48
    private static let hashSize = 1 << 15

    private var bits = BitWriter()
    /// Bytes from absolute position `base` on; `next` is the first not yet encoded.
    private var history: [UInt8] = []
    private var base = 0
    private var next = 0
    private var head = [Int](repeating: -1, count: hashSize)
    private var previous = [Int](repeating: -1, count: window)

    mutating func append(_ bytes: some Collection<UInt8>) -> [UInt8] {
        history.append(contentsOf: bytes)
        // Blocks of `blockSize` from where the last one ended, each once a longest match's lookahead is there: the same
        // blocks however the input comes in pieces.
        while base + history.count - next >= Self.blockSize + Self.maximumMatch { encode(upTo: next + Self.blockSize, final: false) }
        return bits.drain()
    }

    mutating func finish() -> [UInt8] {
        encode(upTo: base + history.count, final: true)
        bits.flush()
        return bits.drain()
    }

    /// One fixed-Huffman block of the bytes from `next` to `end`, then drops what the window no longer reaches.
    private mutating func encode(upTo end: Int, final: Bool) {
        bits.write(final ? 1 : 0, count: 1)
        bits.write(1, count: 2)
        let available = base + history.count
        while next < end {
            let (length, distance) = longestMatch(at: next, limit: min(Self.maximumMatch, available - next))
            if length >= Self.minimumMatch {
                FixedHuffman.writeMatch(length: length, distance: distance, into: &bits)
                for p in next..<(next + length) { insert(p, available: available) }
                next += length
            } else {
                FixedHuffman.writeLiteral(Int(history[next - base]), into: &bits)
                insert(next, available: available)
                next += 1
            }
        }
        FixedHuffman.writeLiteral(256, into: &bits)
        let keep = max(base, next - Self.window)
        history.removeFirst(keep - base)
        base = keep
    }

    private func hash(_ p: Int) -> Int {
        let i = p - base
        return ((Int(history[i]) << 10) ^ (Int(history[i + 1]) << 5) ^ Int(history[i + 2])) & (Self.hashSize - 1)
    }

    private mutating func insert(_ p: Int, available: Int) {
        guard p + 2 < available else { return }
        let h = hash(p)
        previous[p % Self.window] = head[h]
        head[h] = p
    }

    private func longestMatch(at p: Int, limit: Int) -> (length: Int, distance: Int) {
        guard limit >= Self.minimumMatch else { return (0, 0) }
        var (best, distance, candidate, tries) = (0, 0, head[hash(p)], 0)
        while candidate >= 0, candidate >= base, p - candidate <= Self.window, tries < Self.chain {
            var n = 0
            while n < limit && history[candidate - base + n] == history[p - base + n] { n += 1 }
            if n > best { (best, distance) = (n, p - candidate) }
            if n == limit { break }
            let earlier = previous[candidate % Self.window]
            guard earlier < candidate else { break }
            (candidate, tries) = (earlier, tries + 1)
        }
        return (best, distance)
    }
}

/// The fixed literal/length and distance codes of RFC 1951 §3.2.6, with the length and distance bases of §3.2.5.
enum FixedHuffman {
    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193,
        12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// Literal or length symbol `v` (0–287): 0–143 as 8 bits from 0x30, 144–255 as 9 from 0x190, 256–279 as 7 from 0,
    /// 280–287 as 8 from 0xC0; Huffman codes go most significant bit first.
    static func writeLiteral(_ v: Int, into bits: inout BitWriter) {
        let (code, count) =
            v < 144 ? (0x30 + v, 8) : v < 256 ? (0x190 + v - 144, 9) : v < 280 ? (v - 256, 7) : (0xC0 + v - 280, 8)
        bits.writeReversed(code, count: count)
    }

    static func writeMatch(length: Int, distance: Int, into bits: inout BitWriter) {
        let l = lengthBase.lastIndex { $0 <= length }!
        writeLiteral(257 + l, into: &bits)
        bits.write(length - lengthBase[l], count: lengthExtra[l])
        let d = distanceBase.lastIndex { $0 <= distance }!
        bits.writeReversed(d, count: 5)
        bits.write(distance - distanceBase[d], count: distanceExtra[d])
    }
}

/// Bits packed from the least significant end of each byte (RFC 1951 §3.1.1).
struct BitWriter {
    private var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var filled = 0

    /// `count` bits of `value`, least significant first (the data elements and extra bits).
    mutating func write(_ value: Int, count: Int) {
        guard count > 0 else { return }
        accumulator |= UInt64(value & ((1 << count) - 1)) << UInt64(filled)
        filled += count
        while filled >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            filled -= 8
        }
    }

    /// `count` bits of `code`, most significant first (a Huffman code).
    mutating func writeReversed(_ code: Int, count: Int) {
        var reversed = 0
        for k in 0..<count { reversed |= ((code >> k) & 1) << (count - 1 - k) }
        write(reversed, count: count)
    }

    /// Pads the last byte with zeros.
    mutating func flush() {
        if filled > 0 { write(0, count: 8 - filled) }
    }

    /// The whole bytes written so far, taken out.
    mutating func drain() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
