import BoneworkFormat

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
        // |x| < 1e5 is tested on the floats (widening is exact) and |e| < 1e-4 on the doubles,
        // whose 64-bit lane masks are narrowed to 32 bits so that one 4-lane test covers both.
        // Comparisons with NaN are false, so NaN lanes take the scalar path too.
        let xInRange = PoseLanes.magnitude(x) .< Floats(repeating: 1.0e5)
        let eSmall = magnitude(e) .< Doubles(repeating: 1.0e-4)
        let eSmall32 = SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(eSmall, to: SIMD4<Int64>.self))
        guard all(xInRange .& (eSmall32 .!= 0)) else { return scalar(x, y) }
        let r = reducedUnturned(dx)
        let e2 = e * e
        let cosE = Doubles(repeating: 1.0) - Doubles(repeating: 0.5) * e2
        let sinE = e - (e * e2) * Doubles(repeating: 1.0 / 6.0)
        let u = r.cos * cosE - r.sin * sinE
        let v = r.sin * cosE + r.cos * sinE
        let p = turn(narrow(r.sin), narrow(r.cos), r.quadrant)
        // -v by its sign bit, as the scalar's negation (SIMD's prefix minus is 0 - v, which
        // turns -0 into +0).
        let q = turn(narrow(u), narrow(v), r.quadrant, negatingCosine: true)
        return (p.sin, p.cos, q.sin, q.cos)
    }

    /// `Trig.sinCos` per lane: the same operations as `sinCosPair`'s first pair. Lanes the fast
    /// path does not cover (|x| ≥ 1e5, NaN) send all four lanes through the scalar function.
    @inline(__always)
    static func sinCos(_ x: Floats) -> (sin: Floats, cos: Floats) {
        guard all(PoseLanes.magnitude(x) .< Floats(repeating: 1.0e5)) else { return scalar(x) }
        let r = reducedUnturned(widen(x))
        return turn(narrow(r.sin), narrow(r.cos), r.quadrant)
    }

    @inline(never)
    private static func scalar(_ x: Floats) -> (sin: Floats, cos: Floats) {
        var result = (sin: Floats(), cos: Floats())
        for lane in 0..<4 {
            let t = Trig.sinCos(x[lane])
            result.sin[lane] = t.sin
            result.cos[lane] = t.cos
        }
        return result
    }

    /// `Trig.reducedUnturned` per lane (every lane |d| < 1e5): the reduced angle's sine and
    /// cosine, and k's low bits (in the low 32 bits of each lane's shifted double).
    @inline(__always)
    private static func reducedUnturned(_ d: Doubles) -> (sin: Doubles, cos: Doubles, quadrant: SIMD4<UInt32>) {
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
        let quadrant = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(shifted, to: SIMD4<UInt64>.self)) & 3
        return (sinR, cosR, quadrant)
    }

    /// `Trig.turn` per lane, on the float bits: the quadrant's odd bit swaps sine and cosine,
    /// and a quadrant of 2 or 3 (sine) or of 1 or 2 (cosine) flips the sign bit.
    @inline(__always)
    private static func turn(
        _ s: Floats, _ c: Floats, _ quadrant: SIMD4<UInt32>, negatingCosine: Bool = false
    ) -> (sin: Floats, cos: Floats) {
        let sBits = unsafeBitCast(s, to: SIMD4<UInt32>.self)
        let cBits = unsafeBitCast(c, to: SIMD4<UInt32>.self) ^ (negatingCosine ? 0x8000_0000 : 0)
        let swap = (sBits ^ cBits) & (0 &- (quadrant & 1))
        let sineSign = (quadrant & 2) &<< 30
        let cosineSign = ((quadrant &+ 1) & 2) &<< 30
        return (
            unsafeBitCast(sBits ^ swap ^ sineSign, to: Floats.self),
            unsafeBitCast(cBits ^ swap ^ cosineSign, to: Floats.self)
        )
    }

    /// |v| per lane: the sign bit cleared.
    @inline(__always)
    private static func magnitude(_ v: Doubles) -> Doubles {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt64>.self) & 0x7fff_ffff_ffff_ffff, to: Doubles.self)
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
    static func widen(_ v: Floats) -> Doubles {
        Doubles(lowHalf: SIMD2<Double>(v.lowHalf), highHalf: SIMD2<Double>(v.highHalf))
    }

    @inline(__always)
    static func narrow(_ v: Doubles) -> Floats {
        Floats(lowHalf: SIMD2<Float>(v.lowHalf), highHalf: SIMD2<Float>(v.highHalf))
    }
}

