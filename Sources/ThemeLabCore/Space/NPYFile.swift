import Foundation

/// A 2-D `.npy` file (`NPY`) whose rows are decoded on demand: only the rows asked for are read (`pread`, in runs of
/// consecutive rows), so a pass shard that touches a fraction of the rows holds only those (`PassVectors`), and a file
/// cut short while it is read is an error naming it, not a fault.
package struct NPYFile: Sendable {
    package let rows: Int
    package let cols: Int
    package let name: String
    /// Where the bytes are: a file read by position, or bytes in memory (a decoded buffer).
    package let source: Source
    package let bodyStart: Int
    /// 4 for '<f4', 8 for '<f8'.
    package let width: Int
    /// cols · width, checked against overflow when the header is read.
    package let rowBytes: Int

    package enum Source {
        case file(ReadOnlyFile)
        case memory(Data)
    }

    package init(path: String) throws {
        let file = try ReadOnlyFile(path: path)
        try self.init(source: .file(file), size: file.size, name: path)
    }

    package init(data: Data, name: String) throws { try self.init(source: .memory(data), size: data.count, name: name) }

    /// Checks the magic, the header and that the body is exactly rows × cols values.
    private init(source: Source, size: Int, name: String) throws {
        func fail(_ what: String) -> ThemeLabError { .input("\(name): \(what)") }
        let prefix = try Self.bytes(source, at: 0, count: Swift.min(12, size))
        guard prefix.count >= 10, Array(prefix[0..<6]) == NPY.magic else { throw fail("not a .npy file (bad magic)") }
        let major = prefix[6]
        let headerStart: Int
        let headerLength: Int
        switch major {
        case 1:
            headerStart = 10
            headerLength = Int(prefix[8]) | Int(prefix[9]) << 8
        case 2, 3:
            guard prefix.count >= 12 else { throw fail("header truncated") }
            headerStart = 12
            headerLength = (0..<4).reduce(0) { $0 | Int(prefix[8 + $1]) << (8 * $1) }
        default:
            throw fail("unsupported .npy version \(major).\(prefix[7]) (expected 1, 2 or 3)")
        }
        guard headerStart + headerLength <= size else { throw fail("header length \(headerLength) runs past the end of the file") }
        let headerBytes = try Self.bytes(source, at: headerStart, count: headerLength)
        guard let header = String(bytes: headerBytes, encoding: major == 3 ? .utf8 : .isoLatin1) else {
            throw fail("header is not text")
        }
        let fields = try NPY.parseHeader(header, fail: fail)
        switch fields.descr {
        case "<f4": width = 4
        case "<f8": width = 8
        default: throw fail("header field 'descr' is '\(fields.descr)' (expected '<f4' or '<f8')")
        }
        if fields.fortranOrder { throw fail("header field 'fortran_order' is True (expected C order)") }
        guard fields.shape.count == 2 else {
            throw fail("header field 'shape' has \(fields.shape.count) dimensions (expected 2: rows, dims)")
        }
        (rows, cols) = (fields.shape[0], fields.shape[1])
        bodyStart = headerStart + headerLength
        // Even with no rows: rows are read by their bytes.
        guard let rowBytes = checkedProduct([cols, width]) else {
            throw fail("shape (\(rows), \(cols)) of \(fields.descr): a row needs more than Int.max bytes")
        }
        self.rowBytes = rowBytes
        guard let expected = checkedProduct([rows, rowBytes]), size - bodyStart == expected else {
            let needs = checkedProduct([rows, rowBytes]).map(String.init) ?? "more than Int.max"
            throw fail("data is \(size - bodyStart) bytes, shape (\(rows), \(cols)) of \(fields.descr) needs \(needs)")
        }
        (self.source, self.name) = (source, name)
    }

    private static func bytes(_ source: Source, at offset: Int, count: Int) throws -> [UInt8] {
        switch source {
        case .file(let f): try f.bytes(at: offset, count: count)
        case .memory(let d): [UInt8](d[(d.startIndex + offset)..<(d.startIndex + offset + count)])
        }
    }

    /// The given rows, in the given order, as Float32 ('<f8' values rounded to nearest).
    package func rows(_ items: some Collection<Int>) throws -> Matrix {
        // Zero-width rows hold nothing to read (and a shape of 10¹⁸ rows of none is a valid file).
        guard cols > 0 else { return Matrix(rows: items.count, cols: 0, storage: []) }
        let items = Array(items)
        var values = [Float](repeating: 0, count: items.count * cols)
        // Runs of consecutive rows, each read at once (at most 1 MiB, or one row).
        let longest = Swift.max(1, (1 << 20) / rowBytes)
        var buffer = [UInt8](repeating: 0, count: Swift.min(items.count, longest) * rowBytes)
        var r = 0
        while r < items.count {
            precondition((0..<rows).contains(items[r]), "row \(items[r]) outside 0..<\(rows)")
            var run = 1
            while run < longest, r + run < items.count, items[r + run] == items[r] + run { run += 1 }
            try buffer.withUnsafeMutableBytes { raw in
                let chunk = UnsafeMutableRawBufferPointer(rebasing: raw[0..<(run * rowBytes)])
                try read(into: chunk, at: bodyStart + items[r] * rowBytes)
                values.withUnsafeMutableBufferPointer { out in decode(UnsafeRawBufferPointer(chunk), into: out.baseAddress! + r * cols) }
            }
            r += run
        }
        return Matrix(rows: items.count, cols: cols, storage: values)
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        switch source {
        case .file(let f): try f.read(into: buffer, at: offset)
        case .memory(let d):
            d.withUnsafeBytes { all in buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<(offset + buffer.count)])) }
        }
    }

    /// Little-endian '<f4' or '<f8' values → Float32.
    private func decode(_ raw: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<Float>) {
        for k in 0..<(raw.count / width) {
            if width == 4 {
                out[k] = Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self)))
            } else {
                out[k] = Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self))))
            }
        }
    }
}
