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
    /// For transform, path and physics steps: whether the solver recomputes its bones' applied
    /// pose from their new world transforms (the reference's `updateAppliedTransform`). False
    /// when no later step of the program reads those bones' applied pose
    /// (`CompiledSkeleton.markingUnreadApplied`): the applied pose is the pose system's scratch,
    /// dead after the last step, so the recomputation (two arc tangents per bone) would be
    /// wasted. The world transforms are the same either way.
    var recomputesApplied = true
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
    var transformBones: UnsafePointer<Int32>
    var transformBoneStart: UnsafePointer<Int32>
    var transformBoneCount: UnsafePointer<Int32>
    var transformTarget: UnsafePointer<Int32>
    var transformMix: UnsafePointer<Float>
    var transformOffset: UnsafePointer<Float>
    var transformLocal: UnsafePointer<UInt8>
    var transformRelative: UnsafePointer<UInt8>

    // Path constraints: setup values, 5 floats each (position, spacing, mixRotate, mixX, mixY).
    var pathSetup: UnsafePointer<Float>

    // Physics constraints: setup values, 7 floats each (inertia, strength, damping, massInverse,
    // wind, gravity, mix) and the matching 7 "global" flags.
    var physicsSetup: UnsafePointer<Float>
    var physicsGlobal: UnsafePointer<UInt8>
    var physicsBone: UnsafePointer<Int32>

    // Attachments.
    /// `AttachmentKind` raw values.
    var attachmentKindRaw: UnsafePointer<UInt8>
    var attachmentVertexStart: UnsafePointer<Int32>
    var attachmentVertexFloats: UnsafePointer<Int32>
    /// Weighted attachments: start and length of [n, bone * n, ...] in `bonePool`; count 0 = unweighted.
    var attachmentBoneStart: UnsafePointer<Int32>
    var attachmentBoneCount: UnsafePointer<Int32>
    var attachmentWorldLength: UnsafePointer<Int32>
    /// The floats a draw of the attachment gets: a mesh its world length, a region with images
    /// -8 (8 when the draw shows an image, frame >= 0), anything else 0.
    var attachmentDrawnFloats: UnsafePointer<Int32>
    var attachmentTimeline: UnsafePointer<Int32>
    var attachmentFirstFrame: UnsafePointer<Int32>
    var attachmentFrameCount: UnsafePointer<Int32>
    var attachmentSequenceSetup: UnsafePointer<Int32>
    /// Frames of a sequence attachment, 0 when it has no sequence.
    var attachmentSequenceCount: UnsafePointer<Int32>
    /// What drawing the attachment shows (`SlotSystem`): its image (>= 0) when it is a region or
    /// mesh with one and no sequence, `AttachmentDraw.never` when it is never drawn (not a region
    /// or mesh, or a region without an image), `AttachmentDraw.resolve` otherwise (the image
    /// depends on the slot's sequence frame, or a mesh without an image).
    var attachmentDraw: UnsafePointer<Int32>
    var vertexPool: UnsafePointer<Float>
    var bonePool: UnsafePointer<Int32>
    /// Weighted meshes: per influence (x, x, y, y) and (weight, weight, weight, weight) from the
    /// vertices, so that skinning reads them as ready vectors (`VertexSystem.skin`); start per
    /// attachment in `attachmentSkinStart` (in vectors).
    var skinPool: UnsafePointer<SIMD4<Float>>
    var attachmentSkinStart: UnsafePointer<Int32>
    /// Four-instance skinning (`VertexSystem.skinLanes`): the bones weighted meshes use, in
    /// bone order (`laneBoneCount` of them); `bonePool` with each bone replaced by the byte offset
    /// of its record among them (96 bytes: a, b, c, d, worldX, worldY as 4 lanes each); and per
    /// influence x, y and weight each in every lane, 3 vectors per influence (start per
    /// attachment: `attachmentSkinStart * 3 / 2`).
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

/// Codes of `RigTables.attachmentDraw` below 0.
enum AttachmentDraw {
    /// Never drawn.
    static let never: Int32 = -2
    /// Drawn; `SlotSystem.imageFrame` finds the image.
    static let resolve: Int32 = -1

    /// An attachment's `attachmentDraw` entry.
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
    func attachmentKind(_ a: Int) -> AttachmentKind { AttachmentKind(rawValue: attachmentKindRaw[a]) ?? .point }

    /// Animation `a`'s timelines that are not applied in groups: where its list starts in
    /// `animTimelineLists`, and how many.
    @inline(__always)
    func otherTimelines(_ a: Int) -> (list: UnsafePointer<Int32>, count: Int) {
        let grouped = Int(animGroupedCount[a])
        return (animTimelineLists + (Int(animGroupedStart[a]) &+ grouped), Int(animTimelineCount[a]) &- grouped)
    }
}
