import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

@Suite struct SafeTensorsTests {
    @Test func readsF32AndBF16WithOrWithoutPrefix() throws {
        let bf16: [UInt8] = [0x80, 0x3F, 0x00, 0xC0]  // 1.0, -2.0
        let path = try safetensorsFile(
            header:
                #"{"__metadata__":{"format":"pt"},"bert.w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"#
                + #""b":{"dtype":"BF16","shape":[2],"data_offsets":[16,20]}}"#,
            data: floatBytes([1, 2, 3, 4]) + bf16)
        let s = try SafeTensors(path: path)
        #expect(try s.floats("w", shape: [2, 2]) == [1, 2, 3, 4])
        #expect(try s.floats("b", shape: [2]) == [1, -2])
        #expect(errorMessage { _ = try s.floats("w", shape: [4]) }?.contains("tensor 'bert.w' has shape [2, 2], expected [4]") == true)
        #expect(errorMessage { _ = try s.floats("missing", shape: [1]) }?.contains("tensor 'missing' is missing") == true)
    }

    /// F32 data at any byte offset: in place when aligned, copied when the header's length leaves it
    /// unaligned; the same values either way, and a tensor outlives the file object it came from.
    @Test func readsF32InPlaceOrUnaligned() throws {
        for padding in 0..<4 {
            let header = #"{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}}"# + String(repeating: " ", count: padding)
            let path = try safetensorsFile(header: header, data: floatBytes([0.5, -1.25, 3]))
            let tensor = try SafeTensors(path: path).tensor("w", shape: [3])
            #expect(Array(tensor.values) == [0.5, -1.25, 3], "header of \(header.utf8.count) bytes")
        }
    }

    @Test func truncatedAndInconsistentFilesAreErrors() throws {
        let truncated = try safetensorsFile(header: #"{"w":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#, data: floatBytes([1, 2]))
        #expect(errorMessage { _ = try SafeTensors(path: truncated) }?.contains("bytes 0..<16 lie outside the 8-byte data section") == true)
        let wrongSize = try safetensorsFile(
            header: #"{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}"#, data: floatBytes([1, 2, 3, 4]))
        #expect(errorMessage { _ = try SafeTensors(path: wrongSize) }?.contains("16 bytes, shape [3] of F32 needs 12") == true)
        let badType = try safetensorsFile(header: #"{"w":{"dtype":"F99","shape":[1],"data_offsets":[0,4]}}"#, data: floatBytes([1]))
        #expect(errorMessage { _ = try SafeTensors(path: badType) }?.contains("unknown dtype 'F99'") == true)
        let notJSON = try safetensorsFile(header: "{nope", data: [])
        #expect(
            errorMessage { _ = try SafeTensors(path: notJSON) }
                == "\(notJSON) header: not valid JSON at byte 1 (expected a key in double quotes)")
        let path = temporaryFolder() + "/short.safetensors"
        try AtomicFile.write(Data([1, 0, 0, 0, 0, 0, 0, 0xFF]), to: path)
        #expect(errorMessage { _ = try SafeTensors(path: path) }?.contains("does not fit the file") == true)
    }
}
