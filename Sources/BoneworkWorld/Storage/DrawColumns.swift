import BoneworkFormat

/// Where a batch's drawing state lives, column by column, for a renderer that reads the columns
/// themselves instead of one instance at a time: the GPU path copies them in bulk (a block of
/// rows per column, one `memcpy` each) and derives every slot's image, colours and deform on the
/// GPU, so the CPU does no per-bone or per-slot work for an instance in setup draw order.
///
/// Three kinds of column, each of 4-byte elements:
/// - **per element** (bones, slots, compact slot rows): instance `i`'s element `k` is at
///   `base(i, n) + k * chunkSize`, `base(i, n) = (i / chunkSize) * chunkSize * n + i % chunkSize`
///   with `n` the elements per instance (`ColumnLayout.base`). Rows `lo ..< hi` with `lo` and
///   `hi` multiples of `chunkSize` are the contiguous elements `lo * n ..< hi * n`.
/// - **per instance**: instance `i`'s value is at `i`.
/// - **instance-major** (`deform`, `drawOrder`): instance `i`'s `deformFloats` floats start at
///   `i * deformFloats`, its draw order at `i * slotCount`.
///
/// Slot fields that only some slots store (colours, dark colours, sequence frames, deform
/// lengths) have a row per instance only for the slots listed in `slotColorRow` ... (-1: the
/// slot always has its setup value, `slotSetupColor` / `slotSetupDark`; no sequence row: -1, the
/// sequence's setup frame; no deform row: no deform).
///
/// # Safety
/// Every pointer points into the batch's storage or its compiled tables: valid until the batch
/// grows (a spawn past its capacity), is regrouped or despawned from, or the next frame changes
/// it (read between `World.update` calls). Storage beyond row `count` up to
/// `ColumnLayout.roundUp(count)` exists (capacities are whole chunks) and may be copied.
public struct DrawColumns {
    /// Instances interleaved per chunk in per-element columns (`ColumnLayout.chunkSize`).
    public let chunkSize: Int
    /// Instances in the batch.
    public let count: Int
    /// Bones per instance.
    public let boneCount: Int
    /// Slots per instance.
    public let slotCount: Int
    /// Compact rows per instance: colours, dark colours, sequence frames, deform lengths.
    public let colorSlots: Int
    /// Dark colour rows per instance.
    public let darkSlots: Int
    /// Sequence frame rows per instance.
    public let sequenceSlots: Int
    /// Deform length rows per instance.
    public let deformSlots: Int
    /// Floats of deform offsets per instance (instance-major).
    public let deformFloats: Int
    /// Plans handed out so far (rows of `planBoneActive` in use).
    public let planCount: Int
    /// The identity of the batch's `SkeletonData`.
    public let skeleton: ObjectIdentifier

    /// Per bone: world transform, a, b, c, d, worldX, worldY (per element).
    public let worldA: UnsafePointer<Float>
    /// World transform b.
    public let worldB: UnsafePointer<Float>
    /// World transform c.
    public let worldC: UnsafePointer<Float>
    /// World transform d.
    public let worldD: UnsafePointer<Float>
    /// World position x.
    public let worldX: UnsafePointer<Float>
    /// World position y.
    public let worldY: UnsafePointer<Float>
    /// Per slot: the attachment shown (index into `SkeletonData.attachments`, -1 none; per element).
    public let attachment: UnsafePointer<Int32>
    /// Per colour row: red, green, blue, alpha (per element, `colorSlots` per instance).
    public let colorR: UnsafePointer<Float>
    /// Colour rows, green.
    public let colorG: UnsafePointer<Float>
    /// Colour rows, blue.
    public let colorB: UnsafePointer<Float>
    /// Colour rows, alpha.
    public let colorA: UnsafePointer<Float>
    /// Per dark row: red, green, blue (per element, `darkSlots` per instance).
    public let darkR: UnsafePointer<Float>
    /// Dark rows, green.
    public let darkG: UnsafePointer<Float>
    /// Dark rows, blue.
    public let darkB: UnsafePointer<Float>
    /// Per sequence row: the frame, -1 for the sequence's setup frame (per element).
    public let sequenceIndex: UnsafePointer<Int32>
    /// Per deform row: floats of deform in use, 0 = none (per element).
    public let deformLength: UnsafePointer<Int32>
    /// Per instance: its plan (0 no skin, s + 1 skin s, then composed skins).
    public let plan: UnsafePointer<Int32>
    /// Per instance: 1 while its draw order is the setup order, else 0.
    public let drawOrderIsSetup: UnsafePointer<Int32>
    /// Per instance: skeleton colour, red, green, blue, alpha.
    public let skeletonR: UnsafePointer<Float>
    /// Skeleton colour, green.
    public let skeletonG: UnsafePointer<Float>
    /// Skeleton colour, blue.
    public let skeletonB: UnsafePointer<Float>
    /// Skeleton colour, alpha.
    public let skeletonA: UnsafePointer<Float>
    /// Per instance: its deform buffers (instance-major, `deformFloats` each).
    public let deform: UnsafePointer<Float>
    /// Per instance: its draw order, `slotCount` slot indices first drawn first (instance-major).
    public let drawOrder: UnsafePointer<Int32>

