/// `0.55`, `4`, `90`: arguments printed without trailing zeros.
package func formatArgument(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
}

/// A file-name-safe form: lower case, anything but letters and digits as "-" (plot and assignment files are named by it).
package func fileNameSlug(_ s: String) -> String { String(s.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }) }

/// A count that may be a mean: "850" when whole, else one decimal ("849.6").
package func formatCount(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(format: "%.1f", x)
}
