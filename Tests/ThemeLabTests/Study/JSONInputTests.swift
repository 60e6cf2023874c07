import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder
import ThemeLabPairs
import ThemeLabStudy

/// Every JSON input passes one checker (`JSONInput`) before Foundation reads it: a key given twice in one object,
/// nesting past Foundation's 512, a number past a Double's range and bytes outside JSON's grammar are refused naming
/// the key, the field or the byte. (Fixtures/fuzz/*/dup-* hold a repeated key in each kind of input the fuzz targets
/// read; `FuzzReplayTests` requires each to be refused.)
@Suite struct JSONInputTests {
    /// The refusal of an experiment file holding `text`, its folder left out.
    func experiment(_ text: String) -> String? {
        let folder = temporaryFolder()
        try! AtomicFile.write(text, to: folder + "/x.json")
        return errorMessage { _ = try ExperimentPlan.read(path: folder + "/x.json") }?.replacingOccurrences(of: folder + "/", with: "")
    }

    func refusal(_ text: String) -> String? { errorMessage { try JSONInput.check(Data(text.utf8), file: "x.json") } }

    /// The unknown-field check read the last copy of "corpora" and the decoder the first, so a misspelt field passed.
    @Test func aKeyGivenTwiceIsRefusedNamingItAndWhereItStands() {
        #expect(
            experiment(#"{"name": "d", "corpora": [{"name": "seed-12", "intnets": 3}], "corpora": [{"name": "seed-12"}]}"#)
                == "x.json: duplicate key 'corpora' at the top level")
        #expect(
            experiment(#"{"name": "d", "corpora": [{"name": "synthetic"}, {"name": "synthetic", "seed": 1, "seed": 2}]}"#)
                == "x.json: duplicate key 'seed' in corpora[1]")
        // Keys are equal as Foundation's dictionaries compare them: escapes decoded, canonically equivalent text.
        #expect(refusal(#"{"a": 1, "\u0061": 2}"#) == "x.json: duplicate key 'a' at the top level")
        #expect(refusal("{\"x\": {\"caf\u{e9}\": 1, \"cafe\u{301}\": 2}}") == "x.json: duplicate key 'caf\u{e9}' in x")
        #expect(refusal(#"[{"a": 1}, {"a": 1, "b": {"a": 2}}, {"": 0}]"#) == nil)
    }

    /// A repeated key is refused by every reader: a replay file, a results file through `check`, a safetensors header, a
    /// bench line (the readers the fuzz targets cover have their `dup-` seeds).
    @Test func everyReaderRefusesARepeatedKey() throws {
        let folder = temporaryFolder()
        try AtomicFile.write(#"{"kind": "replay", "kind": "replay", "name": "r", "journals": []}"#, to: folder + "/r.json")
        #expect(
            errorMessage { _ = try ReplayPlan.read(path: folder + "/r.json") } == "\(folder)/r.json: duplicate key 'kind' at the top level")
        let committed = try String(contentsOfFile: GateTests.committed, encoding: .utf8)
        let repeated = committed.replacingOccurrences(of: "\"ari\" : ", with: "\"ari\" : 5, \"ari\" : ")
        try AtomicFile.write(repeated, to: folder + "/results.json")
        let check = CLI.run(["check", "--results", folder + "/results.json", "--baseline", GateTests.committed])
        #expect(check.status == 1 && check.stderr.hasPrefix("themelab: \(folder)/results.json: duplicate key 'ari' in analyses[0]."))
        let header = #"{"w": {"dtype": "F32", "shape": [1], "dtype": "F16", "data_offsets": [0, 4]}}"#
        let weights = try safetensorsFile(header: header, data: floatBytes([1]))
        #expect(errorMessage { _ = try SafeTensors(path: weights) } == "\(weights) header: duplicate key 'dtype' in w")
        #expect(
            errorMessage { _ = try CostModel.Point(benchLine: #"{"n": "5", "d": "3", "n": "7", "seconds": "1", "peak_rss_mib": "1"}"#) }
                == "bench line: duplicate key 'n' at the top level")
    }

    /// Parse errors name the depth, the number and its field, or the byte (they all said "not a JSON object").
    @Test func parseErrorsNameTheDepthTheNumberOrTheByte() {
        let opening = #"{"name": "d", "corpora": "#
        let deep = opening + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        // The object is the first container; the 512th bracket opens the 513th.
        #expect(experiment(deep) == "x.json: nesting deeper than 512 at byte \(opening.utf8.count + 511)")
        #expect(
            experiment(#"{"name": "d", "corpora": [{"name": "synthetic", "seed": 1e400}]}"#)
                == "x.json: number 1e400 at corpora[0].seed is out of range (a double holds up to 1.8e308)")
        #expect(refusal("-1e400") == "x.json: number -1e400 at the top level is out of range (a double holds up to 1.8e308)")
        #expect(refusal("[1e-400, 1.7976931348623157e308, -0, 0.5E+3]") == nil)
        #expect(
            experiment(#"{"name": "d", "corpora": [{"name": "seed-12",}]}"#)
                == "x.json: not valid JSON at byte 45 in corpora[0] (expected a key in double quotes)")
        #expect(refusal("[1, 2,]") == "x.json: not valid JSON at byte 6 in [2] (expected a value)")
        #expect(refusal(#"{"a": 01}"#) == "x.json: not valid JSON at byte 6 in a (a number with a leading zero)")
        #expect(
            refusal("{\"a\": \"x\ty\"}")
                == "x.json: not valid JSON at byte 8 in a (a control character in a string (write it as an escape))")
        #expect(refusal(#"{"a": "\ud800"}"#) == "x.json: not valid JSON at byte 7 in a (a lone surrogate in a \\u escape)")
        #expect(refusal(#"{"a": "\x"}"#)?.hasPrefix("x.json: not valid JSON at byte 7 in a (a bad escape") == true)
        #expect(refusal("{\"a\": 1} x") == "x.json: not valid JSON at byte 9 (more after the end of the value)")
        #expect(refusal("") == "x.json: not valid JSON at byte 0 (expected a value, the input ended)")
        #expect(refusal("\u{feff}{\"a\": [true, false, null, \"\u{1F600}\\ud83d\\ude00\"]}\n") == nil)
        let badUTF8 = Data("{\"a\": \"".utf8) + Data([0xC3, 0x28]) + Data("\"}".utf8)
        #expect(errorMessage { try JSONInput.check(badUTF8, file: "x.json") } == "x.json: not valid JSON at byte 7 in a (invalid UTF-8)")
    }
}
