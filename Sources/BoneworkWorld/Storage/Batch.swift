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
    /// The compiled skeleton every row of the batch is an instance of.
    public let rig: CompiledSkeleton
    /// The shared skeleton data the rig was compiled from.
    public var data: SkeletonData { rig.data }
    /// How the columns interleave instances (chunks of 8 by default).
    public let layout: ColumnLayout
    /// Animation tracks per instance.
    public let trackCount: Int
    // The column tables, `count` and `events` are only touched on the calling thread (workers
    // get raw pointers from `columns()`), never across a call back into the batch: they are
    // marked `@exclusivity(unchecked)`, as each dynamic exclusivity check costs some 80
    // instructions and a frame reads them once per pass and per delivered event.
    /// Live instances (rows `0..<count`; a despawn moves the last row into the hole).
    @exclusivity(unchecked) public private(set) var count = 0
    /// Rows the columns have room for before they grow.
    public private(set) var capacity: Int

    /// The batch's column tables, one per `BatchSchema.tables` entry (same order).
    @exclusivity(unchecked) private var tables: [ColumnTable]
    /// Raw pointers to every column (`columns()`), rebound whenever a table reallocates.
    @exclusivity(unchecked) private var bound: BatchColumns
    /// What each frame system may touch, rebound with `bound` (see `SystemViews`).
    @exclusivity(unchecked) private(set) var views: SystemViews

    /// Events raised since the last `clearEvents()` (the scheduler clears them each frame).
    @exclusivity(unchecked) var events: EventBuffer
    /// Per slot: its row among the colour rows, -1 = the setup colour. Starts as the rig's
    /// (slots colour timelines key); `ensureColorRow` adds slots application code colours.
    private let colorRowOfSlot: UnsafeMutablePointer<Int32>

    /// Animation states of the rows (tracks, entries, mixing, events); see `AnimationState/`.
    public internal(set) var animationStates: AnimationStateStore
    /// The applied-pose scratch of world transforms computed outside frames (spawn, application
    /// calls), so that they allocate nothing.
    private let outOfFrameScratch = PoseScratch()

    /// Where the tables the schema marks `shared` (world transforms) live; nil: the heap.
    public private(set) var columnMemory: (any ColumnMemory)?
    /// Whether rows have update rates (`World(updateRates:)`): a history of computed poses and
    /// an update rate each; without them those tables hold nothing.
    public let updateRates: Bool

    /// An empty batch for `rig` with room for `capacity` instances of `trackCount` tracks each;
    /// its world transforms in `columnMemory` when one is given.
    public init(
        rig: CompiledSkeleton, layout: ColumnLayout = .standard, trackCount: Int = 4, capacity: Int = 16,
        columnMemory: (any ColumnMemory)? = nil, updateRates: Bool = false
    ) {
        self.updateRates = updateRates
        // The lane code's generic types exist before any frame (see `LaneVector.laneTypes`).
        _ = SIMD4<Float>.laneTypes + SIMD8<Float>.laneTypes
        self.rig = rig
        self.layout = layout
        self.trackCount = max(1, trackCount)
        let cap = layout.roundUp(capacity)
        self.capacity = cap
        let t = rig.tables
        self.columnMemory = columnMemory
        tables = BatchSchema.tables.map {
            ColumnTable(
                $0, perInstance: $0.extent.count(rig, updateRates: updateRates), layout: layout, capacity: cap,
                memory: $0.shared ? columnMemory : nil)
        }
        colorRowOfSlot = .allocate(capacity: max(1, t.slotCount))
        colorRowOfSlot.initialize(from: t.slotColorRow, count: t.slotCount)
        bound = BatchColumns(
            shape: BatchShape(
                layout: layout, boneCount: t.boneCount, slotCount: t.slotCount, ikCount: t.ikCount,
                transformCount: t.transformCount, pathCount: t.pathCount, physicsCount: t.physicsCount,
                colorSlots: t.colorSlots, darkSlots: t.darkSlots, sequenceSlots: t.sequenceSlots,
                deformSlots: t.deformSlots, inheritBones: t.inheritBones, deformFloats: rig.deformFloats,
                updateRates: updateRates),
            colorRowOfSlot: colorRowOfSlot)
        views = SystemViews(bound)
        events = EventBuffer(capacity: 256)
        animationStates = Self.makeAnimationStates(rig, capacity: cap)
        animationStates.batch = self
        if updateRates { animationStates.enableRests() }
        outOfFrameScratch.reserve(t, stride: layout.stride)
        bindColumns()
    }

    /// Points every `BatchColumns` field at its table's storage (after any reallocation).
    private func bindColumns() {
        for (spec, table) in zip(BatchSchema.tables, tables) { spec.bind(&bound, table) }
        bound.shape.colorSlots = tables[BatchSchema.colorTable].perInstance
        views = SystemViews(bound)
        #if DEBUG
            if let problem = views.problem(rig: rig.tables, storage: tableStorage) {
                preconditionFailure("Batch columns: \(problem)")
            }
        #endif
    }

    deinit {
        for table in tables { table.free() }
        events.free()
        colorRowOfSlot.deallocate()
    }

    /// Moves the shared tables (world transforms) into `memory` (nil: the heap), contents and all.
    public func moveSharedColumns(to memory: (any ColumnMemory)?) {
        columnMemory?.waitForReaders()
        columnMemory = memory
        for (t, spec) in BatchSchema.tables.enumerated() where spec.shared { tables[t].move(to: memory) }
        bindColumns()
    }

    /// Calls `body` with the storage of every column table, as bytes (tests compare batches bit
    /// for bit across thread counts).
    func forEachColumnStorage(_ body: (UnsafeRawBufferPointer) -> Void) {
        for table in tables { body(table.bytes) }
    }

    /// The bytes of every column table (what the system views must point into).
    var tableStorage: [UnsafeRawBufferPointer] { tables.map(\.bytes) }

    /// Raw pointers to every column, valid until the next spawn.
    @inline(__always)
    func columns() -> BatchColumns { bound }

    // MARK: - Instances

    /// Adds an instance in the setup pose of `plan` (0 = no skin, s + 1 = skin s) with world
    /// transforms computed, and returns its row.
    func add(entity: Entity, plan: Int32) -> Int {
        if count == capacity { grow(to: layout.roundUp(capacity * 2)) }
        let row = count
        count += 1
        animationStates.addRow()
        let cols = columns()
        cols.entity[row] = entity
        let rows = cols.rows(row)
        SetupPose.initialize(cols, rig.tables, rows)
        if updateRates {
            // A row a despawn left behind keeps its old values: this one starts at full rate, drawn.
            cols.updateRate[row] = 0
            cols.significance[row] = 1
            cols.hidden[row] = 0
            cols.sinceUpdate[row] = 0
            cols.updateInterval[row] = 0
            forgetComputedPoses(row: row)
        }
        if plan != 0 { setSkin(row: row, plan: plan) }
        plansMayBeMixed = true
        SetupPose.setBones(cols, rig.tables, rows)
        SetupPose.setSlots(cols, rig.tables, rows)
        PoseSystem.updateWorldTransforms(PoseColumns(cols), rig.tables, rows, scratch: outOfFrameScratch)
        return row
    }

    /// Removes row `row` by moving the last row into it. Returns the entity that moved (now at
    /// `row`), nil when `row` was the last one.
    func remove(row: Int) -> Entity? {
        let last = count - 1
        var moved: Entity?
        if row != last {
            copyRow(from: last, to: row)
            moved = bound.entity[row]
            plansMayBeMixed = true
        }
        count -= 1
        animationStates.removeRow(row)
        return moved
    }

    /// The entity living in `row` (`0..<count`); rows move on despawn, entities do not.
    public func entity(atRow row: Int) -> Entity { bound.entity[row] }

    private func copyRow(from source: Int, to target: Int) {
        for table in tables { table.copyInstance(from: source, to: target) }
    }

    /// Bytes of instance storage one more row of capacity takes: every column table's row and
    /// the animation state's (what `World` checks against its memory limit before growing).
    public var bytesPerInstance: Int {
        tables.reduce(0) { $0 + $1.bytesPerRow } + animationStates.bytesPerRow
    }

    /// Bytes of instance storage the batch holds for its capacity.
    public var reservedBytes: Int { capacity * bytesPerInstance }

    /// Makes room for `newCapacity` instances (rounded up to the layout's chunk size).
    public func reserve(_ newCapacity: Int) {
        let cap = layout.roundUp(newCapacity)
        if cap > capacity { grow(to: cap) }
        animationStates.reserveRows(capacity)
    }

    private func grow(to newCapacity: Int) {
        for i in tables.indices { tables[i].grow(to: newCapacity, keeping: count) }
        capacity = newCapacity
        bindColumns()
    }

    // MARK: - Skeleton operations (outside frames)

    /// Gives slot `s` a colour row in every instance (holding its current, setup colour), so
    /// that its colour can change per instance.
    func ensureColorRow(slot s: Int) {
        guard s >= 0, s < rig.tables.slotCount, colorRowOfSlot[s] < 0 else { return }
        let old = tables[BatchSchema.colorTable]
        let fresh = old.widened(to: old.perInstance + 1, count: count)
        old.free()
        tables[BatchSchema.colorTable] = fresh
        colorRowOfSlot[s] = Int32(old.perInstance)
        bindColumns()
        // The new row holds the slot's current colour: its setup colour.
        let setup = rig.tables.slotColor + s * 4
        let stride = layout.stride
        let target = [bound.colorR, bound.colorG, bound.colorB, bound.colorA]
        for i in 0..<count {
            let at = layout.base(i, perInstance: fresh.perInstance) + old.perInstance * stride
            for f in 0..<4 { target[f][at] = setup[f] }
        }
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
        if let newEntries = rig.skinEntries(plan: plan) {
            func skinAttachment(_ slot: Int32, _ name: Int32) -> Int32? {
                newEntries.first(where: { $0.slot == slot && $0.name == name })?.attachment
            }
            if let oldEntries = rig.skinEntries(plan: old) {
                for entry in oldEntries {
                    let i = rows.slot(Int(entry.slot))
                    if cols.attachment[i] == entry.attachment, let a = skinAttachment(entry.slot, entry.name) {
                        SetupPose.setAttachment(ApplyColumns(cols), t, rows, slot: Int(entry.slot), a)
                    }
                }
            } else {
                for (s, slot) in data.slots.enumerated() where t.slotSetupKey[s] >= 0 {
                    if let a = skinAttachment(Int32(s), slot.attachmentName) {
                        SetupPose.setAttachment(ApplyColumns(cols), t, rows, slot: s, a)
                    }
                }
            }
        }
        cols.plan[row] = plan
        plansMayBeMixed = true
        forgetComputedPoses(row: row)
    }

    // MARK: - Grouping rows by plan

    /// Whether rows may have stopped being grouped by plan since the last `regroupByPlan` (a
    /// row was added, moved by a removal, or changed its skin).
    private(set) var plansMayBeMixed = false

    /// Batches this small are never regrouped: one group of the widest lane (8 instances).
    static let groupRows = 8

    /// Adjacent rows whose plans differ, and the fewest there can be (distinct plans - 1).
    func planBoundaries() -> (boundaries: Int, fewest: Int) {
        let plan = bound.plan
        var boundaries = 0
        // Plans are dense indices below `planCount` (a few hundred at most): a flag per plan.
        var seen = [Bool](repeating: false, count: rig.planCount)
        var distinct = 0
        for i in 0..<count {
            let p = Int(plan[i])
            if !seen[p] {
                seen[p] = true
                distinct += 1
            }
            if i > 0 && plan[i] != plan[i - 1] { boundaries += 1 }
        }
        return (boundaries, max(0, distinct - 1))
    }

    /// Reorders the rows so that rows of one plan are contiguous (a stable counting sort by plan),
    /// when they are disordered enough to pay for it. Returns whether rows moved: their
    /// entities' locations must then be read again (`World.update` does).
    ///
    /// The lane code runs a group of rows that share a plan as one vector and a mixed group in
    /// smaller pieces: measured with `Benchmarks/callgrind.sh 400 20` on mix-and-match (walk and
    /// dance, 400 instances in 100 composed outfits), 90,473 instructions per skeleton-frame
    /// interleaved, 51,826 regrouped (the regroup included), 50,302 all in one outfit. A regroup
    /// copies every column once (about one frame's work for the batch), so it runs when the rows
    /// hold more than one plan boundary per 16 rows beyond the fewest their plans allow.
    func regroupByPlan() -> Bool {
        guard needsRegroup() else { return false }
        regroupRows()
        return true
    }

    /// Whether the rows are disordered enough for `regroupByPlan` to reorder them (clears
    /// `plansMayBeMixed`: the next look waits for the next change).
    func needsRegroup() -> Bool {
        plansMayBeMixed = false
        guard count > Self.groupRows else { return false }
        let (boundaries, fewest) = planBoundaries()
        return (boundaries - fewest) * 16 > count
    }

    /// Reorders the rows by plan (stable), whatever their order.
    func regroupRows() {
        let plan = bound.plan
        let plans = rig.planCount
        var counts = [Int](repeating: 0, count: plans + 1)
        for i in 0..<count { counts[Int(plan[i]) &+ 1] &+= 1 }
        for p in 0..<plans { counts[p + 1] &+= counts[p] }
        var order = [Int32](repeating: 0, count: count)
        for i in 0..<count {
            let p = Int(plan[i])
            order[counts[p]] = Int32(i)
            counts[p] &+= 1
        }
        for t in tables.indices {
            let fresh = tables[t].permuted(order)
            tables[t].free()
            tables[t] = fresh
        }
        bindColumns()
        animationStates.permuteRows(order)
    }

    /// Resets a row's bones, constraints and slots to the setup pose (world transforms are not
    /// recomputed until the next frame or `updateWorldTransforms(row:)`).
    func setToSetupPose(row: Int) {
        let cols = columns()
        SetupPose.setBones(cols, rig.tables, cols.rows(row))
        SetupPose.setSlots(cols, rig.tables, cols.rows(row))
        forgetComputedPoses(row: row)
    }

    /// Empties a row's history of computed poses (its pose jumped: a skin change, the setup
    /// pose), so that its next two frames are computed whatever its update rate.
    func forgetComputedPoses(row: Int) {
        guard updateRates, row >= 0, row < count else { return }
        bound.posesKept[row] = 0
    }

    /// Bones and constraints of a row back to the setup pose (the reference's
    /// `setBonesToSetupPose`; world transforms wait for the next frame).
    package func setBonesToSetupPose(row: Int) {
        let cols = columns()
        SetupPose.setBones(cols, rig.tables, cols.rows(row))
    }

    /// Slots (colours, attachments) and draw order of a row back to the setup pose (the
    /// reference's `setSlotsToSetupPose`).
    package func setSlotsToSetupPose(row: Int) {
        let cols = columns()
        SetupPose.setSlots(cols, rig.tables, cols.rows(row))
    }

    /// Recomputes one row's world transforms now, outside a frame (no allocation).
    func updateWorldTransforms(row: Int, physics: Physics = .update) {
        let cols = columns()
        PoseSystem.updateWorldTransforms(
            PoseColumns(cols), rig.tables, cols.rows(row), physics: physics, scratch: outOfFrameScratch)
    }

    // MARK: - Events

    /// Events raised since the last clear, in the order they were raised.
    ///
    /// # Safety
    /// The buffer is the batch's: read it before the next frame or `clearEvents()`, which reuse it.
    public var firedEvents: UnsafeBufferPointer<FiredEvent> { events.events }
    /// Events that did not fit in the buffer since the last clear.
    public var droppedEvents: Int { events.dropped }
    /// Forgets the fired events (the scheduler does it at the start of every frame).
    public func clearEvents() { events.clear() }

    /// The animation key a `.event` refers to.
    public func eventKey(_ key: Int32) -> EventKey? {
        guard key >= 0, Int(key) < rig.eventKeys.count else { return nil }
        let (a, k) = rig.eventKeys[Int(key)]
        return data.animations[Int(a)].events[Int(k)]
    }
}
