import BoneworkFormat

extension TimelineKind {
    /// Rotate, translate, scale, shear (and their one-axis kinds), inherit, and the IK,
    /// transform and path constraint kinds: each writes only its bone's local pose or its
    /// constraint's values and reads only those, which no kind outside this set reads or writes
    /// while an animation applies. So an instance's timelines of these kinds and its other
    /// timelines may be applied in two separate runs, each in the animation's order, with the
    /// same result (`StateKernel.applyGroupedTimelines`).
    var appliesInGroups: Bool {
        switch self {
        case .rotate, .translate, .translateX, .translateY, .scale, .scaleX, .scaleY, .shear, .shearX, .shearY,
            .inherit, .ik, .transform, .pathPosition, .pathSpacing, .pathMix:
            return true
        default:
            return false
        }
    }
}

/// Bone timelines: rotate, translate(X/Y), scale(X/Y), shear(X/Y) and inherit, writing the
/// local pose.
extension TimelineApply {
    static func applyBone(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        alpha: Float, blend: MixBlend, direction: MixDirection
    ) {
        let bone = Int(t.target)
        guard ctx.boneActive[bone] != 0 else { return }
        let i = ctx.r.bone(bone)
        let setup = rig.boneSetup + bone &* 7
        let keys = TimelineKeys(t, rig)
        switch t.kind {
        case .rotate:
            cols.rotation[i] = keys.relativeValue(time, alpha, blend, current: cols.rotation[i], setup: setup[2])
        case .translateX:
            cols.x[i] = keys.relativeValue(time, alpha, blend, current: cols.x[i], setup: setup[0])
        case .translateY:
            cols.y[i] = keys.relativeValue(time, alpha, blend, current: cols.y[i], setup: setup[1])
        case .shearX:
            cols.shearX[i] = keys.relativeValue(time, alpha, blend, current: cols.shearX[i], setup: setup[5])
        case .shearY:
            cols.shearY[i] = keys.relativeValue(time, alpha, blend, current: cols.shearY[i], setup: setup[6])
        case .scaleX:
            cols.scaleX[i] = keys.scaleValue(
                time, alpha, blend, direction, current: cols.scaleX[i], setup: setup[3])
        case .scaleY:
            // The reference passes the bone's scaleX as the current value here; kept for parity
            // (it only shows when mixing or adding).
            cols.scaleY[i] = keys.scaleValue(
                time, alpha, blend, direction, current: cols.scaleX[i], setup: setup[4])
        case .translate:
            applyPair(keys, time, alpha, blend, x: cols.x + i, y: cols.y + i, setupX: setup[0], setupY: setup[1])
        case .shear:
            applyPair(
                keys, time, alpha, blend, x: cols.shearX + i, y: cols.shearY + i, setupX: setup[5], setupY: setup[6])
        case .scale:
            applyScale(keys, time, alpha, blend, direction, cols: cols, i: i, setupX: setup[3], setupY: setup[4])
        case .inherit:
            // Every bone an inherit timeline keys has an inherit row.
            let i = cols.inheritRow(rig, ctx.r, bone: bone)
            guard i >= 0 else { return }
            let setupInherit = rig.boneInherit[bone]
            if direction == .mixOut {
                if blend == .setup { cols.inherit[i] = setupInherit }
                return
            }
            if time < keys.firstTime {
                if blend == .setup || blend == .first { cols.inherit[i] = setupInherit }
                return
            }
            let raw = keys.frames[keys.search(time) &+ 1]
            cols.inherit[i] = raw >= 0 && raw <= 4 ? UInt8(raw) : Inherit.normal.rawValue
        default:
            break
        }
    }

