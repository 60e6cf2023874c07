import Foundation

/// Hands job numbers 0..<count to concurrent workers, and gives them one-at-a-time access to
/// shared state (results, consumers, progress). Used by the pairwise pass, the encoder, replicate analyses and `bench encoder`.
package final class WorkQueue<State>: @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var next = 0
    private var state: State

    package init(count: Int, state: State) {
        self.count = count
        self.state = state
    }

    /// The next job number, or nil when all are taken.
    package func take() -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Runs `body` on the shared state while no other worker does.
    package func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try lock.withLock { try body(&state) }
    }
}
