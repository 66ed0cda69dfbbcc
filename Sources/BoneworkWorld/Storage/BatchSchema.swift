/// How many elements of a column one instance has.
enum ColumnExtent: Sendable {
    case bones
    /// The bones whose inherit mode a timeline keys (compact rows, see `RigTables.inheritBones`).
    case inheritBones
    case slots
    /// Compact slot rows (see `SlotFields.swift`): colours (grows with `Batch.ensureColorRow`),
    /// dark colours, sequence frames, deform lengths.
    case colorSlots, darkSlots, sequenceSlots, deformSlots
    case ikConstraints, transformConstraints, pathConstraints, physicsConstraints
    /// One element per instance.
    case instance
    /// The instance's deform buffer (`CompiledSkeleton.deformFloats` floats).
    case deformFloats
    /// Update-rate history (`UpdateRateColumns`): one element per bone, or none in a batch
    /// without update rates.
    case rateBones
    /// Update-rate state: one element per instance, or none in a batch without update rates.
    case rateInstance

    /// Elements per instance in a batch of `rig`; `updateRates` false: none for the update-rate
    /// tables (their storage then costs nothing per instance).
    func count(_ rig: CompiledSkeleton, updateRates: Bool = false) -> Int {
        let t = rig.tables
        switch self {
        case .bones: return t.boneCount
        case .inheritBones: return t.inheritBones
        case .slots: return t.slotCount
        case .colorSlots: return t.colorSlots
        case .darkSlots: return t.darkSlots
        case .sequenceSlots: return t.sequenceSlots
        case .deformSlots: return t.deformSlots
        case .ikConstraints: return t.ikCount
        case .transformConstraints: return t.transformCount
        case .pathConstraints: return t.pathCount
        case .physicsConstraints: return t.physicsCount
        case .instance: return 1
        case .deformFloats: return rig.deformFloats
        case .rateBones: return updateRates ? t.boneCount : 0
        case .rateInstance: return updateRates ? 1 : 0
        }
    }
}

/// One table of a batch's schema: its element type (size and alignment), how many elements an
/// instance has, its fields, and how its fields become `BatchColumns` pointers (`bind`).
struct ColumnTableSpec: Sendable {
    let name: String
    let extent: ColumnExtent
    let fields: Int
    let elementStride: Int
    let alignment: Int
    /// Per-instance blocks (draw order, deform buffers) are instance-major in every layout.
    let instanceMajor: Bool
    /// Read in place by a renderer: allocated from the World's `ColumnMemory` when it has one.
    var shared = false
    let bind: @Sendable (inout BatchColumns, ColumnTable) -> Void

    /// A table whose fields are the columns `paths` of `BatchColumns`, in order.
    static func columns<T: BitwiseCopyable>(
        _ name: String, _ type: T.Type, _ extent: ColumnExtent, instanceMajor: Bool = false, shared: Bool = false,
        _ paths: [WritableKeyPath<BatchColumns, UnsafeMutablePointer<T>> & Sendable]
    ) -> ColumnTableSpec {
        ColumnTableSpec(
            name: name, extent: extent, fields: paths.count, elementStride: MemoryLayout<T>.stride,
            alignment: MemoryLayout<T>.alignment, instanceMajor: instanceMajor, shared: shared
        ) { columns, table in
            for (f, path) in paths.enumerated() { columns[keyPath: path] = table.field(f, as: T.self) }
        }
    }
}

