import BoneworkFormat

/// The update plans (`CompiledSkeleton.compilePlans`): per plan its update program's steps, which
/// bones, slots and constraints it activates, and its attachment table.
struct CompiledPlans {
    /// One plan per skin plus "no skin" (plan 0).
    var planCount: Int
    var keyCount: Int
    var programs: [UpdateProgram]
    var planOpStart: [Int32]
    var planOpCount: [Int32]
    /// The steps of every distinct program (plans with equal programs share theirs).
    var ops: [UpdateOp]
    var planBoneActive: [UInt8]
    var planSlotActive: [UInt8]
    var planIK: [UInt8]
    var planTC: [UInt8]
    var planPath: [UInt8]
    var planPhysics: [UInt8]
    var planAttachment: [Int32]
}

/// One plan's rows of the per-plan tables (`CompiledPlans`, `PlanStore`).
struct PlanRows {
    var program: UpdateProgram
    var boneActive: [UInt8]
    var slotActive: [UInt8]
    var ik: [UInt8]
    var transform: [UInt8]
    var path: [UInt8]
    var physics: [UInt8]
    /// keyCount attachment indices (-1: none).
    var attachment: [Int32]

    /// The rows of the skin composed of data skins `parts` (none: no skin): its update program,
    /// what it activates, and its attachment table (the default skin's entries, then each part's
    /// in order, a later one replacing an earlier one on the same key: the reference's
    /// `Skeleton.getAttachment` looks in the worn skin, then in the default skin).
    init(_ data: SkeletonData, parts: [Int32], keyCount: Int, key: (Int32, Int32) -> Int32) {
        program = UpdateProgram(data: data, parts: parts)
        boneActive = program.boneActive.map { $0 ? 1 : 0 }
        let active = program.boneActive
        slotActive = data.slots.map { slot in
            let bone = Int(slot.bone)
            return bone >= 0 && bone < active.count && active[bone] ? 1 : 0
        }
        ik = program.ikActive.map { $0 ? 1 : 0 }
        transform = program.transformActive.map { $0 ? 1 : 0 }
        path = program.pathActive.map { $0 ? 1 : 0 }
        physics = program.physicsActive.map { $0 ? 1 : 0 }
        attachment = [Int32](repeating: -1, count: keyCount)
        var sources: [Int32] = []
        if data.defaultSkin >= 0 { sources.append(data.defaultSkin) }
        sources.append(contentsOf: parts)
        for source in sources {
            for entry in data.skins[Int(source)].entries {
                let k = key(entry.slot, entry.name)
                if k >= 0 { attachment[Int(k)] = entry.attachment }
            }
        }
    }
}

extension CompiledSkeleton {
    /// One plan per skin plus "no skin": the skin's update program (the reference's update
    /// cache), its active bones, slots and constraints, and its (slot, name) -> attachment table
    /// (the default skin's entries, then the skin's own).
    static func compilePlans(_ data: SkeletonData, keys: inout AttachmentKeys) -> CompiledPlans {
        let planCount = data.skins.count + 1
        let keyCount = keys.count
        var plans = CompiledPlans(
            planCount: planCount, keyCount: keyCount, programs: [], planOpStart: [], planOpCount: [], ops: [],
            planBoneActive: [], planSlotActive: [], planIK: [], planTC: [], planPath: [], planPhysics: [],
            planAttachment: [])
        for plan in 0..<planCount {
            let parts: [Int32] = plan == 0 ? [] : [Int32(plan - 1)]
            let rows = PlanRows(data, parts: parts, keyCount: keyCount) { keys.key($0, $1) }
            let program = rows.program
            // Skins with the same program share its steps, so instances of such skins are posed
            // together in lanes (`PoseSystem` compares where plans' steps start).
            let same = plans.programs.firstIndex { $0.ops == program.ops }
            plans.programs.append(program)
            if let same {
                plans.planOpStart.append(plans.planOpStart[same])
            } else {
                plans.planOpStart.append(Int32(plans.ops.count))
                plans.ops.append(contentsOf: program.ops)
            }
            plans.planOpCount.append(Int32(program.ops.count))
            plans.planBoneActive.append(contentsOf: rows.boneActive)
            plans.planSlotActive.append(contentsOf: rows.slotActive)
            plans.planIK.append(contentsOf: rows.ik)
            plans.planTC.append(contentsOf: rows.transform)
            plans.planPath.append(contentsOf: rows.path)
            plans.planPhysics.append(contentsOf: rows.physics)
            plans.planAttachment.append(contentsOf: rows.attachment)
        }
        return plans
    }

