/// The product of non-negative sizes, or nil when it overflows `Int` (a file's stated shape
/// must not wrap around before it is compared with the bytes that back it).
package func checkedProduct(_ factors: [Int]) -> Int? {
    var product = 1
    for f in factors {
        guard f >= 0 else { return nil }
        let (p, overflow) = product.multipliedReportingOverflow(by: f)
        if overflow { return nil }
        product = p
    }
    return product
}
