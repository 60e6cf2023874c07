import Foundation
import ThemeLabCore

/// A stratified sample of exactly `count` of the items whose topics are `labels` (one per item), without replacement:
/// each topic t of nₜ items keeps ⌊count·nₜ/n⌋, and the items left over go one each to the topics of the largest
/// remainders (Hamilton's apportionment), ties among equal remainders broken by a seeded permutation of the topics, so
/// that below one item per topic a seeded choice of topics is kept. Within a topic, the first of a seeded permutation.
/// The indices ascend (corpus order is kept). `count` at most the number of items.
package func stratifiedSample(labels: [Int32], count: Int, seed: UInt64) -> [Int] {
    precondition((0...labels.count).contains(count), "a sample of \(count) of \(labels.count) items")
    var members: [Int32: [Int]] = [:]
    for (i, l) in labels.enumerated() { members[l, default: []].append(i) }
    let topics = members.keys.sorted()
    let n = labels.count
    var rng = SeededRandom(seed: seed)
    let rank = SeededRandom.permutation(count: topics.count, seed: rng.next())
    var take = topics.map { count * members[$0]!.count / n }
    let left = count - take.reduce(0, +)
    let byRemainder = topics.indices.sorted { a, b in
        let (ra, rb) = (count * members[topics[a]]!.count % n, count * members[topics[b]]!.count % n)
        return ra != rb ? ra > rb : rank[a] < rank[b]
    }
    for t in byRemainder.prefix(left) { take[t] += 1 }
    var kept: [Int] = []
    for (t, label) in topics.enumerated() {
        let m = members[label]!
        kept += SeededRandom.permutation(count: m.count, seed: rng.next()).prefix(take[t]).map { m[$0] }
    }
    return kept.sorted()
}
