import BoneworkFormat

/// Every instance in a simulation, grouped in one `Batch` per `SkeletonData`, addressed by
/// generational `Entity` handles.
public final class World {
    /// One batch per skeleton data spawned so far, in the order first spawned.
    public private(set) var batches: [Batch] = []
    /// Runs the frame's systems (threads, chunking) and holds the profiler.
    public let scheduler: Scheduler
    /// Column layout of new batches.
    public let layout: ColumnLayout
    /// Animation tracks per instance.
    public let trackCount: Int
    /// The most bytes of instance storage (every batch's columns and animation-state rows) this
    /// world may hold; growth past it is refused with `WorldError.memoryLimit`. By default
    /// `MemoryBudget.defaultLimit` when the world is made (three quarters of the memory then
    /// available). Lowering it never frees storage already held.
    public var memoryLimit: Int
    /// Where batches keep their bones' world transforms, for a renderer that reads them in place
    /// (`ColumnMemory`; the GPU path's `GPURenderer.columnMemory`); nil: the heap. Setting it
    /// moves every batch's world transforms there.
    public var columnMemory: (any ColumnMemory)? {
        didSet {
            guard columnMemory !== oldValue else { return }
            // Each batch waits for its old memory's readers before it moves.
            for batch in batches { batch.moveSharedColumns(to: columnMemory) }
        }
    }

    /// Whether batches keep what slower update rates need (`UpdateRate`): per bone two computed
    /// world transforms (48 bytes), per instance a rate, a significance and two times. Without,
    /// every instance is posed every frame and those tables cost nothing.
    public let updateRates: Bool
    /// Budget mode (`UpdateBudget`): each frame's rates chosen from the instances' significance
    /// to keep the engine's CPU time per frame under the budget. Nil: rates stay as set. Needs
    /// `updateRates`.
    public var updateBudget: UpdateBudget? {
        didSet { if updateBudget == nil { budgetState = nil } }
    }
    private var budgetState: UpdateBudgetState?
    /// The profiler's row for the budget's choice (added when a budget first runs).
    private var rateSystem: ApplicationSystem?

    private var batchOf: [ObjectIdentifier: Int] = [:]
    private var compiled: [ObjectIdentifier: CompiledSkeleton] = [:]
    // Entity table: per index, its current generation and where the instance lives (batch -1 = free).
    private var generations: [UInt32] = []
    private var locations: [(batch: Int32, row: Int32)] = []
    private var freeIndices: [UInt32] = []
    /// The profiler's row for `Batch.regroupByPlan` (added when a batch first needs one).
    private var regroupSystem: ApplicationSystem?

    /// An empty world; `memoryLimit` nil takes `MemoryBudget.defaultLimit`; `updateRates` true
    /// keeps what update rates below every frame need (see `updateRates`).
    public init(
        layout: ColumnLayout = .standard, trackCount: Int = 4, scheduler: Scheduler = Scheduler(),
        memoryLimit: Int? = nil, updateRates: Bool = false
    ) {
        self.updateRates = updateRates
        self.layout = layout
        self.trackCount = trackCount
        self.scheduler = scheduler
        self.memoryLimit = memoryLimit ?? MemoryBudget.defaultLimit
    }

    /// Number of live instances.
    public var count: Int { batches.reduce(0) { $0 + $1.count } }

    /// The batch holding instances of `data` (created on first use).
    public func batch(for data: SkeletonData) -> Batch {
        let id = ObjectIdentifier(data)
        if let b = batchOf[id] { return batches[b] }
        let rig = CompiledSkeleton(data)
        compiled[id] = rig
        let batch = Batch(
            rig: rig, layout: layout, trackCount: trackCount, columnMemory: columnMemory, updateRates: updateRates)
        batchOf[id] = batches.count
        batches.append(batch)
        return batch
    }

