import BoneworkFormat
import Synchronization

/// A `SkeletonData` flattened once into the raw tables the systems read (`RigTables`): setup
/// values, constraint bone lists, attachment geometry, every animation's timelines in shared
/// pools, and per skin an update program and a dense (slot, name) -> attachment table.
///
/// Immutable after construction and shared by every batch of the same data, except that it
/// interns the plans of composed skins as instances first wear them (`plan(parts:)`, under a
/// lock, into rows reserved at construction).
public final class CompiledSkeleton: @unchecked Sendable {
    /// The skeleton data compiled.
    public let data: SkeletonData
    let tables: RigTables
    private let buffers: FrozenBuffers

    /// Bones per instance.
    public let boneCount: Int
    /// Slots per instance.
    public let slotCount: Int
    /// Floats of deform buffers per instance (sum of the slots' capacities).
    public let deformFloats: Int
    /// Floats of world vertices per instance (sum of the slots' capacities).
    public let vertexFloats: Int
    /// The most world vertex floats of any one attachment.
    let maxAttachmentFloats: Int
    /// The most event keys any one animation has (bounds the events one apply can fire).
    public let maxEventKeys: Int
    /// Per global event index: (animation, index into that animation's `events`).
    let eventKeys: [(animation: Int32, key: Int32)]
    private let keyIndex: [Int64: Int32]
    /// The per-plan tables, with room for composed skins' plans.
    let store: PlanStore
    /// Each bone's `.childBone` step, nil for bones updated by the general step.
    let childSteps: [UpdateOp?]
    /// The plans handed out: data skins', then composed ones.
    let composed: Mutex<ComposedSkins>

