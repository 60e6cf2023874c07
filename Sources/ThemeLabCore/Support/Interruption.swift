import CKernels
import Foundation
import Synchronization

/// Clean-ups for what a run would leave half-done if Ctrl-C or `kill` (SIGINT, SIGTERM) stopped it: a results folder
/// it made, its staging folders, a private cache. The executable calls `install`; on either signal the clean-ups run,
/// then the process ends by the same signal (status 128 + n, as before), and a second signal ends it at once. Files and
/// folders come into place only through `committing`, which waits for the clean-ups and refuses after them, so the
/// clean-ups never race a rename. Where `install` was not called (the tests run commands in process) nothing else
/// changes; SIGKILL leaves what the next run removes (`ResultsRoot`, `AtomicFile`).
package enum Interruption {
    private struct State {
        var next = 0
        var cleanUps: [Int: @Sendable () -> Void] = [:]
        var interrupted = false
    }

    private static let state = Mutex(State())

    /// Runs `cleanUp` on an interruption until `remove` is called with the key returned.
    package static func register(_ cleanUp: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.cleanUps[state.next] = cleanUp
            return state.next
        }
    }

    /// Starts something with `start` and registers its clean-up (given what `start` returned) in one step, so an
    /// interruption comes either before the start, which is then refused, or after the registration, and never between.
    package static func starting<T>(_ start: () throws -> T, cleanUp: @escaping @Sendable (T) -> Void) throws -> (started: T, key: Int)
    where T: Sendable {
        try state.withLock { state in
            guard !state.interrupted else { throw ThemeLabError.input("not started: the run was interrupted") }
            let started = try start()
            state.next += 1
            state.cleanUps[state.next] = { cleanUp(started) }
            return (started, state.next)
        }
    }

    package static func remove(_ key: Int) { _ = state.withLock { $0.cleanUps.removeValue(forKey: key) } }

    /// `body` (a rename into place, a new file or folder) never while the clean-ups run, and never after them.
    package static func committing<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try state.withLock { state in
            guard !state.interrupted else { throw ThemeLabError.input("\(path): not written, the run was interrupted") }
            return try body()
        }
    }

    /// For the executable, once: SIGINT and SIGTERM run the clean-ups (newest first), then end the process by that signal.
    package static func install() {
        let readEnd = tl_forward_signals()
        guard readEnd >= 0 else { return }
        Thread.detachNewThread {
            var number: UInt8 = 0
            guard read(readEnd, &number, 1) == 1 else { return }
            tl_default_signals()
            state.withLock { state in
                state.interrupted = true
                for (_, cleanUp) in state.cleanUps.sorted(by: { $0.key > $1.key }) { cleanUp() }
                kill(getpid(), Int32(number))
            }
        }
    }
}
