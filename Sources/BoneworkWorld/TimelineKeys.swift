import BoneworkFormat

/// Reads one timeline's keys and curves: key search, linear / stepped / bezier interpolation,
/// and the reference's rules for combining a value with the current pose (MixBlend).
///
/// Frames are `stride` floats per key (time first); curves start with one marker per key
/// (`CurveType`), then 18 bezier samples per curved value.
struct TimelineKeys {
    let frames: UnsafePointer<Float>
    let curves: UnsafePointer<Float>
    let curvesCount: Int
    /// Floats in `frames` (keys * stride).
    let length: Int
    let stride: Int

    @inline(__always)
    init(_ t: CompiledTimeline, _ rig: RigTables) {
        frames = rig.framePool + Int(t.frames)
        curves = rig.curvePool + Int(t.curves)
        curvesCount = Int(t.curvesCount)
        stride = Int(t.stride)
        length = Int(t.frameCount) &* stride
    }

    @inline(__always) var firstTime: Float { frames[0] }
    @inline(__always) var lastTime: Float { frames[length &- stride] }

    /// The offset of the last key whose time is <= `time` (the first key when `time` is before it).
    @inline(__always)
    func search(_ time: Float) -> Int {
        var i = stride
        while i < length {
            if frames[i] > time { return i &- stride }
            i &+= stride
        }
        return length &- stride
    }

    /// `search` and the found key's curve marker (`curveType`), without a division.
    @inline(__always)
    func searchCurve(_ time: Float) -> (offset: Int, curve: Int) {
        var i = stride
        var k = 0
        while i < length {
            if frames[i] > time { break }
            i &+= stride
            k &+= 1
        }
        return (i &- stride, k < curvesCount ? Int(curves[k]) : CurveKind.stepped)
    }

    /// Curve marker of the key at offset `i`: 0 linear, 1 stepped, >= 2 bezier.
    @inline(__always)
    func curveType(_ i: Int) -> Int {
        let k = i / stride
        return k < curvesCount ? Int(curves[k]) : CurveKind.stepped
    }

    enum CurveKind {
        static let linear = 0
        static let stepped = 1
        static let bezier = 2
    }

    /// Value `v` (1 = first value after the time) of the key at `i`, interpolated to `time` with
    /// the key's curve; `curve` is `curveType(i)`.
    @inline(__always)
    func value(_ time: Float, key i: Int, value v: Int, curve: Int) -> Float {
        switch curve {
        case CurveKind.linear:
            let before = frames[i]
            let value = frames[i &+ v]
            let t = (time - before) / (frames[i &+ stride] - before)
            return value + (frames[i &+ stride &+ v] - value) * t
        case CurveKind.stepped:
            return frames[i &+ v]
        default:
            let start = curve &- CurveKind.bezier &+ (v &- 1) &* CurveType.bezierSize
            return bezierValue(time, key: i, value: v, start: start)
        }
    }

    /// Interpolates on the 9 sampled points of a bezier segment starting at `curves[start]`.
    @inline(__always)
    func bezierValue(_ time: Float, key frameIndex: Int, value v: Int, start: Int) -> Float {
        if start < 0 || start &+ CurveType.bezierSize > curvesCount || frameIndex &+ stride >= length {
            return frames[frameIndex &+ v]  // malformed curve data: hold the key
        }
        var i = start
        if curves[i] > time {
            let x = frames[frameIndex]
            let y = frames[frameIndex &+ v]
            return y + (time - x) / (curves[i] - x) * (curves[i &+ 1] - y)
        }
        let n = i &+ CurveType.bezierSize
        i &+= 2
        while i < n {
            if curves[i] >= time {
                let x = curves[i &- 2]
                let y = curves[i &- 1]
                return y + (time - x) / (curves[i] - x) * (curves[i &+ 1] - y)
            }
            i &+= 2
        }
        let next = frameIndex &+ stride
        let x = curves[n &- 2]
        let y = curves[n &- 1]
        return y + (time - x) / (frames[next] - x) * (frames[next &+ v] - y)
    }

    /// The single value of a one-value timeline at `time` (time >= the first key).
    @inline(__always)
    func curveValue(_ time: Float) -> Float {
        let (i, curve) = searchCurve(time)
        return value(time, key: i, value: 1, curve: curve)
    }

    // MARK: - Combining with the pose

    /// Before the first key: the pose a blend mode leaves.
    @inline(__always)
    static func beforeFirst(_ alpha: Float, _ blend: MixBlend, current: Float, setup: Float) -> Float {
        switch blend {
        case .setup: return setup
        case .first: return current + (setup - current) * alpha
        default: return current
        }
    }

    /// A value keyed relative to setup (rotation, translation, shear).
    @inline(__always)
    func relativeValue(_ time: Float, _ alpha: Float, _ blend: MixBlend, current: Float, setup: Float) -> Float {
        if time < frames[0] { return Self.beforeFirst(alpha, blend, current: current, setup: setup) }
        var value = curveValue(time)
        switch blend {
        case .setup: return setup + value * alpha
        case .first, .replace: value += setup - current
        case .add: break
        }
        return current + value * alpha
    }

    /// A value keyed absolutely (constraint positions and physics parameters).
    @inline(__always)
    func absoluteValue(_ time: Float, _ alpha: Float, _ blend: MixBlend, current: Float, setup: Float) -> Float {
        if time < frames[0] { return Self.beforeFirst(alpha, blend, current: current, setup: setup) }
        return Self.absolute(curveValue(time), alpha, blend, current: current, setup: setup)
    }

    @inline(__always)
    static func absolute(_ value: Float, _ alpha: Float, _ blend: MixBlend, current: Float, setup: Float) -> Float {
        if blend == .setup { return setup + (value - setup) * alpha }
        return current + (value - current) * alpha
    }

    /// A scale keyed as a factor of setup; mixing keeps the sign of the pose it mixes from.
    @inline(__always)
    func scaleValue(
        _ time: Float, _ alpha: Float, _ blend: MixBlend, _ direction: MixDirection, current: Float, setup: Float
    ) -> Float {
        if time < frames[0] { return Self.beforeFirst(alpha, blend, current: current, setup: setup) }
        let value = curveValue(time) * setup
        return Self.scale(value, alpha, blend, direction, current: current, setup: setup)
    }

    @inline(__always)
    static func scale(
        _ value: Float, _ alpha: Float, _ blend: MixBlend, _ direction: MixDirection, current: Float, setup: Float
    ) -> Float {
        if alpha == 1 {
            if blend == .add { return current + value - setup }
            return value
        }
        if direction == .mixOut {
            switch blend {
            case .setup: return setup + (abs(value) * sign(setup) - setup) * alpha
            case .first, .replace: return current + (abs(value) * sign(current) - current) * alpha
            case .add: break
            }
        } else {
            switch blend {
            case .setup:
                let s = abs(setup) * sign(value)
                return s + (value - s) * alpha
            case .first, .replace:
                let s = abs(current) * sign(value)
                return s + (value - s) * alpha
            case .add: break
            }
        }
        return current + (value - setup) * alpha
    }

    @inline(__always)
    static func sign(_ v: Float) -> Float { v < 0 ? -1 : (v > 0 ? 1 : 0) }

    @inline(__always)
    static func clamp01(_ v: Float) -> Float { v < 0 ? 0 : (v > 1 ? 1 : v) }
}
