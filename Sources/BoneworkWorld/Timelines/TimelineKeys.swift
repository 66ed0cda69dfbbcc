import BoneworkFormat

/// Reads one timeline's keys and curves: key search, linear / stepped / bezier interpolation,
/// and the reference's rules for combining a value with the current pose (MixBlend).
///
/// Frames are `stride` floats per key (time first); curves start with one marker per key, then
/// 18 bezier samples per curved value. The markers are read from `markers` as integers
/// (`CurveMarkers`).
struct TimelineKeys {
    let frames: UnsafePointer<Float>
    let curves: UnsafePointer<Float>
    /// One `CurveMarkers` value per key.
    let markers: UnsafePointer<Int32>
    let curvesCount: Int
    /// Floats in `frames` (keys * stride).
    let length: Int
    let stride: Int
    /// Keys.
    let count: Int

    @inline(__always)
    init(_ t: CompiledTimeline, _ rig: RigTables) {
        frames = rig.framePool + Int(t.frames)
        curves = rig.curvePool + Int(t.curves)
        markers = rig.markerPool + Int(t.markers)
        curvesCount = Int(t.curvesCount)
        stride = Int(t.stride)
        count = Int(t.frameCount)
        length = count &* stride
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

    /// `search` and the found key's curve marker (`CurveMarkers`), without a division.
    @inline(__always)
    func searchCurve(_ time: Float) -> (offset: Int, curve: Int) {
        var i = stride
        var k = 0
        while i < length {
            if frames[i] > time { break }
            i &+= stride
            k &+= 1
        }
        return (i &- stride, Int(markers[k]))
    }

    /// `searchCurve` for a caller that knows the stride (a constant there: the key times are
    /// read with a scaled index, one counter).
    @inline(__always)
    func searchCurve(_ time: Float, stride s: Int) -> (offset: Int, curve: Int) {
        var k = 1
        while k < count {
            if frames[k &* s] > time { break }
            k &+= 1
        }
        k &-= 1
        return (k &* s, Int(markers[k]))
    }

    /// Curve marker of the key at offset `i` as stored in the skeleton: 0 linear, 1 stepped,
    /// >= 2 bezier (the samples start at marker - 2).
    @inline(__always)
    func curveType(_ i: Int) -> Int {
        let m = Int(markers[i / stride])
        return m < 0 ? -m : m
    }

    enum CurveKind {
        static let linear = 0
        static let stepped = 1
        static let bezier = 2
    }

    /// Value `v` (1 = first value after the time) of the key at `i`, interpolated to `time` with
    /// the key's curve; `curve` is the key's `CurveMarkers` value.
    @inline(__always)
    func value(_ time: Float, key i: Int, value v: Int, curve: Int) -> Float {
        value(time, key: i, value: v, curve: curve, stride: stride)
    }

    /// `value` for a caller that knows the stride.
    @inline(__always)
    func value(_ time: Float, key i: Int, value v: Int, curve: Int, stride s: Int) -> Float {
        switch curve {
        case CurveKind.linear:
            let before = frames[i]
            let value = frames[i &+ v]
            let t = (time - before) / (frames[i &+ s] - before)
            return value + (frames[i &+ s &+ v] - value) * t
        case CurveKind.stepped:
            return frames[i &+ v]
        default:
            let segment = (v &- 1) &* CurveType.bezierSize
            if curve > 0 {
                return sampledValue(time, key: i, value: v, start: curve &- CurveKind.bezier &+ segment, stride: s)
            }
            return bezierValue(time, key: i, value: v, start: (0 &- curve) &- CurveKind.bezier &+ segment)
        }
    }

    /// `bezierValue` for a segment `CurveMarkers` checked: in range, not on the last key, sampled
    /// times never decreasing. The first sample whose time is >= `time` (the one the linear scan
    /// of `bezierValue` stops at) is found with three compares after the ends are ruled out.
    @inline(__always)
    func sampledValue(_ time: Float, key frameIndex: Int, value v: Int, start: Int, stride s: Int) -> Float {
        let c = curves + start
        if c[0] > time {
            let x = frames[frameIndex]
            let y = frames[frameIndex &+ v]
            return y + (time - x) / (c[0] - x) * (c[1] - y)
        }
        if !(c[16] >= time) {
            let next = frameIndex &+ s
            let x = c[16]
            let y = c[17]
            return y + (time - x) / (frames[next] - x) * (frames[next &+ v] - y)
        }
        // Sample a (1...8) is at c[2a]; the answer is the first a with c[2a] >= time, and
        // c[16] >= time holds.
        var j = 2
        if !(c[j &+ 6] >= time) { j &+= 8 }
        if !(c[j &+ 2] >= time) { j &+= 4 }
        if !(c[j] >= time) { j &+= 2 }
        let x = c[j &- 2]
        let y = c[j &- 1]
        return y + (time - x) / (c[j] - x) * (c[j &+ 1] - y)
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

    /// `curveValue` for a one-value timeline (stride 2).
    @inline(__always)
    func curveValue2(_ time: Float) -> Float {
        let (i, curve) = searchCurve(time, stride: 2)
        return value(time, key: i, value: 1, curve: curve, stride: 2)
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
        return Self.relative(curveValue(time), alpha, blend, current: current, setup: setup)
    }

    /// `relativeValue` for a keyed value.
    @inline(__always)
    static func relative(_ keyed: Float, _ alpha: Float, _ blend: MixBlend, current: Float, setup: Float) -> Float {
        var value = keyed
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

/// Curve markers as integers, one per key, made once when the skeleton is compiled from the
/// float markers of the curve data:
/// - 0: linear; 1: stepped, and also any marker the checked path could only answer with the
///   key's own value (negative or out of range markers hold the key, as stepped does);
/// - m >= 2: a bezier whose samples start at m - 2 (+ 18 per further value), which
///   `TimelineKeys.sampledValue` may read unchecked: every curved value's segment lies inside
///   the timeline's curves, the key is not the last, and each segment's sampled times never
///   decrease (so the first sample at or after a time can be found by bisection);
/// - -m: a bezier at m - 2 that does not pass those checks (`TimelineKeys.bezierValue`).
enum CurveMarkers {
    static func append(_ t: TimelineData, _ curves: [Float], to pool: inout [Int32]) {
        let keys = Int(t.frameCount)
        let count = Int(t.curvesCount)
        let base = max(0, Int(t.curvesStart))
        let values = t.kind.curveValueCount
        for k in 0..<keys {
            guard k < count else {
                pool.append(Int32(TimelineKeys.CurveKind.stepped))
                continue
            }
            guard base + k < curves.count, curves[base + k] > -1e9, curves[base + k] < 1e9 else {
                pool.append(Int32(TimelineKeys.CurveKind.stepped))
                continue
            }
            let m = Int(curves[base + k])
            if m < TimelineKeys.CurveKind.bezier {
                pool.append(Int32(m < 0 ? TimelineKeys.CurveKind.stepped : m))
                continue
            }
            var checked = k + 1 < keys
            for v in 0..<values where checked {
                let s = m - TimelineKeys.CurveKind.bezier + v * CurveType.bezierSize
                guard s + CurveType.bezierSize <= count, base + s + CurveType.bezierSize <= curves.count else {
                    checked = false
                    break
                }
                for j in Swift.stride(from: 0, to: CurveType.bezierSize - 2, by: 2)
                where !(curves[base + s + j] <= curves[base + s + j + 2]) {
                    checked = false
                }
            }
            pool.append(Int32(checked ? m : -m))
        }
    }
}
