/// Raw pointers to every column of a batch, fetched once per system run (`Batch.columns()`).
///
/// Per-element columns (bones, slots, constraints) are addressed through `InstanceRows`
/// (`base + element * stride`, see `ColumnLayout`). Per-instance blocks (draw order, deform
/// buffers) are always instance-major. Slot colours, dark colours, sequence frames and deform
/// lengths have rows only for the slots timelines change (`RigTables.slotColorRow` ...; see
/// `SlotFields.swift`); the others keep their setup values.
///
/// The applied pose (`appliedX` ... `appliedShearY`) points into per-thread scratch while the pose system
/// runs (`PoseScratch`): it is only needed while an instance's world transforms are computed.
///
/// # Safety
/// The pointers stay valid until the batch grows (a spawn past capacity); nothing in a frame
/// spawns, so systems may hold them for the frame.
struct BatchColumns {
    /// The batch's layout and element counts (how rows are addressed).
    var shape: BatchShape
    /// Per slot: its colour row, -1 = the setup colour (the batch's; see `Batch.ensureColorRow`).
    var colorRowOfSlot: UnsafePointer<Int32>

    // Local pose (what timelines write), per bone.
    var x: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var y: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var rotation: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var scaleX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var scaleY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var shearX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var shearY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// Inherit modes of the bones inherit timelines key (compact rows, see `inheritMode`).
    var inherit: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    // Applied pose (what constraints produce and world transforms read), per bone: set by
    // `PoseScratch.columns` to scratch rows; the batch stores none.
    var appliedX: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedY: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedRotation: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedScaleX: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedScaleY: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedShearX: UnsafeMutablePointer<Float> = PoseScratch.unset
    var appliedShearY: UnsafeMutablePointer<Float> = PoseScratch.unset
    // World transform, per bone.
    var a: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var b: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var c: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var d: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var worldX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var worldY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()

    // Slots (colours, dark colours, sequence frames and deform lengths: compact rows).
    var colorR: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var colorG: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var colorB: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var colorA: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var darkR: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var darkG: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var darkB: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// The current attachment (index into `SkeletonData.attachments`), -1 = none.
    var attachment: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    /// Which apply last keyed the attachment (see `StateKernel.apply`).
    var attachmentState: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    /// The frame of a sequence attachment, -1 = the sequence's setup frame.
    var sequenceIndex: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    /// Floats in use in the slot's deform buffer (0 = no deform).
    var deformLength: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()

    // IK constraints.
    var ikMix: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var ikSoftness: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var ikBend: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    var ikCompress: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    var ikStretch: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    // Transform constraints.
    var transformMixRotate: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var transformMixX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var transformMixY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var transformMixScaleX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var transformMixScaleY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var transformMixShearY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    // Path constraints.
    var pathPosition: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var pathSpacing: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var pathMixRotate: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var pathMixX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var pathMixY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    // Physics constraints: 7 parameters (`PhysicsField.inertia ... .mix`) then the simulation state.
    var physics: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var physicsFieldStride = 0
    var physicsReset: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()

    // Per instance.
    var time: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonScaleX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonScaleY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// The skeleton colour (white at spawn; no system reads it, renderers multiply it in).
    var skeletonR: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonG: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonB: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var skeletonA: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// The update plan (0 = no skin, s + 1 = skin s).
    var plan: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    /// 1 when the instance's draw order is the setup order (slot k drawn k-th), 0 when a draw
    /// order timeline keyed it (whatever the key). Kept by the two writers of `drawOrder`
    /// (`SetupPose.setSlots`, `TimelineApply.applyDrawOrder`); `SlotSystem` reads it.
    var drawOrderIsSetup: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    var entity: UnsafeMutablePointer<Entity> = UnboundColumn.pointer()

    // Per-instance blocks.
    var drawOrder: UnsafeMutablePointer<Int32> = UnboundColumn.pointer()
    var deform: UnsafeMutablePointer<Float> = UnboundColumn.pointer()

    // Update rates (`UpdateRateColumns`; empty tables in a batch without them). Per bone, the
    // last two computed world transforms without the placement (`UpdateRateColumns.record`).
    var lastA: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var lastB: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var lastC: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var lastD: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var lastX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var lastY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousA: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousB: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousC: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousD: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousX: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var previousY: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// Per instance: the update rate's shift (`UpdateRate.shift`: every 2^shift frames).
    var updateRate: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    /// Per instance: computed poses in the history (0, 1 or 2; below 2 the pose is computed).
    var posesKept: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    /// Per instance: 1 when the application does not draw it (`World.setVisible`): at a slower
    /// rate it records its computed poses but holds the last one in between instead of drawing
    /// from the history; 0 (drawn) at spawn.
    var hidden: UnsafeMutablePointer<UInt8> = UnboundColumn.pointer()
    /// Per instance: seconds since the pose was last computed, and between the last two.
    var sinceUpdate: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    var updateInterval: UnsafeMutablePointer<Float> = UnboundColumn.pointer()
    /// Per instance: what the application says the instance matters (0 ... 1), for `UpdateBudget`.
    var significance: UnsafeMutablePointer<Float> = UnboundColumn.pointer()

