import BoneworkFormat
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

    @Test("Large and special angles fall back to libm")
    func specialAngles() {
        for x: Float in [0, -0.0, 1e6, -3e7, .infinity, .greatestFiniteMagnitude, SpineMath.pi / 2] {
            let (s, c) = Trig.sinCos(x)
            #expect(s == SpineMath.sin(x) || (s.isNaN && SpineMath.sin(x).isNaN))
            #expect(c == SpineMath.cos(x) || (c.isNaN && SpineMath.cos(x).isNaN))
        }
        #expect(Trig.sinCos(.nan).sin.isNaN)
    }
}