    /// Spawns an instance of `data` wearing `skin` (nil: no skin, i.e. the default skin's
    /// attachments only), in the setup pose with world transforms computed.
    @discardableResult
    public func spawn(_ data: SkeletonData, skin: String? = nil) throws -> Entity {
        var skinIndex: Int32? = nil
        if let skin {
            guard let s = data.findSkinIndex(skin) else { throw WorldError.noSuchSkin(skin, skeleton: data.file) }
            skinIndex = Int32(s)
        }
        let batch = self.batch(for: data)
        columnMemory?.waitForReaders()
        if batch.count == batch.capacity { try grow(batch, toHold: batch.count + 1) }
        let index: UInt32
        if let reused = freeIndices.popLast() {
            index = reused
        } else {
            index = UInt32(generations.count)
            generations.append(0)
            locations.append((-1, -1))
        }
        let entity = Entity(index: index, generation: generations[Int(index)])
        let row = batch.add(entity: entity, plan: batch.rig.plan(skin: skinIndex))
        locations[Int(index)] = (Int32(batchOf[ObjectIdentifier(data)] ?? 0), Int32(row))
        return entity
    }

    // MARK: - Memory

    /// Bytes of instance storage every batch holds (its capacity, not only its live rows).
    public var reservedBytes: Int { batches.reduce(0) { $0 + $1.reservedBytes } }

    /// Bytes of instance storage one instance of `data` takes (compiles the skeleton's batch
    /// when it has none yet).
    public func bytesPerInstance(of data: SkeletonData) -> Int { batch(for: data).bytesPerInstance }

    /// Makes room for `count` instances of `data` in one growth, so that spawning them moves no
    /// storage; refused with `WorldError.memoryLimit` (and nothing reserved) when the storage
    /// would pass `memoryLimit`.
    public func reserve(_ count: Int, of data: SkeletonData) throws {
        let batch = self.batch(for: data)
        guard count > batch.capacity else { return }
        columnMemory?.waitForReaders()
        // The count itself first: a count whose storage overflows is refused before rounding.
        try checkRoom(batch, capacity: count, instances: count)
        try checkRoom(batch, capacity: layout.roundUp(count), instances: count)
        batch.reserve(count)
    }

    /// Throws `WorldError.memoryLimit` unless `count` more instances of `data` fit under
    /// `memoryLimit` beside the storage already held; reserves nothing. Tools call it before a
    /// long spawn loop, so that an absurd count is refused before the first spawn.
    public func checkRoom(for count: Int, of data: SkeletonData) throws {
        let batch = self.batch(for: data)
        let wanted = count > Int.max - batch.count ? Int.max : batch.count + count
        guard wanted > batch.capacity else { return }
        try checkRoom(batch, capacity: wanted, instances: wanted)
    }

    /// Refuses a capacity of `capacity` rows for `batch` when it passes the limit.
    private func checkRoom(_ batch: Batch, capacity: Int, instances: Int) throws {
        let each = batch.bytesPerInstance
        let others = reservedBytes - batch.reservedBytes
        guard let bytes = MemoryBudget.bytes(capacity, each: each), bytes <= memoryLimit - others else {
            throw WorldError.memoryLimit(
                skeleton: batch.data.file, instances: instances, bytesEach: each, limit: memoryLimit, held: others)
        }
    }

    /// Grows `batch` to hold `count` rows: doubling its capacity when that fits the limit, else
    /// the least capacity that holds them, else refused.
    private func grow(_ batch: Batch, toHold count: Int) throws {
        let doubled = layout.roundUp(max(count, batch.capacity * 2))
        if (try? checkRoom(batch, capacity: doubled, instances: count)) != nil {
            batch.reserve(doubled)
            return
        }
        let least = layout.roundUp(count)
        try checkRoom(batch, capacity: least, instances: count)
        batch.reserve(least)
    }

    /// Removes an instance; its handle (and every copy of it) becomes stale.
    public func despawn(_ entity: Entity) throws {
        let (batch, row) = try locate(entity)
        if let moved = batch.remove(row: row) {
            locations[Int(moved.index)].row = Int32(row)
        }
        locations[Int(entity.index)] = (-1, -1)
        generations[Int(entity.index)] &+= 1
        freeIndices.append(entity.index)
    }

