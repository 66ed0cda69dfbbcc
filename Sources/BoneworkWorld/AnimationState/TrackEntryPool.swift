/// Times of one track entry: what update and apply read and write every frame, in one
/// 64-byte record (one cache line).
struct EntryTimes {
    var trackTime: Float = 0
    var trackLast: Float = -1
    /// -1 until the entry is applied the first time.
    var nextTrackLast: Float = -1
    var trackEnd: Float = .greatestFiniteMagnitude
    var animationStart: Float = 0
    var animationEnd: Float = 0
    var animationLast: Float = -1
    var nextAnimationLast: Float = -1
    var delay: Float = 0
    var timeScale: Float = 1
    var alpha: Float = 1
    var mixTime: Float = 0
    var mixDuration: Float = 0
    var interruptAlpha: Float = 1
    var totalAlpha: Float = 0
    var eventThreshold: Float = 0
}

/// Identity, links, flags and thresholds of one track entry (one record under 64 bytes).
struct EntryState {
    /// The animation index, -1 = the empty animation.
    var animation: Int32 = -1
    var track: Int32 = 0
    /// The batch row of the instance that owns the entry.
    var owner: Int32 = -1
    // Links between entries (slot ids, -1 = none).
    var previous: Int32 = -1
    var next: Int32 = -1
    var mixingFrom: Int32 = -1
    var mixingTo: Int32 = -1
    /// Bumped every time the slot is freed; a handle is valid while it matches.
    var generation: UInt32 = 0
    var alphaAttachmentThreshold: Float = 0
    var mixAttachmentThreshold: Float = 0
    var mixDrawOrderThreshold: Float = 0
    /// Non-zero while the slot holds an entry.
    var live: UInt8 = 0
    // Flags (0 / 1).
    var loop: UInt8 = 0
    var holdPrevious: UInt8 = 0
    var reverse: UInt8 = 0
    var shortestRotation: UInt8 = 0
    /// Whether the rotation memory holds values (cleared when the entry starts mixing out).
    var rotationsReady: UInt8 = 0
    /// `MixBlend` raw value.
    var mixBlend: UInt8 = UInt8(MixBlend.replace.rawValue)
}

/// Track entries of a batch's animation states, stored as columns indexed by entry slot:
/// `times` and `state` (the fields grouped by how systems read them, one cache line each, so
/// that an entry costs two lines wherever its slot is), and per-timeline scratch columns.
/// No object exists per entry. A slot is reused after its entry is disposed; its generation
/// then changes, so a `TrackEntry` handle kept past disposal is refused.
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

    var times: UnsafeMutablePointer<EntryTimes>
    var state: UnsafeMutablePointer<EntryState>
    // Per-timeline scratch, `timelineStride` per entry (rotation memory: 2 floats per timeline).
    var timelineMode: UnsafeMutablePointer<UInt8>
    var timelineHoldMix: UnsafeMutablePointer<Int32>
    var timelinesRotation: UnsafeMutablePointer<Float>

    init(timelineStride: Int) {
        self.timelineStride = max(1, timelineStride)
        times = .allocate(capacity: 1)
        state = .allocate(capacity: 1)
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
        move(&times, 1, fill: EntryTimes())
        move(&state, 1, fill: EntryState())
        move(&timelineMode, timelineStride, fill: 0)
        move(&timelineHoldMix, timelineStride, fill: -1)
        move(&timelinesRotation, timelineStride * 2, fill: 0)
        capacity = newCapacity
    }

    /// Bytes one more entry of capacity takes in these columns and the pool's free bits
    /// (counted as a byte).
    var bytesPerEntry: Int {
        MemoryLayout<EntryTimes>.stride + MemoryLayout<EntryState>.stride
            + timelineStride
            * (MemoryLayout<UInt8>.stride + MemoryLayout<Int32>.stride + 2 * MemoryLayout<Float>.stride)
            + 1
    }

    func free() {
        times.deallocate()
        state.deallocate()
        timelineMode.deallocate()
        timelineHoldMix.deallocate()
        timelinesRotation.deallocate()
    }

    /// The animation time an entry poses: wrapped into [start, end) when looping, else clamped to end.
    @inline(__always)
    func animationTime(_ e: Int) -> Float { animationTime(e, trackTime: times[e].trackTime) }

    /// `animationTime(_:)` at track time `trackTime` (a resting row catching up, `RestColumns`).
    @inline(__always)
    func animationTime(_ e: Int, trackTime: Float) -> Float {
        let t = times[e]
        if state[e].loop != 0 {
            let duration = t.animationEnd - t.animationStart
            if duration == 0 { return t.animationStart }
            return trackTime.truncatingRemainder(dividingBy: duration) + t.animationStart
        }
        return min(trackTime + t.animationStart, t.animationEnd)
    }

    /// When the entry next completes: the end of the current loop, the animation's end, or (for
    /// zero-length animations and past the end) its current track time.
    @inline(__always)
    func trackComplete(_ e: Int) -> Float {
        let t = times[e]
        let duration = t.animationEnd - t.animationStart
        if duration != 0 {
            if state[e].loop != 0 {
                let loops = StateMath.truncatedInt(t.trackTime / duration)
                return duration * Float(1 &+ loops)
            }
            if t.trackTime < duration { return duration }
        }
        return t.trackTime
    }
}

