import BoneworkFormat

/// Sine and cosine of one float angle together, evaluated in double precision and rounded to
/// float: the values `SpineMath.sin` / `SpineMath.cos` give (libm in double, rounded), at a
/// fraction of the cost of two libm calls. World transforms need two such pairs per bone.
///
/// The angle is reduced to [-π/4, π/4] by a three-part π/2 (exact products for the angles a
/// skeleton uses), then classic minimax polynomials give sin and cos to about one double ulp,
/// far below float rounding; `TrigTests` checks the results against libm over millions of
/// angles. Angles too large for the reduction fall back to libm.
enum Trig {
    // π/2 split so that k * part is exact for |k| < 2^20.
    static let pio2Hi: Double = 1.57079632673412561417e+00
    static let pio2Mid: Double = 6.07710050630396597660e-11
    static let pio2Lo: Double = 2.02226624879595063154e-21
    static let twoOverPi: Double = 6.36619772367581382433e-01
    static let roundingShift: Double = 6_755_399_441_055_744.0

    // sin(r) = r + r^3 * (s1 + r^2 * (s2 + ...)) on |r| <= π/4.
    static let s1: Double = -1.66666666666666324348e-01
    static let s2: Double = 8.33333333332248946124e-03
    static let s3: Double = -1.98412698298579493134e-04
    static let s4: Double = 2.75573137070700676789e-06
    static let s5: Double = -2.50507602534068634195e-08
    static let s6: Double = 1.58969099521155010221e-10
    // cos(r) = 1 - r^2 / 2 + r^4 * (c1 + r^2 * (c2 + ...)) on |r| <= π/4.
    static let c1: Double = 4.16666666666666019037e-02
    static let c2: Double = -1.38888888888741095749e-03
    static let c3: Double = 2.48015872894767294178e-05
    static let c4: Double = -2.75573143513906633035e-07
    static let c5: Double = 2.08757232129817482790e-09
    static let c6: Double = -1.13596475577881948265e-11

    // π/2 in double, and the rest of π/2 below it.
    static let halfPiHi: Double = 1.57079632679489655800e+00
    static let halfPiLo: Double = 6.12323399573676603587e-17

    @inline(__always)
    static func sinCos(_ x: Float) -> (sin: Float, cos: Float) {
        let d = Double(x)
        guard abs(d) < 1.0e5 else { return (SpineMath.sin(x), SpineMath.cos(x)) }  // also NaN
        let (s, c, quadrant) = reducedUnturned(d)
        // Negation commutes with rounding, so turning after it gives the same floats.
        return turn(Float(s), Float(c), quadrant)
    }

    /// Sine and cosine of `x` and of `y`, where `y` is usually `x` plus about π/2 (a bone's two
    /// axis angles: rotation + shearX and rotation + 90 + shearY, in float). The second pair
    /// follows from the first by the addition formula with the small remainder
    /// e = y - x - π/2, evaluated in double: sin(y) = cos(x)cos(e) - sin(x)sin(e) and
    /// cos(y) = -(sin(x)cos(e) + cos(x)sin(e)), with a few-term series for e (|e| < 1e-4), so one
    /// polynomial evaluation serves both pairs at the same double accuracy. Other pairs are
    /// evaluated one by one. `TrigTests` checks the results against libm.
    ///
    /// The formula is applied to the reduced angle's sine and cosine before the quadrant turn:
    /// a turn only swaps and negates, which commutes with it exactly, and done last it works on
    /// floats (what `LaneTrig` relies on to keep its lanes in 32-bit masks).
    @inline(__always)
    static func sinCosPair(_ x: Float, _ y: Float) -> (sinX: Float, cosX: Float, sinY: Float, cosY: Float) {
        let dx = Double(x)
        let dy = Double(y)
        // Exact for float inputs of similar size; otherwise off by a double rounding of y - x.
        let e = ((dy - dx) - halfPiHi) - halfPiLo
        guard abs(dx) < 1.0e5, abs(e) < 1.0e-4 else {  // also NaN
            let p = sinCos(x)
            let q = sinCos(y)
            return (p.sin, p.cos, q.sin, q.cos)
        }
        let (s, c, quadrant) = reducedUnturned(dx)
        let e2 = e * e
        let cosE = 1.0 - 0.5 * e2
        let sinE = e - e * e2 * (1.0 / 6.0)
        let u = c * cosE - s * sinE
        let v = s * cosE + c * sinE
        let p = turn(Float(s), Float(c), quadrant)
        let q = turn(Float(u), -Float(v), quadrant)
        return (p.sin, p.cos, q.sin, q.cos)
    }

