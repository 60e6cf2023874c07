import Foundation

/// A progress line with an ETA on stderr (or `write`, where a caller captures it) for long work. Silent for work
/// that ends within a second, and redrawn at most twice a second. When the count starts over (a new task reports
/// through the same line), the clock starts over too. Drawn only on a terminal (`redraws`): a log file or a pipe gets
/// no carriage returns.
package final class ProgressLine: @unchecked Sendable {
    private let label: String
    private let write: (String) -> Void
    private let redraws: Bool
    private var start = Date()
    private var lastDraw = Date.distantPast
    private var lastDone = Int.max
    private var drew = false

    package init(label: String, write: @escaping (String) -> Void = StandardError.write, redraws: Bool = isatty(2) != 0) {
        self.label = label
        self.write = write
        self.redraws = redraws
    }

    package func update(done: Int, total: Int) {
        if done < lastDone {
            finish()
            start = Date()
            drew = false
        }
        lastDone = done
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard redraws, elapsed > 1, now.timeIntervalSince(lastDraw) > 0.5 || done == total, total > 0 else { return }
        lastDraw = now
        drew = true
        let fraction = Double(done) / Double(total)
        let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
        let text = String(format: "\r%@: %5.1f%% (%d/%d), %.0fs elapsed, ETA %.0fs ", label, 100 * fraction, done, total, elapsed, eta)
        write(text)
    }

    package func finish() {
        if drew { write("\n") }
    }
}
