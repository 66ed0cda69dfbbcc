import BoneworkFormat

/// One timeline of `CompiledSkeleton`, with offsets into the skeleton-wide pools (all animations'
/// frames, curves and values concatenated), so that applying it needs no per-animation lookups.
struct CompiledTimeline {
    /// `TimelineKind` raw value (stored raw so the table is plain bits).
    var kindRaw: UInt8
    /// The kind's frame stride (`TimelineKind.frameStride`).
    var stride: Int32
    /// `kindRaw` is always a valid raw value, and a `TimelineKind`'s raw values are its case
    /// indices (`CompiledTimeline.kindLayoutHolds`, checked by tests): a plain reinterpretation, no
    /// call into the format module.
    @inline(__always) var kind: TimelineKind { unsafeBitCast(kindRaw, to: TimelineKind.self) }

    /// Whether every `TimelineKind` is stored as its raw value (what `kind` relies on).
    static var kindLayoutHolds: Bool {
        MemoryLayout<TimelineKind>.size == 1
            && TimelineKind.allCases.allSatisfy { unsafeBitCast($0.rawValue, to: TimelineKind.self) == $0 }
    }
    /// Bone, slot or constraint index (by kind); physics value/reset timelines: -1 = every constraint.
    var target: Int32
    /// Deform and sequence timelines: the attachment they animate.
    var attachment: Int32
    var frameCount: Int32
    /// Start of the frames in `RigTables.framePool`.
    var frames: Int32
    /// Start of the curves in `RigTables.curvePool` (frame markers, then bezier samples).
    var curves: Int32
    var curvesCount: Int32
    /// Deform: start of the key vertices in `framePool`; attachment and draw order: start in
    /// `intPool` / `keyPool`; event: the global index of the first event key.
    var values: Int32
    /// Deform: floats per key; draw order: the slot count.
    var valueStride: Int32
    /// Start of the key curve markers in `RigTables.markerPool` (one per key, see `CurveMarkers`).
    var markers: Int32 = 0
}

/// One step of an update program (see `UpdateProgram`).
struct UpdateOp: Equatable {
    enum Kind: UInt8 {
        case bone, ik, transform, path, physics
        /// A bone with a parent that always inherits normally (no inherit timeline keys it):
        /// `parent` holds its parent, and the pose loop updates it inline without checks.
        case childBone
    }
    var kind: Kind
    var index: Int32
    /// The parent bone of a `.childBone` step (-1 for other steps).
    var parent: Int32 = -1
    /// A `.childBone` step whose bone no constraint reads or writes: its applied pose is its
    /// local pose all frame long, so the lane steps read the local columns and the applied pose
    /// is not copied for it (`RigTables.appliedBones` lists the bones that are copied).
    var readsLocal = false
}

/// Raw read-only views of a `CompiledSkeleton`'s tables. A plain struct of pointers: systems copy
/// it once per run and read through it without reference counting or bounds checks (every index
/// was checked when the skeleton was loaded and compiled).
struct RigTables {
    var boneCount: Int
    var slotCount: Int
    var ikCount: Int
    var transformCount: Int
    var pathCount: Int
    var physicsCount: Int
    /// Distinct (slot, attachment name) pairs; see `CompiledSkeleton.key(slot:name:)`.
    var keyCount: Int

    // Bones: setup pose, 7 floats per bone (x, y, rotation, scaleX, scaleY, shearX, shearY).
    var boneParent: UnsafePointer<Int32>
    var boneSetup: UnsafePointer<Float>
    var boneInherit: UnsafePointer<UInt8>
    var boneLength: UnsafePointer<Float>
    /// `ArcTangent.atan2(setup y, setup x)` per bone: the direction two-bone IK measures to a
    /// child at its setup position (`PoseLanes.twoBone`).
    var boneSetupDirection: UnsafePointer<Float>
    /// Setup rotation, scale and shear and their local 2×2 per bone (`BoneTransform.LocalSetup`).
    var boneLocalSetup: UnsafePointer<Float>
    /// `boneLocalSetup` with every float in 4 lanes (`PoseLanes` compares and copies vectors).
    var boneLocalSetupLanes: UnsafePointer<SIMD4<Float>>

