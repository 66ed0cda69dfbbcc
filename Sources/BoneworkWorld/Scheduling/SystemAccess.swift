/// What one system of the frame reads and writes, column by column, as its view's field types
/// say (`ApplyColumns`, `PoseColumns`, `SlotColumns`, `VertexColumns`): a mutable pointer is a
/// write, a read-only one a read. The animation state system (`StateKernel.update`) touches no
/// batch column, only its own track rows.
struct SystemAccess: Sendable {
    var system: SystemID
    var reads: Set<String>
    var writes: Set<String>

    /// The access `view` declares, read from its stored pointer fields.
    static func of(_ view: Any, system: SystemID) -> SystemAccess {
        var access = SystemAccess(system: system, reads: [], writes: [])
        for child in Mirror(reflecting: view).children {
            guard let label = child.label, let pointer = child.value as? ColumnPointer else { continue }
            if pointer.isMutable { access.writes.insert(label) } else { access.reads.insert(label) }
        }
        return access
    }

    /// This access and `other`'s together (two views one system's stage uses; a column one
    /// writes counts as written).
    func merging(_ other: SystemAccess) -> SystemAccess {
        let written = writes.union(other.writes)
        return SystemAccess(system: system, reads: reads.union(other.reads).subtracting(written), writes: written)
    }

    /// The systems of a frame that touch batch columns, with what they touch (built once).
    static let frame: [SystemAccess] = {
        let empty = BatchColumns.unbound
        return [
            SystemAccess(system: .animationState, reads: [], writes: []),
            of(ApplyColumns(empty), system: .timelineApply),
            // The update-rate step runs in the pose system's stage, on the same rows.
            of(PoseColumns(empty), system: .pose).merging(of(UpdateRateColumns(empty), system: .pose)),
            of(SlotColumns(empty), system: .slots),
            of(VertexColumns(empty), system: .vertices),
        ]
    }()

    /// The columns each row of a batch owns (one element, or one block, per instance): every
    /// pointer of `BatchColumns` but the batch-wide `colorRowOfSlot` (the batch binds each to a
    /// table of `BatchSchema`, `BatchSchemaTests` checks; the applied pose to per-thread scratch).
    static let rowOwned: Set<String> = {
        var names = Set<String>()
        for child in Mirror(reflecting: BatchColumns.unbound).children where child.value is ColumnPointer {
            if let label = child.label, label != "colorRowOfSlot" { names.insert(label) }
        }
        return names
    }()

    /// Why the frame's systems could not run in parallel chunks, or nil when they can.
    ///
    /// A pass runs its systems chunk after chunk on each thread, so any two systems may run at
    /// once on different chunks, each over its own rows. That is race-free when every column a
    /// system writes is owned by rows (a write to row i touches nothing of another row) and no
    /// system writes batch-wide data (`BatchShape`, `colorRowOfSlot`: not pointers the views
    /// can write). Chunk boundaries on whole layout chunks (`PassWork.range`) keep two threads
    /// off one element group.
    static func parallelConflicts(_ systems: [SystemAccess] = frame) -> String? {
        for access in systems {
            let shared = access.writes.subtracting(rowOwned)
            if !shared.isEmpty {
                return "\(access.system.name) writes columns no row owns: \(shared.sorted().joined(separator: ", "))"
            }
        }
        return nil
    }
}

/// A column pointer of either mutability (for `SystemAccess.of` and the views' validation).
protocol ColumnPointer {
    var isMutable: Bool { get }
    var address: UInt { get }
}

extension UnsafeMutablePointer: ColumnPointer {
    var isMutable: Bool { true }
    var address: UInt { UInt(bitPattern: self) }
}

extension UnsafePointer: ColumnPointer {
    var isMutable: Bool { false }
    var address: UInt { UInt(bitPattern: self) }
}

