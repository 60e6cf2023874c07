import Foundation

/// JSON as the harness writes it everywhere: sorted keys and fixed formatting, so identical
/// results are identical bytes.
package enum JSONOutput {
    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads what `encode` wrote (non-finite numbers as "inf", "-inf", "nan"), once `JSONInput.check` has passed it.
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONInput.check(data, file: "JSON input")
        return try decoder.decode(type, from: data)
    }

    /// `decode`, with a failure naming the file, what it should have been and the field at fault:
    /// "PATH: not a EXPECTED (…)" (or `JSONInput.check`'s refusal).
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, expected: String) throws -> T {
        try JSONInput.check(data, file: file)
        do { return try decoder.decode(type, from: data) } catch {
            throw ThemeLabError.input("\(file): not a \(expected) (\(describe(error)))")
        }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// The file at `path`, decoded as `decode(_:from:file:expected:)` does.
    package static func read<T: Decodable>(_ type: T.Type, path: String, expected: String) throws -> T {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
        return try decode(type, from: data, file: path, expected: expected)
    }

    /// A decoder's coding path as a field path: `journals[0].order`.
    package static func fieldPath(_ codingPath: [CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let i = key.intValue { path += "[\(i)]" } else { path += (path.isEmpty ? "" : ".") + key.stringValue }
        }
        return path
    }

    /// A decoding error in one line that names the field (Foundation's own text says only "The
    /// data isn't in the correct format").
    package static func describe(_ error: Error) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = fieldPath(context.codingPath)
            return path.isEmpty ? "the top level" : "'\(path)'"
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(at(context))"
        case DecodingError.typeMismatch(let type, let context):
            return "\(at(context)) is not \(typeName(type))"
        case DecodingError.valueNotFound(let type, let context):
            return "\(at(context)) is null, expected \(typeName(type))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(at(context)) has a bad value"
        case let e as ThemeLabError:
            return "\(e)"
        case let e as FieldError:
            return "\(e)"
        default:
            return "not valid JSON"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type, is Int32.Type, is UInt64.Type: "an integer"
        case is Double.Type, is Float.Type: "a number"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }

    package static func string<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }
}
