import Foundation

/// A named field that held a bad value, found while decoding: `ExperimentPlan` and `ReplayPlan` turn it into
/// their source's message (the file and the field), and anything else prints it as it is.
package struct FieldError: Error, CustomStringConvertible {
    /// The field's JSON path, e.g. `thresholds[2]`.
    package var path: String
    package var message: String
    package var description: String { "'\(path)' \(message)" }
}

extension FieldError {
    /// The field at `codingPath` (`journals[0].order`), element `index` of its list when given.
    package init(at codingPath: [CodingKey], index: Int? = nil, _ message: String) {
        self.init(path: JSONOutput.fieldPath(codingPath) + (index.map { "[\($0)]" } ?? ""), message: message)
    }
}

extension KeyedDecodingContainer {
    /// The name under `key` read as a value by `parse`; a bad one is a `FieldError` naming it.
    package func value<T>(_ key: Key, _ parse: (String) throws -> T) throws -> T? {
        guard let name = try decodeIfPresent(String.self, forKey: key) else { return nil }
        do { return try parse(name) } catch let e as ThemeLabError {
            throw FieldError(at: codingPath + [key], "\(e)")
        }
    }

    /// The names under `key` read as values by `parse`; a bad one is a `FieldError` naming it (`thresholds[2]`).
    package func values<T>(_ key: Key, _ parse: (String) throws -> T) throws -> [T]? {
        guard let names = try decodeIfPresent([String].self, forKey: key) else { return nil }
        return try names.enumerated().map { i, name in
            do { return try parse(name) } catch let e as ThemeLabError { throw FieldError(at: codingPath + [key], index: i, "\(e)") }
        }
    }
}