/// Every column a batch stores, declared once. `Batch` allocates, grows, copies (despawn),
/// visits (bit comparisons) and frees the tables by looping over this list, and binds each
/// field to its `BatchColumns` pointer.
///
/// Adding a per-instance column: declare its pointer in `BatchColumns` (with the others of its
/// kind) and add its key path to the table of its element type and extent below (or a new
/// `.columns(...)` entry). New rows start as zero bytes; give them their setup value in
/// `SetupPose` if zero is not it.
enum BatchSchema {
    static let tables: [ColumnTableSpec] = [
        .columns(
            "bone local pose", Float.self, .bones, [\.x, \.y, \.rotation, \.scaleX, \.scaleY, \.shearX, \.shearY]),
        // What a crowd's GPU draw reads most (24 bytes per bone): a table of its own, so that a
        // renderer's `ColumnMemory` can hold it and the GPU read it where the pose system wrote it.
        .columns(
            "bone world transforms", Float.self, .bones, shared: true, [\.a, \.b, \.c, \.d, \.worldX, \.worldY]),
        .columns("bone inherit modes", UInt8.self, .inheritBones, [\.inherit]),
        // The attachment each slot shows: read by the GPU draw per vertex, shared as well.
        .columns("slot attachments", Int32.self, .slots, shared: true, [\.attachment, \.attachmentState]),
        .columns("slot colours", Float.self, .colorSlots, [\.colorR, \.colorG, \.colorB, \.colorA]),
        .columns("slot dark colours", Float.self, .darkSlots, [\.darkR, \.darkG, \.darkB]),
        .columns("slot sequence frames", Int32.self, .sequenceSlots, [\.sequenceIndex]),
        .columns("slot deform lengths", Int32.self, .deformSlots, [\.deformLength]),
        .columns("IK mixes", Float.self, .ikConstraints, [\.ikMix, \.ikSoftness]),
        .columns("IK bend directions", Int32.self, .ikConstraints, [\.ikBend]),
        .columns("IK flags", UInt8.self, .ikConstraints, [\.ikCompress, \.ikStretch]),
        .columns(
            "transform constraint mixes", Float.self, .transformConstraints,
            [
                \.transformMixRotate, \.transformMixX, \.transformMixY, \.transformMixScaleX, \.transformMixScaleY,
                \.transformMixShearY,
            ]),
        .columns(
            "path constraint values", Float.self, .pathConstraints,
            [\.pathPosition, \.pathSpacing, \.pathMixRotate, \.pathMixX, \.pathMixY]),
        // Physics fields are addressed as one pointer plus a field stride (`PhysicsField`).
        ColumnTableSpec(
            name: "physics parameters and state", extent: .physicsConstraints, fields: PhysicsField.count,
            elementStride: MemoryLayout<Float>.stride, alignment: MemoryLayout<Float>.alignment,
            instanceMajor: false, shared: false
        ) { columns, table in
            columns.physics = table.field(0, as: Float.self)
            columns.physicsFieldStride = table.capacity * table.perInstance
        },
        .columns("physics resets", Int32.self, .physicsConstraints, [\.physicsReset]),
        .columns(
            "instance clock and placement", Float.self, .instance,
            [\.time, \.skeletonX, \.skeletonY, \.skeletonScaleX, \.skeletonScaleY]),
        .columns("skeleton colour", Float.self, .instance, [\.skeletonR, \.skeletonG, \.skeletonB, \.skeletonA]),
        .columns("instance plan and draw-order flag", Int32.self, .instance, [\.plan, \.drawOrderIsSetup]),
        .columns("entities", Entity.self, .instance, [\.entity]),
        .columns("draw orders", Int32.self, .slots, instanceMajor: true, [\.drawOrder]),
        .columns("deform buffers", Float.self, .deformFloats, instanceMajor: true, [\.deform]),
        // Only in worlds made with update rates (`World(updateRates: true)`): empty otherwise.
        .columns(
            "update-rate history", Float.self, .rateBones,
            [
                \.lastA, \.lastB, \.lastC, \.lastD, \.lastX, \.lastY, \.previousA, \.previousB, \.previousC,
                \.previousD, \.previousX, \.previousY,
            ]),
        .columns("update rates", UInt8.self, .rateInstance, [\.updateRate, \.posesKept, \.hidden]),
        .columns(
            "update-rate timing and significance", Float.self, .rateInstance,
            [\.sinceUpdate, \.updateInterval, \.significance]),
    ]

    /// The index of the slot colour table (it widens when application code colours a slot).
    static let colorTable = tables.firstIndex(where: { $0.extent == .colorSlots })!
}

extension ColumnExtent: Equatable {}

/// The address unbound `BatchColumns` pointers hold until a batch binds its tables (and the
/// applied-pose pointers outside the pose system). Never read or written through.
enum UnboundColumn {
    nonisolated(unsafe) static let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)

    @inline(__always)
    static func pointer<T>() -> UnsafeMutablePointer<T> { storage.assumingMemoryBound(to: T.self) }
}