/// `ArcTangent.atan2` for four argument pairs at once (`PoseLanes`' IK and inherit steps): per
/// lane the scalar's double-precision operations in the same order, so every lane's result is
/// bit-identical to the scalar function's (`PoseLaneTests`). The scalar picks one of five
/// reduction intervals by branches; here every lane loads its interval's coefficients from a
/// table, then one division and one polynomial serve all lanes.
/// Lanes with a zero, infinite or NaN argument send all four lanes through the scalar function.
enum LaneArcTangent {
    typealias Floats = LaneTrig.Floats
    typealias Doubles = LaneTrig.Doubles

    /// atan2(y, x) in degrees per lane (`ArcTangent.atan2Deg`).
    @inline(__always)
    static func atan2Deg(_ y: Floats, _ x: Floats) -> Floats {
        atan2(y, x) * SpineMath.radDeg
    }

    /// atan2(y, x) in radians per lane (one out-of-line copy: its callers are large already).
    @inline(never)
    static func atan2(_ y: Floats, _ x: Floats) -> Floats {
        // Both nonzero and finite: magnitude bits in 1 ... 0x7f7f_ffff (also rules out NaN).
        let magnitude = SIMD4<UInt32>(repeating: 0x7fff_ffff)
        let limit = SIMD4<UInt32>(repeating: 0x7f7f_ffff)
        let mx = unsafeBitCast(x, to: SIMD4<UInt32>.self) & magnitude
        let my = unsafeBitCast(y, to: SIMD4<UInt32>.self) & magnitude
        if all(((mx &- 1) .< limit) .& ((my &- 1) .< limit)) { return regular(y, x) }
        // Zeros (a bone along an axis, common) in lanes; infinities and NaN one by one.
        guard all((mx .<= limit) .& (my .<= limit)) else { return scalar(y, x) }
        return withZeros(y, x, yZero: my .== 0, xZero: mx .== 0)
    }

    /// atan2 where some lanes have a zero argument and the rest are finite: libm's values
    /// rounded to float, as `ArcTangent.atan2` falls back to. atan2(±0, x) is ±0 when x's sign
    /// bit is clear and ±π when set; atan2(y, ±0) for y not 0 is ±π/2 (both rounded to float).
    @inline(never)
    private static func withZeros(
        _ y: Floats, _ x: Floats, yZero: SIMDMask<SIMD4<Int32>>, xZero: SIMDMask<SIMD4<Int32>>
    ) -> Floats {
        let zero = yZero .| xZero
        var safeY = y
        var safeX = x
        safeY.replace(with: 1, where: zero)
        safeX.replace(with: 1, where: zero)
        var v = regular(safeY, safeX)
        let sign = unsafeBitCast(y, to: SIMD4<UInt32>.self) & 0x8000_0000
        let pi = SIMD4<UInt32>(repeating: Float(Double.pi).bitPattern) | sign
        let halfPi = SIMD4<UInt32>(repeating: Float(Double.pi / 2).bitPattern) | sign
        let xNegative = (unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x8000_0000) .!= 0
        v.replace(with: unsafeBitCast(halfPi, to: Floats.self), where: xZero .& .!yZero)
        v.replace(with: y, where: yZero .& .!xNegative)
        v.replace(with: unsafeBitCast(pi, to: Floats.self), where: yZero .& xNegative)
        return v
    }

    /// atan2 for lanes whose arguments are all finite and nonzero.
    @inline(__always)
    private static func regular(_ y: Floats, _ x: Floats) -> Floats {
        let dy = LaneTrig.widen(y)
        let dx = LaneTrig.widen(x)
        let q = dy / dx
        // |q|: the sign bit cleared, as `abs` does.
        let t = unsafeBitCast(
            unsafeBitCast(q, to: SIMD4<UInt64>.self) & SIMD4<UInt64>(repeating: 0x7fff_ffff_ffff_ffff),
            to: Doubles.self)
        let z = atanPositive(t)
        let w = Doubles(repeating: ArcTangent.piHi) - (z - Doubles(repeating: ArcTangent.piLo))
        var v = w
        v.replace(with: z, where: dx .> 0)
        v.replace(with: -v, where: .!(dy .> 0))
        return LaneTrig.narrow(v)
    }

