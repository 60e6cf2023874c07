import Foundation
import Testing
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabReport

/// The last-bit check: vectors move by exactly one unit in the last place, seeded; verdicts that change are named.
@Suite struct FragilityTests {
    @Test func everyComponentMovesByOneUnitInTheLastPlace() {
        let values: [Float] = (0..<1000).map { Float($0) * 0.37 - 150 } + [0, -0, .infinity, .nan, .leastNonzeroMagnitude]
        let m = Matrix(rows: 1, cols: values.count, storage: values)
        let a = LastBitPerturbation(seed: 0).apply(to: m)
        func bits(_ seed: UInt64) -> [UInt32] { LastBitPerturbation(seed: seed).apply(to: m).storage.map(\.bitPattern) }
        #expect(a.storage.map(\.bitPattern) == bits(0), "the same seed moves the same way")
        #expect(bits(1) != bits(0), "another seed moves otherwise")
        var ups = 0
        for (x, y) in zip(values, a.storage) {
            if !x.isFinite {
                #expect(x.isNaN ? y.isNaN : y == x)
                continue
            }
            #expect(y == x.nextUp || y == x.nextDown, "\(x) → \(y)")
            ups += y == x.nextUp ? 1 : 0
        }
        #expect((400...600).contains(ups), "\(ups) of 1 003 moved up")
        #expect(values[0].nextUp - values[0] == values[0].ulp)
    }

    @Test func verdictsThatChangeAreCountedAndNamed() {
        var f = Fragility(seed: 7)
        f.add(
            "seeds", .comparison, [("a vs b", "better"), ("a vs c", "worse"), ("b vs c", "indistinguishable")],
            [("a vs b", "better"), ("a vs c", "indistinguishable")])
        f.add("replay", .c9, [("seed-12 · corpus · otsu", "holds")], [("seed-12 · corpus · otsu", "holds")])
        #expect(f.verdicts.filter(\.flips).map(\.key) == ["a vs c", "b vs c"])
        #expect(f.verdicts[2].perturbed == "absent")
        #expect(f.flips("seeds", .comparison, "a vs c") && !f.flips("seeds", .comparison, "a vs b"))
        #expect(!f.flips("replay", .c9, "seed-12 · corpus · otsu") && f.checked("replay") && !f.checked("rules"))
        #expect(
            f.counts.map { "\($0.experiment) \($0.kind.rawValue) \($0.checked) \($0.flipped)" } == [
                "seeds comparison 3 2", "replay C9 1 0",
            ])
        #expect(f.csv().split(separator: "\n")[2] == "seeds,comparison,a vs c,worse,indistinguishable,true")
        let md = f.markdown(limit: 1)
        #expect(md.contains("| seeds | a vs c | worse | indistinguishable |") && !md.contains("| seeds | b vs c |"))
        #expect(md.contains("… and 1 more in [fragility.csv](fragility.csv)."))
    }
}