    // Slots.
    var slotBone: UnsafePointer<Int32>
    /// Setup colour, 4 floats per slot.
    var slotColor: UnsafePointer<Float>
    /// Setup dark colour, 3 floats per slot (0 when the slot has none).
    var slotDark: UnsafePointer<Float>
    var slotHasDark: UnsafePointer<UInt8>
    /// Slot fields timelines can change get a per-instance row; the others keep their setup value
    /// (no per-instance copy). Per slot: its row among the instance's colour rows (rgba, rgb,
    /// alpha, rgba2, rgb2 timelines), dark colour rows (rgba2, rgb2), sequence rows (sequence
    /// timelines) and deform rows (deform timelines); -1 = none.
    var slotColorRow: UnsafePointer<Int32>
    var slotDarkRow: UnsafePointer<Int32>
    var slotSequenceRow: UnsafePointer<Int32>
    var slotDeformRow: UnsafePointer<Int32>
    var colorSlots: Int
    var darkSlots: Int
    var sequenceSlots: Int
    var deformSlots: Int
    /// Per bone: its row among the instance's inherit rows (bones inherit timelines key), -1 =
    /// the setup inherit mode always applies.
    var boneInheritRow: UnsafePointer<Int32>
    var inheritBones: Int
    /// The key of the slot's setup attachment name, -1 when it has none.
    var slotSetupKey: UnsafePointer<Int32>
    /// Where each slot's deform buffer starts inside an instance's deform block.
    var slotDeformOffset: UnsafePointer<Int32>
    /// Where each slot's world vertices start inside an instance's vertex block.
    var slotVertexOffset: UnsafePointer<Int32>

    // IK constraints.
    var ikBones: UnsafePointer<Int32>
    var ikBoneStart: UnsafePointer<Int32>
    var ikBoneCount: UnsafePointer<Int32>
    var ikTarget: UnsafePointer<Int32>
    var ikMix: UnsafePointer<Float>
    var ikSoftness: UnsafePointer<Float>
    var ikBend: UnsafePointer<Int32>
    var ikCompress: UnsafePointer<UInt8>
    var ikStretch: UnsafePointer<UInt8>
    var ikUniform: UnsafePointer<UInt8>

    // Transform constraints: setup mixes and offsets, 6 floats each (rotate, x, y, scaleX, scaleY, shearY).
    var tcBones: UnsafePointer<Int32>
    var tcBoneStart: UnsafePointer<Int32>
    var tcBoneCount: UnsafePointer<Int32>
    var tcTarget: UnsafePointer<Int32>
    var tcMix: UnsafePointer<Float>
    var tcOffset: UnsafePointer<Float>
    var tcLocal: UnsafePointer<UInt8>
    var tcRelative: UnsafePointer<UInt8>

    // Path constraints: setup values, 5 floats each (position, spacing, mixRotate, mixX, mixY).
    var pathSetup: UnsafePointer<Float>

    // Physics constraints: setup values, 7 floats each (inertia, strength, damping, massInverse,
    // wind, gravity, mix) and the matching 7 "global" flags.
    var physicsSetup: UnsafePointer<Float>
    var physicsGlobal: UnsafePointer<UInt8>
    var physicsBone: UnsafePointer<Int32>

