import BoneworkWorld
import Dispatch

/// Culls and orders a crowd for the GPU path: of the characters at `(x[k], y[k])`, those inside
/// a viewport grown by a margin (a character's reach from its position), ordered back to front:
/// higher on the plane (larger y) first, ties by index. Culling and sorting run on worker
/// threads, a chunk of characters each; the calling thread only merges the chunks' sorted runs.
/// The result is the same for any thread count. Keeps its buffers: once warm it allocates nothing.
public final class BackToFront {
    /// World units a character may reach outside the viewport from its position and still be drawn.
    public var margin: Float
    /// The fewest characters worth a worker thread of their own.
    public var minimumChunk = 2048
    private var capacity = 0
    private var keys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1)
    /// The radix sort's second buffer, as long as `keys`.
    private var spare = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 1)
    /// Per chunk, the radix sort's 256 digit counts.
    private let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 256 * 64)
    private var order = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 1)
    /// Per chunk: its run's length, then (while merging) its head and end, then its thread CPU time.
    private let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: 4 * 64)
    /// CPU time the last `run` took on every thread together (culling, sorting, merging), nanoseconds.
    public private(set) var lastCPUNanoseconds: UInt64 = 0
    /// Of `lastCPUNanoseconds`, what ran on the calling thread alone (merging the sorted runs).
    public private(set) var lastMergeNanoseconds: UInt64 = 0

    /// A culler with the given margin (world units).
    public init(margin: Float = 150) { self.margin = margin }

    deinit {
        keys.deallocate()
        spare.deallocate()
        order.deallocate()
        lengths.deallocate()
        counts.deallocate()
    }

    /// The visible characters, back to front (indices into `x` and `y`), on up to `threads`
    /// threads (at most 64). `everyone` skips culling (every character, ordered).
    ///
    /// # Safety
    /// `x` and `y` must hold the same number of positions and stay unchanged during the call; the
    /// returned buffer is valid until the next call.
    public func run(
        x: UnsafeBufferPointer<Float>, y: UnsafeBufferPointer<Float>, viewport: WorldViewport, everyone: Bool = false,
        threads: Int = 1
    ) -> UnsafeBufferPointer<Int32> {
        let count = min(x.count, y.count)
        if capacity < count {
            keys.deallocate()
            spare.deallocate()
            order.deallocate()
            capacity = max(count, capacity * 2)
            keys = .allocate(capacity: capacity)
            spare = .allocate(capacity: capacity)
            order = .allocate(capacity: capacity)
        }
        let chunks = max(1, min(threads, 64, count / max(1, minimumChunk)))
        let bounds = (
            viewport.x - margin, viewport.y - margin, viewport.x + viewport.width + margin,
            viewport.y + viewport.height + margin
        )
        let job = CullJob(
            x: x, y: y, keys: keys, spare: spare, counts: counts, lengths: lengths, count: count, chunks: chunks,
            bounds: bounds, everyone: everyone)
        if chunks == 1 {
            job.run(0)
        } else {
            WorkerPool.shared.perform(iterations: chunks, job)
        }
        // Merge the chunks' sorted runs (chunk c's starts at count * c / chunks).
        let mergeStart = RenderClock.threadCPU()
        defer {
            lastMergeNanoseconds = RenderClock.threadCPU() &- mergeStart
            lastCPUNanoseconds = lastMergeNanoseconds
            for c in 0..<chunks { lastCPUNanoseconds &+= UInt64(lengths[192 + c]) }
        }
        var total = 0
        if chunks == 1 {
            total = lengths[0]
            for k in 0..<total { order[k] = Int32(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF) }
        } else {
            let heads = lengths.baseAddress! + 64
            let ends = lengths.baseAddress! + 128
            for c in 0..<chunks {
                heads[c] = count * c / chunks
                ends[c] = heads[c] + lengths[c]
            }
            while true {
                var best = -1
                var bestKey = UInt64.max
                for c in 0..<chunks where heads[c] < ends[c] {
                    let key = keys[heads[c]]
                    if best < 0 || key < bestKey {
                        best = c
                        bestKey = key
                    }
                }
                guard best >= 0 else { break }
                order[total] = Int32(truncatingIfNeeded: bestKey & 0xFFFF_FFFF)
                total += 1
                heads[best] += 1
            }
        }
        return UnsafeBufferPointer(rebasing: order[0..<total])
    }

    /// Sorts `count` keys whose low halves ascend (a chunk's indices, written in order) into
    /// ascending order: a stable radix sort on the high half, a byte per pass, through `spare`
    /// (as long) and `counts` (256 entries). The standard library's sort allocates its merge
    /// buffer on every call; this allocates nothing, and for a chunk of 5,000 keys it is faster.
    static func sortByHighHalf(
        _ keys: UnsafeMutablePointer<UInt64>, spare: UnsafeMutablePointer<UInt64>, count: Int,
        counts: UnsafeMutablePointer<Int>
    ) {
        var from = keys
        var to = spare
        for pass in 0..<4 {
            let shift = UInt64(32 + 8 * pass)
            counts.update(repeating: 0, count: 256)
            for i in 0..<count { counts[Int(truncatingIfNeeded: (from[i] >> shift) & 0xFF)] &+= 1 }
            // A byte every key shares (a crowd's heights often share their top bytes) moves nothing.
            if count == 0 || counts[Int(truncatingIfNeeded: (from[0] >> shift) & 0xFF)] == count { continue }
            var sum = 0
            for d in 0..<256 { (counts[d], sum) = (sum, sum &+ counts[d]) }
            for i in 0..<count {
                let key = from[i]
                let d = Int(truncatingIfNeeded: (key >> shift) & 0xFF)
                to[counts[d]] = key
                counts[d] &+= 1
            }
            swap(&from, &to)
        }
        if from != keys { keys.update(from: from, count: count) }
    }

    /// The sort key of a character: y descending (an order-preserving map of the float onto
    /// unsigned integers, reversed), then its index.
    @inline(__always)
    static func key(y: Float, index: Int) -> UInt64 {
        let bits = y.bitPattern
        let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
        return UInt64(~ordered) << 32 | UInt64(UInt32(truncatingIfNeeded: index))
    }
}

