/// How many groups labels numbered from 0 make (0 for no labels).
package func groupCount(_ labels: [Int32]) -> Int { Int(labels.max() ?? -1) + 1 }

/// Labels renumbered 0, 1, … by first appearance; noise (−1) stays −1.
package func renumbered(_ labels: [Int32]) -> [Int32] {
    var number: [Int32: Int32] = [:]
    return labels.map { l in
        guard l >= 0 else { return -1 }
        if let k = number[l] { return k }
        let k = Int32(number.count)
        number[l] = k
        return k
    }
}
