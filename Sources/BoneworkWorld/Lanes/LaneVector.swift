/// The vectors the lane paths run on, one instance per lane: 4 instances at once
/// (`SIMD4<Float>`) or 8 (`SIMD8<Float>`, chunk sizes that are a multiple of 8): the vertex
/// system's groups (`VertexSystem.group`) and the pose system's child steps
/// (`PoseLanes.updateChild`). What differs between the widths is how lanes are loaded, how each
/// lane's (x, y) pairs reach its own output and how the trigonometry runs (always 4 lanes of
/// doubles); the arithmetic is the same generic code.
protocol LaneVector: SIMD where Scalar == Float {
    /// Whether every lane of each of the 5 vectors has the bits of its 4-lane splat at `setup`,
    /// `setup + 1`, ... (bitwise: -0 is not +0, and a NaN matches itself).
    static func allMatch(
        _ v0: Self, _ v1: Self, _ v2: Self, _ v3: Self, _ v4: Self, setup: UnsafePointer<SIMD4<Float>>
    ) -> Bool
    /// `LaneTrig.sinCosPair` per lane. (Results go out through `inout`: a generic tuple result
    /// would make a debug build create the tuple's type at first use.)
    static func sinCosPair(
        _ x: Self, _ y: Self, sinX: inout Self, cosX: inout Self, sinY: inout Self, cosY: inout Self)
    /// `LaneTrig.sinCos` per lane (results through `inout`, as `sinCosPair`).
    static func sinCos(_ x: Self, sin: inout Self, cos: inout Self)
    /// `LaneArcTangent.atan2` per lane.
    static func atan2(_ y: Self, _ x: Self) -> Self
    /// |v| per lane: the sign bit cleared, as `abs` does.
    static func magnitude(_ v: Self) -> Self
    /// -v per lane by its sign bit, as the scalar's negation (SIMD's prefix minus is 0 - v,
    /// which turns -0 into +0).
    static func signFlipped(_ v: Self) -> Self
    /// `a .> b` per lane, `atLeast` `a .>= b`, `equal` `a .== b`, `anyLane` `any(m)`, with the
    /// width's own vector instructions: in generic code the standard library's comparisons and
    /// reductions go lane by lane (measured: an 8-lane clamp became two loops of 8 branches).
    static func above(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func atLeast(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func equal(_ a: Self, _ b: Self) -> SIMDMask<MaskStorage>
    static func anyLane(_ m: SIMDMask<MaskStorage>) -> Bool
    /// Whether every lane of `a` has the bits of `b`'s.
    static func sameBits(_ a: Self, _ b: Self) -> Bool
    /// Bone `k`'s lanes of one world transform column, `p` pointing at them.
    static func column(_ p: UnsafeRawPointer) -> Self
    /// A shared value in every lane, from its 4-lane splat (`RigTables.laneSkinPool`).
    static func splat(_ p: UnsafePointer<SIMD4<Float>>) -> Self
    /// How much larger this width's bone records are than the 4-lane records whose byte
    /// offsets `RigTables.laneBonePool` holds.
    static var recordScale: Int { get }
    /// Writes lane i's (x[i], y[i]) at floats w, w + 1 of lane i's output.
    static func store(_ x: Self, _ y: Self, _ out: LaneOut, at w: Int)
    /// Reads lane i's floats w, w + 1 as (x[i], y[i]).
    static func load(_ from: LaneOut, at w: Int) -> (Self, Self)
}

extension LaneVector {
    /// The generic types the lane code uses with this width. An optimized build specializes
    /// that code and never needs them at run time; a debug build runs it unspecialized and
    /// creates their runtime metadata at first use, which could be inside a frame (an
    /// allocation the steady-frame tests would rightly report). `Batch` names them for both
    /// widths when it is made, so the metadata exists before any frame.
    static var laneTypes: [Any.Type] {
        [
            LaneWorld<Self>.self, (x: Self, y: Self).self, (Self, Self).self, PhysicsLaneState<Self>.self,
            PhysicsLaneUpdate<Self>.self,
        ]
    }

    /// The lanes at `p`, which need not be aligned.
    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> Self { UnsafeRawPointer(p).loadUnaligned(as: Self.self) }

    /// Stores the lanes at `p`, which need not be aligned.
    @inline(__always)
    static func store(_ v: Self, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: Self.self)
    }
}

extension SIMD4: LaneVector where Scalar == Float {
    @inline(__always)
    static func allMatch(
        _ v0: Self, _ v1: Self, _ v2: Self, _ v3: Self, _ v4: Self, setup t: UnsafePointer<SIMD4<Float>>
    ) -> Bool {
        @inline(__always) func same(_ v: Self, _ s: Self) -> SIMDMask<SIMD4<Int32>> {
            unsafeBitCast(v, to: SIMD4<UInt32>.self) .== unsafeBitCast(s, to: SIMD4<UInt32>.self)
        }
        return all(same(v0, t[0]) .& same(v1, t[1]) .& same(v2, t[2]) .& same(v3, t[3]) .& same(v4, t[4]))
    }