    /// The `.childBone` step of each bone that always inherits normally from a parent (nil for
    /// the others), and the bones whose applied pose must be copied each frame: those a
    /// constraint reads or writes (constrained bones and targets) and those not updated inline.
    /// Plan-independent: every plan's `.bone` steps are replaced through the same table
    /// (`childSteps(_:)`).
    static func childSteps(_ data: SkeletonData, inheritRows: [Int32]) -> (
        steps: [UpdateOp?], appliedBones: [Int32]
    ) {
        let boneCount = data.bones.count
        var constrained = [Bool](repeating: false, count: boneCount)
        func mark(_ bones: [Int32]) { for b in bones where b >= 0 && Int(b) < boneCount { constrained[Int(b)] = true } }
        for c in data.ikConstraints { mark(c.bones + [c.target]) }
        for c in data.transformConstraints { mark(c.bones + [c.target]) }
        for c in data.pathConstraints { mark(c.bones) }
        for c in data.physicsConstraints { mark([c.bone]) }
        var steps = [UpdateOp?](repeating: nil, count: boneCount)
        for (k, bone) in data.bones.enumerated()
        where bone.parent >= 0 && bone.inherit == .normal && inheritRows[k] < 0 {
            steps[k] = UpdateOp(kind: .childBone, index: Int32(k), parent: bone.parent, readsLocal: !constrained[k])
        }
        let appliedBones = (0..<boneCount).filter { !(steps[$0]?.readsLocal ?? false) }.map { Int32($0) }
        return (steps, appliedBones)
    }

    /// One program's `ops` with each `.bone` step that has a `.childBone` form (`childSteps`)
    /// replaced by it, and unread applied poses marked (`markingUnreadApplied`).
    static func replacingChildSteps(_ ops: [UpdateOp], _ steps: [UpdateOp?], _ data: SkeletonData) -> [UpdateOp] {
        markingUnreadApplied(ops.map { op in op.kind == .bone ? steps[Int(op.index)] ?? op : op }, data)
    }

    /// One program's `ops` with `recomputesApplied` cleared on each transform, path and physics
    /// step when no later step reads the applied pose of any bone it moves
    /// (`stepBones(_:_:)` says what each step moves and reads).
    static func markingUnreadApplied(_ ops: [UpdateOp], _ data: SkeletonData) -> [UpdateOp] {
        markingUnreadApplied(ops, boneCount: data.bones.count) { stepBones($0, data) }
    }

    /// `markingUnreadApplied(_:_:)` with what each step moves and reads given by `bones`
    /// (indices outside `0 ..< boneCount` are ignored).
    static func markingUnreadApplied(
        _ ops: [UpdateOp], boneCount: Int, bones: (UpdateOp) -> (moved: [Int32], read: [Int32])
    ) -> [UpdateOp] {
        var readLater = [Bool](repeating: false, count: boneCount)
        func valid(_ b: Int32) -> Bool { b >= 0 && Int(b) < boneCount }
        var marked = ops
        for o in marked.indices.reversed() {
            let (moved, read) = bones(marked[o])
            if !moved.isEmpty {
                marked[o].recomputesApplied = moved.contains { valid($0) && readLater[Int($0)] }
            }
            for b in read where valid(b) { readLater[Int(b)] = true }
        }
        return marked
    }

    /// The bones step `op` moves (and recomputes the applied pose of) and the bones whose applied
    /// pose it may read, counted generously: a bone's own `.bone` or `.childBone` step (the
    /// world transform from the applied pose) and every bone an IK, transform, path or physics
    /// constraint names (constrained bones and targets; the local transform modes and IK read
    /// applied poses, the others world transforms only).
    static func stepBones(_ op: UpdateOp, _ data: SkeletonData) -> (moved: [Int32], read: [Int32]) {
        let c = Int(op.index)
        switch op.kind {
        case .bone, .childBone:
            return ([], [op.index])
        case .ik:
            guard c < data.ikConstraints.count else { return ([], []) }
            let ik = data.ikConstraints[c]
            return ([], ik.bones + [ik.target])
        case .transform:
            guard c < data.transformConstraints.count else { return ([], []) }
            let tc = data.transformConstraints[c]
            return (tc.bones, tc.bones + [tc.target])
        case .path:
            guard c < data.pathConstraints.count else { return ([], []) }
            let path = data.pathConstraints[c]
            return (path.bones, path.bones)
        case .physics:
            guard c < data.physicsConstraints.count else { return ([], []) }
            let bone = data.physicsConstraints[c].bone
            return ([bone], [bone])
        }
    }
}
