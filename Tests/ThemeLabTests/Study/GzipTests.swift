import Foundation
import Testing
import ThemeLabCore

/// The harness's own gzip (RFC 1952, DEFLATE with fixed Huffman codes, RFC 1951): what it writes, Python's gzip module and
/// `gzip -dc` read back byte for byte, for hand-made and random inputs, one at a time and streamed in pieces.
@Suite struct GzipTests {
    /// Inputs that reach every path: empty, one byte, no repeats, long runs (matches of 258 at distance 1), repeats at
    /// the window's far end (distance 32 768), text, and past a block's size.
    static func cases() -> [(String, [UInt8])] {
        var rng = SeededRandom(seed: 68)
        let random = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let words = ["sleep", "work", "run", "family", "money", ",", "\n", " "]
        let text = (0..<40_000).map { _ in words[Int.random(in: 0..<words.count, using: &rng)] }.joined()
        let far = Array(random[0..<32_768]) + Array(random[0..<300])
        return [
            ("empty", []), ("one", [65]), ("run", [UInt8](repeating: 7, count: 100_000)), ("random", random), ("text", Array(text.utf8)),
            ("window", far), ("all bytes", Array(0...255) + Array(0...255)),
        ]
    }

    /// Random property cases: lengths, alphabets and repeat structure drawn from a seed.
    static func randomCases(_ count: Int) -> [[UInt8]] {
        var rng = SeededRandom(seed: 1952)
        return (0..<count).map { _ in
            let length = Int.random(in: 0...20_000, using: &rng)
            let alphabet = UInt8.random(in: 1...255, using: &rng)
            var bytes: [UInt8] = []
            while bytes.count < length {
                if !bytes.isEmpty && Bool.random(using: &rng) {
                    let start = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes += bytes[start..<min(bytes.count, start + Int.random(in: 1...300, using: &rng))]
                } else {
                    bytes.append(UInt8.random(in: 0...alphabet, using: &rng))
                }
            }
            return Array(bytes.prefix(length))
        }
    }

    /// Each input compressed whole and in pieces of random sizes (the stream as assignments are written): the same bytes.
    @Test func piecesGiveTheSameBytesAsTheWhole() {
        var rng = SeededRandom(seed: 3)
        for (name, bytes) in Self.cases() {
            var w = GzipWriter()
            var out: [UInt8] = []
            var k = 0
            while k < bytes.count {
                let n = Int.random(in: 1...9_000, using: &rng)
                out += w.append(bytes[k..<min(bytes.count, k + n)])
                k += n
            }
            out += w.finish()
            #expect(out == GzipWriter.compress(bytes), "\(name)")
        }
    }

    /// Python's gzip and zlib (Debian's interpreter) decompress every case and 200 random ones to what went in; `gzip -dc`
    /// does the same for the hand-made cases; the text compresses well.
    @Test func pythonAndGzipReadWhatItWrites() throws {
        let folder = temporaryFolder()
        let inputs = Self.cases().map(\.1) + Self.randomCases(200)
        for (k, bytes) in inputs.enumerated() {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/\(k).raw"))
            try Data(GzipWriter.compress(bytes)).write(to: URL(fileURLWithPath: "\(folder)/\(k).gz"))
        }
        let script = """
            import gzip, sys
            folder, n = sys.argv[1], int(sys.argv[2])
            bad = [k for k in range(n) if gzip.decompress(open(f"{folder}/{k}.gz", "rb").read()) != open(f"{folder}/{k}.raw", "rb").read()]
            print("bad", bad)
            """
        let python = try CLI.launch(executable: "/usr/bin/python3", ["-c", script, folder, String(inputs.count)], environment: [:])
        #expect(python.status == 0 && python.stdout == "bad []\n", "\(python.stdout)\(python.stderr)")
        for k in Self.cases().indices {
            let gzip = try CLI.launch(
                executable: "/bin/sh", ["-c", "gzip -dc \(folder)/\(k).gz | cmp - \(folder)/\(k).raw"], environment: [:])
            #expect(gzip.status == 0, "case \(k): \(gzip.stdout)\(gzip.stderr)")
        }
        let text = Self.cases().first { $0.0 == "text" }!.1
        #expect(GzipWriter.compress(text).count * 3 < text.count)
    }

    /// The CRC-32 of RFC 1952 on its check value ("123456789" → CBF43926) and the header's fixed bytes (no name, time 0).
    @Test func crcAndHeader() {
        var crc = CRC32()
        crc.update(Array("123456789".utf8))
        #expect(crc.value == 0xCBF4_3926)
        #expect(Array(GzipWriter.compress([]).prefix(10)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255])
    }
}
