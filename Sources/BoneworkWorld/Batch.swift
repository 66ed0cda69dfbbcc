import BoneworkFormat

/// Every instance of one `SkeletonData`, stored as columns (struct of arrays).
///
/// Instances are rows `0..<count`; removing one moves the last row into the hole, so rows are
/// dense and systems run over `0..<count` (or any sub-range, e.g. a chunk on another thread).
/// Rows are not stable: `World` hands out `Entity` handles and tracks where each one lives.
///
/// All columns are allocated by the batch and freed in `deinit`. They only move when a spawn
/// grows the capacity; a frame never allocates.
public final class Batch {
    public let rig: CompiledSkeleton
    public var data: SkeletonData { rig.data }
    public let layout: ColumnLayout
    /// Animation tracks per instance.
    public let trackCount: Int
    // The column tables, `count` and `events` are only touched on the calling thread (workers
    // get raw pointers from `columns()`), never across a call back into the batch: they are
    // marked `@exclusivity(unchecked)`, as each dynamic exclusivity check costs some 80
    // instructions and a frame reads them once per pass and per delivered event.
    @exclusivity(unchecked) public private(set) var count = 0
    public private(set) var capacity: Int

    /// Per bone: local pose (7 fields) and world transform (6); the applied pose lives in
    /// per-thread scratch (see `PoseScratch`).
    @exclusivity(unchecked) private var boneFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var boneInherit: ColumnTable<UInt8>
    /// Per slot: attachment and attachment state.
    @exclusivity(unchecked) private var slotInts: ColumnTable<Int32>
    /// Slot fields timelines change, one row per such slot (see `RigTables.slotColorRow`).
    @exclusivity(unchecked) private var colorFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var darkFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var sequenceInts: ColumnTable<Int32>
    @exclusivity(unchecked) private var deformLengths: ColumnTable<Int32>
    @exclusivity(unchecked) private var ikFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var ikInts: ColumnTable<Int32>
    @exclusivity(unchecked) private var ikFlags: ColumnTable<UInt8>
    @exclusivity(unchecked) private var transformFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var pathFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var physicsFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var physicsInts: ColumnTable<Int32>
    @exclusivity(unchecked) private var instanceFloats: ColumnTable<Float>
    @exclusivity(unchecked) private var instanceInts: ColumnTable<Int32>
    @exclusivity(unchecked) private var entities: ColumnTable<Entity>
    @exclusivity(unchecked) private var drawOrders: ColumnTable<Int32>
    @exclusivity(unchecked) private var deforms: ColumnTable<Float>

    /// Events raised since the last `clearEvents()` (the scheduler clears them each frame).
    @exclusivity(unchecked) var events: EventBuffer
    /// Per slot: its row among the colour rows, -1 = the setup colour. Starts as the rig's
    /// (slots colour timelines key); `ensureColorRow` adds slots application code colours.
    private let colorRowOfSlot: UnsafeMutablePointer<Int32>

    /// Animation states of the rows (tracks, entries, mixing, events); see `AnimationState/`.
    public internal(set) var animationStates: AnimationStateStore