    /// Whether the handle still refers to a live instance.
    public func isAlive(_ entity: Entity) -> Bool { (try? locate(entity)) != nil }

    /// The batch and row of a live instance; a stale handle is refused. Every call that changes
    /// one instance goes through here, so a renderer still reading the world transforms
    /// (`columnMemory`) is waited for first.
    public func locate(_ entity: Entity) throws -> (batch: Batch, row: Int) {
        columnMemory?.waitForReaders()
        let i = Int(entity.index)
        guard i < generations.count, generations[i] == entity.generation, locations[i].batch >= 0 else {
            throw WorldError.staleEntity(entity)
        }
        return (batches[Int(locations[i].batch)], Int(locations[i].row))
    }

    /// Locates `count` instances at once, for renderers gathering a frame: `rows[k]` becomes
    /// `batch << 32 | row` for `entity(k)`, `batch` its index in `batches`. No reference counting
    /// or allocation per instance.
    /// - Throws: `WorldError.staleEntity` for the first entity that is not alive (rows before it
    ///   are written, the rest are not).
    ///
    /// # Safety
    /// `rows` must have room for `count` entries.
    public func locate(_ count: Int, entity: (Int) -> Entity, into rows: UnsafeMutablePointer<UInt64>) throws {
        try generations.withUnsafeBufferPointer { generations in
            try locations.withUnsafeBufferPointer { locations in
                for k in 0..<count {
                    let e = entity(k)
                    let i = Int(e.index)
                    guard i < generations.count, generations[i] == e.generation, locations[i].batch >= 0 else {
                        throw WorldError.staleEntity(e)
                    }
                    rows[k] =
                        UInt64(UInt32(bitPattern: locations[i].batch)) << 32
                        | UInt64(UInt32(bitPattern: locations[i].row))
                }
            }
        }
    }

    /// Calls `body` with a read-only view of where every entity lives, which worker threads may
    /// query at once (`EntityLocations.locate`): a renderer locates a frame's characters in its
    /// packing threads instead of on the calling thread. Nothing may spawn, despawn or update the
    /// world while `body` runs.
    public func withEntityLocations<R, E: Error>(_ body: (EntityLocations) throws(E) -> R) throws(E) -> R {
        try generations.withUnsafeBufferPointer { generations throws(E) in
            try locations.withUnsafeBufferPointer { locations throws(E) in
                try body(EntityLocations(generations: generations, locations: locations))
            }
        }
    }

    /// Plays `animation` on `track`, replacing what the track played.
    public func setAnimation(_ entity: Entity, track: Int = 0, _ animation: String, loop: Bool) throws {
        let (batch, row) = try locate(entity)
        guard let a = batch.data.findAnimation(animation) else { throw WorldError.unknownAnimation(animation) }
        try batch.animationStates.setAnimation(row: row, track: track, animation: a, loop: loop)
    }

    /// Sets a track's time (e.g. to start instances at different phases).
    public func setTrackTime(_ entity: Entity, track: Int = 0, _ time: Float) throws {
        let (batch, row) = try locate(entity)
        guard let entry = batch.animationStates.current(row: row, track: track) else {
            throw WorldError.trackOutOfRange(track)
        }
        try entry.setTrackTime(time)
    }

    /// Empties a track at once (no mix out); `end` and `dispose` events fire for its entries.
    /// - Throws: `WorldError` for a stale entity.
    public func clearTrack(_ entity: Entity, track: Int = 0) throws {
        let (batch, row) = try locate(entity)
        try batch.animationStates.clearTrack(row: row, track: track)
    }

    /// Changes the skin (nil = no skin), keeping attachments of the old skin that the new one
    /// also names, as the reference's setSkin does.
    public func setSkin(_ entity: Entity, _ skin: String?) throws {
        let (batch, row) = try locate(entity)
        var plan: Int32 = 0
        if let skin {
            guard let s = batch.data.findSkinIndex(skin) else {
                throw WorldError.noSuchSkin(skin, skeleton: batch.data.file)
            }
            plan = Int32(s) + 1
        }
        batch.setSkin(row: row, plan: plan)
    }

