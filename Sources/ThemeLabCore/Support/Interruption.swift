import CKernels
import Foundation
import Synchronization

/// Clean-ups for what a run would leave half-done if Ctrl-C or `kill` (SIGINT, SIGTERM) stopped it: a results folder
/// it made, its staging folders, a private cache. The executable calls `install`; on either signal the clean-ups run,
/// then the process ends by the same signal (status 128 + n, as before). Where `install` was not called (the tests run
/// commands in process) registering does nothing else; SIGKILL leaves what the next run removes (`ResultsRoot`).
package enum Interruption {
    private static let pending = Mutex<(next: Int, cleanUps: [Int: @Sendable () -> Void])>((0, [:]))

    /// Runs `cleanUp` on an interruption until `remove` is called with the key returned.
    package static func register(_ cleanUp: @escaping @Sendable () -> Void) -> Int {
        pending.withLock { state in
            state.next += 1
            state.cleanUps[state.next] = cleanUp
            return state.next
        }
    }

    package static func remove(_ key: Int) { _ = pending.withLock { $0.cleanUps.removeValue(forKey: key) } }

    /// For the executable, once: SIGINT and SIGTERM run the clean-ups (newest first), then end the process by that signal.
    package static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0,
            tl_forward_signals(ends[1]) == 0
        else { return }
        let readEnd = ends[0]
        Thread.detachNewThread {
            var number: UInt8 = 0
            guard read(readEnd, &number, 1) == 1 else { return }
            let cleanUps = pending.withLock { state in state.cleanUps.sorted { $0.key > $1.key }.map(\.value) }
            for cleanUp in cleanUps { cleanUp() }
            signal(Int32(number), SIG_DFL)
            kill(getpid(), Int32(number))
        }
    }
}
