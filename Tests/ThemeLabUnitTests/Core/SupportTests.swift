import Foundation
import Testing
import ThemeLabCore

@Suite struct SupportTests {
    /// A remembered hash is used only while the file's state is unchanged: rewriting it with the same size and its old
    /// modification time set back is still seen (change time), and `verify` catches a record that lies.
    @Test func rememberedHashesFollowTheFile() throws {
        let folder = temporaryFolder()
        let file = folder + "/weights.bin"
        try AtomicFile.write(Data("abc".utf8), to: file)
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(try FileHashCache.hex(file: file, cacheFolder: folder) == abc)
        let record = FileHashCache.record(file, folder)
        #expect(try String(contentsOfFile: record, encoding: .utf8).hasSuffix("\n\(abc)\n"))
        #expect(try FileHashCache.hex(file: file, cacheFolder: folder) == abc)

        var before = stat()
        stat(file, &before)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.write(contentsOf: Data("abd".utf8))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        #expect(
            try FileHashCache.hex(file: file, cacheFolder: folder) == "a52d159f262b2c6ddb724a61840befc36eb30c88877a4030b65cbe86298449c9")

        let key = try FileHashCache.identity(file)
        try AtomicFile.write(Data("\(key)\n\(String(repeating: "0", count: 64))\n".utf8), to: record)
        let checked = try FileHashCache.verify(file: file, cacheFolder: folder)
        #expect(checked.remembered == String(repeating: "0", count: 64) && checked.actual.hasPrefix("a52d159f"))
        #expect(try FileHashCache.hex(file: file, cacheFolder: folder).hasPrefix("a52d159f"))
    }

    /// `parallelMap` gives the results in job order whatever the order the jobs are taken in, and a call inside another's
    /// job runs its jobs side by side: the two jobs of each inner call wait for each other (which, run one after the
    /// other as `DispatchQueue.concurrentPerform` nested runs them, they would until the timeout).
    @Test func parallelMapKeepsJobOrderAndRunsNestedCallsSideBySide() {
        #expect(parallelMap(9, order: Array((0..<9).reversed())) { $0 * $0 } == (0..<9).map { $0 * $0 })
        #expect(parallelMap(0) { $0 }.isEmpty)
        let met = parallelMap(2) { _ in
            let (arrived, partner) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let pair = [arrived, partner]
            return parallelMap(2) { k in
                pair[k].signal()
                return pair[1 - k].wait(timeout: .now() + 20) == .success
            }
        }
        #expect(met == [[true, true], [true, true]])
    }

    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let million = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func kernelRuleForcesAFastKernelOnlyWhenNeeded() throws {
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
        // Canonical: Haswell wherever AVX2 and FMA are, whatever the user set; the native rule elsewhere.
        for (kernel, user) in [("SkylakeX", nil), ("Cooperlake", "COOPERLAKE"), ("Zen", nil), ("Prescott", "PRESCOTT")] {
            #expect(BLASRuntime.coreTypeToForce(kernel: kernel, cpu: avx512, userCoreType: user, requested: .canonical) == "HASWELL")
            #expect(BLASRuntime.coreTypeToForce(kernel: kernel, cpu: avx2, userCoreType: user, requested: .canonical) == "HASWELL")
        }
        #expect(BLASRuntime.coreTypeToForce(kernel: "Haswell", cpu: avx512, userCoreType: nil, requested: .canonical) == nil)
        #expect(BLASRuntime.coreTypeToForce(kernel: "Prescott", cpu: old, userCoreType: nil, requested: .canonical) == nil)
        #expect(BLASRuntime.arithmetic(kernel: "Haswell") == .canonical && BLASRuntime.arithmetic(kernel: "SkylakeX") == .native)
        #expect(try BLASRuntime.requestedArithmetic(nil) == .canonical)
        #expect(try BLASRuntime.requestedArithmetic("native") == .native)
        #expect(throws: ThemeLabError.self) { try BLASRuntime.requestedArithmetic("Haswell") }
    }

    /// SplitMix64 against the reference implementation's first outputs for seed 0 (Vigna's splitmix64.c), and a seed,
    /// a permutation and a normal draw built on it against the same steps worked in Python.
    @Test func seededRandomMatchesSplitMix64() {
        var zero = SeededRandom(seed: 0)
        #expect(
            (0..<5).map { _ in zero.next() } == [
                0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F, 0xF88B_B8A8_724C_81EC, 0x1B39_896A_51A8_749B,
            ])
        var other = SeededRandom(seed: 42)
        #expect(other.next() == 0xBDD7_3226_2FEB_6E95)
        #expect(SeededRandom.permutation(count: 5, seed: 7) == [4, 1, 3, 0, 2])
        var normal = SeededRandom(seed: 3)
        #expect(normal.gaussian().isApproximatelyEqual(to: -0.15078931135351334, absoluteTolerance: 1e-15))
    }

    @Test func atomicWriteLeavesNoTemporaryFile() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("hello", to: folder + "/sub/out.txt")
        #expect(try String(contentsOfFile: folder + "/sub/out.txt", encoding: .utf8) == "hello")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/sub") == ["out.txt"])
    }

    /// A set's renames wait while another writer holds its folder (`flock` on the folder), so two sets written into one
    /// folder at once end as one whole set, never a mix.
    @Test func aSetWaitsForAnotherWriterOfItsFolder() throws {
        let folder = temporaryFolder()
        let fd = open(folder, O_RDONLY | O_DIRECTORY)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? AtomicFile.write([(Data("a".utf8), folder + "/a.json"), (Data("b".utf8), folder + "/a.csv")])
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut, "the set was renamed while its folder was held")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.json"))
        flock(fd, LOCK_UN)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a.csv", "a.json"])
    }
}

extension SupportTests {
    /// A file changed between the snapshot and the end of the work is refused, naming it, as `pairs` does
    /// around its pass (the checksums it writes then name the bytes it read).
    @Test func aFileChangedWhileBeingReadIsRefused() throws {
        let path = temporaryFolder() + "/x.npy"
        try NPY.write(randomMatrix(rows: 4, cols: 3, seed: 1), to: path)
        let snapshot = try FileSnapshot([path, path + ".absent"])
        try snapshot.verify()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        #expect(errorMessage { try snapshot.verify() } == "\(path): changed while being read; run again when nothing writes it")
    }
}