    /// Wears the skin composed of the data skins named `parts`, in order (the reference's
    /// `Skin.addSkin` of each into an empty skin, then `setSkin`): attachments of a later part
    /// replace an earlier one's on the same (slot, name), and the bones and constraints of every
    /// part are active. The first instance to wear a combination compiles its plan; every other
    /// instance of the skeleton in this world wearing it shares that plan. An unknown
    /// name is `WorldError.noSuchSkin` naming it and the skeleton, and changes nothing.
    public func setSkin(_ entity: Entity, parts: [String]) throws {
        let (batch, row) = try locate(entity)
        var indices: [Int32] = []
        for name in parts {
            guard let s = batch.data.findSkinIndex(name) else {
                throw WorldError.noSuchSkin(name, skeleton: batch.data.file)
            }
            indices.append(Int32(s))
        }
        batch.setSkin(row: row, plan: try batch.rig.plan(parts: indices))
    }

    /// Bones, constraints and slots back to the setup pose (world transforms follow next frame).
    public func setToSetupPose(_ entity: Entity) throws {
        let (batch, row) = try locate(entity)
        batch.setToSetupPose(row: row)
    }

    /// Recomputes one instance's world transforms now (outside a frame).
    public func updateWorldTransforms(_ entity: Entity) throws {
        let (batch, row) = try locate(entity)
        batch.updateWorldTransforms(row: row)
    }

    /// Runs one frame: every system over every batch, advancing animations by `delta` seconds.
    /// First, a batch whose rows skin changes, spawns or despawns have left interleaved by plan
    /// is regrouped (`Batch.regroupByPlan`), so that a crowd in many outfits runs as fast as one in
    /// a single outfit; rows move, handles stay valid.
    public func update(_ delta: Float) {
        columnMemory?.waitForReaders()
        for (b, batch) in batches.enumerated() where batch.plansMayBeMixed && batch.needsRegroup() {
            // Timed as the profiler's "regroup rows" row of the frame (added at the first regroup).
            let profiler = scheduler.profiler
            if let system = regroupSystem ?? (try? profiler.addApplicationSystem("regroup rows")) {
                regroupSystem = system
                profiler.measure(system) { batch.regroupRows() }
            } else {
                batch.regroupRows()
            }
            for row in 0..<batch.count {
                locations[Int(batch.entity(atRow: row).index)] = (Int32(b), Int32(row))
            }
        }
        var chosen: UpdateBudgetState? = nil
        if updateRates, let budget = updateBudget {
            let state = budgetState ?? UpdateBudgetState()
            budgetState = state
            if rateSystem == nil { rateSystem = try? scheduler.profiler.addApplicationSystem("update rates") }
            chooseUpdateRates(budget, state, system: rateSystem)
            chosen = state
        }
        scheduler.run(batches, delta: delta)
        if updateRates {
            countUpdateRates(counted: chosen?.rateCounts)
        } else {
            scheduler.profiler.countUpdateRate(0, instances: count)
        }
    }

    /// Runs one frame for one instance only (the others keep their pose): the scheduler's
    /// systems over its row, with `afterApply` called between timeline apply and world
    /// transforms. The application API updates a drawable this way.
    public func update(_ entity: Entity, delta: Float, afterApply: (() -> Void)? = nil) throws {
        let (batch, row) = try locate(entity)
        scheduler.run(batch, rows: row..<(row + 1), delta: delta, afterApply: afterApply)
    }

    /// A copy of one instance's pose (for inspection and tests; allocates).
    public func pose(_ entity: Entity) throws -> InstancePose {
        let (batch, row) = try locate(entity)
        return batch.pose(row: row)
    }
}

extension World {
    /// Kept for callers that prepared an instance's vertices after spawning: slot images and
    /// world vertices are computed when a pose is read (`pose(_:)`), so this only checks the
    /// handle.
    @available(*, deprecated, message: "vertices are computed when a pose is read; use locate(_:) to check a handle")
    public func refreshVertices(_ entity: Entity) throws {
        _ = try locate(entity)
    }
}
