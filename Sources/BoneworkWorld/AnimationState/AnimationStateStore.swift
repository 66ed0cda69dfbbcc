import BoneworkFormat

/// Receives animation state events: the type, the entry, and for `.event` the user event.
public typealias AnimationStateListener = (_ type: TrackEventType, _ entry: TrackEntry, _ event: AnimationEvent?) ->
    Void

/// A user event fired by an event timeline key.
public struct AnimationEvent: Sendable, Equatable {
    /// Index into `SkeletonData.events`.
    public let data: Int32
    /// The event's name in the skeleton data.
    public let name: String
    /// The key's integer value (the event's default unless the key overrides it).
    public let intValue: Int32
    /// The key's float value.
    public let floatValue: Float
    /// The key's string value.
    public let stringValue: String
    /// The event's audio file path as exported (empty when none).
    public let audioPath: String
    /// The key's audio volume, 0...1.
    public let volume: Float
    /// The key's audio balance, -1 (left) ... 1 (right).
    public let balance: Float
    /// The key's time in the animation.
    public let time: Float
}

/// The animation states of every instance (row) of one batch: per row a set of tracks, per
/// track a chain of entries (the current one, those mixing out below it, those queued after
/// it), all kept in `TrackEntryPool` columns.
///
/// Operations (set, add, clear...) run on the calling thread and deliver their events at once.
/// `update` and `apply` work row by row, so chunks of rows can run on several threads with one
/// `StateWorkspace` each; their events are delivered afterwards, on the calling thread, in row
/// order (`collect` then `drain`), so listeners see the same sequence whatever the thread count.
public final class AnimationStateStore {
    /// The compiled skeleton the rows animate.
    public let compiled: CompiledSkeleton
    /// The mix durations between animations.
    public let stateData: AnimationStateData
    let mixes: MixTable
    let tables: MixingTables
    /// The entry columns, the event queue and the drain flag are only touched on the calling
    /// thread (workers get raw pointers from `kernel`): no dynamic exclusivity checks, which
    /// cost some 80 instructions each on every delivered event.
    @exclusivity(unchecked) var pool: TrackEntryPool

    /// The most tracks a row may use (a guard against runaway track indices).
    public static let maxTracks = 256

    /// Rows (instances) the store holds state for.
    public private(set) var rowCount = 0
    private(set) var rowCapacity = 0
    private(set) var trackWidth = 1
    private(set) var tracks: UnsafeMutablePointer<Int32>
    private(set) var trackCount: UnsafeMutablePointer<Int32>
    private var timeScales: UnsafeMutablePointer<Float>
    private var changed: UnsafeMutablePointer<UInt8>
    private var unkeyed: UnsafeMutablePointer<Int32>
    /// Resting rows' budgets and skipped frames (`RestColumns`), per row, and the last frames'
    /// deltas: only in batches with update rates (`enableRests`), nil elsewhere.
    var restBudget: UnsafeMutablePointer<Float>?
    var restSkipped: UnsafeMutablePointer<UInt8>?
    var restDeltas: UnsafeMutablePointer<Float>?
    /// The number of the last frame in which rows could rest.
    var restFrame = 0
    /// Whether some row may be resting: a frame let rows rest since `wakeAll` last ran.
    var mayRest = false

    /// Events waiting for delivery (operations append here; `collect` appends workers' events).
    @exclusivity(unchecked) var queue = StateEventSink(capacity: 256)
    @exclusivity(unchecked) var drainDisabled = false
    /// Scratch for work done on the calling thread.
    let mainWorkspace: StateWorkspace
    /// Scratch per worker for parallel frames (see `workspace(_:)`).
    private var workspaces: [StateWorkspace] = []

    /// Called for every event of every row, after the entry's and the row's own listeners.
    public var listener: AnimationStateListener?
    /// Listeners of single rows, by row (few rows have one: nothing is stored per row).
    private(set) var rowListeners: [Int: AnimationStateListener] = [:]
    private(set) var entryListeners: [AnimationStateListener?] = []

