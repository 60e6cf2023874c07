import Foundation
import ThemeLabCore
import ThemeLabFuzz

/// `themelab-fuzz TARGET [libFuzzer options] [CORPUS_DIR …]`: runs one parser under libFuzzer.
/// Built by `make fuzz` with `-sanitize=fuzzer`, which links libFuzzer and instruments the library;
/// an ordinary build has no libFuzzer and only says how to get one.

typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
typealias RunDriver =
    @convention(c) (
        UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        TestOneInput
    ) -> Int32

let targets = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
let usage = "usage: themelab-fuzz TARGET [libFuzzer options] [CORPUS_DIR …]   (TARGET: \(targets))"
let arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
    StandardError.write("themelab-fuzz: \(usage)\n")
    exit(2)
}
// libFuzzer's entry point, present only in a `-sanitize=fuzzer` build (exported by `make fuzz`).
guard let driver = dlsym(nil, "LLVMFuzzerRunDriver").map({ unsafeBitCast($0, to: RunDriver.self) }) else {
    StandardError.write("themelab-fuzz: built without libFuzzer; run `make fuzz` (it builds with -sanitize=fuzzer)\n")
    exit(2)
}
let chosen = target
let callback: TestOneInput = { bytes, count in
    chosen.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
// libFuzzer reads its own options; it is handed the program name and everything after TARGET.
var argv: [UnsafeMutablePointer<CChar>?] = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
var argc = Int32(argv.count - 1)
exit(
    argv.withUnsafeMutableBufferPointer { buffer in
        var pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
        return driver(&argc, &pointer, callback)
    })
