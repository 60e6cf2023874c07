import COpenBLAS

// Does a block of rows of A·Wᵀ get the same bits multiplied alone as inside a larger product, when every
// block starts at (and is padded to) a multiple of g rows? Deciding whether the encoder could batch sentences.
// usage: gemm-rows G [OUTPUTS]   (K = 384; OUTPUTS default 1152, the stacked Q|K|V projection)
let k = 384
let g = Int(CommandLine.arguments[1])!
let outputs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2])! : 1152
openblas_set_num_threads(1)
var state: UInt64 = 42
func uniform() -> Float {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Float(Int64(bitPattern: state >> 11) % 2000) / 1000 - 1
}
let w = (0..<(outputs * k)).map { _ in uniform() }
let maxRows = 2048
let x = (0..<(maxRows * k)).map { _ in uniform() }
func product(rows: Range<Int>) -> [Float] {
    var c = [Float](repeating: 0, count: rows.count * outputs)
    x.withUnsafeBufferPointer { a in
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows.count), Int32(outputs), Int32(k), 1, a.baseAddress! + rows.lowerBound * k,
            Int32(k), w, Int32(k), 0, &c, Int32(outputs))
    }
    return c
}
var differing = 0
var checks = 0
for total in stride(from: g, through: maxRows, by: max(g, 37 / g * g)) {
    let whole = product(rows: 0..<total)
    for length in [1, 3, 5, 11, 17, 40] where length <= total {
        let padded = (length + g - 1) / g * g
        for offset in stride(from: 0, to: total - padded + 1, by: max(g, total / 5 / g * g)) {
            let alone = product(rows: offset..<(offset + padded))
            checks += 1
            for r in 0..<length where (0..<outputs).contains(where: { alone[r * outputs + $0] != whole[(offset + r) * outputs + $0] }) {
                differing += 1
            }
        }
    }
}
print("g = \(g), \(outputs) outputs: \(differing) rows differ in \(checks) blocks")