/// The pool that owns `EntryColumns` and hands out slots.
///
/// A new entry goes to the free slot at or after a position its caller picks (wrapping round):
/// the store picks the slot whose place in the pool matches its row's place among the rows, so
/// that the entries of neighbouring rows stay near each other in memory whatever order they were
/// made in, and a pass over the rows reads the entry columns roughly front to back. With the
/// free slots in a last-in first-out list, the crowd's animation changes (new entries taking
/// the slots other rows' entries had just freed) scattered a row's entries over the whole pool
/// within seconds, and the state update and the apply of rows not posed spent their time
/// waiting for them: 100,000 default characters under `--budget-ms 12` on two threads took
/// 57-67 ms of engine CPU per frame that way, 49-53 ms this way (the state update 17-19 ms ->
/// 11-12 ms; `Docs/UpdateRates.md`). A search reads a word of free bits per 64 slots and a
/// summary word per 4,096.
struct TrackEntryPool {
    var columns: EntryColumns
    /// One bit per slot, set while the slot is free.
    private var freeBits: [UInt64] = []
    /// One bit per word of `freeBits`, set while the word has a free slot: a search skips 4,096
    /// live slots per word it reads here.
    private var freeWords: [UInt64] = []
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
        let words = (capacity &+ 63) >> 6
        freeBits.append(contentsOf: repeatElement(0, count: words - freeBits.count))
        freeWords.append(contentsOf: repeatElement(0, count: ((words &+ 63) >> 6) - freeWords.count))
        for slot in old..<capacity { markFree(slot) }
    }

    /// The first free slot at or after `near` (wrapping round to slot 0), growing the columns
    /// (doubling) when every slot is live.
    mutating func obtain(near: Int = 0) -> Int {
        if liveCount == columns.capacity { reserve(columns.capacity * 2) }
        let start = min(max(near, 0), columns.capacity - 1)
        var word = start >> 6
        // The free slots of `start`'s word at or after it; those before it come last, after the wrap.
        var bits = freeBits[word] & (~0 << UInt64(start & 63))
        if bits == 0 {
            word = nextFreeWord(after: word)
            bits = freeBits[word]
        }
        let slot = word << 6 | bits.trailingZeroBitCount
        freeBits[word] &= ~(1 << UInt64(slot & 63))
        if freeBits[word] == 0 { freeWords[word >> 6] &= ~(1 << UInt64(word & 63)) }
        columns.state[slot].live = 1
        liveCount += 1
        highWater = max(highWater, liveCount)
        return slot
    }

    /// The first word after `word` with a free slot, wrapping round (one exists: a slot is free).
    private func nextFreeWord(after word: Int) -> Int {
        var w = word &+ 1
        if w == freeBits.count { w = 0 }
        var summary = w >> 6
        var bits = freeWords[summary] & (~0 << UInt64(w & 63))
        while bits == 0 {
            summary = summary &+ 1 == freeWords.count ? 0 : summary &+ 1
            bits = freeWords[summary]
        }
        return summary << 6 | bits.trailingZeroBitCount
    }

    private mutating func markFree(_ slot: Int) {
        let word = slot >> 6
        freeBits[word] |= 1 << UInt64(slot & 63)
        freeWords[word >> 6] |= 1 << UInt64(word & 63)
    }

    /// Returns a slot to the pool: its generation changes so that old handles are refused.
    mutating func release(_ slot: Int) {
        guard slot >= 0, slot < columns.capacity, columns.state[slot].live != 0 else { return }
        var fresh = EntryState()
        fresh.generation = columns.state[slot].generation &+ 1
        columns.state[slot] = fresh
        liveCount -= 1
        markFree(slot)
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
