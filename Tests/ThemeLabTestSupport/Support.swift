import Foundation
import ThemeLabCore

// The helpers both test tiers share: fixtures, temporary folders, seeded inputs, error messages.

/// The repository's root folder (where Package.swift is).
package let projectRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Path of a committed fixture file (Tests/ThemeLabTests/Fixtures, read by both tiers).
package func fixture(_ name: String) -> String { projectRoot + "/Tests/ThemeLabTests/Fixtures/\(name)" }

/// A committed JSON fixture, its snake_case keys (as Python writes them) read as camelCase properties.
package func decodeFixture<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(type, from: Data(contentsOf: URL(fileURLWithPath: fixture(name))))
}

/// The embedding cache of every test: the checkout's `.themelab/cache`, never the user's cache folder, where
/// `ProcessEnvironment.cacheFolder` would otherwise put it (a THEMELAB_CACHE the runner was given wins). Set once, on the
/// first temporary folder or command a test makes.
package let testCache: String = {
    let path = projectRoot + "/.themelab/cache"
    setenv("THEMELAB_CACHE", path, 0)
    return ProcessInfo.processInfo.environment["THEMELAB_CACHE"] ?? path
}()

/// A fresh temporary folder for one test.
package func temporaryFolder() -> String {
    _ = testCache
    let path = NSTemporaryDirectory() + "themelab-tests-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Seeded Gaussian rows (not normalised).
package func randomMatrix(rows: Int, cols: Int, seed: UInt64) -> Matrix {
    var rng = SeededRandom(seed: seed)
    return Matrix(rows: rows, cols: cols, storage: (0..<(rows * cols)).map { _ in Float(rng.gaussian()) })
}

/// The message of a ThemeLabError thrown by `body`, or nil.
package func errorMessage(_ body: () throws -> Void) -> String? {
    do { try body() } catch let e as ThemeLabError { return e.description } catch { return "unexpected \(error)" }
    return nil
}

/// A safetensors file built by hand: the header's length, the header JSON, then the bytes.
package func safetensorsFile(header: String, data: [UInt8]) throws -> String {
    var bytes = Data()
    withUnsafeBytes(of: UInt64(header.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: Array(header.utf8))
    bytes.append(contentsOf: data)
    let path = temporaryFolder() + "/m.safetensors"
    try AtomicFile.write(bytes, to: path)
    return path
}

/// Float32 values as little-endian bytes.
package func floatBytes(_ values: [Float]) -> [UInt8] { values.withUnsafeBytes { Array($0) } }

extension BinaryFloatingPoint {
    /// |self − other| ≤ absoluteTolerance, false when either is NaN (swift-numerics'
    /// `isApproximatelyEqual(to:absoluteTolerance:)`, which this package does not depend on).
    package func isApproximatelyEqual(to other: Self, absoluteTolerance: Self) -> Bool {
        abs(self - other) <= absoluteTolerance
    }
}
