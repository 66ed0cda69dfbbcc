import BoneworkFormat

/// One event an animation state raised, waiting to be delivered: what happened, to which
/// entry (slot and generation), and for user events which key fired.
struct QueuedStateEvent: BitwiseCopyable {
    var type: TrackEventType
    var entry: Int32
    var generation: UInt32
    /// `.event`: the global event key index (see `CompiledSkeleton.eventKeys`); -1 otherwise.
    var key: Int32
}

/// A growable list of queued events owned by one worker (or by the store for operations).
/// It keeps its capacity between frames, so a frame only allocates when it raises more events
/// than any frame before it.
struct StateEventSink {
    private(set) var storage: UnsafeMutablePointer<QueuedStateEvent>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ type: TrackEventType, entry: Int, generation: UInt32, key: Int32 = -1) {
        if count == capacity { grow(capacity * 2) }
        storage[count] = QueuedStateEvent(
            type: type, entry: Int32(truncatingIfNeeded: entry), generation: generation, key: key)
        count &+= 1
    }

    mutating func append(contentsOf other: StateEventSink) {
        if count + other.count > capacity { grow(max(capacity * 2, count + other.count)) }
        (storage + count).update(from: other.storage, count: other.count)
        count += other.count
    }

    @inline(__always)
    subscript(i: Int) -> QueuedStateEvent { storage[i] }

    mutating func removeAll() { count = 0 }

    private mutating func grow(_ newCapacity: Int) {
        let fresh = UnsafeMutablePointer<QueuedStateEvent>.allocate(capacity: newCapacity)
        fresh.update(from: storage, count: count)
        storage.deallocate()
        storage = fresh
        capacity = newCapacity
    }

    func free() { storage.deallocate() }
}

/// Scratch one worker (a chunk of instances on one thread) uses while updating and applying
/// animation states: its event sink, the event keys one entry's apply fires, and the property
/// set used when recomputing mix modes. Allocated once; reused every frame.
final class StateWorkspace {
    /// Written only by the thread that owns this workspace: no dynamic exclusivity checks.
    @exclusivity(unchecked) var events: StateEventSink
    let firedKeys: UnsafeMutablePointer<Int32>
    let firedTimes: UnsafeMutablePointer<Float>
    let firedCapacity: Int
    /// Property p is in the set when `propertyStamp[p] == stamp`; bumping `stamp` empties it.
    let propertyStamp: UnsafeMutablePointer<UInt32>
    let propertyCount: Int
    var stamp: UInt32 = 1

    /// Rows `StateKernel.apply(rows:)` takes at a time.
    static let runCapacity = 64
    /// Per row of a run whose track 0 plays plainly (see `StateKernel.applyGroupedTimelines`):
    /// the row, the start of its bone, IK and transform rows, its animation time, and its
    /// group key (animation, plan).
    let runRows: UnsafeMutablePointer<Int>
    let runBones: UnsafeMutablePointer<Int>
    let runIK: UnsafeMutablePointer<Int>
    let runTransforms: UnsafeMutablePointer<Int>
    let runTimes: UnsafeMutablePointer<Float>
    let runKeys: UnsafeMutablePointer<Int>
    /// Per row of the run (by offset from its first row): 1 when track 0's grouped timelines
    /// were applied with its group, and then track 0's animation time (`applyRow` reuses it).
    let groupedApplied: UnsafeMutablePointer<UInt8>
    let trackZeroTimes: UnsafeMutablePointer<Float>

    init(tables: MixingTables) {
        events = StateEventSink()
        // A looping apply can fire each key twice (the end of one loop and the start of the next).
        firedCapacity = 2 * tables.maxEventKeys + 2
        firedKeys = .allocate(capacity: firedCapacity)
        firedTimes = .allocate(capacity: firedCapacity)
        propertyCount = tables.propertyCount
        propertyStamp = .allocate(capacity: max(1, tables.propertyCount))
        propertyStamp.initialize(repeating: 0, count: max(1, tables.propertyCount))
        func run<T: BitwiseCopyable & Numeric>(_: T.Type) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: Self.runCapacity)
            p.initialize(repeating: 0, count: Self.runCapacity)
            return p
        }
        runRows = run(Int.self)
        runBones = run(Int.self)
        runIK = run(Int.self)
        runTransforms = run(Int.self)
        runTimes = run(Float.self)
        runKeys = run(Int.self)
        groupedApplied = run(UInt8.self)
        trackZeroTimes = run(Float.self)
    }

    deinit {
        events.free()
        firedKeys.deallocate()
        firedTimes.deallocate()
        propertyStamp.deallocate()
        runRows.deallocate()
        runBones.deallocate()
        runIK.deallocate()
        runTransforms.deallocate()
        runTimes.deallocate()
        runKeys.deallocate()
        groupedApplied.deallocate()
        trackZeroTimes.deallocate()
    }

    /// Empties the property set.
    @inline(__always)
    func clearProperties() {
        stamp &+= 1
        if stamp == 0 {
            propertyStamp.update(repeating: 0, count: max(1, propertyCount))
            stamp = 1
        }
    }

    /// Adds the properties of `timeline`; true when at least one was not in the set yet.
    @inline(__always)
    func addProperties(_ tables: MixingTables, timeline: Int) -> Bool {
        var added = false
        let first = Int(tables.propertyStart[timeline])
        for k in 0..<Int(tables.propertyLength[timeline]) {
            let p = Int(tables.properties[first &+ k])
            if propertyStamp[p] != stamp {
                propertyStamp[p] = stamp
                added = true
            }
        }
        return added
    }
}
