import Foundation
import Testing

@testable import ThemeLab

@Suite struct SupportTests {
    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func kernelRuleForcesAFastKernelOnlyWhenNeeded() {
        let avx2 = CPUFeatures(model: "x", flags: ["avx2", "fma", "avx"])
        let avx512 = CPUFeatures(model: "x", flags: ["avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512dq"])
        let old = CPUFeatures(model: "x", flags: ["sse3"])
        #expect(BLASRuntime.coreTypeToForce(kernel: "Prescott", cpu: avx2, userCoreType: nil) == "HASWELL")
        #expect(BLASRuntime.coreTypeToForce(kernel: "Prescott", cpu: avx512, userCoreType: nil) == "SKYLAKEX")
        #expect(BLASRuntime.coreTypeToForce(kernel: "Haswell", cpu: avx512, userCoreType: nil) == "SKYLAKEX")
        #expect(BLASRuntime.coreTypeToForce(kernel: "Zen", cpu: avx2, userCoreType: nil) == nil)
        #expect(BLASRuntime.coreTypeToForce(kernel: "SkylakeX", cpu: avx512, userCoreType: nil) == nil)
        #expect(BLASRuntime.coreTypeToForce(kernel: "Prescott", cpu: old, userCoreType: nil) == nil)
        #expect(BLASRuntime.coreTypeToForce(kernel: "Prescott", cpu: avx2, userCoreType: "PRESCOTT") == nil)
        #expect(BLASRuntime.slowKernelWarning(kernel: "Prescott", cpu: avx2) != nil)
        #expect(BLASRuntime.slowKernelWarning(kernel: "Haswell", cpu: avx2) == nil)
    }

    @Test func seededRandomIsStable() {
        var a = SeededRandom(seed: 42)
        var b = SeededRandom(seed: 42)
        #expect((0..<5).map { _ in a.next() } == (0..<5).map { _ in b.next() })
        var c = SeededRandom(seed: 0)
        #expect(c.next() == 0xE220_A839_7B1D_CDAF)  // SplitMix64 reference value for seed 0
    }

    @Test func atomicWriteLeavesNoTemporaryFile() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("hello", to: folder + "/sub/out.txt")
        #expect(try String(contentsOfFile: folder + "/sub/out.txt", encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/sub") == ["out.txt"])
    }
}
