/// The columns timeline apply (`StateKernel.apply`, `TimelineApply`) may touch:
/// the system's signature.
///
/// It writes the local pose, slots, draw order, deform and constraint values: everything timelines key.
/// It reads the instance's plan and clock (physics reset keys) and never touches world
/// transforms, the applied pose, the skeleton's placement or the entity column.
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
struct ApplyColumns {
    var shape: BatchShape
    /// Per slot: its colour row (batch-wide, changed only outside frames).
    var colorRowOfSlot: UnsafePointer<Int32>
    /// Floats between consecutive fields of `physics` (`PhysicsField`).
    var physicsFieldStride: Int
    // Written.
    var x: UnsafeMutablePointer<Float>
    var y: UnsafeMutablePointer<Float>
    var rotation: UnsafeMutablePointer<Float>
    var scaleX: UnsafeMutablePointer<Float>
    var scaleY: UnsafeMutablePointer<Float>
    var shearX: UnsafeMutablePointer<Float>
    var shearY: UnsafeMutablePointer<Float>
    var inherit: UnsafeMutablePointer<UInt8>
    var colorR: UnsafeMutablePointer<Float>
    var colorG: UnsafeMutablePointer<Float>
    var colorB: UnsafeMutablePointer<Float>
    var colorA: UnsafeMutablePointer<Float>
    var darkR: UnsafeMutablePointer<Float>
    var darkG: UnsafeMutablePointer<Float>
    var darkB: UnsafeMutablePointer<Float>
    var attachment: UnsafeMutablePointer<Int32>
    var attachmentState: UnsafeMutablePointer<Int32>
    var sequenceIndex: UnsafeMutablePointer<Int32>
    var deformLength: UnsafeMutablePointer<Int32>
    var deform: UnsafeMutablePointer<Float>
    var drawOrder: UnsafeMutablePointer<Int32>
    var drawOrderIsSetup: UnsafeMutablePointer<Int32>
    var ikMix: UnsafeMutablePointer<Float>
    var ikSoftness: UnsafeMutablePointer<Float>
    var ikBend: UnsafeMutablePointer<Int32>
    var ikCompress: UnsafeMutablePointer<UInt8>
    var ikStretch: UnsafeMutablePointer<UInt8>
    var transformMixRotate: UnsafeMutablePointer<Float>
    var transformMixX: UnsafeMutablePointer<Float>
    var transformMixY: UnsafeMutablePointer<Float>
    var transformMixScaleX: UnsafeMutablePointer<Float>
    var transformMixScaleY: UnsafeMutablePointer<Float>
    var transformMixShearY: UnsafeMutablePointer<Float>
    var pathPosition: UnsafeMutablePointer<Float>
    var pathSpacing: UnsafeMutablePointer<Float>
    var pathMixRotate: UnsafeMutablePointer<Float>
    var pathMixX: UnsafeMutablePointer<Float>
    var pathMixY: UnsafeMutablePointer<Float>
    var physics: UnsafeMutablePointer<Float>
    var physicsReset: UnsafeMutablePointer<Int32>
    // Read.
    var plan: UnsafePointer<Int32>
    var time: UnsafePointer<Float>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        colorRowOfSlot = cols.colorRowOfSlot
        physicsFieldStride = cols.physicsFieldStride
        x = cols.x
        y = cols.y
        rotation = cols.rotation
        scaleX = cols.scaleX
        scaleY = cols.scaleY
        shearX = cols.shearX
        shearY = cols.shearY
        inherit = cols.inherit
        colorR = cols.colorR
        colorG = cols.colorG
        colorB = cols.colorB
        colorA = cols.colorA
        darkR = cols.darkR
        darkG = cols.darkG
        darkB = cols.darkB
        attachment = cols.attachment
        attachmentState = cols.attachmentState
        sequenceIndex = cols.sequenceIndex
        deformLength = cols.deformLength
        deform = cols.deform
        drawOrder = cols.drawOrder
        drawOrderIsSetup = cols.drawOrderIsSetup
        ikMix = cols.ikMix
        ikSoftness = cols.ikSoftness
        ikBend = cols.ikBend
        ikCompress = cols.ikCompress
        ikStretch = cols.ikStretch
        transformMixRotate = cols.transformMixRotate
        transformMixX = cols.transformMixX
        transformMixY = cols.transformMixY
        transformMixScaleX = cols.transformMixScaleX
        transformMixScaleY = cols.transformMixScaleY
        transformMixShearY = cols.transformMixShearY
        pathPosition = cols.pathPosition
        pathSpacing = cols.pathSpacing
        pathMixRotate = cols.pathMixRotate
        pathMixX = cols.pathMixX
        pathMixY = cols.pathMixY
        physics = cols.physics
        physicsReset = cols.physicsReset
        plan = UnsafePointer(cols.plan)
        time = UnsafePointer(cols.time)
    }

    var layout: ColumnLayout { shape.layout }

    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }

    @inline(__always)
    func inheritRow(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> Int { SlotFields.inheritRow(rig, r, bone: k) }

    @inline(__always)
    func colorRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        SlotFields.colorRow(colorRowOfSlot, r, slot: s)
    }

    @inline(__always)
    func darkRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int { SlotFields.darkRow(rig, r, slot: s) }

    @inline(__always)
    func sequenceRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        SlotFields.sequenceRow(rig, r, slot: s)
    }

    @inline(__always)
    func deformRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int { SlotFields.deformRow(rig, r, slot: s) }
}