    var layout: ColumnLayout { shape.layout }
    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }
}

/// A batch's layout and the element counts of its columns: where each instance's rows start.
/// Every system's column view carries one (`rows(_:)`).
struct BatchShape {
    var layout: ColumnLayout
    var boneCount: Int
    var slotCount: Int
    var ikCount: Int
    var transformCount: Int
    var pathCount: Int
    var physicsCount: Int
    var colorSlots: Int
    var darkSlots: Int
    var sequenceSlots: Int
    var deformSlots: Int
    var inheritBones: Int
    var deformFloats: Int
    /// Whether the batch has update rates (`UpdateRateColumns`).
    var updateRates = false

    /// Where instance `i`'s rows start in each column.
    @inline(__always)
    func rows(_ i: Int) -> InstanceRows {
        InstanceRows(
            instance: i,
            bone: layout.base(i, perInstance: boneCount),
            slot: layout.base(i, perInstance: slotCount),
            ik: layout.base(i, perInstance: ikCount),
            transform: layout.base(i, perInstance: transformCount),
            path: layout.base(i, perInstance: pathCount),
            physics: layout.base(i, perInstance: physicsCount),
            color: layout.base(i, perInstance: colorSlots),
            dark: layout.base(i, perInstance: darkSlots),
            sequence: layout.base(i, perInstance: sequenceSlots),
            deformSlot: layout.base(i, perInstance: deformSlots),
            inherit: layout.base(i, perInstance: inheritBones),
            stride: layout.stride,
            drawOrder: i &* slotCount,
            deform: i &* deformFloats)
    }
}

/// The start of one instance's rows in each column of a batch (see `BatchColumns.rows`).
struct InstanceRows {
    var instance: Int
    var bone: Int
    var slot: Int
    var ik: Int
    var transform: Int
    var path: Int
    var physics: Int
    // Compact slot field rows (see `SlotFields.swift`).
    var color: Int
    var dark: Int
    var sequence: Int
    var deformSlot: Int
    var inherit: Int
    /// Distance between consecutive elements of the instance in per-element columns.
    var stride: Int
    var drawOrder: Int
    var deform: Int

    @inline(__always) func bone(_ k: Int) -> Int { bone &+ k &* stride }
    @inline(__always) func slot(_ k: Int) -> Int { slot &+ k &* stride }
    @inline(__always) func ik(_ k: Int) -> Int { ik &+ k &* stride }
    @inline(__always) func transform(_ k: Int) -> Int { transform &+ k &* stride }
    @inline(__always) func path(_ k: Int) -> Int { path &+ k &* stride }
    @inline(__always) func physics(_ k: Int) -> Int { physics &+ k &* stride }
    @inline(__always) func color(_ k: Int) -> Int { color &+ k &* stride }
    @inline(__always) func dark(_ k: Int) -> Int { dark &+ k &* stride }
    @inline(__always) func sequence(_ k: Int) -> Int { sequence &+ k &* stride }
    @inline(__always) func deformSlot(_ k: Int) -> Int { deformSlot &+ k &* stride }
    @inline(__always) func inherit(_ k: Int) -> Int { inherit &+ k &* stride }
}

/// Indices of the physics constraint fields in `BatchColumns.physics` (each field is a column
/// of `physicsFieldStride` floats).
enum PhysicsField {
    static let inertia = 0
    static let strength = 1
    static let damping = 2
    static let massInverse = 3
    static let wind = 4
    static let gravity = 5
    static let mix = 6
    // Simulation state (solved in a later system).
    static let ux = 7
    static let uy = 8
    static let cx = 9
    static let cy = 10
    static let tx = 11
    static let ty = 12
    static let xOffset = 13
    static let xVelocity = 14
    static let yOffset = 15
    static let yVelocity = 16
    static let rotateOffset = 17
    static let rotateVelocity = 18
    static let scaleOffset = 19
    static let scaleVelocity = 20
    static let remaining = 21
    static let lastTime = 22
    static let count = 23
}

/// How a timeline's value combines with the current pose (the reference's MixBlend).
public enum MixBlend: Int32, Sendable {
    /// Replace the pose with setup + (value - setup) * alpha; before the first key: the setup pose.
    case setup = 0
    /// Like replace, but before the first key mix towards the setup pose.
    case first = 1
    /// Mix from the current pose towards the value.
    case replace = 2
    /// Add the value (relative to setup) to the current pose.
    case add = 3
}

/// Whether an animation is mixing in or out (the reference's MixDirection).
public enum MixDirection: Sendable {
    /// The entry is mixing in.
    case mixIn
    /// The entry is mixing out.
    case mixOut
}
