/// Track entries of a batch's animation states, stored as columns: entry `e`'s fields are
/// `field[e]`. No object exists per entry. A slot is reused after its entry is disposed; its
/// generation then changes, so a `TrackEntry` handle kept past disposal is refused.
///
/// Per-timeline scratch (mix mode, hold entry, rotation memory) has a fixed stride per entry
/// (`timelineStride`, the most timelines any animation of the skeleton has), so nothing is
/// allocated when an entry starts or mixes.
///
/// The pool only grows on the calling thread (when an operation needs a new entry and every
/// slot is live); systems running on other threads only read and write the fields of entries
/// their instances own. Pointers are stable between growths.
struct EntryColumns {
    var capacity = 0
    let timelineStride: Int

    /// Bumped every time the slot is freed; a handle is valid while it matches.
    var generation: UnsafeMutablePointer<UInt32>
    /// Non-zero while the slot holds an entry.
    var live: UnsafeMutablePointer<UInt8>
    /// The animation index, -1 = the empty animation.
    var animation: UnsafeMutablePointer<Int32>
    var track: UnsafeMutablePointer<Int32>
    /// The batch row of the instance that owns the entry.
    var owner: UnsafeMutablePointer<Int32>
    // Links between entries (slot ids, -1 = none).
    var previous: UnsafeMutablePointer<Int32>
    var next: UnsafeMutablePointer<Int32>
    var mixingFrom: UnsafeMutablePointer<Int32>
    var mixingTo: UnsafeMutablePointer<Int32>
    // Flags (0 / 1).
    var loop: UnsafeMutablePointer<UInt8>
    var holdPrevious: UnsafeMutablePointer<UInt8>
    var reverse: UnsafeMutablePointer<UInt8>
    var shortestRotation: UnsafeMutablePointer<UInt8>
    /// Whether the rotation memory holds values (cleared when the entry starts mixing out).
    var rotationsReady: UnsafeMutablePointer<UInt8>
    /// `MixBlend` raw value.
    var mixBlend: UnsafeMutablePointer<UInt8>
    // Times.
    var delay: UnsafeMutablePointer<Float>
    var trackTime: UnsafeMutablePointer<Float>
    var trackLast: UnsafeMutablePointer<Float>
    var nextTrackLast: UnsafeMutablePointer<Float>
    var trackEnd: UnsafeMutablePointer<Float>
    var animationStart: UnsafeMutablePointer<Float>
    var animationEnd: UnsafeMutablePointer<Float>
    var animationLast: UnsafeMutablePointer<Float>
    var nextAnimationLast: UnsafeMutablePointer<Float>
    var timeScale: UnsafeMutablePointer<Float>
    // Mixing.
    var alpha: UnsafeMutablePointer<Float>
    var mixTime: UnsafeMutablePointer<Float>
    var mixDuration: UnsafeMutablePointer<Float>
    var interruptAlpha: UnsafeMutablePointer<Float>
    var totalAlpha: UnsafeMutablePointer<Float>
    // Thresholds.
    var eventThreshold: UnsafeMutablePointer<Float>
    var alphaAttachmentThreshold: UnsafeMutablePointer<Float>
    var mixAttachmentThreshold: UnsafeMutablePointer<Float>
    var mixDrawOrderThreshold: UnsafeMutablePointer<Float>
    // Per-timeline scratch, `timelineStride` per entry (rotation memory: 2 floats per timeline).
    var timelineMode: UnsafeMutablePointer<UInt8>
    var timelineHoldMix: UnsafeMutablePointer<Int32>
    var timelinesRotation: UnsafeMutablePointer<Float>

