import BoneworkFormat

/// What timelines need to know about the instance they pose: where its rows are and what its
/// skin activates.
struct InstanceContext {
    let r: InstanceRows
    /// `boneCount` flags: bones this instance updates (others are left alone by timelines too).
    let boneActive: UnsafePointer<UInt8>
    let ikActive: UnsafePointer<UInt8>
    let transformActive: UnsafePointer<UInt8>
    let pathActive: UnsafePointer<UInt8>
    let physicsActive: UnsafePointer<UInt8>
    /// The skin's (slot, name) key -> attachment table.
    let attachments: UnsafePointer<Int32>

    @inline(__always)
    init(_ cols: ApplyColumns, _ rig: RigTables, instance: Int) {
        r = cols.rows(instance)
        let plan = Int(cols.plan[instance])
        boneActive = rig.planBoneActive + plan &* rig.boneCount
        ikActive = rig.planIKActive + plan &* rig.ikCount
        transformActive = rig.planTransformActive + plan &* rig.transformCount
        pathActive = rig.planPathActive + plan &* rig.pathCount
        physicsActive = rig.planPhysicsActive + plan &* rig.physicsCount
        attachments = rig.planAttachment + plan &* rig.keyCount
    }

    @inline(__always)
    func slotActive(_ rig: RigTables, _ slot: Int) -> Bool { boneActive[Int(rig.slotBone[slot])] != 0 }
}

/// Where fired event keys go while one track applies (global key index and key time).
struct FiredKeys {
    let keys: UnsafeMutablePointer<Int32>
    let times: UnsafeMutablePointer<Float>
    let capacity: Int
    var count = 0

    @inline(__always)
    mutating func append(key: Int32, time: Float) {
        guard count < capacity else { return }
        keys[count] = key
        times[count] = time
        count &+= 1
    }
}

/// Applies one timeline of an animation to one instance: a function per timeline family, each
/// in its own file (`TimelineApply*.swift`), all taking
/// (timeline, tables, columns, instance, lastTime, time, alpha, blend, direction); `apply` reads
/// the timeline in place from the compiled table.
/// `time` and `lastTime` are animation times; event keys fired go to `fired` (nil = no events).
enum TimelineApply {
    @inline(__always)
    static func apply(
        _ timeline: UnsafePointer<CompiledTimeline>, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext,
        lastTime: Float,
        time: Float, alpha: Float, blend: MixBlend, direction: MixDirection, fired: inout FiredKeys?
    ) {
        let t = timeline.pointee
        switch t.kind {
        case .rotate:
            applyRotate(timeline, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
        case .translate:
            applyTranslate(timeline, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
        case .translateX, .translateY, .scale, .scaleX, .scaleY, .shear, .shearX, .shearY,
            .inherit:
            applyBone(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend, direction: direction)
        case .rgba, .rgb, .alpha, .rgba2, .rgb2:
            applyColor(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
        case .attachment:
            applyAttachment(t, rig, cols, ctx, time: time, blend: blend, direction: direction)
        case .deform:
            applyDeform(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend)
        case .sequence:
            applySequence(t, rig, cols, ctx, time: time, blend: blend)
        case .drawOrder:
            applyDrawOrder(t, rig, cols, ctx, time: time, blend: blend, direction: direction)
        case .event:
            if fired != nil { applyEvents(t, rig, lastTime: lastTime, time: time, into: &fired!) }
        case .ik, .transform, .pathPosition, .pathSpacing, .pathMix:
            applyConstraint(t, rig, cols, ctx, time: time, alpha: alpha, blend: blend, direction: direction)
        case .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
            .physicsMix, .physicsReset:
            applyPhysics(t, rig, cols, ctx, lastTime: lastTime, time: time, alpha: alpha, blend: blend)
        }
    }
}