/// One culling pass. `@unchecked Sendable`: chunk c reads positions and writes keys only in its
/// own range `count * c / chunks ..< count * (c + 1) / chunks` and its own length; the caller waits.
private struct CullJob: ParallelIterations, @unchecked Sendable {
    let x: UnsafeBufferPointer<Float>
    let y: UnsafeBufferPointer<Float>
    let keys: UnsafeMutableBufferPointer<UInt64>
    let spare: UnsafeMutableBufferPointer<UInt64>
    let counts: UnsafeMutableBufferPointer<Int>
    let lengths: UnsafeMutableBufferPointer<Int>
    let count: Int
    let chunks: Int
    let bounds: (Float, Float, Float, Float)
    let everyone: Bool

    func run(_ c: Int) {
        let start = RenderClock.threadCPU()
        defer { lengths[192 + c] = Int(truncatingIfNeeded: RenderClock.threadCPU() &- start) }
        let lower = count * c / chunks
        let upper = count * (c + 1) / chunks
        var n = lower
        for k in lower..<upper {
            let px = x[k]
            let py = y[k]
            if everyone || (px > bounds.0 && px < bounds.2 && py > bounds.1 && py < bounds.3) {
                keys[n] = BackToFront.key(y: py, index: k)
                n += 1
            }
        }
        BackToFront.sortByHighHalf(
            keys.baseAddress! + lower, spare: spare.baseAddress! + lower, count: n - lower,
            counts: counts.baseAddress! + 256 * c)
        lengths[c] = n - lower
    }
}