    init(timelineStride: Int) {
        self.timelineStride = max(1, timelineStride)
        generation = .allocate(capacity: 1)
        live = .allocate(capacity: 1)
        animation = .allocate(capacity: 1)
        track = .allocate(capacity: 1)
        owner = .allocate(capacity: 1)
        previous = .allocate(capacity: 1)
        next = .allocate(capacity: 1)
        mixingFrom = .allocate(capacity: 1)
        mixingTo = .allocate(capacity: 1)
        loop = .allocate(capacity: 1)
        holdPrevious = .allocate(capacity: 1)
        reverse = .allocate(capacity: 1)
        shortestRotation = .allocate(capacity: 1)
        rotationsReady = .allocate(capacity: 1)
        mixBlend = .allocate(capacity: 1)
        delay = .allocate(capacity: 1)
        trackTime = .allocate(capacity: 1)
        trackLast = .allocate(capacity: 1)
        nextTrackLast = .allocate(capacity: 1)
        trackEnd = .allocate(capacity: 1)
        animationStart = .allocate(capacity: 1)
        animationEnd = .allocate(capacity: 1)
        animationLast = .allocate(capacity: 1)
        nextAnimationLast = .allocate(capacity: 1)
        timeScale = .allocate(capacity: 1)
        alpha = .allocate(capacity: 1)
        mixTime = .allocate(capacity: 1)
        mixDuration = .allocate(capacity: 1)
        interruptAlpha = .allocate(capacity: 1)
        totalAlpha = .allocate(capacity: 1)
        eventThreshold = .allocate(capacity: 1)
        alphaAttachmentThreshold = .allocate(capacity: 1)
        mixAttachmentThreshold = .allocate(capacity: 1)
        mixDrawOrderThreshold = .allocate(capacity: 1)
        timelineMode = .allocate(capacity: 1)
        timelineHoldMix = .allocate(capacity: 1)
        timelinesRotation = .allocate(capacity: 1)
    }

    /// Reallocates every column for `newCapacity` entries, keeping the first `capacity`.
    mutating func grow(to newCapacity: Int) {
        guard newCapacity > capacity else { return }
        let old = capacity
        @inline(__always)
        func move<T: BitwiseCopyable>(_ p: inout UnsafeMutablePointer<T>, _ width: Int, fill: T) {
            let fresh = UnsafeMutablePointer<T>.allocate(capacity: newCapacity * width)
            fresh.initialize(repeating: fill, count: newCapacity * width)
            if old > 0 { fresh.update(from: p, count: old * width) }
            p.deallocate()
            p = fresh
        }
        move(&generation, 1, fill: 0)
        move(&live, 1, fill: 0)
        move(&animation, 1, fill: -1)
        move(&track, 1, fill: 0)
        move(&owner, 1, fill: -1)
        move(&previous, 1, fill: -1)
        move(&next, 1, fill: -1)
        move(&mixingFrom, 1, fill: -1)
        move(&mixingTo, 1, fill: -1)
        move(&loop, 1, fill: 0)
        move(&holdPrevious, 1, fill: 0)
        move(&reverse, 1, fill: 0)
        move(&shortestRotation, 1, fill: 0)
        move(&rotationsReady, 1, fill: 0)
        move(&mixBlend, 1, fill: 0)
        move(&delay, 1, fill: 0)
        move(&trackTime, 1, fill: 0)
        move(&trackLast, 1, fill: 0)
        move(&nextTrackLast, 1, fill: 0)
        move(&trackEnd, 1, fill: 0)
        move(&animationStart, 1, fill: 0)
        move(&animationEnd, 1, fill: 0)
        move(&animationLast, 1, fill: 0)
        move(&nextAnimationLast, 1, fill: 0)
        move(&timeScale, 1, fill: 0)
        move(&alpha, 1, fill: 0)
        move(&mixTime, 1, fill: 0)
        move(&mixDuration, 1, fill: 0)
        move(&interruptAlpha, 1, fill: 0)
        move(&totalAlpha, 1, fill: 0)
        move(&eventThreshold, 1, fill: 0)
        move(&alphaAttachmentThreshold, 1, fill: 0)
        move(&mixAttachmentThreshold, 1, fill: 0)
        move(&mixDrawOrderThreshold, 1, fill: 0)
        move(&timelineMode, timelineStride, fill: 0)
        move(&timelineHoldMix, timelineStride, fill: -1)
        move(&timelinesRotation, timelineStride * 2, fill: 0)
        capacity = newCapacity
    }

