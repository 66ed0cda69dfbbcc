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

extension CompiledSkeleton {
    /// One plan per skin plus "no skin": the skin's update program (the reference's update
    /// cache), its active bones, slots and constraints, and its (slot, name) -> attachment table
    /// (the default skin's entries, then the skin's own).
    static func compilePlans(_ data: SkeletonData, keys: inout AttachmentKeys) -> CompiledPlans {
        let planCount = data.skins.count + 1
        let keyCount = keys.count
        var programs: [UpdateProgram] = []
        var planOpStart: [Int32] = []
        var planOpCount: [Int32] = []
        var ops: [UpdateOp] = []
        var planBoneActive: [UInt8] = []
        var planSlotActive: [UInt8] = []
        var planIK: [UInt8] = []
        var planTC: [UInt8] = []
        var planPath: [UInt8] = []
        var planPhysics: [UInt8] = []
        var planAttachment: [Int32] = []
        for plan in 0..<planCount {
            let skin = Int32(plan) - 1
            let program = UpdateProgram(data: data, skin: skin)
            programs.append(program)
            // Skins with the same program share its steps, so instances of such skins are posed
            // together in lanes (`PoseSystem` compares where plans' steps start).
            let same = (0..<plan).first { p in
                let start = Int(planOpStart[p])
                return Int(planOpCount[p]) == program.ops.count
                    && ops[start..<(start + program.ops.count)].elementsEqual(program.ops)
            }
            if let same {
                planOpStart.append(planOpStart[same])
            } else {
                planOpStart.append(Int32(ops.count))
                ops.append(contentsOf: program.ops)
            }
            planOpCount.append(Int32(program.ops.count))
            planBoneActive.append(contentsOf: program.boneActive.map { $0 ? 1 : 0 })
            for slot in data.slots {
                let bone = Int(slot.bone)
                let active = bone >= 0 && bone < program.boneActive.count && program.boneActive[bone]
                planSlotActive.append(active ? 1 : 0)
            }
            planIK.append(contentsOf: program.ikActive.map { $0 ? 1 : 0 })
            planTC.append(contentsOf: program.transformActive.map { $0 ? 1 : 0 })
            planPath.append(contentsOf: program.pathActive.map { $0 ? 1 : 0 })
            planPhysics.append(contentsOf: program.physicsActive.map { $0 ? 1 : 0 })
            var table = [Int32](repeating: -1, count: keyCount)
            // Default skin first, so that the plan's own skin overrides it.
            var sources: [Int] = []
            if data.defaultSkin >= 0 { sources.append(Int(data.defaultSkin)) }
            if skin >= 0 { sources.append(Int(skin)) }
            for source in sources {
                for entry in data.skins[source].entries {
                    let k = keys.key(entry.slot, entry.name)
                    if k >= 0 { table[Int(k)] = entry.attachment }
                }
            }
            planAttachment.append(contentsOf: table)
        }
        return CompiledPlans(
            planCount: planCount, keyCount: keyCount, programs: programs, planOpStart: planOpStart,
            planOpCount: planOpCount, ops: ops, planBoneActive: planBoneActive, planSlotActive: planSlotActive,
            planIK: planIK, planTC: planTC, planPath: planPath, planPhysics: planPhysics, planAttachment: planAttachment
        )
    }

    /// Turns the steps of bones that always inherit normally from a parent into `.childBone`
    /// steps, and returns the bones whose applied pose must be copied each frame: those a
    /// constraint reads or writes (constrained bones and targets) and those not updated inline.
    static func markChildBones(_ data: SkeletonData, ops: inout [UpdateOp], inheritRows: [Int32]) -> [Int32] {
        let boneCount = data.bones.count
        var constrained = [Bool](repeating: false, count: boneCount)
        func mark(_ bones: [Int32]) { for b in bones where b >= 0 && Int(b) < boneCount { constrained[Int(b)] = true } }
        for c in data.ikConstraints { mark(c.bones + [c.target]) }
        for c in data.transformConstraints { mark(c.bones + [c.target]) }
        for c in data.pathConstraints { mark(c.bones) }
        for c in data.physicsConstraints { mark([c.bone]) }
        var readsLocal = [Bool](repeating: false, count: boneCount)
        for o in ops.indices where ops[o].kind == .bone {
            let k = Int(ops[o].index)
            let bone = data.bones[k]
            if bone.parent >= 0 && bone.inherit == .normal && inheritRows[k] < 0 {
                ops[o] = UpdateOp(
                    kind: .childBone, index: ops[o].index, parent: bone.parent, readsLocal: !constrained[k])
                readsLocal[k] = !constrained[k]
            }
        }
        let appliedBones = (0..<boneCount).filter { !readsLocal[$0] }.map { Int32($0) }
        return appliedBones
    }
}