    /// Per slot: its bone.
    public let slotBone: UnsafePointer<Int32>
    /// Per slot: its colour row, -1 = setup colour (the batch's own: application colours add rows).
    public let slotColorRow: UnsafePointer<Int32>
    /// Per slot: its dark row, -1 = setup dark colour.
    public let slotDarkRow: UnsafePointer<Int32>
    /// Per slot: its sequence row, -1 = none.
    public let slotSequenceRow: UnsafePointer<Int32>
    /// Per slot: its deform row, -1 = none.
    public let slotDeformRow: UnsafePointer<Int32>
    /// Per slot and one more: where its deform buffer starts in an instance's deform floats.
    public let slotDeformOffset: UnsafePointer<Int32>
    /// Per slot: setup colour, 4 floats.
    public let slotSetupColor: UnsafePointer<Float>
    /// Per slot: setup dark colour, 3 floats.
    public let slotSetupDark: UnsafePointer<Float>
    /// Per slot: 1 when its data defines a dark colour.
    public let slotHasDark: UnsafePointer<UInt8>
    /// Per plan in use and bone: 1 when the bone is active under the plan's skin.
    public let planBoneActive: UnsafePointer<UInt8>

    init(_ views: BatchPoseViews, planCount: Int) {
        let c = views.cols
        let t = views.rig
        let s = c.shape
        chunkSize = s.layout.chunkSize
        count = views.count
        boneCount = s.boneCount
        slotCount = s.slotCount
        colorSlots = s.colorSlots
        darkSlots = s.darkSlots
        sequenceSlots = s.sequenceSlots
        deformSlots = s.deformSlots
        deformFloats = s.deformFloats
        self.planCount = planCount
        skeleton = views.skeleton
        worldA = UnsafePointer(c.a)
        worldB = UnsafePointer(c.b)
        worldC = UnsafePointer(c.c)
        worldD = UnsafePointer(c.d)
        worldX = UnsafePointer(c.worldX)
        worldY = UnsafePointer(c.worldY)
        attachment = UnsafePointer(c.attachment)
        colorR = UnsafePointer(c.colorR)
        colorG = UnsafePointer(c.colorG)
        colorB = UnsafePointer(c.colorB)
        colorA = UnsafePointer(c.colorA)
        darkR = UnsafePointer(c.darkR)
        darkG = UnsafePointer(c.darkG)
        darkB = UnsafePointer(c.darkB)
        sequenceIndex = UnsafePointer(c.sequenceIndex)
        deformLength = UnsafePointer(c.deformLength)
        plan = UnsafePointer(c.plan)
        drawOrderIsSetup = UnsafePointer(c.drawOrderIsSetup)
        skeletonR = UnsafePointer(c.skeletonR)
        skeletonG = UnsafePointer(c.skeletonG)
        skeletonB = UnsafePointer(c.skeletonB)
        skeletonA = UnsafePointer(c.skeletonA)
        deform = UnsafePointer(c.deform)
        drawOrder = UnsafePointer(c.drawOrder)
        slotBone = t.slotBone
        slotColorRow = c.colorRowOfSlot
        slotDarkRow = t.slotDarkRow
        slotSequenceRow = t.slotSequenceRow
        slotDeformRow = t.slotDeformRow
        slotDeformOffset = t.slotDeformOffset
        slotSetupColor = t.slotColor
        slotSetupDark = t.slotDark
        slotHasDark = t.slotHasDark
        planBoneActive = t.planBoneActive
    }
}

extension BatchPoseViews {
    /// The batch's columns as a renderer copies them (see `DrawColumns`): valid as long as these
    /// views are.
    public var drawColumns: DrawColumns { DrawColumns(self, planCount: planCount) }
}

extension PoseView {
    /// The views of the instance's whole batch (for renderers that draw from columns).
    public var batch: BatchPoseViews { columns }
    /// The instance's row in its batch.
    public var row: Int { r.instance }
}