    public init(rig: CompiledSkeleton, layout: ColumnLayout = .standard, trackCount: Int = 4, capacity: Int = 16) {
        // The lane code's generic types exist before any frame (see `LaneVector.laneTypes`).
        _ = SIMD4<Float>.laneTypes + SIMD8<Float>.laneTypes
        self.rig = rig
        self.layout = layout
        self.trackCount = max(1, trackCount)
        let cap = layout.roundUp(capacity)
        self.capacity = cap
        let t = rig.tables
        let flat = ColumnLayout.instanceMajor
        boneFloats = ColumnTable(fields: 13, perInstance: t.boneCount, layout: layout, capacity: cap, fill: 0)
        boneInherit = ColumnTable(fields: 1, perInstance: t.inheritBones, layout: layout, capacity: cap, fill: 0)
        slotInts = ColumnTable(fields: 2, perInstance: t.slotCount, layout: layout, capacity: cap, fill: 0)
        colorFloats = ColumnTable(fields: 4, perInstance: t.colorSlots, layout: layout, capacity: cap, fill: 0)
        darkFloats = ColumnTable(fields: 3, perInstance: t.darkSlots, layout: layout, capacity: cap, fill: 0)
        sequenceInts = ColumnTable(fields: 1, perInstance: t.sequenceSlots, layout: layout, capacity: cap, fill: 0)
        deformLengths = ColumnTable(fields: 1, perInstance: t.deformSlots, layout: layout, capacity: cap, fill: 0)
        ikFloats = ColumnTable(fields: 2, perInstance: t.ikCount, layout: layout, capacity: cap, fill: 0)
        ikInts = ColumnTable(fields: 1, perInstance: t.ikCount, layout: layout, capacity: cap, fill: 0)
        ikFlags = ColumnTable(fields: 2, perInstance: t.ikCount, layout: layout, capacity: cap, fill: 0)
        transformFloats = ColumnTable(
            fields: 6, perInstance: t.transformCount, layout: layout, capacity: cap, fill: 0)
        pathFloats = ColumnTable(fields: 5, perInstance: t.pathCount, layout: layout, capacity: cap, fill: 0)
        physicsFloats = ColumnTable(
            fields: PhysicsField.count, perInstance: t.physicsCount, layout: layout, capacity: cap, fill: 0)
        physicsInts = ColumnTable(fields: 1, perInstance: t.physicsCount, layout: layout, capacity: cap, fill: 0)
        instanceFloats = ColumnTable(fields: 5, perInstance: 1, layout: layout, capacity: cap, fill: 0)
        instanceInts = ColumnTable(fields: 2, perInstance: 1, layout: layout, capacity: cap, fill: 0)
        entities = ColumnTable(
            fields: 1, perInstance: 1, layout: layout, capacity: cap, fill: Entity(index: 0, generation: 0))
        drawOrders = ColumnTable(fields: 1, perInstance: t.slotCount, layout: flat, capacity: cap, fill: 0)
        deforms = ColumnTable(fields: 1, perInstance: rig.deformFloats, layout: flat, capacity: cap, fill: 0)
        events = EventBuffer(capacity: 256)
        colorRowOfSlot = .allocate(capacity: max(1, t.slotCount))
        colorRowOfSlot.initialize(from: t.slotColorRow, count: t.slotCount)
        animationStates = Self.makeAnimationStates(rig, capacity: cap)
        animationStates.batch = self
    }

    deinit {
        boneFloats.free()
        boneInherit.free()
        slotInts.free()
        colorFloats.free()
        darkFloats.free()
        sequenceInts.free()
        deformLengths.free()
        ikFloats.free()
        ikInts.free()
        ikFlags.free()
        transformFloats.free()
        pathFloats.free()
        physicsFloats.free()
        physicsInts.free()
        instanceFloats.free()
        instanceInts.free()
        entities.free()
        drawOrders.free()
        deforms.free()
        events.free()
        colorRowOfSlot.deallocate()
    }

    /// Calls `body` with the storage of every column table, as bytes (tests compare batches bit
    /// for bit across thread counts).
    func forEachColumnStorage(_ body: (UnsafeRawBufferPointer) -> Void) {
        func visit<T>(_ t: ColumnTable<T>) {
            let count = max(1, t.fields * t.perInstance * t.capacity)
            body(UnsafeRawBufferPointer(start: t.storage, count: count * MemoryLayout<T>.stride))
        }
        visit(boneFloats)
        visit(boneInherit)
        visit(slotInts)
        visit(colorFloats)
        visit(darkFloats)
        visit(sequenceInts)
        visit(deformLengths)
        visit(ikFloats)
        visit(ikInts)
        visit(ikFlags)
        visit(transformFloats)
        visit(pathFloats)
        visit(physicsFloats)
        visit(physicsInts)
        visit(instanceFloats)
        visit(instanceInts)
        visit(entities)
        visit(drawOrders)
        visit(deforms)
    }