    // Attachments.
    /// `AttachmentKind` raw values.
    var attKind: UnsafePointer<UInt8>
    var attVertexStart: UnsafePointer<Int32>
    var attVertexFloats: UnsafePointer<Int32>
    /// Weighted attachments: start and length of [n, bone * n, ...] in `bonePool`; count 0 = unweighted.
    var attBoneStart: UnsafePointer<Int32>
    var attBoneCount: UnsafePointer<Int32>
    var attWorldLength: UnsafePointer<Int32>
    /// The floats a draw of the attachment gets: a mesh its world length, a region with images
    /// -8 (8 when the draw shows an image, frame >= 0), anything else 0.
    var attDrawnFloats: UnsafePointer<Int32>
    var attTimeline: UnsafePointer<Int32>
    var attFirstFrame: UnsafePointer<Int32>
    var attFrameCount: UnsafePointer<Int32>
    var attSequenceSetup: UnsafePointer<Int32>
    /// Frames of a sequence attachment, 0 when it has no sequence.
    var attSequenceCount: UnsafePointer<Int32>
    /// What drawing the attachment shows (`SlotSystem`): its image (>= 0) when it is a region or
    /// mesh with one and no sequence, `AttachmentDraw.never` when it is never drawn (not a region
    /// or mesh, or a region without an image), `AttachmentDraw.resolve` otherwise (the image
    /// depends on the slot's sequence frame, or a mesh without an image).
    var attDraw: UnsafePointer<Int32>
    var vertexPool: UnsafePointer<Float>
    var bonePool: UnsafePointer<Int32>
    /// Weighted meshes: per influence (x, x, y, y) and (weight, weight, weight, weight) from the
    /// vertices, so that skinning reads them as ready vectors (`VertexSystem.skin`); start per
    /// attachment in `attSkinStart` (in vectors).
    var skinPool: UnsafePointer<SIMD4<Float>>
    var attSkinStart: UnsafePointer<Int32>
    /// Four-instance skinning (`VertexSystem.skinLanes`): the bones weighted meshes use, in
    /// bone order (`laneBoneCount` of them); `bonePool` with each bone replaced by the byte offset
    /// of its record among them (96 bytes: a, b, c, d, worldX, worldY as 4 lanes each); and per
    /// influence x, y and weight each in every lane, 3 vectors per influence (start per
    /// attachment: `attSkinStart * 3 / 2`).
    var laneBones: UnsafePointer<Int32>
    var laneBoneCount: Int
    var laneBonePool: UnsafePointer<Int32>
    var laneSkinPool: UnsafePointer<SIMD4<Float>>
    /// Region frames: 8 local corner offsets each (BL, UL, UR, BR; x then y).
    var frameOffsets: UnsafePointer<Float>

    // Animations.
    var animDuration: UnsafePointer<Float>
    var animTimelineStart: UnsafePointer<Int32>
    var animTimelineCount: UnsafePointer<Int32>
    /// Per animation, its timelines as two lists of global timeline indices, each in the
    /// animation's order, one after the other from `animGroupedStart[a]`: the
    /// `animGroupedCount[a]` kinds that may be applied in groups (`TimelineKind.appliesInGroups`),
    /// then every other timeline (`otherTimelines`). `StateKernel.apply(rows:)` applies the
    /// first list over many instances at once and the second instance by instance.
    var animTimelineLists: UnsafePointer<Int32>
    var animGroupedStart: UnsafePointer<Int32>
    var animGroupedCount: UnsafePointer<Int32>
    var timelines: UnsafePointer<CompiledTimeline>
    var framePool: UnsafePointer<Float>
    var curvePool: UnsafePointer<Float>
    /// Every timeline's curve markers as integers (`CurveMarkers`), one per key.
    var markerPool: UnsafePointer<Int32>
    /// Draw order keys (slot indices).
    var intPool: UnsafePointer<Int32>
    /// Attachment keys, parallel to `intPool`: the (slot, name) key of each attachment timeline
    /// frame, -1 for "no attachment".
    var keyPool: UnsafePointer<Int32>

    // Update plans, one per skin plus one for "no skin" (plan 0; plan s + 1 is skin s).
    var planOpStart: UnsafePointer<Int32>
    var planOpCount: UnsafePointer<Int32>
    var ops: UnsafePointer<UpdateOp>
    /// planCount * boneCount flags.
    var planBoneActive: UnsafePointer<UInt8>
    /// planCount * slotCount flags: the slot's bone is active under the plan.
    var planSlotActive: UnsafePointer<UInt8>
    var planIKActive: UnsafePointer<UInt8>
    var planTransformActive: UnsafePointer<UInt8>
    var planPathActive: UnsafePointer<UInt8>
    var planPhysicsActive: UnsafePointer<UInt8>
    /// The bones whose applied pose the lane steps read from scratch (`UpdateOp.readsLocal`
    /// is false for them): every bone but the unconstrained children that inherit normally.
    var appliedBones: UnsafePointer<Int32>
    var appliedBoneCount: Int
    /// planCount * keyCount attachment indices (-1 = none): the plan's skin first, then the
    /// default skin, as the reference's Skeleton::getAttachment looks them up.
    var planAttachment: UnsafePointer<Int32>