    /// Whether any listener is set (the store's, a row's or an entry's). Frames without one may
    /// run the state systems interleaved with the others and deliver their events at the end.
    var hasListeners: Bool {
        listener != nil || !rowListeners.isEmpty || entryListeners.contains { $0 != nil }
    }

    /// Where delivered events are also logged for polling (`Batch.firedEvents`).
    weak var batch: Batch?

    /// A store for `compiled` with room for `capacity` rows.
    /// - Throws: `AnimationStateError.skeletonMismatch` when `data` belongs to another skeleton.
    public convenience init(compiled: CompiledSkeleton, data: AnimationStateData, capacity: Int = 16) throws {
        guard data.skeletonData === compiled.data else { throw AnimationStateError.skeletonMismatch }
        self.init(checked: compiled, data: data, capacity: capacity)
    }

    /// A store for `compiled` with data already known to belong to it.
    init(checked compiled: CompiledSkeleton, data: AnimationStateData, capacity: Int) {
        self.compiled = compiled
        stateData = data
        mixes = data.freeze()
        let rig = compiled.tables
        tables = MixingTables(rig, animationCount: compiled.data.animations.count)
        pool = TrackEntryPool(timelineStride: tables.maxTimelines, capacity: max(4, capacity * 2))
        mainWorkspace = StateWorkspace(tables: tables)
        tracks = .allocate(capacity: 1)
        trackCount = .allocate(capacity: 1)
        timeScales = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        unkeyed = .allocate(capacity: 1)
        reserveRows(max(1, capacity))
    }

    deinit {
        pool.free()
        tracks.deallocate()
        trackCount.deallocate()
        timeScales.deallocate()
        changed.deallocate()
        unkeyed.deallocate()
        restBudget?.deallocate()
        restSkipped?.deallocate()
        restDeltas?.deallocate()
        queue.free()
    }

    /// Whether `StateKernel.apply(rows:)` applies plain rows' bone and constraint timelines in groups (tests
    /// switch it off to compare with the row-by-row path).
    var groupsTimelines = true

    /// The raw views workers use; valid until rows, tracks or entries grow.
    var kernel: StateKernel {
        StateKernel(
            e: pool.columns, tracks: tracks, trackWidth: trackWidth, trackCount: trackCount, timeScale: timeScales,
            changed: changed, unkeyed: unkeyed, rig: compiled.tables, tables: tables,
            groupsTimelines: groupsTimelines)
    }

    /// Scratch for worker `index` of a parallel frame (created on first use, then reused).
    func workspace(_ index: Int) -> StateWorkspace {
        while workspaces.count <= index { workspaces.append(StateWorkspace(tables: tables)) }
        return workspaces[index]
    }

    // MARK: - Rows

    /// Bytes one more row of capacity takes: its tracks and per-row settings, and the one entry
    /// the pool reserves per row (mixing and queued entries grow the pool beyond that).
    var bytesPerRow: Int {
        trackWidth * MemoryLayout<Int32>.stride + 2 * MemoryLayout<Int32>.stride + MemoryLayout<Float>.stride
            + MemoryLayout<UInt8>.stride + pool.columns.bytesPerEntry
            + (restBudget != nil ? MemoryLayout<Float>.stride + MemoryLayout<UInt8>.stride : 0)
    }

    /// Makes room for `capacity` rows without growing later (the entry pool grows as mixes and queues
    /// need).
    public func reserveRows(_ capacity: Int) {
        // One entry per row (a track playing); mixing and queues grow the pool when they need to.
        pool.reserve(capacity)
        guard capacity > rowCapacity else { return }
        relayout(rows: capacity, width: trackWidth)
    }

    /// Adds a row with no tracks, time scale 1, and returns its index.
    @discardableResult
    public func addRow() -> Int {
        if rowCount == rowCapacity { reserveRows(max(4, rowCapacity * 2)) }
        let row = rowCount
        rowCount += 1
        (tracks + row * trackWidth).update(repeating: -1, count: trackWidth)
        trackCount[row] = 0
        timeScales[row] = 1
        changed[row] = 0
        unkeyed[row] = 0
        restBudget?[row] = 0
        restSkipped?[row] = 0
        rowListeners[row] = nil
        return row
    }

