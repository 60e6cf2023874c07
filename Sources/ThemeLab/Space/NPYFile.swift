import Foundation

/// A 2-D `.npy` file (`NPY`) whose rows are decoded on demand: the file is memory-mapped and only the rows asked for
/// are copied out, so a pass shard that touches a fraction of the rows holds only those (`PassVectors`).
public struct NPYFile: Sendable {
    public let rows: Int
    public let cols: Int
    let name: String
    /// The file's bytes, mapped (pages are read when a row is decoded).
    let data: Data
    let bodyStart: Int
    /// 4 for '<f4', 8 for '<f8'.
    let width: Int

    public init(path: String) throws {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw ThemeLabError.input("\(path): cannot read file")
        }
        try self.init(data: data, name: path)
    }

    /// Checks the magic, the header and that the body is exactly rows × cols values.
    init(data: Data, name: String) throws {
        func fail(_ what: String) -> ThemeLabError { .input("\(name): \(what)") }
        let prefix = [UInt8](data.prefix(12))
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
        guard headerStart + headerLength <= data.count else { throw fail("header length \(headerLength) runs past the end of the file") }
        let headerBytes = data[data.startIndex + headerStart..<data.startIndex + headerStart + headerLength]
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
        guard let expected = checkedProduct([rows, cols, width]), data.count - bodyStart == expected else {
            let needs = checkedProduct([rows, cols, width]).map(String.init) ?? "more than Int.max"
            throw fail("data is \(data.count - bodyStart) bytes, shape (\(rows), \(cols)) of \(fields.descr) needs \(needs)")
        }
        (self.data, self.name) = (data, name)
    }

    /// The given rows, in the given order, as Float32 ('<f8' values rounded to nearest).
    public func rows(_ items: some Collection<Int>) -> Matrix {
        // Zero-width rows hold nothing to read (and a shape of 10¹⁸ rows of none is a valid file).
        guard cols > 0 else { return Matrix(rows: items.count, cols: 0, storage: []) }
        var values = [Float](repeating: 0, count: items.count * cols)
        let (cols, width, bodyStart) = (cols, width, bodyStart)
        data.withUnsafeBytes { raw in
            values.withUnsafeMutableBufferPointer { out in
                for (r, item) in items.enumerated() {
                    precondition((0..<rows).contains(item), "row \(item) outside 0..<\(rows)")
                    let row = bodyStart + item * cols * width
                    for k in 0..<cols {
                        if width == 4 {
                            out[r * cols + k] = Float(
                                bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: row + 4 * k, as: UInt32.self)))
                        } else {
                            out[r * cols + k] = Float(
                                Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: row + 8 * k, as: UInt64.self))))
                        }
                    }
                }
            }
        }
        return Matrix(rows: items.count, cols: cols, storage: values)
    }
}
