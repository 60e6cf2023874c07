import Foundation

/// Hands job numbers 0..<count to concurrent workers, and gives them one-at-a-time access to
/// shared state (results, consumers, progress). Used by the pairwise pass, the encoder, replicate analyses, `bench encoder`
/// and `parallelMap`.
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

/// Carries read-only pointers, or a closure that only reads shared state, into concurrent workers.
package struct UnsafeSendable<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}

/// `body` of every job 0..<count on up to `workers` threads (this one and `workers − 1` started for the call, so a call
/// inside another's job runs in parallel too, which `DispatchQueue.concurrentPerform` nested does not), the jobs taken
/// in `order` (a permutation of 0..<count; ascending when nil), the results in job order. `body` must only read shared
/// state; a job that can fail returns a `Result`.
package func parallelMap<T: Sendable>(_ count: Int, workers: Int = 2, order: [Int]? = nil, _ body: @escaping (Int) -> T) -> [T] {
    let queue = WorkQueue(count: count, state: [T?](repeating: nil, count: count))
    let job = UnsafeSendable(body)
    let finished = DispatchSemaphore(value: 0)
    // Returns the jobs it ran; a started thread signals once per job, so a thread that never started is never waited for.
    let work: @Sendable (Bool) -> Int = { started in
        var ran = 0
        while let next = queue.take() {
            let k = order?[next] ?? next
            let result = job.value(k)
            queue.withState { $0[k] = result }
            ran += 1
            if started { finished.signal() }
        }
        return ran
    }
    for _ in 0..<max(0, min(workers, count) - 1) { Thread { _ = work(true) }.start() }
    for _ in work(false)..<count { finished.wait() }
    return queue.withState { $0.map { $0! } }
}