    /// Removes a row by moving the last row into it (as batches do). Its entries are disposed
    /// without events. Returns the row that moved into `row`, nil when `row` was the last.
    @discardableResult
    public func removeRow(_ row: Int) -> Int? {
        guard row >= 0, row < rowCount else { return nil }
        let last = rowCount - 1
        // Both rows' times up to date, and neither resting: the budgets stay with no row.
        wake(row: row)
        wake(row: last)
        for slot in entries(ofRow: row) { releaseEntry(slot) }
        var moved: Int?
        if row != last {
            (tracks + row * trackWidth).update(from: tracks + last * trackWidth, count: trackWidth)
            trackCount[row] = trackCount[last]
            timeScales[row] = timeScales[last]
            changed[row] = changed[last]
            unkeyed[row] = unkeyed[last]
            rowListeners[row] = rowListeners[last]
            let owned = queue.count > 0 ? ownedBy(last) : entries(ofRow: last)
            for slot in owned { pool.columns.state[slot].owner = Int32(row) }
            moved = last
        }
        rowListeners[last] = nil
        rowCount = last
        return moved
    }

    /// Reorders the rows as the batch does (`Batch.regroupByPlan`): row `i` becomes what row
    /// `order[i]` was; the entries follow their owners.
    func permuteRows(_ order: [Int32]) {
        let n = rowCount
        precondition(order.count == n)
        wakeAll()
        var newRow = [Int32](repeating: -1, count: n)
        for (i, old) in order.enumerated() { newRow[Int(old)] = Int32(i) }
        let oldTracks = Array(UnsafeBufferPointer(start: tracks, count: n * trackWidth))
        let oldCounts = Array(UnsafeBufferPointer(start: trackCount, count: n))
        let oldScales = Array(UnsafeBufferPointer(start: timeScales, count: n))
        let oldChanged = Array(UnsafeBufferPointer(start: changed, count: n))
        let oldUnkeyed = Array(UnsafeBufferPointer(start: unkeyed, count: n))
        for (i, o) in order.enumerated() {
            let old = Int(o)
            for t in 0..<trackWidth { tracks[i * trackWidth + t] = oldTracks[old * trackWidth + t] }
            trackCount[i] = oldCounts[old]
            timeScales[i] = oldScales[old]
            changed[i] = oldChanged[old]
            unkeyed[i] = oldUnkeyed[old]
        }
        if !rowListeners.isEmpty {
            var moved: [Int: AnimationStateListener] = [:]
            for (row, listener) in rowListeners where row < n { moved[Int(newRow[row])] = listener }
            rowListeners = moved
        }
        let e = pool.columns
        for slot in 0..<e.capacity where e.state[slot].live != 0 {
            let owner = Int(e.state[slot].owner)
            if owner >= 0 && owner < n { e.state[slot].owner = newRow[owner] }
        }
    }

    /// Every entry a row reaches: current entries, those mixing out below them, those queued.
    func entries(ofRow row: Int) -> [Int] {
        var result: [Int] = []
        let e = pool.columns
        for t in 0..<Int(trackCount[row]) {
            let current = Int(tracks[row * trackWidth + t])
            if current < 0 { continue }
            var from = current
            while from >= 0 {
                result.append(from)
                from = Int(e.state[from].mixingFrom)
            }
            var next = Int(e.state[current].next)
            while next >= 0 {
                result.append(next)
                next = Int(e.state[next].next)
            }
        }
        return result
    }

    /// Every live entry whose owner is `row`, linked or not (ended entries wait for delivery).
    private func ownedBy(_ row: Int) -> [Int] {
        let e = pool.columns
        return (0..<e.capacity).filter { e.state[$0].live != 0 && e.state[$0].owner == Int32(row) }
    }

