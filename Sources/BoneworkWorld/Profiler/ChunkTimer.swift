/// Times of the systems within one chunk, filled by the worker that runs it (at most 8 systems).
struct SystemTimes {
    private var t: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)

    subscript(_ i: Int) -> UInt64 {
        @inline(__always) get {
            withUnsafeBytes(of: t) { $0.load(fromByteOffset: i &* 8, as: UInt64.self) }
        }
        @inline(__always) set {
            withUnsafeMutableBytes(of: &t) { $0.storeBytes(of: newValue, toByteOffset: i &* 8, as: UInt64.self) }
        }
    }
}

/// What one worker records about its chunk; written only by that worker during a pass, read by
/// the calling thread after it.
struct ChunkRecord {
    var thread: UInt64 = 0
    var start: UInt64 = 0
    var end: UInt64 = 0
    var rowStart: Int32 = 0
    var rowEnd: Int32 = 0
    var wall = SystemTimes()
    var cpu = SystemTimes()
    /// Clock readings at the last mark (see `ChunkTimer`).
    var lastWall: UInt64 = 0
    var lastCPU: UInt64 = 0
}

/// Times the systems of one chunk on the worker that runs it: `begin`, then `mark(system)` after
/// each system's run over a block, then `end`. Each mark reads the monotonic clock and the
/// thread's CPU clock once.
struct ChunkTimer: @unchecked Sendable {
    let records: UnsafeMutablePointer<ChunkRecord>

    @inline(__always)
    func begin(_ chunk: Int, rows: Range<Int>) {
        let w = ProfilerClock.wall()
        let c = ProfilerClock.threadCPU()
        records[chunk] = ChunkRecord(
            thread: ProfilerClock.threadID(), start: w, end: w, rowStart: Int32(truncatingIfNeeded: rows.lowerBound),
            rowEnd: Int32(truncatingIfNeeded: rows.upperBound), lastWall: w, lastCPU: c)
    }

    /// Charges the time since the previous mark to `system`.
    @inline(__always)
    func mark(_ chunk: Int, _ system: SystemID) {
        let w = ProfilerClock.wall()
        let c = ProfilerClock.threadCPU()
        let s = system.rawValue
        records[chunk].wall[s] &+= w &- records[chunk].lastWall
        records[chunk].cpu[s] &+= c &- records[chunk].lastCPU
        records[chunk].lastWall = w
        records[chunk].lastCPU = c
    }

    /// Restarts the clocks without charging anyone (work between systems that is not theirs).
    @inline(__always)
    func skip(_ chunk: Int) {
        records[chunk].lastWall = ProfilerClock.wall()
        records[chunk].lastCPU = ProfilerClock.threadCPU()
    }

    @inline(__always)
    func end(_ chunk: Int) {
        records[chunk].end = ProfilerClock.wall()
    }
}

/// Application work recorded before the frame it belongs to has begun.
struct PendingApplicationWork {
    var wall = SystemTimes()
    var cpu = SystemTimes()
    var start = SystemTimes()
    var thread = SystemTimes()
}
