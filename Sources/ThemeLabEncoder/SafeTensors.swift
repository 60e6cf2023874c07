import Foundation
import ThemeLabCore

/// A `.safetensors` file (https://huggingface.co/docs/safetensors) read into memory: an 8-byte
/// little-endian header length, a JSON header mapping tensor names to dtype, shape and
/// `data_offsets` [begin, end) relative to the data section, then the data.
/// Every entry is validated against the file size before any tensor is read. Read, not memory-mapped: a file written
/// in place or truncated while the harness runs can change neither the vectors (a mapping would show the new bytes
/// under the old hash) nor end the process with SIGBUS. A file cut short during the read is refused here; any other
/// change during the read is `SentenceEncoder`'s check, which binds the bytes read to the hash that names them.
package final class SafeTensors: @unchecked Sendable {
    package struct Entry: Sendable, Equatable {
        package var dtype: String
        package var shape: [Int]
        package var begin: Int
        package var end: Int
    }

    package static let dtypeBytes: [String: Int] = [
        "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1,
    ]

    package let path: String
    package let entries: [String: Entry]
    private let base: UnsafeMutableRawPointer
    private let size: Int
    private let dataStart: Int

    package init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ThemeLabError.input("\(path): cannot open") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ThemeLabError.input("\(path): cannot stat") }
        size = Int(info.st_size)
        guard size >= 8 else { throw ThemeLabError.input("\(path): \(size) bytes, too short for a safetensors header") }
        base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        self.path = path
        var done = 0
        while done < size {
            let n = pread(fd, base + done, size - done, off_t(done))
            guard n > 0 else {
                base.deallocate()
                throw ThemeLabError.input("\(path): \(done) of \(size) bytes could be read (truncated while being read?)")
            }
            done += n
        }
        do {
            let stated = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            guard stated > 0, stated <= UInt64(size - 8) else {
                throw ThemeLabError.input("\(path): header length \(stated) does not fit the file (\(size) bytes)")
            }
            let headerLength = Int(stated)
            dataStart = 8 + headerLength
            entries = try Self.parseHeader(Data(bytes: base + 8, count: headerLength), dataLength: size - dataStart, path: path)
        } catch {
            base.deallocate()
            throw error
        }
    }

    deinit { base.deallocate() }

    package static func parseHeader(_ data: Data, dataLength: Int, path: String) throws -> [String: Entry] {
        guard let header = try JSONInput.parse(data, file: "\(path) header") as? [String: Any] else {
            throw ThemeLabError.input("\(path): header is not a JSON object")
        }
        var entries: [String: Entry] = [:]
        for (name, value) in header where name != "__metadata__" {
            guard let fields = value as? [String: Any], let dtype = fields["dtype"] as? String,
                let shape = fields["shape"] as? [Int], let offsets = fields["data_offsets"] as? [Int], offsets.count == 2
            else { throw ThemeLabError.input("\(path): tensor '\(name)': expected dtype, shape and data_offsets") }
            guard let width = dtypeBytes[dtype] else { throw ThemeLabError.input("\(path): tensor '\(name)': unknown dtype '\(dtype)'") }
            guard shape.allSatisfy({ $0 >= 0 }) else {
                throw ThemeLabError.input("\(path): tensor '\(name)': negative dimension in shape \(shape)")
            }
            let (begin, end) = (offsets[0], offsets[1])
            guard begin >= 0, begin <= end, end <= dataLength else {
                throw ThemeLabError.input(
                    "\(path): tensor '\(name)': bytes \(begin)..<\(end) lie outside the \(dataLength)-byte data section (file truncated?)")
            }
            guard let expected = checkedProduct(shape + [width]), end - begin == expected else {
                throw ThemeLabError.input(
                    "\(path): tensor '\(name)': \(end - begin) bytes, shape \(shape) of \(dtype) needs "
                        + "\(checkedProduct(shape + [width]).map(String.init) ?? "more than Int.max")"
                )
            }
            entries[name] = Entry(dtype: dtype, shape: shape, begin: begin, end: end)
        }
        // The format's rule: the tensors tile the data section exactly, with no hole and no overlap
        // (a wrong header length shows up here as a hole at the end).
        var covered = 0
        for (name, e) in entries.sorted(by: { ($0.value.begin, $0.value.end, $0.key) < ($1.value.begin, $1.value.end, $1.key) }) {
            guard e.begin == covered else {
                throw ThemeLabError.input(
                    e.begin < covered
                        ? "\(path): tensor '\(name)' (bytes \(e.begin)..<\(e.end)) overlaps the tensor before it"
                        : "\(path): bytes \(covered)..<\(e.begin) of the data section belong to no tensor (a hole before '\(name)')")
            }
            covered = e.end
        }
        guard covered == dataLength else {
            throw ThemeLabError.input(
                "\(path): bytes \(covered)..<\(dataLength) of the data section belong to no tensor (header length wrong, or trailing data)")
        }
        return entries
    }

    /// The entry named `name`, or `bert.name` (checkpoints differ in that prefix).
    package func entry(_ name: String) -> (name: String, entry: Entry)? {
        for prefix in ["", "bert.", "roberta.", "distilbert.", "mpnet."] { if let e = entries[prefix + name] { return (prefix + name, e) } }
        return nil
    }

    /// A tensor's Float32 values with the expected shape, copied out.
    package func floats(_ name: String, shape: [Int]) throws -> [Float] {
        let t = try tensor(name, shape: shape)
        return withExtendedLifetime(t) { Array(t.values) }
    }

    /// A tensor's Float32 values with the expected shape: read in place from the memory map when
    /// stored as aligned F32 (a model loads without copying its 91 MB), else widened from F16 or
    /// BF16 into memory of its own. Every value is checked finite.
    package func tensor(_ name: String, shape: [Int]) throws -> FloatTensor {
        guard let (found, e) = entry(name) else { throw ThemeLabError.input("\(path): tensor '\(name)' is missing") }
        guard e.shape == shape else { throw ThemeLabError.input("\(path): tensor '\(found)' has shape \(e.shape), expected \(shape)") }
        let raw = UnsafeRawPointer(base + dataStart + e.begin)
        let count = shape.reduce(1, *)
        let tensor: FloatTensor
        switch e.dtype {
        case "F32" where Int(bitPattern: raw) % MemoryLayout<Float>.alignment == 0:
            // Little-endian host: the bytes are already Float32s.
            tensor = FloatTensor(mapped: UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Float.self), count: count), owner: self)
        case "F32":
            tensor = FloatTensor(copying: (0..<count).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) })
        case "F16":
            tensor = FloatTensor(
                copying: (0..<count).map {
                    Float(Float16(bitPattern: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))))
                })
        case "BF16":
            tensor = FloatTensor(
                copying: (0..<count).map {
                    Float(bitPattern: UInt32(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))) << 16)
                })
        default:
            throw ThemeLabError.input("\(path): tensor '\(found)' is \(e.dtype), expected a float type")
        }
        // A NaN or infinite weight would only show up as non-finite vectors much later.
        if let bad = tensor.values.firstIndex(where: { !$0.isFinite }) {
            throw ThemeLabError.input("\(path): tensor '\(found)' has a non-finite value (\(tensor.values[bad])) at flat index \(bad)")
        }
        return tensor
    }
}

/// Float32 values of one tensor, read-only: in a `SafeTensors` memory map (kept alive by this
/// object) or in memory of its own.
package final class FloatTensor: @unchecked Sendable {
    package let values: UnsafeBufferPointer<Float>
    private let owner: SafeTensors?

    package init(mapped values: UnsafeBufferPointer<Float>, owner: SafeTensors) {
        self.values = values
        self.owner = owner
    }

    package init(copying array: [Float]) {
        let copy = UnsafeMutableBufferPointer<Float>.allocate(capacity: array.count)
        _ = copy.initialize(from: array)
        values = UnsafeBufferPointer(copy)
        owner = nil
    }

    deinit { if owner == nil { values.deallocate() } }

    /// The first value (the start of a row-major matrix for BLAS).
    package var start: UnsafePointer<Float> { values.baseAddress! }
}
