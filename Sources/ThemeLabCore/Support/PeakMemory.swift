import Foundation

/// This process's peak resident set size in bytes (VmHWM from /proc/self/status), or nil.
package func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return nil }
    return kb * 1024
}
