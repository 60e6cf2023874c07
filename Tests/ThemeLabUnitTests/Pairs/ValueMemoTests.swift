import Foundation
import Synchronization
import Testing

@testable import ThemeLabPairs

/// `ValueMemo` computes a key once, also when two readers ask for it at the same time (a size run's two whole corpora
/// with the same vectors share their spectra this way).
@Suite struct ValueMemoTests {
    @Test func aKeyAskedTwiceAtOnceIsComputedOnce() throws {
        let memo = ValueMemo()
        let calls = Atomic<Int>(0)
        let started = DispatchSemaphore(value: 0)
        let values = Mutex<[Int]>([])
        let group = DispatchGroup()
        for reader in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                if reader == 1 { started.wait() }
                let value = try! memo.value("spectra") { () -> Int in
                    started.signal()
                    // The second reader asks while this one computes.
                    Thread.sleep(forTimeInterval: 0.2)
                    return 40 + calls.add(1, ordering: .relaxed).newValue
                }
                values.withLock { $0.append(value) }
            }.start()
        }
        group.wait()
        #expect(calls.load(ordering: .relaxed) == 1)
        #expect(values.withLock { $0 } == [41, 41])
        // Another key, or the same name of another type, is computed anew; a failure is not kept.
        #expect(try memo.value("other") { 7 } == 7)
        #expect(try memo.value("spectra") { "text" } == "text")
        #expect(throws: CocoaError.self) { try memo.value("failing") { () throws -> Int in throw CocoaError(.fileNoSuchFile) } }
        #expect(try memo.value("failing") { 3 } == 3)
        // An optional value is computed and kept like any other (an empty slot is not a kept nil).
        #expect(try memo.value("optional") { Int?(5) } == 5)
        #expect(try memo.value("optional") { Int?(6) } == 5)
    }
}
