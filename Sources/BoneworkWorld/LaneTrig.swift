/// `Trig.sinCosPair` for four angle pairs at once (`PoseLanes`): the same double-precision
/// operations per lane, in the same order, so every lane's result is bit-identical to the scalar
/// function's (`PoseLaneTests` checks this over millions of angles). Lanes the fast path does
/// not cover (large angles, pairs not a quarter turn apart, NaN) send all four lanes through
/// the scalar function.
enum LaneTrig {
    typealias Floats = SIMD4<Float>
    typealias Doubles = SIMD4<Double>

    @inline(__always)
    static func sinCosPair(_ x: Floats, _ y: Floats) -> (sinX: Floats, cosX: Floats, sinY: Floats, cosY: Floats) {
        let dx = widen(x)
        let dy = widen(y)
        let e = ((dy - dx) - Doubles(repeating: Trig.halfPiHi)) - Doubles(repeating: Trig.halfPiLo)
        // Comparisons with NaN are false, so NaN lanes take the scalar path too.
        let inRange = (dx .< Doubles(repeating: 1.0e5)) .& (dx .> Doubles(repeating: -1.0e5))
        let nearQuarter = (e .< Doubles(repeating: 1.0e-4)) .& (e .> Doubles(repeating: -1.0e-4))
        guard all(inRange .& nearQuarter) else { return scalar(x, y) }
        let (s, c) = reduced(dx)
        let e2 = e * e
        let cosE = Doubles(repeating: 1.0) - Doubles(repeating: 0.5) * e2
        let sinE = e - (e * e2) * Doubles(repeating: 1.0 / 6.0)
        let sinY = c * cosE - s * sinE
        let cosY = -(s * cosE + c * sinE)
        return (narrow(s), narrow(c), narrow(sinY), narrow(cosY))
    }

    /// Sine and cosine of `d` (every lane |d| < 1e5), as `Trig`'s reduction and polynomials.
    @inline(__always)
    private static func reduced(_ d: Doubles) -> (sin: Doubles, cos: Doubles) {
        @inline(__always) func v(_ x: Double) -> Doubles { Doubles(repeating: x) }
        let shifted = d * v(Trig.twoOverPi) + v(Trig.roundingShift)
        let k = shifted - v(Trig.roundingShift)
        let r = ((d - k * v(Trig.pio2Hi)) - k * v(Trig.pio2Mid)) - k * v(Trig.pio2Lo)
        let z = r * r
        // Horner's scheme innermost first, as the scalar expressions evaluate.
        var ps = z * v(Trig.s6)
        ps = z * (v(Trig.s5) + ps)
        ps = z * (v(Trig.s4) + ps)
        ps = z * (v(Trig.s3) + ps)
        ps = z * (v(Trig.s2) + ps)
        ps = v(Trig.s1) + ps
        let sinR = r + (r * z) * ps
        var pc = z * v(Trig.c6)
        pc = z * (v(Trig.c5) + pc)
        pc = z * (v(Trig.c4) + pc)
        pc = z * (v(Trig.c3) + pc)
        pc = z * (v(Trig.c2) + pc)
        pc = v(Trig.c1) + pc
        let hz = v(0.5) * z
        let w = v(1.0) - hz
        let cosR = w + (((v(1.0) - w) - hz) + (z * z) * pc)
        // Quadrant (k's low bits): 0 (s, c), 1 (c, -s), 2 (-s, -c), 3 (-c, s).
        let quadrant = unsafeBitCast(shifted, to: SIMD4<UInt64>.self) & 3
        let swap = (quadrant & 1) .!= 0
        var sine = sinR
        var cosine = cosR
        sine.replace(with: cosR, where: swap)
        cosine.replace(with: sinR, where: swap)
        sine.replace(with: -sine, where: (quadrant & 2) .!= 0)
        cosine.replace(with: -cosine, where: ((quadrant &+ 1) & 2) .!= 0)
        return (sine, cosine)
    }

    @inline(never)
    private static func scalar(_ x: Floats, _ y: Floats) -> (sinX: Floats, cosX: Floats, sinY: Floats, cosY: Floats) {
        var result = (sinX: Floats(), cosX: Floats(), sinY: Floats(), cosY: Floats())
        for lane in 0..<4 {
            let t = Trig.sinCosPair(x[lane], y[lane])
            result.sinX[lane] = t.sinX
            result.cosX[lane] = t.cosX
            result.sinY[lane] = t.sinY
            result.cosY[lane] = t.cosY
        }
        return result
    }

    @inline(__always)
    private static func widen(_ v: Floats) -> Doubles {
        Doubles(Double(v[0]), Double(v[1]), Double(v[2]), Double(v[3]))
    }

    @inline(__always)
    private static func narrow(_ v: Doubles) -> Floats {
        Floats(Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
    }
}