    // Path and physics constraint details (PathConstraintSolver.swift, PhysicsConstraintSolver.swift).
    var paths: PathTables
    var physicsValues: PhysicsTables
}

/// A `SkeletonData` flattened once into the raw tables the systems read (`RigTables`): setup
/// values, constraint bone lists, attachment geometry, every animation's timelines in shared
/// pools, and per skin an update program and a dense (slot, name) -> attachment table.
///
/// Immutable after construction and shared by every batch of the same data.
public final class CompiledSkeleton: @unchecked Sendable {
    public let data: SkeletonData
    let tables: RigTables
    private let buffers: FrozenBuffers

    public let boneCount: Int
    public let slotCount: Int
    /// Number of update plans: one per skin plus "no skin".
    public let planCount: Int
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
    /// Update programs per plan, kept for inspection and tests.
    let programs: [UpdateProgram]
    private let keyIndex: [Int64: Int32]

    public init(_ data: SkeletonData) {
        self.data = data
        let boneCount = data.bones.count
        let slotCount = data.slots.count
        self.boneCount = boneCount
        self.slotCount = slotCount
        let b = FrozenBuffers()
        buffers = b

        // Attachment keys: every (slot, name) pair a skin, a slot's setup or a timeline uses.
        var keys: [Int64: Int32] = [:]
        func key(_ slot: Int32, _ name: Int32) -> Int32 {
            guard name >= 0, Int(name) < data.attachmentNames.count, !data.attachmentNames[Int(name)].isEmpty else {
                return -1
            }
            let packed = Int64(slot) << 32 | Int64(name)
            if let k = keys[packed] { return k }
            let k = Int32(keys.count)
            keys[packed] = k
            return k
        }
        let slotSetupKey = data.slots.enumerated().map { key(Int32($0.offset), $0.element.attachmentName) }
        for skin in data.skins {
            for entry in skin.entries { _ = key(entry.slot, entry.name) }
        }

        // Animations: concatenate the pools and rebase every timeline onto them.
        var timelines: [CompiledTimeline] = []
        var framePool: [Float] = []
        var curvePool: [Float] = []
        var markerPool: [Int32] = []
        var intPool: [Int32] = []
        var keyPool: [Int32] = []
        var eventKeys: [(animation: Int32, key: Int32)] = []
        var animDuration: [Float] = []
        var animTimelineStart: [Int32] = []
        var animTimelineCount: [Int32] = []
        var animTimelineLists: [Int32] = []
        var animGroupedStart: [Int32] = []
        var animGroupedCount: [Int32] = []
        var maxEventKeys = 0
        var deformNeed = [Int](repeating: 0, count: slotCount)
        // Per slot, which fields timelines change: 1 colour, 2 dark colour, 4 sequence, 8 deform.
        var slotFieldUse = [UInt8](repeating: 0, count: slotCount)
        var inheritUse = [Bool](repeating: false, count: boneCount)
        for (a, animation) in data.animations.enumerated() {
            let frameBase = Int32(framePool.count)
            let curveBase = Int32(curvePool.count)
            let intBase = Int32(intPool.count)
            let eventBase = Int32(eventKeys.count)
            framePool.append(contentsOf: animation.frames)
            curvePool.append(contentsOf: animation.curves)
            intPool.append(contentsOf: animation.ints)
            keyPool.append(contentsOf: repeatElement(-1, count: animation.ints.count))
            for k in animation.events.indices { eventKeys.append((Int32(a), Int32(k))) }
            maxEventKeys = max(maxEventKeys, animation.events.count)
            animDuration.append(animation.duration)
            animTimelineStart.append(Int32(timelines.count))
            for t in animation.timelines where t.frameCount > 0 {
                var c = CompiledTimeline(
                    kindRaw: t.kind.rawValue, stride: Int32(t.kind.frameStride), target: t.target,
                    attachment: t.attachment, frameCount: t.frameCount,
                    frames: frameBase + t.framesStart, curves: curveBase + max(0, t.curvesStart),
                    curvesCount: t.curvesCount, values: 0, valueStride: t.valueStride,
                    markers: Int32(markerPool.count))
                CurveMarkers.append(t, animation.curves, to: &markerPool)
                let slotTarget = t.target >= 0 && Int(t.target) < slotCount ? Int(t.target) : -1
                switch t.kind {
                case .inherit:
                    if t.target >= 0 && Int(t.target) < boneCount { inheritUse[Int(t.target)] = true }
                case .rgba, .rgb, .alpha:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 1 }
                case .rgba2, .rgb2:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 3 }
                case .sequence:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 4 }
                case .deform:
                    c.values = frameBase + t.valuesStart
                    deformNeed[Int(t.target)] = max(deformNeed[Int(t.target)], Int(t.valueStride))
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 8 }
                case .attachment:
                    c.values = intBase + t.valuesStart
                    for f in 0..<Int(t.frameCount) {
                        let i = Int(c.values) + f
                        keyPool[i] = key(t.target, intPool[i])
                    }
                case .drawOrder:
                    c.values = intBase + t.valuesStart
                case .event:
                    c.values = eventBase + t.valuesStart
                default:
                    break
                }
                timelines.append(c)
            }
            animTimelineCount.append(Int32(timelines.count) - animTimelineStart[a])
            let own = Int(animTimelineStart[a])..<timelines.count
            func isGrouped(_ t: Int) -> Bool {
                let kind = timelines[t].kind
                let targets: Int
                switch kind {
                case .ik: targets = data.ikConstraints.count
                case .transform: targets = data.transformConstraints.count
                case .pathPosition, .pathSpacing, .pathMix: targets = data.pathConstraints.count
                default: targets = boneCount
                }
                return kind.appliesInGroups && timelines[t].target >= 0 && Int(timelines[t].target) < targets
            }
            let groupedTimelines = own.filter(isGrouped)
            let otherTimelines = own.filter { !isGrouped($0) }
            animGroupedStart.append(Int32(animTimelineLists.count))
            animGroupedCount.append(Int32(groupedTimelines.count))
            animTimelineLists.append(contentsOf: groupedTimelines.map { Int32($0) })
            animTimelineLists.append(contentsOf: otherTimelines.map { Int32($0) })
        }
        self.eventKeys = eventKeys
        self.maxEventKeys = maxEventKeys

        // Attachments: geometry pools and per-slot buffer capacities.
        var attKind: [UInt8] = []
        var attVertexStart: [Int32] = []
        var attVertexFloats: [Int32] = []
        var attBoneStart: [Int32] = []
        var attBoneCount: [Int32] = []
        var attWorldLength: [Int32] = []
        var attDrawnFloats: [Int32] = []
        var attTimeline: [Int32] = []
        var attFirstFrame: [Int32] = []
        var attFrameCount: [Int32] = []
        var attSequenceSetup: [Int32] = []
        var attSequenceCount: [Int32] = []
        var attDraw: [Int32] = []
        var vertexPool: [Float] = []
        var bonePool: [Int32] = []
        var skinPool: [SIMD4<Float>] = []
        var attSkinStart: [Int32] = []
        var laneBoneUsed = [Bool](repeating: false, count: boneCount)
        var laneSkinPool: [SIMD4<Float>] = []
        for a in data.attachments {
            attSkinStart.append(Int32(skinPool.count))
            if !a.bones.isEmpty {
                var f = 0
                while f + 2 < a.vertices.count {
                    let x = a.vertices[f]
                    let y = a.vertices[f + 1]
                    skinPool.append(SIMD4(x, x, y, y))
                    skinPool.append(SIMD4(repeating: a.vertices[f + 2]))
                    laneSkinPool.append(SIMD4(repeating: x))
                    laneSkinPool.append(SIMD4(repeating: y))
                    laneSkinPool.append(SIMD4(repeating: a.vertices[f + 2]))
                    f += 3
                }
                var i = 0
                while i < a.bones.count {
                    let n = max(0, Int(a.bones[i]))
                    for k in 0..<n where i + 1 + k < a.bones.count {
                        let bone = Int(a.bones[i + 1 + k])
                        if bone >= 0 && bone < boneCount { laneBoneUsed[bone] = true }
                    }
                    i += 1 + n
                }
            }
            attKind.append(a.kind.rawValue)
            attVertexStart.append(Int32(vertexPool.count))
            attVertexFloats.append(Int32(a.vertices.count))
            vertexPool.append(contentsOf: a.vertices)
            attBoneStart.append(Int32(bonePool.count))
            attBoneCount.append(Int32(a.bones.count))
            bonePool.append(contentsOf: a.bones)
            attWorldLength.append(a.worldVerticesLength)
            switch a.kind {
            case .mesh: attDrawnFloats.append(max(0, a.worldVerticesLength))
            case .region: attDrawnFloats.append(a.frameCount > 0 ? -8 : 0)
            default: attDrawnFloats.append(0)
            }
            attTimeline.append(a.timelineAttachment)
            attFirstFrame.append(a.firstFrame)
            attFrameCount.append(a.frameCount)
            attSequenceSetup.append(a.sequence?.setupIndex ?? 0)
            attSequenceCount.append(max(0, a.sequence?.count ?? 0))
            attDraw.append(AttachmentDraw.code(a))
        }
        var laneBones: [Int32] = []
        var laneRecord = [Int32](repeating: 0, count: boneCount)
        for bone in 0..<boneCount where laneBoneUsed[bone] {
            laneRecord[bone] = Int32(laneBones.count * 96)
            laneBones.append(Int32(bone))
        }
        var laneBonePool = bonePool
        for a in 0..<data.attachments.count where attBoneCount[a] > 0 {
            var i = Int(attBoneStart[a])
            let end = i + Int(attBoneCount[a])
            while i < end {
                let n = max(0, Int(laneBonePool[i]))
                for k in (i + 1)..<min(end, i + 1 + n) {
                    let bone = Int(laneBonePool[k])
                    laneBonePool[k] = bone >= 0 && bone < boneCount ? laneRecord[bone] : 0
                }
                i += 1 + n
            }
        }
        var frameOffsets: [Float] = []
        frameOffsets.reserveCapacity(data.attachmentFrames.count * 8)
        for frame in data.attachmentFrames {
            for k in 0..<8 { frameOffsets.append(frame.offsets[k]) }
        }
        var vertexNeed = [Int](repeating: 0, count: slotCount)
        for skin in data.skins {
            for entry in skin.entries {
                let a = data.attachments[Int(entry.attachment)]
                let s = Int(entry.slot)
                switch a.kind {
                case .region:
                    vertexNeed[s] = max(vertexNeed[s], 8)
                case .mesh:
                    vertexNeed[s] = max(vertexNeed[s], Int(a.worldVerticesLength))
                case .boundingBox, .path, .clipping, .point:
                    break
                }
            }
        }
        var slotDeformOffset: [Int32] = []
        var slotVertexOffset: [Int32] = []
        var deformTotal = 0
        var vertexTotal = 0
        for s in 0..<slotCount {
            slotDeformOffset.append(Int32(deformTotal))
            deformTotal += deformNeed[s]
            slotVertexOffset.append(Int32(vertexTotal))
            vertexTotal += vertexNeed[s]
        }
        deformFloats = deformTotal
        vertexFloats = vertexTotal
        maxAttachmentFloats = Int(attWorldLength.max() ?? 0)
        // One extra entry so a slot's capacity is offset[s + 1] - offset[s].
        slotDeformOffset.append(Int32(deformTotal))
        slotVertexOffset.append(Int32(vertexTotal))

        // Plans: one per skin plus "no skin".
        planCount = data.skins.count + 1
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
                    let k = key(entry.slot, entry.name)
                    if k >= 0 { table[Int(k)] = entry.attachment }
                }
            }
            planAttachment.append(contentsOf: table)
        }
        self.programs = programs
        keyIndex = keys

        // Constraints.
        var ikBones: [Int32] = []
        var ikBoneStart: [Int32] = []
        var ikBoneCount: [Int32] = []
        for c in data.ikConstraints {
            ikBoneStart.append(Int32(ikBones.count))
            ikBoneCount.append(Int32(c.bones.count))
            ikBones.append(contentsOf: c.bones)
        }
        var tcBones: [Int32] = []
        var tcBoneStart: [Int32] = []
        var tcBoneCount: [Int32] = []
        var tcMix: [Float] = []
        var tcOffset: [Float] = []
        for c in data.transformConstraints {
            tcBoneStart.append(Int32(tcBones.count))
            tcBoneCount.append(Int32(c.bones.count))
            tcBones.append(contentsOf: c.bones)
            tcMix.append(contentsOf: [c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY])
            tcOffset.append(
                contentsOf: [c.offsetRotation, c.offsetX, c.offsetY, c.offsetScaleX, c.offsetScaleY, c.offsetShearY])
        }
        var physicsSetup: [Float] = []
        var physicsGlobal: [UInt8] = []
        for c in data.physicsConstraints {
            physicsSetup.append(contentsOf: [c.inertia, c.strength, c.damping, c.massInverse, c.wind, c.gravity, c.mix])
            physicsGlobal.append(
                contentsOf: [
                    c.inertiaGlobal, c.strengthGlobal, c.dampingGlobal, c.massGlobal, c.windGlobal, c.gravityGlobal,
                    c.mixGlobal,
                ].map { $0 ? 1 : 0 })
        }

        // Deform buffers only for slots deform timelines write (only they set a deform length).
        func rows(_ bit: UInt8) -> (rows: [Int32], count: Int) {
            var rows: [Int32] = []
            var n: Int32 = 0
            for use in slotFieldUse {
                if use & bit != 0 {
                    rows.append(n)
                    n += 1
                } else {
                    rows.append(-1)
                }
            }
            return (rows, Int(n))
        }
        let colorRows = rows(1)
        let darkRows = rows(2)
        let sequenceRows = rows(4)
        let deformRows = rows(8)
        var inheritRows: [Int32] = []
        var inheritBones: Int32 = 0
        for used in inheritUse {
            inheritRows.append(used ? inheritBones : -1)
            if used { inheritBones += 1 }
        }
        // Bones whose applied pose a constraint reads or writes: constrained bones and targets.
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
        let localSetup = BoneTransform.LocalSetup.table(data.bones)

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
            slotColorRow: b.freeze(colorRows.rows), slotDarkRow: b.freeze(darkRows.rows),
            slotSequenceRow: b.freeze(sequenceRows.rows), slotDeformRow: b.freeze(deformRows.rows),
            colorSlots: colorRows.count, darkSlots: darkRows.count, sequenceSlots: sequenceRows.count,
            deformSlots: deformRows.count, boneInheritRow: b.freeze(inheritRows), inheritBones: Int(inheritBones),
            slotSetupKey: b.freeze(slotSetupKey),
            slotDeformOffset: b.freeze(slotDeformOffset),
            slotVertexOffset: b.freeze(slotVertexOffset),
            ikBones: b.freeze(ikBones), ikBoneStart: b.freeze(ikBoneStart), ikBoneCount: b.freeze(ikBoneCount),
            ikTarget: b.freeze(data.ikConstraints.map(\.target)),
            ikMix: b.freeze(data.ikConstraints.map(\.mix)),
            ikSoftness: b.freeze(data.ikConstraints.map(\.softness)),
            ikBend: b.freeze(data.ikConstraints.map(\.bendDirection)),
            ikCompress: b.freeze(data.ikConstraints.map { $0.compress ? 1 : 0 }),
            ikStretch: b.freeze(data.ikConstraints.map { $0.stretch ? 1 : 0 }),
            ikUniform: b.freeze(data.ikConstraints.map { $0.uniform ? 1 : 0 }),
            tcBones: b.freeze(tcBones), tcBoneStart: b.freeze(tcBoneStart), tcBoneCount: b.freeze(tcBoneCount),
            tcTarget: b.freeze(data.transformConstraints.map(\.target)),
            tcMix: b.freeze(tcMix), tcOffset: b.freeze(tcOffset),
            tcLocal: b.freeze(data.transformConstraints.map { $0.local ? 1 : 0 }),
            tcRelative: b.freeze(data.transformConstraints.map { $0.relative ? 1 : 0 }),
            pathSetup: b.freeze(
                data.pathConstraints.flatMap { [$0.position, $0.spacing, $0.mixRotate, $0.mixX, $0.mixY] }),
            physicsSetup: b.freeze(physicsSetup), physicsGlobal: b.freeze(physicsGlobal),
            physicsBone: b.freeze(data.physicsConstraints.map(\.bone)),
            attKind: b.freeze(attKind), attVertexStart: b.freeze(attVertexStart),
            attVertexFloats: b.freeze(attVertexFloats), attBoneStart: b.freeze(attBoneStart),
            attBoneCount: b.freeze(attBoneCount), attWorldLength: b.freeze(attWorldLength),
            attDrawnFloats: b.freeze(attDrawnFloats),
            attTimeline: b.freeze(attTimeline), attFirstFrame: b.freeze(attFirstFrame),
            attFrameCount: b.freeze(attFrameCount), attSequenceSetup: b.freeze(attSequenceSetup),
            attSequenceCount: b.freeze(attSequenceCount), attDraw: b.freeze(attDraw),
            vertexPool: b.freeze(vertexPool), bonePool: b.freeze(bonePool),
            skinPool: b.freeze(skinPool), attSkinStart: b.freeze(attSkinStart),
            laneBones: b.freeze(laneBones), laneBoneCount: laneBones.count, laneBonePool: b.freeze(laneBonePool),
            laneSkinPool: b.freeze(laneSkinPool), frameOffsets: b.freeze(frameOffsets),
            animDuration: b.freeze(animDuration), animTimelineStart: b.freeze(animTimelineStart),
            animTimelineCount: b.freeze(animTimelineCount), animTimelineLists: b.freeze(animTimelineLists),
            animGroupedStart: b.freeze(animGroupedStart), animGroupedCount: b.freeze(animGroupedCount),
            timelines: b.freeze(timelines),
            framePool: b.freeze(framePool), curvePool: b.freeze(curvePool),
            markerPool: b.freeze(markerPool), intPool: b.freeze(intPool),
            keyPool: b.freeze(keyPool),
            planOpStart: b.freeze(planOpStart), planOpCount: b.freeze(planOpCount), ops: b.freeze(ops),
            planBoneActive: b.freeze(planBoneActive), planSlotActive: b.freeze(planSlotActive),
            planIKActive: b.freeze(planIK),
            planTransformActive: b.freeze(planTC), planPathActive: b.freeze(planPath),
            planPhysicsActive: b.freeze(planPhysics), appliedBones: b.freeze(appliedBones),
            appliedBoneCount: appliedBones.count, planAttachment: b.freeze(planAttachment),
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
        guard plan >= 0, Int(plan) < planCount else { return [] }
        return programs[Int(plan)].ops.map { op in
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

/// Codes of `RigTables.attDraw` below 0.
enum AttachmentDraw {
    /// Never drawn.
    static let never: Int32 = -2
    /// Drawn; `SlotSystem.imageFrame` finds the image.
    static let resolve: Int32 = -1

    /// An attachment's `attDraw` entry.
    static func code(_ a: AttachmentData) -> Int32 {
        switch a.kind {
        case .region, .mesh:
            if a.frameCount <= 0 { return a.kind == .region ? never : resolve }
            if (a.sequence?.count ?? 0) > 0 { return resolve }
            return a.firstFrame >= 0 ? a.firstFrame : resolve
        case .boundingBox, .path, .clipping, .point:
            return never
        }
    }
}

extension RigTables {
    @inline(__always)
    func attachmentKind(_ a: Int) -> AttachmentKind { AttachmentKind(rawValue: attKind[a]) ?? .point }

    /// Animation `a`'s timelines that are not applied in groups: where its list starts in
    /// `animTimelineLists`, and how many.
    @inline(__always)
    func otherTimelines(_ a: Int) -> (list: UnsafePointer<Int32>, count: Int) {
        let grouped = Int(animGroupedCount[a])
        return (animTimelineLists + (Int(animGroupedStart[a]) &+ grouped), Int(animTimelineCount[a]) &- grouped)
    }
}