    @inline(__always)
    static func sinCosPair(
        _ x: Self, _ y: Self, sinX: inout Self, cosX: inout Self, sinY: inout Self, cosY: inout Self
    ) {
        let t = LaneTrig.sinCosPair(x, y)
        sinX = t.sinX
        cosX = t.cosX
        sinY = t.sinY
        cosY = t.cosY
    }

    @inline(__always)
    static func sinCos(_ x: Self, sin: inout Self, cos: inout Self) {
        let t = LaneTrig.sinCos(x)
        sin = t.sin
        cos = t.cos
    }

    @inline(__always)
    static func atan2(_ y: Self, _ x: Self) -> Self { LaneArcTangent.atan2(y, x) }

    @inline(__always)
    static func magnitude(_ v: Self) -> Self { PoseLanes.magnitude(v) }

    @inline(__always)
    static func signFlipped(_ v: Self) -> Self {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) ^ 0x8000_0000, to: Self.self)
    }

    @inline(__always)
    static func above(_ a: Self, _ b: Self) -> SIMDMask<SIMD4<Int32>> { a .> b }

    @inline(__always)
    static func atLeast(_ a: Self, _ b: Self) -> SIMDMask<SIMD4<Int32>> { a .>= b }

    @inline(__always)
    static func equal(_ a: Self, _ b: Self) -> SIMDMask<SIMD4<Int32>> { a .== b }

    @inline(__always)
    static func anyLane(_ m: SIMDMask<SIMD4<Int32>>) -> Bool { any(m) }

    @inline(__always)
    static func sameBits(_ a: Self, _ b: Self) -> Bool {
        all(unsafeBitCast(a, to: SIMD4<UInt32>.self) .== unsafeBitCast(b, to: SIMD4<UInt32>.self))
    }

    /// Columns of chunked layouts are 16-byte aligned at a multiple of 4 lanes (`lanesApply`).
    @inline(__always)
    static func column(_ p: UnsafeRawPointer) -> Self { p.load(as: Self.self) }

    @inline(__always)
    static func splat(_ p: UnsafePointer<SIMD4<Float>>) -> Self { p.pointee }

    @inline(__always)
    static var recordScale: Int { 1 }

    /// A transpose into (x0, y0, x1, y1) and (x2, y2, x3, y3), then one 8-byte store per lane
    /// (each pair moved as the bits of one 64-bit lane, so the stores take the low or high half
    /// in place).
    @inline(__always)
    static func store(_ x: Self, _ y: Self, _ out: LaneOut, at w: Int) {
        let low = unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: SIMD2<Double>.self)
        let high = unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: SIMD2<Double>.self)
        UnsafeMutableRawPointer(out.p0 + w).storeBytes(of: low[0], as: Double.self)
        UnsafeMutableRawPointer(out.p1 + w).storeBytes(of: low[1], as: Double.self)
        UnsafeMutableRawPointer(out.p2 + w).storeBytes(of: high[0], as: Double.self)
        UnsafeMutableRawPointer(out.p3 + w).storeBytes(of: high[1], as: Double.self)
    }

    /// One 8-byte load per lane, then the transpose of `store`.
    @inline(__always)
    static func load(_ from: LaneOut, at w: Int) -> (Self, Self) {
        let low = unsafeBitCast(
            SIMD2(
                UnsafeRawPointer(from.p0 + w).loadUnaligned(as: Double.self),
                UnsafeRawPointer(from.p1 + w).loadUnaligned(as: Double.self)), to: SIMD4<Float>.self)
        let high = unsafeBitCast(
            SIMD2(
                UnsafeRawPointer(from.p2 + w).loadUnaligned(as: Double.self),
                UnsafeRawPointer(from.p3 + w).loadUnaligned(as: Double.self)), to: SIMD4<Float>.self)
        return (SIMD4(low[0], low[2], high[0], high[2]), SIMD4(low[1], low[3], high[1], high[3]))
    }
}

