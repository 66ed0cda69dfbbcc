import BoneworkFormat

/// The order in which one skin's instances update bones and constraints each frame: the
/// reference's update cache, computed once per (SkeletonData, skin) and flattened into a list of
/// small steps ("update bone i", "solve ik c", ...). The skin is a data skin or one composed of
/// several (`init(data:parts:)`): a composed skin enables the bones and constraints of every part,
/// as the reference's `Skin.addSkin` collects them.
///
/// Rules (as the reference orders them): constraints are visited by their `order`; before a
/// constraint, the bones it reads are updated (parents first); the bones it writes are updated
/// again after it, together with their descendants; every bone not placed yet follows at the
/// end. Bones marked skin-required are inactive unless the skin lists them (or a descendant),
/// inactive bones are never updated, and constraints whose target is inactive or whose skin
/// requirement is unmet are left out.
struct UpdateProgram {
    private(set) var ops: [UpdateOp] = []
    private(set) var boneActive: [Bool]
    private(set) var ikActive: [Bool]
    private(set) var transformActive: [Bool]
    private(set) var pathActive: [Bool]
    private(set) var physicsActive: [Bool]

    private var sorted: [Bool]
    private var children: [[Int32]]
    private let parents: [Int32]

    /// The program of the skin composed of the data skins `parts` (valid indices; none: no skin).
    init(data: SkeletonData, parts: [Int32]) {
        let boneCount = data.bones.count
        boneActive = data.bones.map { !$0.skinRequired }
        sorted = data.bones.map(\.skinRequired)
        parents = data.bones.map(\.parent)
        children = Array(repeating: [], count: boneCount)
        for (i, bone) in data.bones.enumerated() where bone.parent >= 0 {
            children[Int(bone.parent)].append(Int32(i))
        }
        ikActive = Array(repeating: false, count: data.ikConstraints.count)
        transformActive = Array(repeating: false, count: data.transformConstraints.count)
        pathActive = Array(repeating: false, count: data.pathConstraints.count)
        physicsActive = Array(repeating: false, count: data.physicsConstraints.count)

        let skins = parts.map { data.skins[Int($0)] }
        for skin in skins {
            for bone in skin.bones {
                var b = bone
                while b >= 0 {
                    sorted[Int(b)] = false
                    boneActive[Int(b)] = true
                    b = data.bones[Int(b)].parent
                }
            }
        }
        func enabled(_ kind: ConstraintKind, _ index: Int, skinRequired: Bool) -> Bool {
            !skinRequired || skins.contains { $0.constraints.contains(ConstraintRef(kind, Int32(index))) }
        }

        let constraintCount =
            data.ikConstraints.count + data.transformConstraints.count + data.pathConstraints.count
            + data.physicsConstraints.count
        for order in 0..<constraintCount {
            let o = Int32(order)
            if let c = data.ikConstraints.firstIndex(where: { $0.order == o }) {
                let ik = data.ikConstraints[c]
                let active = boneActive[Int(ik.target)] && enabled(.ik, c, skinRequired: ik.skinRequired)
                ikActive[c] = active
                if active { sortIK(ik, index: c) }
            } else if let c = data.transformConstraints.firstIndex(where: { $0.order == o }) {
                let tc = data.transformConstraints[c]
                let active = boneActive[Int(tc.target)] && enabled(.transform, c, skinRequired: tc.skinRequired)
                transformActive[c] = active
                if active { sortTransform(tc, index: c) }
            } else if let c = data.pathConstraints.firstIndex(where: { $0.order == o }) {
                let path = data.pathConstraints[c]
                let slotBone = data.slots[Int(path.target)].bone
                let active = boneActive[Int(slotBone)] && enabled(.path, c, skinRequired: path.skinRequired)
                pathActive[c] = active
                if active { sortPath(path, index: c, parts: parts, data: data) }
            } else if let c = data.physicsConstraints.firstIndex(where: { $0.order == o }) {
                let physics = data.physicsConstraints[c]
                let active =
                    boneActive[Int(physics.bone)] && enabled(.physics, c, skinRequired: physics.skinRequired)
                physicsActive[c] = active
                if active {
                    sortBone(physics.bone)
                    ops.append(UpdateOp(kind: .physics, index: Int32(c)))
                    sortReset(children[Int(physics.bone)])
                    sorted[Int(physics.bone)] = true
                }
            }
        }
        for bone in 0..<boneCount { sortBone(Int32(bone)) }
    }

    private mutating func sortIK(_ ik: IKConstraintData, index: Int) {
        sortBone(ik.target)
        let parent = ik.bones[0]
        sortBone(parent)
        if ik.bones.count == 1 {
            ops.append(UpdateOp(kind: .ik, index: Int32(index)))
            sortReset(children[Int(parent)])
        } else {
            let child = ik.bones[ik.bones.count - 1]
            sortBone(child)
            ops.append(UpdateOp(kind: .ik, index: Int32(index)))
            sortReset(children[Int(parent)])
            sorted[Int(child)] = true
        }
    }

    private mutating func sortTransform(_ tc: TransformConstraintData, index: Int) {
        sortBone(tc.target)
        if tc.local {
            for bone in tc.bones {
                sortBone(parents[Int(bone)])
                sortBone(bone)
            }
        } else {
            for bone in tc.bones { sortBone(bone) }
        }
        ops.append(UpdateOp(kind: .transform, index: Int32(index)))
        for bone in tc.bones { sortReset(children[Int(bone)]) }
        for bone in tc.bones { sorted[Int(bone)] = true }
    }

    private mutating func sortPath(_ path: PathConstraintData, index: Int, parts: [Int32], data: SkeletonData) {
        let slot = path.target
        let slotBone = data.slots[Int(slot)].bone
        // Bones of every path attachment the target slot may show: the worn skin's (a composed
        // skin's parts in order), the default skin's unless it is the worn one, every skin's.
        var skins = parts.map(Int.init)
        if data.defaultSkin >= 0 && parts != [data.defaultSkin] { skins.append(Int(data.defaultSkin)) }
        skins.append(contentsOf: data.skins.indices)
        for s in skins {
            for entry in data.skins[s].entries where entry.slot == slot {
                let attachment = data.attachments[Int(entry.attachment)]
                guard attachment.kind == .path else { continue }
                if attachment.bones.isEmpty {
                    sortBone(slotBone)
                } else {
                    var i = 0
                    while i < attachment.bones.count {
                        let n = Int(attachment.bones[i])
                        i += 1
                        let end = min(attachment.bones.count, i + max(0, n))
                        while i < end {
                            sortBone(attachment.bones[i])
                            i += 1
                        }
                    }
                }
            }
        }
        for bone in path.bones { sortBone(bone) }
        ops.append(UpdateOp(kind: .path, index: Int32(index)))
        for bone in path.bones { sortReset(children[Int(bone)]) }
        for bone in path.bones { sorted[Int(bone)] = true }
    }

    /// Places `bone` (after its parents) unless it is placed already or inactive.
    private mutating func sortBone(_ bone: Int32) {
        guard bone >= 0, !sorted[Int(bone)] else { return }
        sortBone(parents[Int(bone)])
        sorted[Int(bone)] = true
        ops.append(UpdateOp(kind: .bone, index: bone))
    }

    private mutating func sortReset(_ bones: [Int32]) {
        for bone in bones {
            let b = Int(bone)
            guard boneActive[b] else { continue }
            if sorted[b] { sortReset(children[b]) }
            sorted[b] = false
        }
    }
}