    /// `ArcTangent.atanPositive` per lane (every lane finite and > 0).
    @inline(__always)
    private static func atanPositive(_ t: Doubles) -> Doubles {
        typealias A = ArcTangent
        @inline(__always) func v(_ c: Double) -> Doubles { Doubles(repeating: c) }
        // Each lane's interval (0 ... 4): the number of thresholds at or below t (a true mask
        // lane is -1).
        let above =
            unsafeBitCast(t .>= v(0.4375), to: SIMD4<Int64>.self)
            &+ unsafeBitCast(t .>= v(0.6875), to: SIMD4<Int64>.self)
            &+ unsafeBitCast(t .>= v(1.1875), to: SIMD4<Int64>.self)
            &+ unsafeBitCast(t .>= v(2.4375), to: SIMD4<Int64>.self)
        let table = intervals
        let r0 = table + Int(truncatingIfNeeded: 0 &- above[0]) &* 6
        let r1 = table + Int(truncatingIfNeeded: 0 &- above[1]) &* 6
        let r2 = table + Int(truncatingIfNeeded: 0 &- above[2]) &* 6
        let r3 = table + Int(truncatingIfNeeded: 0 &- above[3]) &* 6
        @inline(__always) func column(_ k: Int) -> Doubles { Doubles(r0[k], r1[k], r2[k], r3[k]) }
        let u = (column(0) * t + column(1)) / (column(2) + column(3) * t)
        let zz = u * u
        let ww = zz * zz
        var odd = ww * v(A.p10)
        odd = ww * (v(A.p8) + odd)
        odd = ww * (v(A.p6) + odd)
        odd = ww * (v(A.p4) + odd)
        odd = ww * (v(A.p2) + odd)
        odd = zz * (v(A.p0) + odd)
        var even = ww * v(A.p9)
        even = ww * (v(A.p7) + even)
        even = ww * (v(A.p5) + even)
        even = ww * (v(A.p3) + even)
        even = ww * (v(A.p1) + even)
        let series = odd + even
        return column(4) - ((u * series - column(5)) - u)
    }

    /// The five reduction intervals of `ArcTangent.atanPositive` (t < 0.4375, < 0.6875,
    /// < 1.1875, < 2.4375, the rest), 6 doubles each: u = (a·t + b) / (c + d·t) and the
    /// interval's stored arc tangent (hi, lo). With these, a·t + b and c + d·t are the scalar's
    /// numerator and denominator bit for bit (t, 2t - 1, t - 1, t - 1.5, -1 over 1, 2 + t,
    /// t + 1, 1 + 1.5t, t: a product by 1 or 0 and a sum with 0 are exact for finite t > 0), and
    /// in the first interval hi - ((u·s - 0) - u) is the scalar's t - t·s.
    nonisolated(unsafe) private static let intervals: UnsafePointer<Double> = {
        typealias A = ArcTangent
        let rows: [Double] = [
            1, 0, 1, 0, 0, 0,
            2, -1, 2, 1, A.hi0, A.lo0,
            1, -1, 1, 1, A.hi1, A.lo1,
            1, -1.5, 1, 1.5, A.hi2, A.lo2,
            0, -1, 0, 1, A.hi3, A.lo3,
        ]
        let p = UnsafeMutablePointer<Double>.allocate(capacity: rows.count)
        p.initialize(from: rows, count: rows.count)
        return UnsafePointer(p)
    }()

    @inline(never)
    private static func scalar(_ y: Floats, _ x: Floats) -> Floats {
        Floats(
            ArcTangent.atan2(y[0], x[0]), ArcTangent.atan2(y[1], x[1]), ArcTangent.atan2(y[2], x[2]),
            ArcTangent.atan2(y[3], x[3]))
    }
}
