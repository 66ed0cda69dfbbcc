/// The columns attachment positions may touch (`AttachmentPositions`: path, bounding box, point
/// and clipping vertices in world space, for the path solver and the application).
///
/// It writes nothing. It reads world transforms, the slots' attachments, deform buffers and the plan
/// (whether a slot's bone is active).
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
struct AttachmentColumns {
    var shape: BatchShape
    // Read.
    var a: UnsafePointer<Float>
    var b: UnsafePointer<Float>
    var c: UnsafePointer<Float>
    var d: UnsafePointer<Float>
    var worldX: UnsafePointer<Float>
    var worldY: UnsafePointer<Float>
    var attachment: UnsafePointer<Int32>
    var deformLength: UnsafePointer<Int32>
    var deform: UnsafePointer<Float>
    var plan: UnsafePointer<Int32>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        a = UnsafePointer(cols.a)
        b = UnsafePointer(cols.b)
        c = UnsafePointer(cols.c)
        d = UnsafePointer(cols.d)
        worldX = UnsafePointer(cols.worldX)
        worldY = UnsafePointer(cols.worldY)
        attachment = UnsafePointer(cols.attachment)
        deformLength = UnsafePointer(cols.deformLength)
        deform = UnsafePointer(cols.deform)
        plan = UnsafePointer(cols.plan)
    }

    var layout: ColumnLayout { shape.layout }

    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }

    @inline(__always)
    func deformLength(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        SlotFields.deformLength(rig, r, slot: s, deformLength)
    }
}

extension AttachmentColumns {
    /// The attachment columns of the pose system's view (path constraints read path vertices).
    init(_ cols: PoseColumns) {
        shape = cols.shape
        a = UnsafePointer(cols.a)
        b = UnsafePointer(cols.b)
        c = UnsafePointer(cols.c)
        d = UnsafePointer(cols.d)
        worldX = UnsafePointer(cols.worldX)
        worldY = UnsafePointer(cols.worldY)
        attachment = cols.attachment
        deformLength = cols.deformLength
        deform = cols.deform
        plan = cols.plan
    }
}
