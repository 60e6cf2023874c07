/// `0.55`, `4`, `90`: arguments printed without trailing zeros.
package func formatArgument(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
}
