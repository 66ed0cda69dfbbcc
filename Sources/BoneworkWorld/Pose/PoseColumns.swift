/// The columns constraints and world transforms (`PoseSystem`, the solvers, `PoseLanes`) may touch:
/// the system's signature.
///
/// It writes the applied pose (per-thread scratch, `PoseScratch.columns`), world transforms and the
/// physics state. It reads the local pose, constraint values, the skeleton's placement and clock,
/// the plan, and the attachments and deform of path slots (`AttachmentColumns`). It also writes
/// the local shear Y (a transform constraint's shear mix lands there, as in the reference) and
/// advances the skeleton clock (read by physics) before it poses.
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
struct PoseColumns {
    var shape: BatchShape
    /// Floats between consecutive fields of `physics` (`PhysicsField`).
    var physicsFieldStride: Int
    // The local pose (read, and shearY written), then the applied pose (written) in the same
    // order, eight fields apart: `PoseLanes.localTransform` reads one group or the other per
    // bone, and laid out so the choice compiles to one shifted offset for all seven columns; in
    // another order (or seven apart) it was a select per column, 169 instructions more per
    // spineboy skeleton-frame (`Benchmarks/callgrind.sh`).
    var x: UnsafePointer<Float>
    var y: UnsafePointer<Float>
    var rotation: UnsafePointer<Float>
    var scaleX: UnsafePointer<Float>
    var scaleY: UnsafePointer<Float>
    var shearX: UnsafePointer<Float>
    var shearY: UnsafeMutablePointer<Float>
    var inherit: UnsafePointer<UInt8>
    var appliedX: UnsafeMutablePointer<Float>
    var appliedY: UnsafeMutablePointer<Float>
    var appliedRotation: UnsafeMutablePointer<Float>
    var appliedScaleX: UnsafeMutablePointer<Float>
    var appliedScaleY: UnsafeMutablePointer<Float>
    var appliedShearX: UnsafeMutablePointer<Float>
    var appliedShearY: UnsafeMutablePointer<Float>
    // Written.
    var a: UnsafeMutablePointer<Float>
    var b: UnsafeMutablePointer<Float>
    var c: UnsafeMutablePointer<Float>
    var d: UnsafeMutablePointer<Float>
    var worldX: UnsafeMutablePointer<Float>
    var worldY: UnsafeMutablePointer<Float>
    var physics: UnsafeMutablePointer<Float>
    var physicsReset: UnsafeMutablePointer<Int32>
    var time: UnsafeMutablePointer<Float>
    // Read (and `inherit` above).
    var ikMix: UnsafePointer<Float>
    var ikSoftness: UnsafePointer<Float>
    var ikBend: UnsafePointer<Int32>
    var ikCompress: UnsafePointer<UInt8>
    var ikStretch: UnsafePointer<UInt8>
    var transformMixRotate: UnsafePointer<Float>
    var transformMixX: UnsafePointer<Float>
    var transformMixY: UnsafePointer<Float>
    var transformMixScaleX: UnsafePointer<Float>
    var transformMixScaleY: UnsafePointer<Float>
    var transformMixShearY: UnsafePointer<Float>
    var pathPosition: UnsafePointer<Float>
    var pathSpacing: UnsafePointer<Float>
    var pathMixRotate: UnsafePointer<Float>
    var pathMixX: UnsafePointer<Float>
    var pathMixY: UnsafePointer<Float>
    var skeletonX: UnsafePointer<Float>
    var skeletonY: UnsafePointer<Float>
    var skeletonScaleX: UnsafePointer<Float>
    var skeletonScaleY: UnsafePointer<Float>
    var plan: UnsafePointer<Int32>
    var attachment: UnsafePointer<Int32>
    var deformLength: UnsafePointer<Int32>
    var deform: UnsafePointer<Float>

    init(_ cols: BatchColumns) {
        shape = cols.shape
        physicsFieldStride = cols.physicsFieldStride
        appliedX = cols.appliedX
        appliedY = cols.appliedY
        appliedRotation = cols.appliedRotation
        appliedScaleX = cols.appliedScaleX
        appliedScaleY = cols.appliedScaleY
        appliedShearX = cols.appliedShearX
        appliedShearY = cols.appliedShearY
        a = cols.a
        b = cols.b
        c = cols.c
        d = cols.d
        worldX = cols.worldX
        worldY = cols.worldY
        shearY = cols.shearY
        physics = cols.physics
        physicsReset = cols.physicsReset
        time = cols.time
        x = UnsafePointer(cols.x)
        y = UnsafePointer(cols.y)
        rotation = UnsafePointer(cols.rotation)
        scaleX = UnsafePointer(cols.scaleX)
        scaleY = UnsafePointer(cols.scaleY)
        shearX = UnsafePointer(cols.shearX)
        inherit = UnsafePointer(cols.inherit)
        ikMix = UnsafePointer(cols.ikMix)
        ikSoftness = UnsafePointer(cols.ikSoftness)
        ikBend = UnsafePointer(cols.ikBend)
        ikCompress = UnsafePointer(cols.ikCompress)
        ikStretch = UnsafePointer(cols.ikStretch)
        transformMixRotate = UnsafePointer(cols.transformMixRotate)
        transformMixX = UnsafePointer(cols.transformMixX)
        transformMixY = UnsafePointer(cols.transformMixY)
        transformMixScaleX = UnsafePointer(cols.transformMixScaleX)
        transformMixScaleY = UnsafePointer(cols.transformMixScaleY)
        transformMixShearY = UnsafePointer(cols.transformMixShearY)
        pathPosition = UnsafePointer(cols.pathPosition)
        pathSpacing = UnsafePointer(cols.pathSpacing)
        pathMixRotate = UnsafePointer(cols.pathMixRotate)
        pathMixX = UnsafePointer(cols.pathMixX)
        pathMixY = UnsafePointer(cols.pathMixY)
        skeletonX = UnsafePointer(cols.skeletonX)
        skeletonY = UnsafePointer(cols.skeletonY)
        skeletonScaleX = UnsafePointer(cols.skeletonScaleX)
        skeletonScaleY = UnsafePointer(cols.skeletonScaleY)
        plan = UnsafePointer(cols.plan)
        attachment = UnsafePointer(cols.attachment)
        deformLength = UnsafePointer(cols.deformLength)
        deform = UnsafePointer(cols.deform)
    }

    var layout: ColumnLayout { shape.layout }

    @inline(__always) func rows(_ i: Int) -> InstanceRows { shape.rows(i) }

    @inline(__always)
    func inheritMode(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> UInt8 {
        SlotFields.inheritMode(rig, r, bone: k, inherit)
    }
}
