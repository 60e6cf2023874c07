import Foundation

/// NumPy's `.npy` format (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
/// magic `\x93NUMPY`, a version byte pair, a little-endian header length (2 bytes in v1,
/// 4 in v2/v3), then a Python dict literal `{'descr': …, 'fortran_order': …, 'shape': (…), }`
/// padded with spaces to a multiple of 64 bytes and ended by a newline.
/// Reads 2-D C-order '<f4' and '<f8'; writes '<f4' in v1.
package enum NPY {
    package static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]

    package static func read(path: String) throws -> Matrix {
        let file = try NPYFile(path: path)
        return try file.rows(0..<file.rows)
    }

    package static func decode(_ data: Data, name: String) throws -> Matrix {
        let file = try NPYFile(data: data, name: name)
        return try file.rows(0..<file.rows)
    }

    package struct Header {
        package var descr: String
        package var fortranOrder: Bool
        package var shape: [Int]
    }

    package static func parseHeader(_ text: String, fail: (String) -> ThemeLabError) throws -> Header {
        func value(of key: String) throws -> Substring {
            guard let keyRange = text.range(of: "'\(key)'"),
                let colon = text[keyRange.upperBound...].firstIndex(of: ":")
            else { throw fail("header field '\(key)' is missing") }
            return text[text.index(after: colon)...].drop(while: { $0 == " " })
        }
        let descrText = try value(of: "descr")
        guard descrText.first == "'", let end = descrText.dropFirst().firstIndex(of: "'") else {
            throw fail("header field 'descr' is not a quoted string")
        }
        let descr = String(descrText[descrText.index(after: descrText.startIndex)..<end])

        let orderText = try value(of: "fortran_order")
        let fortran: Bool
        if orderText.hasPrefix("False") {
            fortran = false
        } else if orderText.hasPrefix("True") {
            fortran = true
        } else {
            throw fail("header field 'fortran_order' is not True or False")
        }

        let shapeText = try value(of: "shape")
        guard shapeText.first == "(", let close = shapeText.firstIndex(of: ")") else {
            throw fail("header field 'shape' is not a tuple")
        }
        let inner = shapeText[shapeText.index(after: shapeText.startIndex)..<close]
        var shape: [Int] = []
        for part in inner.split(separator: ",") {
            let t = part.trimmingCharacters(in: .whitespaces)
            if t.isEmpty { continue }
            guard let n = Int(t), n >= 0 else { throw fail("header field 'shape' has a bad dimension '\(t)'") }
            shape.append(n)
        }
        return Header(descr: descr, fortranOrder: fortran, shape: shape)
    }

    /// Encodes as a version 1.0 '<f4' C-order file.
    package static func encode(_ m: Matrix) -> Data {
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (\(m.rows), \(m.cols)), }"
        let unpadded = magic.count + 4 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data(magic + [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: Array(header.utf8))
        m.storage.map { $0.bitPattern.littleEndian }.withUnsafeBytes { data.append(contentsOf: $0) }
        return data
    }

    package static func write(_ m: Matrix, to path: String) throws {
        try AtomicFile.write(encode(m), to: path)
    }
}