    func free() {
        generation.deallocate()
        live.deallocate()
        animation.deallocate()
        track.deallocate()
        owner.deallocate()
        previous.deallocate()
        next.deallocate()
        mixingFrom.deallocate()
        mixingTo.deallocate()
        loop.deallocate()
        holdPrevious.deallocate()
        reverse.deallocate()
        shortestRotation.deallocate()
        rotationsReady.deallocate()
        mixBlend.deallocate()
        delay.deallocate()
        trackTime.deallocate()
        trackLast.deallocate()
        nextTrackLast.deallocate()
        trackEnd.deallocate()
        animationStart.deallocate()
        animationEnd.deallocate()
        animationLast.deallocate()
        nextAnimationLast.deallocate()
        timeScale.deallocate()
        alpha.deallocate()
        mixTime.deallocate()
        mixDuration.deallocate()
        interruptAlpha.deallocate()
        totalAlpha.deallocate()
        eventThreshold.deallocate()
        alphaAttachmentThreshold.deallocate()
        mixAttachmentThreshold.deallocate()
        mixDrawOrderThreshold.deallocate()
        timelineMode.deallocate()
        timelineHoldMix.deallocate()
        timelinesRotation.deallocate()
    }

    /// The animation time an entry poses: wrapped into [start, end) when looping, else clamped to end.
    @inline(__always)
    func animationTime(_ e: Int) -> Float {
        let start = animationStart[e]
        if loop[e] != 0 {
            let duration = animationEnd[e] - start
            if duration == 0 { return start }
            return trackTime[e].truncatingRemainder(dividingBy: duration) + start
        }
        return min(trackTime[e] + start, animationEnd[e])
    }

    /// When the entry next completes: the end of the current loop, the animation's end, or (for
    /// zero-length animations and past the end) its current track time.
    @inline(__always)
    func trackComplete(_ e: Int) -> Float {
        let duration = animationEnd[e] - animationStart[e]
        if duration != 0 {
            if loop[e] != 0 {
                let loops = StateMath.truncatedInt(trackTime[e] / duration)
                return duration * Float(1 &+ loops)
            }
            if trackTime[e] < duration { return duration }
        }
        return trackTime[e]
    }
}

/// The pool that owns `EntryColumns` and hands out slots.
struct TrackEntryPool {
    var columns: EntryColumns
    /// Free slots, used last-in first-out.
    private(set) var freeSlots: [Int32] = []
    private(set) var liveCount = 0
    /// The most entries ever live at once (what the pool's capacity is bounded by).
    private(set) var highWater = 0

    init(timelineStride: Int, capacity: Int) {
        columns = EntryColumns(timelineStride: timelineStride)
        reserve(max(4, capacity))
    }

    mutating func reserve(_ capacity: Int) {
        guard capacity > columns.capacity else { return }
        let old = columns.capacity
        columns.grow(to: capacity)
        freeSlots.reserveCapacity(capacity)
        // Lower slots are handed out first.
        for slot in stride(from: capacity - 1, through: old, by: -1) { freeSlots.append(Int32(slot)) }
    }

    /// A free slot, growing the columns (doubling) when every slot is live.
    mutating func obtain() -> Int {
        if freeSlots.isEmpty { reserve(columns.capacity * 2) }
        let slot = Int(freeSlots.removeLast())
        columns.live[slot] = 1
        liveCount += 1
        highWater = max(highWater, liveCount)
        return slot
    }

    /// Returns a slot to the pool: its generation changes so that old handles are refused.
    mutating func release(_ slot: Int) {
        guard slot >= 0, slot < columns.capacity, columns.live[slot] != 0 else { return }
        columns.live[slot] = 0
        columns.generation[slot] &+= 1
        columns.animation[slot] = -1
        columns.owner[slot] = -1
        columns.previous[slot] = -1
        columns.next[slot] = -1
        columns.mixingFrom[slot] = -1
        columns.mixingTo[slot] = -1
        liveCount -= 1
        freeSlots.append(Int32(slot))
    }

    func free() { columns.free() }
}

/// Float helpers with the reference's exact float32 behaviour.
enum StateMath {
    /// `(int) value` as C truncates it, without trapping on NaN or out-of-range values.
    @inline(__always)
    static func truncatedInt(_ value: Float) -> Int32 {
        guard value == value else { return 0 }
        if value >= 2_147_483_648.0 { return Int32.max }
        if value <= -2_147_483_648 { return Int32.min }
        return Int32(value)
    }

    @inline(__always)
    static func sign(_ v: Float) -> Float { v < 0 ? -1 : (v > 0 ? 1 : 0) }
}
