import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

@Suite("Trigonometry")
struct TrigTests {
    /// Angles a skeleton produces: degrees (with fractions) times the float degree-to-radian
    /// factor, as world transforms compute them, plus raw radians.
    static func angles(count: Int, seed: UInt64) -> [Float] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var result: [Float] = []
        result.reserveCapacity(count + 2000)
        for degrees in -720...720 { result.append(Float(degrees) * SpineMath.degRad) }
        for _ in 0..<count {
            let u = Double(next()) / Double(1 << 53)
            let degrees = Float((u * 2 - 1) * 3600)
            result.append((degrees + 90) * SpineMath.degRad)
            result.append(Float((u * 2 - 1) * 200))
        }
        return result
    }

    @Test("sinCos equals libm sin and cos evaluated in double and rounded to float")
    func matchesLibm() {
        var mismatches: [Float] = []
        for x in Self.angles(count: 1_000_000, seed: 42) {
            let (s, c) = Trig.sinCos(x)
            if s != SpineMath.sin(x) || c != SpineMath.cos(x) { mismatches.append(x) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) angles differ, e.g. \(mismatches.prefix(5))")
    }

    @Test("sinCosPair equals libm for a bone's two axis angles (rotation + shearX, rotation + 90 + shearY)")
    func pairMatchesLibm() {
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let shears: [Float] = [0, 0, 0, -0.0, 1.5, -12.25, 45, 89.9, 90, 180, -3.1e-3]
        var mismatches: [(Float, Float)] = []
        var checked = 0
        for n in 0..<1_500_000 {
            let rotation: Float = n < 2881 ? Float(n - 1440) * 0.5 : Float((next() * 2 - 1) * 3600)
            let shearX = shears[n % shears.count]
            // Half the pairs with equal shears (one polynomial for both), half with any two.
            let shearY = n % 2 == 0 ? shearX : shears[(n / shears.count) % shears.count]
            let x = (rotation + shearX) * SpineMath.degRad
            let y = (rotation + 90 + shearY) * SpineMath.degRad
            let t = Trig.sinCosPair(x, y)
            checked += 1
            if t.sinX != SpineMath.sin(x) || t.cosX != SpineMath.cos(x) || t.sinY != SpineMath.sin(y)
                || t.cosY != SpineMath.cos(y)
            {
                mismatches.append((x, y))
            }
        }
        #expect(checked == 1_500_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) pairs differ, e.g. \(mismatches.prefix(5))")
    }

    @Test("sinCosPair of unrelated, large and special angles falls back to sinCos and libm")
    func pairSpecialAngles() {
        let cases: [(Float, Float)] = [
            (0, 1), (1e6, 1e6 + 1.5707964), (.nan, 1), (1, .nan), (.infinity, 0), (-2, 3), (0, SpineMath.pi / 2),
        ]
        for (x, y) in cases {
            let t = Trig.sinCosPair(x, y)
            for (v, e) in [
                (t.sinX, SpineMath.sin(x)), (t.cosX, SpineMath.cos(x)), (t.sinY, SpineMath.sin(y)),
                (t.cosY, SpineMath.cos(y)),
            ] {
                #expect(v == e || (v.isNaN && e.isNaN), "\(x), \(y): \(v) != \(e)")
            }
        }
    }

    @Test("Large and special angles fall back to libm")
    func specialAngles() {
        for x: Float in [0, -0.0, 1e6, -3e7, .infinity, .greatestFiniteMagnitude, SpineMath.pi / 2] {
            let (s, c) = Trig.sinCos(x)
            #expect(s == SpineMath.sin(x) || (s.isNaN && SpineMath.sin(x).isNaN))
            #expect(c == SpineMath.cos(x) || (c.isNaN && SpineMath.cos(x).isNaN))
        }
        #expect(Trig.sinCos(.nan).sin.isNaN)
    }

    @Test("ArcTangent.atan2 equals libm atan2 evaluated in double and rounded to float")
    func atan2MatchesLibm() {
        var state: UInt64 = 11
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var mismatches: [(Float, Float)] = []
        var checked = 0
        func check(_ y: Float, _ x: Float) {
            checked += 1
            let v = ArcTangent.atan2(y, x)
            let e = SpineMath.atan2(y, x)
            if v.bitPattern != e.bitPattern
                || ArcTangent.atan2Deg(y, x).bitPattern != SpineMath.atan2Deg(y, x).bitPattern
            {
                mismatches.append((y, x))
            }
        }
        // Points on circles around the origin (directions a skeleton produces) and quotients
        // near the reduction boundaries.
        for n in 0..<3_000_000 {
            let u = next() * 2 - 1
            let v = next() * 2 - 1
            switch n % 3 {
            case 0:
                let angle = u * Double.pi
                let radius = Foundation.exp(v * 12)
                check(Float(Foundation.sin(angle) * radius), Float(Foundation.cos(angle) * radius))
            case 1:
                check(Float(u * 500), Float(v * 500))
            default:
                let boundaries: [Double] = [0.4375, 0.6875, 1.1875, 2.4375]
                let t = boundaries[n % 4] * (1 + u * 1e-3)
                let x = Float(v * 100 + (v < 0 ? -0.01 : 0.01))
                check(Float(t * Double(x)) * (u < 0 ? -1 : 1), x)
            }
        }
        let specials: [Float] = [
            0, -0.0, 1, -1, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e-30, -3e30, 0.5, 2.4375,
        ]
        for y in specials {
            for x in specials {
                let v = ArcTangent.atan2(y, x)
                let e = SpineMath.atan2(y, x)
                #expect(FloatBits.same(v, e), "atan2(\(y), \(x)): \(v) != \(e)")
            }
        }
        #expect(checked == 3_000_000)
        #expect(mismatches.isEmpty, "\(mismatches.count) pairs differ, e.g. \(mismatches.prefix(5))")
    }
}
