/// The columns the vertex system (`VertexSystem`, `VertexLanes`: world vertices) may touch:
/// the system's signature.
///
/// It writes nothing in the batch: its output is the chunk's vertex scratch. It reads world
/// transforms and deform buffers (the draw list says which attachment each slot shows).
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
struct VertexColumns {
    var shape: BatchShape
    // Read.
    var a: UnsafePointer<Float>
    var b: UnsafePointer<Float>
    var c: UnsafePointer<Float>
    var d: UnsafePointer<Float>
    var worldX: UnsafePointer<Float>
    var worldY: UnsafePointer<Float>
    var deformLength: UnsafePointer<Int32>
    var deform: UnsafePointer<Float>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        a = UnsafePointer(cols.a)
        b = UnsafePointer(cols.b)
        c = UnsafePointer(cols.c)
        d = UnsafePointer(cols.d)
        worldX = UnsafePointer(cols.worldX)
        worldY = UnsafePointer(cols.worldY)
        deformLength = UnsafePointer(cols.deformLength)
        deform = UnsafePointer(cols.deform)
    }

    var layout: ColumnLayout { shape.layout }

    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }

    @inline(__always)
    func deformLength(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        SlotFields.deformLength(rig, r, slot: s, deformLength)
    }
}
