import Foundation
import Testing
import ThemeLabFuzz

/// Every committed fuzz input (Fixtures/fuzz/TARGET/): the seeds `make fuzz` starts from, which
/// must parse (so the fuzzer starts from the real format), seeds with a key given twice in one object (`dup-`), which
/// must be refused naming the key, and every crasher it found, which must now return or throw a ThemeLabError instead
/// of trapping.
@Suite struct FuzzReplayTests {
    static func inputs(_ target: FuzzTarget) throws -> [(name: String, data: Data)] {
        let folder = fixture("fuzz/\(target.rawValue)")
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            (name, try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
        }
    }

    @Test(arguments: FuzzTarget.allCases)
    func seedsParseAndCrashersNoLongerCrash(_ target: FuzzTarget) throws {
        let inputs = try Self.inputs(target)
        #expect(inputs.contains { $0.name.hasPrefix("seed-") })
        for (name, data) in inputs {
            if name.hasPrefix("seed-") {
                #expect(errorMessage { try target.parse(data) } == nil, "\(target) \(name) should parse")
            }
            if name.hasPrefix("dup-") {
                let message = errorMessage { try target.parse(data) }
                #expect(message?.contains("duplicate key '") == true, "\(target) \(name) has a key twice: \(message ?? "accepted")")
            }
            target.run(data)
        }
    }
}