    /// Raw pointers to every column, valid until the next spawn.
    func columns() -> BatchColumns {
        let t = rig.tables
        return BatchColumns(
            layout: layout, boneCount: t.boneCount, slotCount: t.slotCount, ikCount: t.ikCount,
            transformCount: t.transformCount, pathCount: t.pathCount, physicsCount: t.physicsCount,
            colorSlots: colorFloats.perInstance, colorRowOfSlot: colorRowOfSlot, darkSlots: t.darkSlots,
            sequenceSlots: t.sequenceSlots,
            deformSlots: t.deformSlots, inheritBones: t.inheritBones, deformFloats: rig.deformFloats,
            x: boneFloats.field(0), y: boneFloats.field(1), rotation: boneFloats.field(2),
            scaleX: boneFloats.field(3), scaleY: boneFloats.field(4), shearX: boneFloats.field(5),
            shearY: boneFloats.field(6), inherit: boneInherit.field(0),
            a: boneFloats.field(7), b: boneFloats.field(8), c: boneFloats.field(9), d: boneFloats.field(10),
            worldX: boneFloats.field(11), worldY: boneFloats.field(12),
            colorR: colorFloats.field(0), colorG: colorFloats.field(1), colorB: colorFloats.field(2),
            colorA: colorFloats.field(3), darkR: darkFloats.field(0), darkG: darkFloats.field(1),
            darkB: darkFloats.field(2),
            attachment: slotInts.field(0), attachmentState: slotInts.field(1), sequenceIndex: sequenceInts.field(0),
            deformLength: deformLengths.field(0),
            ikMix: ikFloats.field(0), ikSoftness: ikFloats.field(1), ikBend: ikInts.field(0),
            ikCompress: ikFlags.field(0), ikStretch: ikFlags.field(1),
            tcMixRotate: transformFloats.field(0), tcMixX: transformFloats.field(1),
            tcMixY: transformFloats.field(2), tcMixScaleX: transformFloats.field(3),
            tcMixScaleY: transformFloats.field(4), tcMixShearY: transformFloats.field(5),
            pathPosition: pathFloats.field(0), pathSpacing: pathFloats.field(1), pathMixRotate: pathFloats.field(2),
            pathMixX: pathFloats.field(3), pathMixY: pathFloats.field(4),
            physics: physicsFloats.field(0), physicsFieldStride: physicsFloats.capacity * t.physicsCount,
            physicsReset: physicsInts.field(0),
            time: instanceFloats.field(0), skeletonX: instanceFloats.field(1), skeletonY: instanceFloats.field(2),
            skeletonScaleX: instanceFloats.field(3), skeletonScaleY: instanceFloats.field(4),
            plan: instanceInts.field(0), drawOrderIsSetup: instanceInts.field(1), entity: entities.field(0),
            drawOrder: drawOrders.field(0), deform: deforms.field(0))
    }

    // MARK: - Instances

    /// Adds an instance in the setup pose of `plan` (0 = no skin, s + 1 = skin s) with world
    /// transforms computed, and returns its row.
    func add(entity: Entity, plan: Int32) -> Int {
        if count == capacity { grow(to: layout.roundUp(capacity * 2)) }
        let row = count
        count += 1
        animationStates.addRow()
        entities.field(0)[row] = entity
        let cols = columns()
        let rows = cols.rows(row)
        SetupPose.initialize(cols, rig.tables, rows)
        if plan != 0 { setSkin(row: row, plan: plan) }
        SetupPose.setBones(cols, rig.tables, rows)
        SetupPose.setSlots(cols, rig.tables, rows)
        PoseSystem.updateWorldTransforms(cols, rig.tables, rows)
        return row
    }

    /// Removes row `row` by moving the last row into it. Returns the entity that moved (now at
    /// `row`), nil when `row` was the last one.
    func remove(row: Int) -> Entity? {
        let last = count - 1
        var moved: Entity?
        if row != last {
            copyRow(from: last, to: row)
            moved = entities.field(0)[row]
        }
        count -= 1
        animationStates.removeRow(row)
        return moved
    }

    public func entity(atRow row: Int) -> Entity { entities.field(0)[row] }

    private func copyRow(from source: Int, to target: Int) {
        boneFloats.copyInstance(from: source, to: target)
        boneInherit.copyInstance(from: source, to: target)
        slotInts.copyInstance(from: source, to: target)
        colorFloats.copyInstance(from: source, to: target)
        darkFloats.copyInstance(from: source, to: target)
        sequenceInts.copyInstance(from: source, to: target)
        deformLengths.copyInstance(from: source, to: target)
        ikFloats.copyInstance(from: source, to: target)
        ikInts.copyInstance(from: source, to: target)
        ikFlags.copyInstance(from: source, to: target)
        transformFloats.copyInstance(from: source, to: target)
        pathFloats.copyInstance(from: source, to: target)
        physicsFloats.copyInstance(from: source, to: target)
        physicsInts.copyInstance(from: source, to: target)
        instanceFloats.copyInstance(from: source, to: target)
        instanceInts.copyInstance(from: source, to: target)
        entities.copyInstance(from: source, to: target)
        drawOrders.copyInstance(from: source, to: target)
        deforms.copyInstance(from: source, to: target)
    }

    /// Makes room for `newCapacity` instances (rounded up to the layout's chunk size).
    public func reserve(_ newCapacity: Int) {
        let cap = layout.roundUp(newCapacity)
        if cap > capacity { grow(to: cap) }
        animationStates.reserveRows(capacity)
    }