    /// Compiles `data`'s update order, timelines and skins' plans (once per data; worlds share it).
    public init(_ data: SkeletonData) {
        self.data = data
        let boneCount = data.bones.count
        let slotCount = data.slots.count
        self.boneCount = boneCount
        self.slotCount = slotCount
        let b = FrozenBuffers()
        buffers = b

        var keys = AttachmentKeys(data)
        let slotSetupKey = data.slots.enumerated().map { keys.key(Int32($0.offset), $0.element.attachmentName) }
        for skin in data.skins {
            for entry in skin.entries { _ = keys.key(entry.slot, entry.name) }
        }
        let anim = Self.compileAnimations(data, keys: &keys)
        eventKeys = anim.eventKeys
        maxEventKeys = anim.maxEventKeys
        let att = Self.compileAttachments(data, deformNeed: anim.deformNeed)
        deformFloats = att.deformTotal
        vertexFloats = att.vertexTotal
        maxAttachmentFloats = att.maxAttachmentFloats
        var plans = Self.compilePlans(data, keys: &keys)
        keyIndex = keys.index
        let cons = Self.compileConstraints(data)
        let rows = Self.compactRows(slotFieldUse: anim.slotFieldUse, inheritUse: anim.inheritUse)
        let (childSteps, appliedBones) = Self.childSteps(data, inheritRows: rows.inheritRows)
        self.childSteps = childSteps
        // `plans.ops` holds each distinct program once, one after another (plans with equal
        // programs share a start).
        var done = Set<Int32>()
        for (start, count) in zip(plans.planOpStart, plans.planOpCount) where count > 0 && done.insert(start).inserted {
            let range = Int(start)..<Int(start + count)
            plans.ops.replaceSubrange(range, with: Self.replacingChildSteps(Array(plans.ops[range]), childSteps, data))
        }
        // Composed skins only differ from data skins when there are several skins to compose.
        // Their programs are at most one step per bone and constraint, plus a bone's steps again
        // after each constraint that resets it (bounded by the skin of every part at once).
        let allParts = UpdateProgram(data: data, parts: data.skins.indices.map { Int32($0) })
        let opsPerPlan = max(allParts.ops.count, plans.programs.map(\.ops.count).max() ?? 0) + boneCount
        let store = PlanStore(
            plans, composedLimit: data.skins.count > 1 ? ComposedSkins.limit : 0, opsPerPlan: opsPerPlan, b)
        self.store = store
        composed = Mutex(
            ComposedSkins(
                parts: (0..<plans.planCount).map { $0 == 0 ? [] : [Int32($0 - 1)] },
                entries: (0..<plans.planCount).map { $0 == 0 ? [] : data.skins[$0 - 1].entries },
                programs: plans.programs, opCount: plans.ops.count))
        let localSetup = BoneTransform.LocalSetup.table(data.bones)
        let keyCount = plans.keyCount

        tables = RigTables(
            boneCount: boneCount, slotCount: slotCount, ikCount: data.ikConstraints.count,
            transformCount: data.transformConstraints.count, pathCount: data.pathConstraints.count,
            physicsCount: data.physicsConstraints.count, keyCount: keyCount,
            boneParent: b.freeze(data.bones.map(\.parent)),
            boneSetup: b.freeze(
                data.bones.flatMap { [$0.x, $0.y, $0.rotation, $0.scaleX, $0.scaleY, $0.shearX, $0.shearY] }),
            boneInherit: b.freeze(data.bones.map(\.inherit.rawValue)),
            boneLength: b.freeze(data.bones.map(\.length)),
            boneSetupDirection: b.freeze(data.bones.map { ArcTangent.atan2($0.y, $0.x) }),
            boneLocalSetup: b.freeze(localSetup),
            boneLocalSetupLanes: b.freeze(localSetup.map { SIMD4(repeating: $0) }),
            slotBone: b.freeze(data.slots.map(\.bone)),
            slotColor: b.freeze(data.slots.flatMap { [$0.color.r, $0.color.g, $0.color.b, $0.color.a] }),
            slotDark: b.freeze(
                data.slots.flatMap { s -> [Float] in
                    guard let d = s.darkColor else { return [0, 0, 0] }
                    return [d.r, d.g, d.b]
                }),
            slotHasDark: b.freeze(data.slots.map { $0.darkColor == nil ? 0 : 1 }),
            slotColorRow: b.freeze(rows.colorRows.rows), slotDarkRow: b.freeze(rows.darkRows.rows),
            slotSequenceRow: b.freeze(rows.sequenceRows.rows), slotDeformRow: b.freeze(rows.deformRows.rows),
            colorSlots: rows.colorRows.count, darkSlots: rows.darkRows.count, sequenceSlots: rows.sequenceRows.count,
            deformSlots: rows.deformRows.count, boneInheritRow: b.freeze(rows.inheritRows),
            inheritBones: Int(rows.inheritBones),
            slotSetupKey: b.freeze(slotSetupKey),
            slotDeformOffset: b.freeze(att.slotDeformOffset),
            slotVertexOffset: b.freeze(att.slotVertexOffset),
            ikBones: b.freeze(cons.ikBones), ikBoneStart: b.freeze(cons.ikBoneStart),
            ikBoneCount: b.freeze(cons.ikBoneCount),
            ikTarget: b.freeze(data.ikConstraints.map(\.target)),
            ikMix: b.freeze(data.ikConstraints.map(\.mix)),
            ikSoftness: b.freeze(data.ikConstraints.map(\.softness)),
            ikBend: b.freeze(data.ikConstraints.map(\.bendDirection)),
            ikCompress: b.freeze(data.ikConstraints.map { $0.compress ? 1 : 0 }),
            ikStretch: b.freeze(data.ikConstraints.map { $0.stretch ? 1 : 0 }),
            ikUniform: b.freeze(data.ikConstraints.map { $0.uniform ? 1 : 0 }),
            transformBones: b.freeze(cons.transformBones), transformBoneStart: b.freeze(cons.transformBoneStart),
            transformBoneCount: b.freeze(cons.transformBoneCount),
            transformTarget: b.freeze(data.transformConstraints.map(\.target)),
            transformMix: b.freeze(cons.transformMix), transformOffset: b.freeze(cons.transformOffset),
            transformLocal: b.freeze(data.transformConstraints.map { $0.local ? 1 : 0 }),
            transformRelative: b.freeze(data.transformConstraints.map { $0.relative ? 1 : 0 }),
            pathSetup: b.freeze(
                data.pathConstraints.flatMap { [$0.position, $0.spacing, $0.mixRotate, $0.mixX, $0.mixY] }),
            physicsSetup: b.freeze(cons.physicsSetup), physicsGlobal: b.freeze(cons.physicsGlobal),
            physicsBone: b.freeze(data.physicsConstraints.map(\.bone)),
            attachmentKindRaw: b.freeze(att.attachmentKind), attachmentVertexStart: b.freeze(att.attachmentVertexStart),
            attachmentVertexFloats: b.freeze(att.attachmentVertexFloats),
            attachmentBoneStart: b.freeze(att.attachmentBoneStart),
            attachmentBoneCount: b.freeze(att.attachmentBoneCount),
            attachmentWorldLength: b.freeze(att.attachmentWorldLength),
            attachmentDrawnFloats: b.freeze(att.attachmentDrawnFloats),
            attachmentTimeline: b.freeze(att.attachmentTimeline),
            attachmentFirstFrame: b.freeze(att.attachmentFirstFrame),
            attachmentFrameCount: b.freeze(att.attachmentFrameCount),
            attachmentSequenceSetup: b.freeze(att.attachmentSequenceSetup),
            attachmentSequenceCount: b.freeze(att.attachmentSequenceCount),
            attachmentDraw: b.freeze(att.attachmentDraw),
            vertexPool: b.freeze(att.vertexPool), bonePool: b.freeze(att.bonePool),
            skinPool: b.freeze(att.skinPool), attachmentSkinStart: b.freeze(att.attachmentSkinStart),
            laneBones: b.freeze(att.laneBones), laneBoneCount: att.laneBones.count,
            laneBonePool: b.freeze(att.laneBonePool),
            laneSkinPool: b.freeze(att.laneSkinPool), frameOffsets: b.freeze(att.frameOffsets),
            animDuration: b.freeze(anim.animDuration), animTimelineStart: b.freeze(anim.animTimelineStart),
            animTimelineCount: b.freeze(anim.animTimelineCount), animTimelineLists: b.freeze(anim.animTimelineLists),
            animGroupedStart: b.freeze(anim.animGroupedStart), animGroupedCount: b.freeze(anim.animGroupedCount),
            timelines: b.freeze(anim.timelines),
            framePool: b.freeze(anim.framePool), curvePool: b.freeze(anim.curvePool),
            markerPool: b.freeze(anim.markerPool), intPool: b.freeze(anim.intPool),
            keyPool: b.freeze(anim.keyPool),
            planOpStart: UnsafePointer(store.planOpStart), planOpCount: UnsafePointer(store.planOpCount),
            ops: UnsafePointer(store.ops),
            planBoneActive: UnsafePointer(store.boneActive), planSlotActive: UnsafePointer(store.slotActive),
            planIKActive: UnsafePointer(store.ik),
            planTransformActive: UnsafePointer(store.transform), planPathActive: UnsafePointer(store.path),
            planPhysicsActive: UnsafePointer(store.physics), appliedBones: b.freeze(appliedBones),
            appliedBoneCount: appliedBones.count, planAttachment: UnsafePointer(store.attachment),
            paths: PathTables.build(data, b), physicsValues: PhysicsTables.build(data, b))
    }

