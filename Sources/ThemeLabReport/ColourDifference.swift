import Foundation

/// A colour in CIELAB (D65 white), the space colour differences are measured in.
package struct LabColour: Sendable, Equatable {
    package var l: Double
    package var a: Double
    package var b: Double

    package init(l: Double, a: Double, b: Double) { (self.l, self.a, self.b) = (l, a, b) }

    /// An sRGB colour written "#RRGGBB": the sRGB transfer curve undone, the linear RGB taken to XYZ (IEC 61966-2-1),
    /// then to L*a*b* against the D65 white (CIE 15:2004). Nil for any other spelling.
    package init?(hex: String) {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        let linear = [16, 8, 0].map { shift -> Double in
            let c = Double((value >> UInt32(shift)) & 0xFF) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear[0], linear[1], linear[2])
        let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47
        let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b
        let z = (0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b) / 1.088_83
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        self.init(l: 116 * f(y) - 16, a: 500 * (f(x) - f(y)), b: 200 * (f(y) - f(z)))
    }
}

/// The CIEDE2000 colour difference ΔE₀₀ between two CIELAB colours (CIE 142-2001), with k_L = k_C = k_H = 1:
///
///     C̄ = (C*₁ + C*₂)/2,  G = ½(1 − √(C̄⁷/(C̄⁷ + 25⁷))),  a′ = (1 + G)·a*,  C′ = √(a′² + b*²),  h′ = atan2(b*, a′)
///     ΔL′ = L*₂ − L*₁,  ΔC′ = C′₂ − C′₁,  ΔH′ = 2√(C′₁C′₂)·sin(Δh′/2)   (Δh′ the hue step in (−180°, 180°])
///     T = 1 − 0.17cos(h̄′ − 30°) + 0.24cos(2h̄′) + 0.32cos(3h̄′ + 6°) − 0.20cos(4h̄′ − 63°)
///     S_L = 1 + 0.015(L̄′ − 50)²/√(20 + (L̄′ − 50)²),  S_C = 1 + 0.045C̄′,  S_H = 1 + 0.015C̄′T
///     R_T = −sin(2Δθ)·2√(C̄′⁷/(C̄′⁷ + 25⁷)),  Δθ = 30°·exp(−((h̄′ − 275°)/25)²)
///     ΔE₀₀ = √((ΔL′/S_L)² + (ΔC′/S_C)² + (ΔH′/S_H)² + R_T(ΔC′/S_C)(ΔH′/S_H))
///
/// with the mean hue h̄′ taken the short way round and a colour of zero chroma given hue 0 (no hue step, the sum as the
/// mean). Reference: G. Sharma, W. Wu and E. N. Dalal, "The CIEDE2000 color-difference formula: implementation notes,
/// supplementary test data, and mathematical observations", Color Research & Application 30(1), 21–30 (2005), whose
/// Table 1 of 34 pairs the tests check it against.
package func colourDifference(_ x: LabColour, _ y: LabColour) -> Double {
    func degrees(_ r: Double) -> Double { r * 180 / .pi }
    func radians(_ d: Double) -> Double { d * .pi / 180 }
    let meanChroma = (hypot(x.a, x.b) + hypot(y.a, y.b)) / 2
    let g = 0.5 * (1 - sqrt(pow(meanChroma, 7) / (pow(meanChroma, 7) + pow(25, 7))))
    let (a1, a2) = ((1 + g) * x.a, (1 + g) * y.a)
    let (c1, c2) = (hypot(a1, x.b), hypot(a2, y.b))
    func hue(_ a: Double, _ b: Double) -> Double {
        a == 0 && b == 0 ? 0 : (degrees(atan2(b, a)) + 360).truncatingRemainder(dividingBy: 360)
    }
    let (h1, h2) = (hue(a1, x.b), hue(a2, y.b))
    let chromatic = c1 * c2 != 0
    var step = h2 - h1
    if step > 180 { step -= 360 } else if step < -180 { step += 360 }
    let dL = y.l - x.l
    let dC = c2 - c1
    let dH = chromatic ? 2 * sqrt(c1 * c2) * sin(radians(step) / 2) : 0
    let meanL = (x.l + y.l) / 2
    let meanC = (c1 + c2) / 2
    let meanH =
        !chromatic ? h1 + h2 : abs(h1 - h2) <= 180 ? (h1 + h2) / 2 : h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
    let t =
        1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH)) + 0.32 * cos(radians(3 * meanH + 6))
        - 0.20 * cos(radians(4 * meanH - 63))
    let sL = 1 + 0.015 * pow(meanL - 50, 2) / sqrt(20 + pow(meanL - 50, 2))
    let sC = 1 + 0.045 * meanC
    let sH = 1 + 0.015 * meanC * t
    let rotation = 30 * exp(-pow((meanH - 275) / 25, 2))
    let rT = -sin(radians(2 * rotation)) * 2 * sqrt(pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7)))
    let (l, c, h) = (dL / sL, dC / sC, dH / sH)
    return sqrt(l * l + c * c + h * h + rT * c * h)
}

/// ΔE₀₀ between two sRGB colours written "#RRGGBB" (`LabColour(hex:)`); nil when either is spelled otherwise.
package func colourDifference(_ x: String, _ y: String) -> Double? {
    guard let p = LabColour(hex: x), let q = LabColour(hex: y) else { return nil }
    return colourDifference(p, q)
}
