/// The columns the slot system (`SlotSystem`: draw lists) may touch: the system's signature.
///
/// It writes nothing in the batch: its output is the chunk's draw list (`VertexScratch`). It reads
/// attachments, sequence frames, slot alpha, the draw order and the plan.
///
/// Written columns are `UnsafeMutablePointer`s, read ones `UnsafePointer`s: the compiler refuses
/// a write the view does not declare, and `SystemAccess.of(_:)` reads the same split for the
/// scheduler's checks. `SystemViews` builds it from `BatchColumns` (`init(_:)`) whenever the
/// batch binds its columns.
///
/// # Safety
/// The pointers are the batch's (see `BatchColumns`): valid until the batch grows, addressed
/// through `rows(_:)` for instances below the batch's count. A system writes only the rows of
/// the instances its chunk holds (`PassWork.range`).
struct SlotColumns {
    var shape: BatchShape
    /// Per slot: its colour row (batch-wide, changed only outside frames).
    var colorRowOfSlot: UnsafePointer<Int32>
    // Read.
    var attachment: UnsafePointer<Int32>
    var sequenceIndex: UnsafePointer<Int32>
    var colorA: UnsafePointer<Float>
    var drawOrder: UnsafePointer<Int32>
    var drawOrderIsSetup: UnsafePointer<Int32>
    var plan: UnsafePointer<Int32>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        colorRowOfSlot = cols.colorRowOfSlot
        attachment = UnsafePointer(cols.attachment)
        sequenceIndex = UnsafePointer(cols.sequenceIndex)
        colorA = UnsafePointer(cols.colorA)
        drawOrder = UnsafePointer(cols.drawOrder)
        drawOrderIsSetup = UnsafePointer(cols.drawOrderIsSetup)
        plan = UnsafePointer(cols.plan)
    }

    var layout: ColumnLayout { shape.layout }

    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }

    @inline(__always)
    func slotAlpha(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Float {
        SlotFields.alpha(rig, r, slot: s, colorRowOfSlot, colorA)
    }

    @inline(__always)
    func sequenceIndex(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        SlotFields.sequenceIndex(rig, r, slot: s, sequenceIndex, attachment)
    }
}
