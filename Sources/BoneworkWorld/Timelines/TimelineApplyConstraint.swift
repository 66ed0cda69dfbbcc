import BoneworkFormat

/// Constraint timelines: IK (mix, softness, bend direction, compress, stretch), transform
/// (six mixes), path (position, spacing, three mixes) and physics (parameters and reset).
extension TimelineApply {
    static func applyConstraint(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        alpha: Float, blend: MixBlend, direction: MixDirection
    ) {
        let c = Int(t.target)
        let keys = TimelineKeys(t, rig)
        switch t.kind {
        case .ik:
            guard ctx.ikActive[c] != 0 else { return }
            applyIK(keys, rig, cols, row: ctx.r.ik(c), constraint: c, time, alpha, blend, direction)
        case .transform:
            guard ctx.transformActive[c] != 0 else { return }
            let i = ctx.r.transform(c)
            let setup = rig.transformMix + c &* 6
            applyMixes(
                keys, time, alpha, blend, first: cols.transformMixRotate,
                fieldStride: cols.transformMixX - cols.transformMixRotate,
                count: 6, row: i, setup: setup)
        case .pathPosition, .pathSpacing:
            guard ctx.pathActive[c] != 0 else { return }
            let i = ctx.r.path(c)
            let isPosition = t.kind == .pathPosition
            let column = isPosition ? cols.pathPosition : cols.pathSpacing
            let setup = rig.pathSetup[c &* 5 &+ (isPosition ? 0 : 1)]
            column[i] = keys.absoluteValue(time, alpha, blend, current: column[i], setup: setup)
        case .pathMix:
            guard ctx.pathActive[c] != 0 else { return }
            let setup = rig.pathSetup + (c &* 5 &+ 2)
            applyMixes(
                keys, time, alpha, blend, first: cols.pathMixRotate, fieldStride: cols.pathMixX - cols.pathMixRotate,
                count: 3, row: ctx.r.path(c), setup: setup)
        default:
            break
        }
    }

    static func applyIK(
        _ keys: TimelineKeys, _ rig: RigTables, _ cols: ApplyColumns, row i: Int, constraint c: Int, _ time: Float,
        _ alpha: Float, _ blend: MixBlend, _ direction: MixDirection
    ) {
        let setupMix = rig.ikMix[c]
        let setupSoftness = rig.ikSoftness[c]
        if time < keys.firstTime {
            switch blend {
            case .setup:
                cols.ikMix[i] = setupMix
                cols.ikSoftness[i] = setupSoftness
            case .first:
                cols.ikMix[i] += (setupMix - cols.ikMix[i]) * alpha
                cols.ikSoftness[i] += (setupSoftness - cols.ikSoftness[i]) * alpha
            default:
                return
            }
            cols.ikBend[i] = rig.ikBend[c]
            cols.ikCompress[i] = rig.ikCompress[c] != 0 ? 1 : 0
            cols.ikStretch[i] = rig.ikStretch[c] != 0 ? 1 : 0
            return
        }
        let (k, curve) = keys.searchCurve(time)
        let mix = keys.value(time, key: k, value: 1, curve: curve)
        let softness = keys.value(time, key: k, value: 2, curve: curve)
        let keyed = direction == .mixIn
        if blend == .setup {
            cols.ikMix[i] = setupMix + (mix - setupMix) * alpha
            cols.ikSoftness[i] = setupSoftness + (softness - setupSoftness) * alpha
            if !keyed {
                cols.ikBend[i] = rig.ikBend[c]
                cols.ikCompress[i] = rig.ikCompress[c] != 0 ? 1 : 0
                cols.ikStretch[i] = rig.ikStretch[c] != 0 ? 1 : 0
                return
            }
        } else {
            cols.ikMix[i] += (mix - cols.ikMix[i]) * alpha
            cols.ikSoftness[i] += (softness - cols.ikSoftness[i]) * alpha
            if !keyed { return }
        }
        cols.ikBend[i] = clampingToInt32(Double(keys.frames[k &+ 3]))
        cols.ikCompress[i] = keys.frames[k &+ 4] != 0 ? 1 : 0
        cols.ikStretch[i] = keys.frames[k &+ 5] != 0 ? 1 : 0
    }