    /// A rotate timeline: the most common one, kept in a small function of its own (few live
    /// values, so no spills around the key search). Reads the timeline in place.
    @inline(never)
    static func applyRotate(
        _ t: UnsafePointer<CompiledTimeline>, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        time: Float, alpha: Float, blend: MixBlend
    ) {
        rotate(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
    }

    /// `applyRotate` inlined, for a loop that applies many timelines with no other calls.
    @inline(__always)
    static func rotate(
        _ t: UnsafePointer<CompiledTimeline>, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        time: Float, alpha: Float, blend: MixBlend
    ) {
        let bone = Int(t.pointee.target)
        guard ctx.boneActive[bone] != 0 else { return }
        let i = ctx.r.bone(bone)
        let keys = TimelineKeys(t.pointee, rig)
        let setup = rig.boneSetup[bone &* 7 &+ 2]
        let current = cols.rotation[i]
        if time < keys.firstTime {
            cols.rotation[i] = TimelineKeys.beforeFirst(alpha, blend, current: current, setup: setup)
            return
        }
        // Rotate keys are 2 floats (time, angle).
        cols.rotation[i] = TimelineKeys.relative(keys.curveValue2(time), alpha, blend, current: current, setup: setup)
    }

    /// A translate timeline (the second most common), also in a small function of its own.
    @inline(never)
    static func applyTranslate(
        _ t: UnsafePointer<CompiledTimeline>, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        time: Float, alpha: Float, blend: MixBlend
    ) {
        translate(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
    }

    /// `applyTranslate` inlined.
    @inline(__always)
    static func translate(
        _ t: UnsafePointer<CompiledTimeline>, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        time: Float, alpha: Float, blend: MixBlend
    ) {
        let bone = Int(t.pointee.target)
        guard ctx.boneActive[bone] != 0 else { return }
        let i = ctx.r.bone(bone)
        let setup = rig.boneSetup + bone &* 7
        applyPair(
            TimelineKeys(t.pointee, rig), time, alpha, blend, x: cols.x + i, y: cols.y + i, setupX: setup[0],
            setupY: setup[1])
    }

    /// Both values of a two-value key (translate, shear, scale: 3 floats a key) at `time`, with
    /// the key's curve.
    @inline(__always)
    private static func pair(_ keys: TimelineKeys, _ time: Float) -> (Float, Float) {
        let (i, curve) = keys.searchCurve(time, stride: 3)
        if curve == TimelineKeys.CurveKind.linear {
            let before = keys.frames[i]
            var x = keys.frames[i &+ 1]
            var y = keys.frames[i &+ 2]
            let t = (time - before) / (keys.frames[i &+ 3] - before)
            x += (keys.frames[i &+ 4] - x) * t
            y += (keys.frames[i &+ 5] - y) * t
            return (x, y)
        }
        return (
            keys.value(time, key: i, value: 1, curve: curve, stride: 3),
            keys.value(time, key: i, value: 2, curve: curve, stride: 3)
        )
    }

    /// Translate and shear: values relative to setup.
    @inline(__always)
    static func applyPair(
        _ keys: TimelineKeys, _ time: Float, _ alpha: Float, _ blend: MixBlend, x px: UnsafeMutablePointer<Float>,
        y py: UnsafeMutablePointer<Float>, setupX: Float, setupY: Float
    ) {
        if time < keys.firstTime {
            switch blend {
            case .setup:
                px.pointee = setupX
                py.pointee = setupY
            case .first:
                px.pointee += (setupX - px.pointee) * alpha
                py.pointee += (setupY - py.pointee) * alpha
            default:
                break
            }
            return
        }
        let (x, y) = pair(keys, time)
        switch blend {
        case .setup:
            px.pointee = setupX + x * alpha
            py.pointee = setupY + y * alpha
        case .first, .replace:
            px.pointee += (setupX + x - px.pointee) * alpha
            py.pointee += (setupY + y - py.pointee) * alpha
        case .add:
            px.pointee += x * alpha
            py.pointee += y * alpha
        }
    }

    /// Scale: keyed as factors of setup.
    @inline(__always)
    static func applyScale(
        _ keys: TimelineKeys, _ time: Float, _ alpha: Float, _ blend: MixBlend, _ direction: MixDirection,
        cols: ApplyColumns, i: Int, setupX: Float, setupY: Float
    ) {
        if time < keys.firstTime {
            switch blend {
            case .setup:
                cols.scaleX[i] = setupX
                cols.scaleY[i] = setupY
            case .first:
                cols.scaleX[i] += (setupX - cols.scaleX[i]) * alpha
                cols.scaleY[i] += (setupY - cols.scaleY[i]) * alpha
            default:
                break
            }
            return
        }
        var (x, y) = pair(keys, time)
        x *= setupX
        y *= setupY
        if alpha == 1 && blend == .add {
            // Added as current + (value - setup), not (current + value) - setup as one-value scales do.
            cols.scaleX[i] += x - setupX
            cols.scaleY[i] += y - setupY
            return
        }
        cols.scaleX[i] = TimelineKeys.scale(x, alpha, blend, direction, current: cols.scaleX[i], setup: setupX)
        cols.scaleY[i] = TimelineKeys.scale(y, alpha, blend, direction, current: cols.scaleY[i], setup: setupY)
    }
}