    func relayout(rows: Int, width: Int) {
        let newTracks = UnsafeMutablePointer<Int32>.allocate(capacity: rows * width)
        newTracks.initialize(repeating: -1, count: rows * width)
        for row in 0..<rowCount {
            (newTracks + row * width).update(from: tracks + row * trackWidth, count: min(width, trackWidth))
        }
        tracks.deallocate()
        tracks = newTracks
        if rows > rowCapacity {
            func grow<T: BitwiseCopyable>(_ p: inout UnsafeMutablePointer<T>, fill: T) {
                let fresh = UnsafeMutablePointer<T>.allocate(capacity: rows)
                fresh.initialize(repeating: fill, count: rows)
                fresh.update(from: p, count: rowCount)
                p.deallocate()
                p = fresh
            }
            grow(&trackCount, fill: 0)
            grow(&timeScales, fill: 1)
            grow(&changed, fill: 0)
            grow(&unkeyed, fill: 0)
            if restBudget != nil {
                grow(&restBudget!, fill: 0)
                grow(&restSkipped!, fill: 0)
            }
            rowCapacity = rows
        }
        trackWidth = width
    }

    // MARK: - Per-row settings

    /// The row's time scale: every entry of the row advances by delta times it (1 at first).
    public func timeScale(row: Int) -> Float { timeScales[row] }
    /// Sets the row's time scale.
    public func setTimeScale(row: Int, _ value: Float) {
        wake(row: row)
        timeScales[row] = value
    }

    /// Number of tracks in use by a row (the highest track index set + 1).
    public func trackCount(row: Int) -> Int { Int(trackCount[row]) }

    /// The current entry of a track, nil when the track is empty.
    public func current(row: Int, track: Int) -> TrackEntry? {
        guard track >= 0, track < Int(trackCount[row]) else { return nil }
        let slot = Int(tracks[row * trackWidth + track])
        return slot >= 0 ? handle(slot) : nil
    }

    /// Sets the listener that receives every event of the row's entries (nil removes it); called on
    /// the thread that runs `World.update`, after the frame's systems, in row order.
    public func setListener(row: Int, _ listener: AnimationStateListener?) { rowListeners[row] = listener }

    // MARK: - Entries

    func handle(_ slot: Int) -> TrackEntry {
        TrackEntry(store: self, slot: Int32(slot), generation: pool.columns.state[slot].generation)
    }

    /// The slot of a live entry, or the stale-handle error.
    func resolve(_ entry: TrackEntry) throws -> Int {
        let slot = Int(entry.slot)
        let e = pool.columns
        guard entry.store === self, slot >= 0, slot < e.capacity, e.state[slot].live != 0,
            e.state[slot].generation == entry.generation
        else { throw AnimationStateError.staleTrackEntry }
        return slot
    }

    func setEntryListener(_ slot: Int, _ listener: AnimationStateListener?) {
        if entryListeners.count < pool.columns.capacity {
            entryListeners.append(contentsOf: repeatElement(nil, count: pool.columns.capacity - entryListeners.count))
        }
        entryListeners[slot] = listener
    }

    func releaseEntry(_ slot: Int) {
        if slot < entryListeners.count { entryListeners[slot] = nil }
        pool.release(slot)
    }

    // MARK: - Frames

    /// Advances one row and delivers its events (single-threaded use; frames advance every row through
    /// the `Scheduler`).
    public func update(row: Int, delta: Float) {
        wake(row: row)
        kernel.update(row: row, delta: Scheduler.frameDelta(delta), &queue)
        drain()
    }

    /// Poses one row from its tracks and delivers its events (single-threaded use).
    @discardableResult
    func apply(row: Int, columns: BatchColumns) -> Bool {
        wake(row: row)
        let applied = kernel.apply(row: row, ApplyColumns(columns), mainWorkspace)
        queue.append(contentsOf: mainWorkspace.events)
        mainWorkspace.events.removeAll()
        drain()
        return applied
    }

    /// Moves the events workers queued into the delivery queue, in worker order (workers cover
    /// consecutive row ranges, so this is row order).
    func collect(workers: Int) {
        for w in 0..<min(workers, workspaces.count) {
            queue.append(contentsOf: workspaces[w].events)
            workspaces[w].events.removeAll()
        }
    }
}