    /// Timelines whose values are all absolute mixes (transform: 6, path mix: 3), value v in the
    /// column `first + v * fieldStride` (consecutive fields of one column table).
    @inline(__always)
    static func applyMixes(
        _ keys: TimelineKeys, _ time: Float, _ alpha: Float, _ blend: MixBlend, first: UnsafeMutablePointer<Float>,
        fieldStride: Int, count n: Int, row: Int, setup: UnsafePointer<Float>
    ) {
        @inline(__always) func at(_ v: Int) -> UnsafeMutablePointer<Float> { first + (v &* fieldStride &+ row) }
        if time < keys.firstTime {
            switch blend {
            case .setup:
                for v in 0..<n { at(v).pointee = setup[v] }
            case .first:
                for v in 0..<n { at(v).pointee += (setup[v] - at(v).pointee) * alpha }
            default:
                break
            }
            return
        }
        let (k, curve) = keys.searchCurve(time)
        for v in 0..<n {
            let value = keys.value(time, key: k, value: v &+ 1, curve: curve)
            if blend == .setup {
                at(v).pointee = setup[v] + (value - setup[v]) * alpha
            } else {
                at(v).pointee += (value - at(v).pointee) * alpha
            }
        }
    }

    /// Physics parameter timelines (for one constraint, or for every constraint whose parameter
    /// is global) and physics reset keys. The simulation that reads them runs in its own system.
    static func applyPhysics(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, lastTime: Float,
        time: Float, alpha: Float, blend: MixBlend
    ) {
        let keys = TimelineKeys(t, rig)
        if t.kind == .physicsReset {
            applyPhysicsReset(t, keys, rig, cols, ctx, lastTime: lastTime, time: time)
            return
        }
        let field: Int
        switch t.kind {
        case .physicsInertia: field = PhysicsField.inertia
        case .physicsStrength: field = PhysicsField.strength
        case .physicsDamping: field = PhysicsField.damping
        case .physicsMass: field = PhysicsField.massInverse
        case .physicsWind: field = PhysicsField.wind
        case .physicsGravity: field = PhysicsField.gravity
        default: field = PhysicsField.mix
        }
        let column = cols.physics + field &* cols.physicsFieldStride
        /// The mass timeline keys mass; the constraint stores its inverse.
        let inverse = t.kind == .physicsMass
        @inline(__always) func get(_ i: Int) -> Float { inverse ? 1 / column[i] : column[i] }
        @inline(__always) func set(_ i: Int, _ v: Float) { column[i] = inverse ? 1 / v : v }
        @inline(__always) func setup(_ c: Int) -> Float {
            let s = rig.physicsSetup[c &* 7 &+ field]
            return inverse ? 1 / s : s
        }
        if t.target < 0 {
            let value = time >= keys.firstTime ? keys.curveValue(time) : 0
            for c in 0..<rig.physicsCount where ctx.physicsActive[c] != 0 && rig.physicsGlobal[c &* 7 &+ field] != 0 {
                let i = ctx.r.physics(c)
                let result: Float
                if time < keys.firstTime {
                    result = TimelineKeys.beforeFirst(alpha, blend, current: get(i), setup: setup(c))
                } else {
                    result = TimelineKeys.absolute(value, alpha, blend, current: get(i), setup: setup(c))
                }
                set(i, result)
            }
        } else {
            let c = Int(t.target)
            guard ctx.physicsActive[c] != 0 else { return }
            let i = ctx.r.physics(c)
            set(i, keys.absoluteValue(time, alpha, blend, current: get(i), setup: setup(c)))
        }
    }

    private static func applyPhysicsReset(
        _ t: CompiledTimeline, _ keys: TimelineKeys, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        lastTime lastIn: Float, time: Float
    ) {
        if t.target >= 0 && ctx.physicsActive[Int(t.target)] == 0 { return }
        var lastTime = lastIn
        if lastTime > time {
            // Looped: keys after lastTime first, then from the start.
            applyPhysicsReset(t, keys, rig, cols, ctx, lastTime: lastTime, time: .greatestFiniteMagnitude)
            lastTime = -1
        } else if lastTime >= keys.lastTime {
            return
        }
        if time < keys.firstTime { return }
        // A last time no key precedes reaches past the last key only when it is NaN (a track
        // time that overflowed): no reset then, rather than a read past the keys.
        let next = lastTime < keys.firstTime ? 0 : keys.search(lastTime) &+ 1
        guard next < keys.length else { return }
        if lastTime < keys.firstTime || time >= keys.frames[next] {
            if t.target >= 0 {
                resetPhysics(cols, ctx, Int(t.target))
            } else {
                for c in 0..<rig.physicsCount where ctx.physicsActive[c] != 0 { resetPhysics(cols, ctx, c) }
            }
        }
    }

    /// Clears a physics constraint's motion, starting its simulation afresh at the skeleton's time.
    static func resetPhysics(_ cols: ApplyColumns, _ ctx: InstanceContext, _ c: Int) {
        let i = ctx.r.physics(c)
        let s = cols.physicsFieldStride
        cols.physics[PhysicsField.remaining &* s &+ i] = 0
        cols.physics[PhysicsField.lastTime &* s &+ i] = cols.time[ctx.r.instance]
        cols.physicsReset[i] = 1
        for f in PhysicsField.xOffset...PhysicsField.scaleVelocity {
            cols.physics[f &* s &+ i] = 0
        }
    }
}