extension BatchColumns {
    /// Columns bound to nothing (every pointer at `UnboundColumn`): what the access tables are
    /// read from.
    static var unbound: BatchColumns {
        BatchColumns(
            shape: BatchShape(
                layout: .instanceMajor, boneCount: 0, slotCount: 0, ikCount: 0, transformCount: 0, pathCount: 0,
                physicsCount: 0, colorSlots: 0, darkSlots: 0, sequenceSlots: 0, deformSlots: 0, inheritBones: 0,
                deformFloats: 0),
            colorRowOfSlot: UnsafePointer(UnboundColumn.pointer() as UnsafeMutablePointer<Int32>))
    }
}

/// The frame systems' views of one batch, built when the batch binds its columns (after each
/// reallocation) and handed to every pass.
struct SystemViews {
    var apply: ApplyColumns
    var pose: PoseColumns
    var slots: SlotColumns
    var vertices: VertexColumns
    /// The update-rate step after the pose system (its tables are empty in a batch without
    /// update rates, and the scheduler then never runs it).
    var rates: UpdateRateColumns

    init(_ cols: BatchColumns) {
        apply = ApplyColumns(cols)
        pose = PoseColumns(cols)
        slots = SlotColumns(cols)
        vertices = VertexColumns(cols)
        rates = UpdateRateColumns(cols)
    }

    /// Why these views are not valid input for the frame's systems over a batch of `rig`
    /// whose tables hold `storage`, or nil (the debug build's `Validate()`, run by `Batch` each
    /// time it binds its columns): each view's counts are the rig's, and every column points
    /// into the batch's tables, except the applied pose, which points nowhere until the pose
    /// system addresses it into its thread's scratch.
    func problem(rig: RigTables, storage: [UnsafeRawBufferPointer]) -> String? {
        let views: [(String, Any, BatchShape)] = [
            ("timeline apply", apply, apply.shape), ("pose", pose, pose.shape), ("slots", slots, slots.shape),
            ("vertices", vertices, vertices.shape), ("update rates", rates, rates.shape),
        ]
        for (name, view, shape) in views {
            if let problem = ColumnValidation.problem(view, shape: shape, rig: rig, storage: storage) {
                return "\(name) view: \(problem)"
            }
        }
        return nil
    }
}

/// Checks of one system view against its batch (see `SystemViews.problem`).
enum ColumnValidation {
    static func problem(_ view: Any, shape: BatchShape, rig: RigTables, storage: [UnsafeRawBufferPointer]) -> String? {
        let counts: [(String, Int, Int)] = [
            ("bones", shape.boneCount, rig.boneCount), ("slots", shape.slotCount, rig.slotCount),
            ("IK constraints", shape.ikCount, rig.ikCount),
            ("transform constraints", shape.transformCount, rig.transformCount),
            ("path constraints", shape.pathCount, rig.pathCount),
            ("physics constraints", shape.physicsCount, rig.physicsCount),
            ("dark slots", shape.darkSlots, rig.darkSlots), ("sequence slots", shape.sequenceSlots, rig.sequenceSlots),
            ("deform slots", shape.deformSlots, rig.deformSlots),
            ("inherit bones", shape.inheritBones, rig.inheritBones),
        ]
        for (name, have, want) in counts where have != want {
            return "the columns hold \(have) \(name) per instance, the rig \(want)"
        }
        if shape.colorSlots < rig.colorSlots {
            return "the columns hold \(shape.colorSlots) colour rows per instance, the rig needs \(rig.colorSlots)"
        }
        let unset = UInt(bitPattern: PoseScratch.unset)
        for child in Mirror(reflecting: view).children {
            guard let label = child.label, label != "colorRowOfSlot", let pointer = child.value as? ColumnPointer
            else { continue }
            if label.hasPrefix("applied") {
                if pointer.address != unset { return "column \(label) points at storage outside the pose system" }
                continue
            }
            let inside = storage.contains { bytes in
                guard let base = bytes.baseAddress else { return false }
                let start = UInt(bitPattern: base)
                return pointer.address >= start && pointer.address < start + UInt(max(1, bytes.count))
            }
            if !inside { return "column \(label) does not point into the batch's tables" }
        }
        return nil
    }
}