    /// Sine and cosine of `d` (|d| < 1e5) in double before the quadrant turn (`turn`): of
    /// r = d - k·π/2 in [-π/4, π/4], and k's low two bits.
    @inline(__always)
    static func reducedUnturned(_ d: Double) -> (sin: Double, cos: Double, quadrant: Int) {
        // Round to the nearest integer, ties to even, without a libm call: adding and subtracting
        // 1.5 * 2^52 leaves no fraction bits (exact for |x| < 2^51; here |x| < 2^17).
        let shifted = d * twoOverPi + roundingShift
        let k = shifted - roundingShift
        let r = ((d - k * pio2Hi) - k * pio2Mid) - k * pio2Lo
        let z = r * r
        let sinR = r + r * z * (s1 + z * (s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))))
        let hz = 0.5 * z
        let w = 1.0 - hz
        let cosR = w + (((1.0 - w) - hz) + z * z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6))))))
        // The low bits of the shifted value's significand are k's low bits.
        return (sinR, cosR, Int(truncatingIfNeeded: shifted.bitPattern) & 3)
    }

    /// (sin, cos) of r turned by `quadrant` quarter turns: 0 (s, c), 1 (c, -s), 2 (-s, -c),
    /// 3 (-c, s).
    @inline(__always)
    static func turn(_ s: Float, _ c: Float, _ quadrant: Int) -> (sin: Float, cos: Float) {
        switch quadrant {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }
}

/// Arc tangent of y / x of float arguments, evaluated in double and rounded to float: the values
/// `SpineMath.atan2` gives (libm in double, rounded), at a fraction of its cost. The quotient is
/// reduced to [-7/16, 7/16] around one of 0, 1/2, 1, 3/2 or infinity, whose arc tangents are
/// stored as a double pair, and a minimax polynomial in the square gives the rest to about one
/// double ulp, far below float rounding; `TrigTests` checks the results against libm over
/// millions of argument pairs. Zeros, infinities and NaN fall back to libm.
enum ArcTangent {
    // atan(0.5), atan(1), atan(1.5), atan(inf) = π/2: high and low parts.
    static let hi0: Double = 4.63647609000806093515e-01
    static let hi1: Double = 7.85398163397448278999e-01
    static let hi2: Double = 9.82793723247329054082e-01
    static let hi3: Double = 1.57079632679489655800e+00
    static let lo0: Double = 2.26987774529616870924e-17
    static let lo1: Double = 3.06161699786838301793e-17
    static let lo2: Double = 1.39033110312309984516e-17
    static let lo3: Double = 6.12323399573676603587e-17
    // atan(t) = t - t * (z * (p0 + z^2 * (p2 + ...)) + z^2 * (p1 + z^2 * (p3 + ...))), z = t^2.
    static let p0: Double = 3.33333333333329318027e-01
    static let p1: Double = -1.99999999998764832476e-01
    static let p2: Double = 1.42857142725034663711e-01
    static let p3: Double = -1.11111104054623557880e-01
    static let p4: Double = 9.09088713343650656196e-02
    static let p5: Double = -7.69187620504482999495e-02
    static let p6: Double = 6.66107313738753120669e-02
    static let p7: Double = -5.83357013379057348645e-02
    static let p8: Double = 4.97687799461593236017e-02
    static let p9: Double = -3.65315727442169155270e-02
    static let p10: Double = 1.62858201153657823623e-02
    // π in double, and the rest of π below it.
    static let piHi: Double = 3.14159265358979311600e+00
    static let piLo: Double = 1.22464679914735317723e-16

    /// atan2(y, x) in radians.
    @inline(__always)
    static func atan2(_ y: Float, _ x: Float) -> Float {
        // Both nonzero and finite: magnitude bits in 1 ... 0x7f7f_ffff (also rules out NaN).
        let mx = x.bitPattern & 0x7fff_ffff
        let my = y.bitPattern & 0x7fff_ffff
        guard mx &- 1 < 0x7f7f_ffff, my &- 1 < 0x7f7f_ffff else { return SpineMath.atan2(y, x) }
        let dy = Double(y)
        let dx = Double(x)
        // |y / x| is finite and nonzero for float arguments (no overflow or underflow in double).
        let z = atanPositive(abs(dy / dx))
        if x > 0 { return Float(y > 0 ? z : -z) }
        let w = piHi - (z - piLo)
        return Float(y > 0 ? w : -w)
    }

    /// atan2(y, x) in degrees (`SpineMath.atan2Deg`).
    @inline(__always)
    static func atan2Deg(_ y: Float, _ x: Float) -> Float {
        atan2(y, x) * SpineMath.radDeg
    }

    /// atan(t) for finite t > 0.
    @inline(never)
    static func atanPositive(_ t: Double) -> Double {
        var u = t
        let hi: Double
        let lo: Double
        if t < 0.4375 {
            return t - t * series(t * t)
        } else if t < 0.6875 {
            u = (2.0 * t - 1.0) / (2.0 + t)
            hi = hi0
            lo = lo0
        } else if t < 1.1875 {
            u = (t - 1.0) / (t + 1.0)
            hi = hi1
            lo = lo1
        } else if t < 2.4375 {
            u = (t - 1.5) / (1.0 + 1.5 * t)
            hi = hi2
            lo = lo2
        } else {
            u = -1.0 / t
            hi = hi3
            lo = lo3
        }
        return hi - ((u * series(u * u) - lo) - u)
    }

    /// The polynomial part of atan(u) / u - 1, negated, for z = u^2.
    @inline(__always)
    static func series(_ z: Double) -> Double {
        let w = z * z
        let odd = z * (p0 + w * (p2 + w * (p4 + w * (p6 + w * (p8 + w * p10)))))
        let even = w * (p1 + w * (p3 + w * (p5 + w * (p7 + w * p9))))
        return odd + even
    }
}
