import Foundation
import Testing
import ThemeLabCore

@Suite struct NPYTests {
    let expected: [Float] = [0.5, -1.25, 3.0, 1e-3, 2.0, -0.0]

    @Test(arguments: ["npy-v1-f4.npy", "npy-v2-f4.npy", "npy-v3-f4.npy"])
    func readsFilesWrittenByNumpy(_ name: String) throws {
        let m = try NPY.read(path: fixture(name))
        #expect(m.rows == 2 && m.cols == 3)
        #expect(m.storage == expected)
    }

    @Test func readsFloat64AndRoundsToFloat32() throws {
        let m = try NPY.read(path: fixture("npy-v1-f8.npy"))
        #expect(m.storage == [Float(0.5 + 1e-9), -1.25, 3.0, 1e-3, 2.0, 0.0])
    }

    @Test func writeThenReadIsIdentityAndMatchesNumpyBytes() throws {
        let m = Matrix(rows: 2, cols: 3, storage: expected)
        let encoded = NPY.encode(m)
        #expect(encoded == FileManager.default.contents(atPath: fixture("npy-v1-f4.npy")))
        #expect(try NPY.decode(encoded, name: "x") == m)
        let big = randomMatrix(rows: 17, cols: 33, seed: 4)
        let path = temporaryFolder() + "/big.npy"
        try NPY.write(big, to: path)
        #expect(try NPY.read(path: path) == big)
    }

    @Test func emptyMatrixRoundTrips() throws {
        let m = Matrix(rows: 0, cols: 5)
        #expect(try NPY.decode(NPY.encode(m), name: "x") == m)
    }

    @Test(arguments: [
        ("npy-fortran.npy", "'fortran_order' is True"),
        ("npy-3d.npy", "'shape' has 3 dimensions"),
        ("npy-int.npy", "'descr' is '<i4'"),
        ("npy-bigendian.npy", "'descr' is '>f4'"),
    ])
    func rejectsWhatItCannotRead(_ name: String, _ message: String) {
        let error = errorMessage { _ = try NPY.read(path: fixture(name)) }
        #expect(error?.contains(name) == true)
        #expect(error?.contains(message) == true, "\(error ?? "no error")")
    }

    @Test func rejectsTruncatedAndForeignFiles() throws {
        var data = try #require(FileManager.default.contents(atPath: fixture("npy-v1-f4.npy")))
        data.removeLast(3)
        #expect(errorMessage { _ = try NPY.decode(data, name: "t.npy") }?.contains("data is 21 bytes") == true)
        #expect(errorMessage { _ = try NPY.decode(Data("hello world".utf8), name: "t.npy") } == "t.npy: not a .npy file (bad magic)")
        var v9 = try #require(FileManager.default.contents(atPath: fixture("npy-v1-f4.npy")))
        v9[6] = 9
        #expect(errorMessage { _ = try NPY.decode(v9, name: "t.npy") }?.contains("unsupported .npy version 9.0") == true)
    }
}

extension NPYTests {
    /// An `.npy` truncated while it is read is an error naming it, not SIGBUS.
    @Test func anNPYTruncatedWhileReadIsAnError() throws {
        let path = temporaryFolder() + "/x.npy"
        let m = randomMatrix(rows: 4000, cols: 64, seed: 2)
        try NPY.write(m, to: path)
        let file = try NPYFile(path: path)
        #expect(try file.rows([3, 1, 2]).storage == m.rows([3, 1, 2]).storage)
        #expect(try file.rows(0..<4000).storage == m.storage)
        #expect(truncate(path, 100_000) == 0)
        let message = errorMessage { _ = try file.rows(0..<4000) }
        #expect(message?.hasPrefix("\(path): cannot read bytes ") == true && message?.hasSuffix("was it changed while being read?") == true)
    }
}