extension SIMD8: LaneVector where Scalar == Float {
    @inline(__always)
    static func allMatch(
        _ v0: Self, _ v1: Self, _ v2: Self, _ v3: Self, _ v4: Self, setup t: UnsafePointer<SIMD4<Float>>
    ) -> Bool {
        @inline(__always) func same(_ v: Self, _ s: SIMD4<Float>) -> SIMDMask<SIMD8<Int32>> {
            unsafeBitCast(v, to: SIMD8<UInt32>.self)
                .== unsafeBitCast(SIMD8(lowHalf: s, highHalf: s), to: SIMD8<UInt32>.self)
        }
        return all(same(v0, t[0]) .& same(v1, t[1]) .& same(v2, t[2]) .& same(v3, t[3]) .& same(v4, t[4]))
    }

    /// Each half through the 4-lane trigonometry.
    @inline(__always)
    static func sinCosPair(
        _ x: Self, _ y: Self, sinX: inout Self, cosX: inout Self, sinY: inout Self, cosY: inout Self
    ) {
        let low = LaneTrig.sinCosPair(x.lowHalf, y.lowHalf)
        let high = LaneTrig.sinCosPair(x.highHalf, y.highHalf)
        sinX = Self(lowHalf: low.sinX, highHalf: high.sinX)
        cosX = Self(lowHalf: low.cosX, highHalf: high.cosX)
        sinY = Self(lowHalf: low.sinY, highHalf: high.sinY)
        cosY = Self(lowHalf: low.cosY, highHalf: high.cosY)
    }

    /// Each half through the 4-lane trigonometry.
    @inline(__always)
    static func sinCos(_ x: Self, sin: inout Self, cos: inout Self) {
        let low = LaneTrig.sinCos(x.lowHalf)
        let high = LaneTrig.sinCos(x.highHalf)
        sin = Self(lowHalf: low.sin, highHalf: high.sin)
        cos = Self(lowHalf: low.cos, highHalf: high.cos)
    }

    /// Each half through the 4-lane arc tangent.
    @inline(__always)
    static func atan2(_ y: Self, _ x: Self) -> Self {
        Self(
            lowHalf: LaneArcTangent.atan2(y.lowHalf, x.lowHalf), highHalf: LaneArcTangent.atan2(y.highHalf, x.highHalf))
    }

