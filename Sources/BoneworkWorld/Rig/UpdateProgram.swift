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
        // The constraints the skin enables, collected once rather than searched for each one.
        var enabledConstraints = Set<ConstraintRef>()
        for skin in skins { enabledConstraints.formUnion(skin.constraints) }
        func enabled(_ kind: ConstraintKind, _ index: Int, skinRequired: Bool) -> Bool {
            !skinRequired || enabledConstraints.contains(ConstraintRef(kind, Int32(index)))
        }
        if !data.pathConstraints.isEmpty { indexPathAttachments(data) }

        // For each update position, the first constraint of each kind with that order: the
        // reference scans every list for every position, which is quadratic in the constraint
        // count (a file of a few hundred kilobytes could then take minutes to compile).
        let ikAt = Self.firstByOrder(data.ikConstraints.map(\.order))
        let transformAt = Self.firstByOrder(data.transformConstraints.map(\.order))
        let pathAt = Self.firstByOrder(data.pathConstraints.map(\.order))
        let physicsAt = Self.firstByOrder(data.physicsConstraints.map(\.order))
        let constraintCount =
            data.ikConstraints.count + data.transformConstraints.count + data.pathConstraints.count
            + data.physicsConstraints.count
        for order in 0..<constraintCount {
            let o = Int32(order)
            if let c = ikAt[o] {
                let ik = data.ikConstraints[c]
                let active = boneActive[Int(ik.target)] && enabled(.ik, c, skinRequired: ik.skinRequired)
                ikActive[c] = active
                if active { sortIK(ik, index: c) }
            } else if let c = transformAt[o] {
                let tc = data.transformConstraints[c]
                let active = boneActive[Int(tc.target)] && enabled(.transform, c, skinRequired: tc.skinRequired)
                transformActive[c] = active
                if active { sortTransform(tc, index: c) }
            } else if let c = pathAt[o] {
                let path = data.pathConstraints[c]
                let slotBone = data.slots[Int(path.target)].bone
                let active = boneActive[Int(slotBone)] && enabled(.path, c, skinRequired: path.skinRequired)
                pathActive[c] = active
                if active { sortPath(path, index: c, parts: parts, data: data) }
            } else if let c = physicsAt[o] {
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
        pathAttachments = [:]
        allSkinsPathBones = [:]
    }

    /// The index of the first element with each order value.
    private static func firstByOrder(_ orders: [Int32]) -> [Int32: Int] {
        var first: [Int32: Int] = [:]
        for (i, order) in orders.enumerated() where first[order] == nil { first[order] = i }
        return first
    }

    /// Path attachments by (skin, slot), in entry order, and per slot the bones that the path
    /// attachments of every skin read (each once, in the order `sortPath` meets them), so that
    /// a path constraint costs its own slot's entries rather than a walk over every skin.
    private var pathAttachments: [Int64: [Int32]] = [:]
    private var allSkinsPathBones: [Int32: [Int32]] = [:]

    private mutating func indexPathAttachments(_ data: SkeletonData) {
        var seen: [Int32: Set<Int32>] = [:]
        for (s, skin) in data.skins.enumerated() {
            for entry in skin.entries where data.attachments[Int(entry.attachment)].kind == .path {
                pathAttachments[Int64(s) << 32 | Int64(entry.slot), default: []].append(entry.attachment)
                let slotBone = data.slots[Int(entry.slot)].bone
                forEachBone(of: data.attachments[Int(entry.attachment)], slotBone: slotBone) { bone in
                    if seen[entry.slot, default: []].insert(bone).inserted {
                        allSkinsPathBones[entry.slot, default: []].append(bone)
                    }
                }
            }
        }
    }

    /// The bones a path attachment's vertices follow: the slot's bone when unweighted, else each
    /// influence's bone in vertex order.
    private func forEachBone(of attachment: AttachmentData, slotBone: Int32, _ body: (Int32) -> Void) {
        if attachment.bones.isEmpty {
            body(slotBone)
            return
        }
        var i = 0
        while i < attachment.bones.count {
            let n = Int(attachment.bones[i])
            i += 1
            let end = min(attachment.bones.count, i + max(0, n))
            while i < end {
                body(attachment.bones[i])
                i += 1
            }
        }
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
        for s in skins {
            for attachment in pathAttachments[Int64(s) << 32 | Int64(slot)] ?? [] {
                forEachBone(of: data.attachments[Int(attachment)], slotBone: slotBone) { sortBone($0) }
            }
        }
        // Then every skin's, in skin order: sorting a bone a second time changes nothing, so the
        // bones are visited once each, in the order first met.
        for bone in allSkinsPathBones[slot] ?? [] { sortBone(bone) }
        for bone in path.bones { sortBone(bone) }
        ops.append(UpdateOp(kind: .path, index: Int32(index)))
        for bone in path.bones { sortReset(children[Int(bone)]) }
        for bone in path.bones { sorted[Int(bone)] = true }
    }

    /// Places `bone` (after its parents) unless it is placed already or inactive. Iterative: a
    /// chain of bones may be as deep as the file is long, deeper than a thread's stack allows
    /// recursion (a worker thread has 512 KiB).
    private mutating func sortBone(_ bone: Int32) {
        guard bone >= 0, !sorted[Int(bone)] else { return }
        var chain: [Int32] = []
        var b = bone
        while b >= 0 && !sorted[Int(b)] {
            chain.append(b)
            b = parents[Int(b)]
        }
        for placed in chain.reversed() {
            sorted[Int(placed)] = true
            ops.append(UpdateOp(kind: .bone, index: placed))
        }
    }

    /// Marks the active bones of `bones` unplaced, and the descendants of those that were placed
    /// (an explicit stack instead of recursion, for the same reason as `sortBone`; the flags
    /// end the same whatever order the tree is walked in).
    private mutating func sortReset(_ bones: [Int32]) {
        var pending = bones
        while let bone = pending.popLast() {
            let b = Int(bone)
            guard boneActive[b] else { continue }
            if sorted[b] { pending.append(contentsOf: children[b]) }
            sorted[b] = false
        }
    }
}