    private func grow(to newCapacity: Int) {
        boneFloats.grow(to: newCapacity, keeping: count)
        boneInherit.grow(to: newCapacity, keeping: count)
        slotInts.grow(to: newCapacity, keeping: count)
        colorFloats.grow(to: newCapacity, keeping: count)
        darkFloats.grow(to: newCapacity, keeping: count)
        sequenceInts.grow(to: newCapacity, keeping: count)
        deformLengths.grow(to: newCapacity, keeping: count)
        ikFloats.grow(to: newCapacity, keeping: count)
        ikInts.grow(to: newCapacity, keeping: count)
        ikFlags.grow(to: newCapacity, keeping: count)
        transformFloats.grow(to: newCapacity, keeping: count)
        pathFloats.grow(to: newCapacity, keeping: count)
        physicsFloats.grow(to: newCapacity, keeping: count)
        physicsInts.grow(to: newCapacity, keeping: count)
        instanceFloats.grow(to: newCapacity, keeping: count)
        instanceInts.grow(to: newCapacity, keeping: count)
        entities.grow(to: newCapacity, keeping: count)
        drawOrders.grow(to: newCapacity, keeping: count)
        deforms.grow(to: newCapacity, keeping: count)
        capacity = newCapacity
    }

    // MARK: - Skeleton operations (outside frames)

    /// Gives slot `s` a colour row in every instance (holding its current, setup colour), so
    /// that its colour can change per instance.
    func ensureColorRow(slot s: Int) {
        guard s >= 0, s < rig.tables.slotCount, colorRowOfSlot[s] < 0 else { return }
        let old = colorFloats
        let rows = old.perInstance + 1
        let fresh = ColumnTable<Float>(fields: 4, perInstance: rows, layout: layout, capacity: capacity, fill: 0)
        let stride = layout.stride
        let setup = rig.tables.slotColor + s * 4
        for i in 0..<count {
            let from = layout.base(i, perInstance: old.perInstance)
            let to = layout.base(i, perInstance: rows)
            for f in 0..<4 {
                let source = old.field(f)
                let target = fresh.field(f)
                for k in 0..<old.perInstance { target[to + k * stride] = source[from + k * stride] }
                target[to + old.perInstance * stride] = setup[f]
            }
        }
        old.free()
        colorFloats = fresh
        colorRowOfSlot[s] = Int32(old.perInstance)
    }

    /// Changes the skin of a row, as the reference's setSkin does: attachments shown from the old
    /// skin are replaced by the new skin's attachment of the same name (or, coming from no skin,
    /// the setup attachments the new skin has), then the row follows the new skin's update plan.
    func setSkin(row: Int, plan: Int32) {
        let cols = columns()
        let rows = cols.rows(row)
        let t = rig.tables
        let old = cols.plan[row]
        guard plan != old, plan >= 0, Int(plan) < rig.planCount else { return }
        let data = rig.data
        if plan > 0 {
            let newSkin = data.skins[Int(plan - 1)]
            func skinAttachment(_ slot: Int32, _ name: Int32) -> Int32? {
                newSkin.entries.first(where: { $0.slot == slot && $0.name == name })?.attachment
            }
            if old > 0 {
                for entry in data.skins[Int(old - 1)].entries {
                    let i = rows.slot(Int(entry.slot))
                    if cols.attachment[i] == entry.attachment, let a = skinAttachment(entry.slot, entry.name) {
                        SetupPose.setAttachment(cols, t, rows, slot: Int(entry.slot), a)
                    }
                }
            } else {
                for (s, slot) in data.slots.enumerated() where t.slotSetupKey[s] >= 0 {
                    if let a = skinAttachment(Int32(s), slot.attachmentName) {
                        SetupPose.setAttachment(cols, t, rows, slot: s, a)
                    }
                }
            }
        }
        cols.plan[row] = plan
    }

    /// Resets a row's bones, constraints and slots to the setup pose (world transforms are not
    /// recomputed until the next frame or `updateWorldTransforms(row:)`).
    func setToSetupPose(row: Int) {
        let cols = columns()
        SetupPose.setBones(cols, rig.tables, cols.rows(row))
        SetupPose.setSlots(cols, rig.tables, cols.rows(row))
    }

    func updateWorldTransforms(row: Int) {
        let cols = columns()
        PoseSystem.updateWorldTransforms(cols, rig.tables, cols.rows(row))
    }

    // MARK: - Events

    /// Events raised since the last clear, in the order they were raised.
    public var firedEvents: UnsafeBufferPointer<FiredEvent> { events.events }
    /// Events that did not fit in the buffer since the last clear.
    public var droppedEvents: Int { events.dropped }
    public func clearEvents() { events.clear() }

    /// The animation key a `.event` refers to.
    public func eventKey(_ key: Int32) -> EventKey? {
        guard key >= 0, Int(key) < rig.eventKeys.count else { return nil }
        let (a, k) = rig.eventKeys[Int(key)]
        return data.animations[Int(a)].events[Int(k)]
    }
}