    @inline(__always)
    static func magnitude(_ v: Self) -> Self {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7fff_ffff, to: Self.self)
    }

    @inline(__always)
    static func signFlipped(_ v: Self) -> Self {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) ^ 0x8000_0000, to: Self.self)
    }

    @inline(__always)
    static func above(_ a: Self, _ b: Self) -> SIMDMask<SIMD8<Int32>> { a .> b }

    @inline(__always)
    static func atLeast(_ a: Self, _ b: Self) -> SIMDMask<SIMD8<Int32>> { a .>= b }

    @inline(__always)
    static func equal(_ a: Self, _ b: Self) -> SIMDMask<SIMD8<Int32>> { a .== b }

    @inline(__always)
    static func anyLane(_ m: SIMDMask<SIMD8<Int32>>) -> Bool { any(m) }

    @inline(__always)
    static func sameBits(_ a: Self, _ b: Self) -> Bool {
        all(unsafeBitCast(a, to: SIMD8<UInt32>.self) .== unsafeBitCast(b, to: SIMD8<UInt32>.self))
    }

    /// Allocations are 16-byte aligned only, so 8 lanes load unaligned (the same instruction
    /// with AVX).
    @inline(__always)
    static func column(_ p: UnsafeRawPointer) -> Self { p.loadUnaligned(as: Self.self) }

    @inline(__always)
    static func splat(_ p: UnsafePointer<SIMD4<Float>>) -> Self {
        let v = p.pointee
        return Self(lowHalf: v, highHalf: v)
    }

    @inline(__always)
    static var recordScale: Int { 2 }

    /// The transpose of each 4-lane half as in `SIMD4.store`, on all 8 lanes at once:
    /// (x0, y0, x1, y1, x4, y4, x5, y5) and (x2, y2, x3, y3, x6, y6, x7, y7).
    @inline(__always)
    static func store(_ x: Self, _ y: Self, _ out: LaneOut, at w: Int) {
        let low = unsafeBitCast(SIMD8(x[0], y[0], x[1], y[1], x[4], y[4], x[5], y[5]), to: SIMD4<Double>.self)
        let high = unsafeBitCast(SIMD8(x[2], y[2], x[3], y[3], x[6], y[6], x[7], y[7]), to: SIMD4<Double>.self)
        UnsafeMutableRawPointer(out.p0 + w).storeBytes(of: low[0], as: Double.self)
        UnsafeMutableRawPointer(out.p1 + w).storeBytes(of: low[1], as: Double.self)
        UnsafeMutableRawPointer(out.p2 + w).storeBytes(of: high[0], as: Double.self)
        UnsafeMutableRawPointer(out.p3 + w).storeBytes(of: high[1], as: Double.self)
        UnsafeMutableRawPointer(out.p4 + w).storeBytes(of: low[2], as: Double.self)
        UnsafeMutableRawPointer(out.p5 + w).storeBytes(of: low[3], as: Double.self)
        UnsafeMutableRawPointer(out.p6 + w).storeBytes(of: high[2], as: Double.self)
        UnsafeMutableRawPointer(out.p7 + w).storeBytes(of: high[3], as: Double.self)
    }

    @inline(__always)
    static func load(_ from: LaneOut, at w: Int) -> (Self, Self) {
        @inline(__always) func pair(_ p: UnsafeMutablePointer<Float>) -> Double {
            UnsafeRawPointer(p + w).loadUnaligned(as: Double.self)
        }
        let low = unsafeBitCast(SIMD4(pair(from.p0), pair(from.p1), pair(from.p4), pair(from.p5)), to: Self.self)
        let high = unsafeBitCast(SIMD4(pair(from.p2), pair(from.p3), pair(from.p6), pair(from.p7)), to: Self.self)
        return (
            Self(low[0], low[2], high[0], high[2], low[4], low[6], high[4], high[6]),
            Self(low[1], low[3], high[1], high[3], low[5], low[7], high[5], high[7])
        )
    }
}

/// Where each lane's floats of one draw go (or, for deform, where each lane's floats are read
/// from). A 4-lane group uses the first 4 pointers.
struct LaneOut {
    let p0: UnsafeMutablePointer<Float>
    let p1: UnsafeMutablePointer<Float>
    let p2: UnsafeMutablePointer<Float>
    let p3: UnsafeMutablePointer<Float>
    let p4: UnsafeMutablePointer<Float>
    let p5: UnsafeMutablePointer<Float>
    let p6: UnsafeMutablePointer<Float>
    let p7: UnsafeMutablePointer<Float>

    /// Lane i's pointer is `pointer(i)` for i < `lanes` (4 or 8).
    @inline(__always)
    init(lanes: Int, _ pointer: (Int) -> UnsafeMutablePointer<Float>) {
        p0 = pointer(0)
        p1 = pointer(1)
        p2 = pointer(2)
        p3 = pointer(3)
        if lanes > 4 {
            p4 = pointer(4)
            p5 = pointer(5)
            p6 = pointer(6)
            p7 = pointer(7)
        } else {
            p4 = p0
            p5 = p1
            p6 = p2
            p7 = p3
        }
    }
}