    /// Floats a vertex attachment's deform buffer holds: an offset per influence when weighted,
    /// a position per vertex otherwise.
    static func deformLength(_ a: AttachmentData) -> Int {
        a.bones.isEmpty ? a.vertices.count : a.vertices.count / 3 * 2
    }

    /// The key of (slot, interned attachment name), nil when no skin, setup or timeline pairs them.
    public func key(slot: Int32, name: Int32) -> Int32? {
        keyIndex[Int64(slot) << 32 | Int64(name)]
    }

    /// The plan index of a skin (-1 or nil = no skin).
    public func plan(skin: Int32?) -> Int32 {
        guard let skin, skin >= 0, Int(skin) < data.skins.count else { return 0 }
        return skin + 1
    }

    /// The attachment plan `plan` resolves for (slot, name), -1 when none.
    public func attachment(plan: Int32, slot: Int32, name: Int32) -> Int32 {
        guard let k = key(slot: slot, name: name), plan >= 0, Int(plan) < planCount else { return -1 }
        return tables.planAttachment[Int(plan) * tables.keyCount + Int(k)]
    }

    /// Whether `bone` is updated under `plan` (bones that need a skin the plan lacks are not).
    public func isBoneActive(plan: Int32, bone: Int) -> Bool {
        guard plan >= 0, Int(plan) < planCount, bone >= 0, bone < boneCount else { return false }
        return tables.planBoneActive[Int(plan) * boneCount + bone] != 0
    }

    /// The update program of a plan as readable steps, e.g. `["bone root", "ik aim", ...]`.
    public func describeProgram(plan: Int32) -> [String] {
        guard let program = program(plan: plan) else { return [] }
        return program.ops.map { op in
            let i = Int(op.index)
            switch op.kind {
            case .bone, .childBone: return "bone \(data.bones[i].name)"
            case .ik: return "ik \(data.ikConstraints[i].name)"
            case .transform: return "transform \(data.transformConstraints[i].name)"
            case .path: return "path \(data.pathConstraints[i].name)"
            case .physics: return "physics \(data.physicsConstraints[i].name)"
            }
        }
    }
}
