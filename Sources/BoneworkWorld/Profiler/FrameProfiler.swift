/// The product's CPU profiler: per frame, per system, elapsed and CPU time summed over the
/// threads that ran it, per chunk slices (thread, rows, start, duration), instance and draw call
/// counts. The last `capacity` frames are kept in a ring buffer; recording never allocates.
///
/// `Scheduler` records into it; the `BoneworkProfiling` add-on reads it (`summary()`, `csv()`,
/// `chromeTrace()`, `chart()`).
public final class FrameProfiler {
    /// Frames kept.
    public let capacity: Int
    /// Slices kept per frame (more are counted in `droppedSlices`).
    public let slicesPerFrame: Int
    /// Chunks one pass may record.
    let maxChunks: Int
    /// Frames recorded so far (the ring holds the last `capacity`).
    public private(set) var frames = 0

    private let starts: UnsafeMutablePointer<UInt64>
    private let walls: UnsafeMutablePointer<UInt64>
    /// Per frame: instances, batches, threads, chunks, draw calls, slices, dropped.
    private let counts: UnsafeMutablePointer<Int>
    private static let countFields = 7
    private let systemWall: UnsafeMutablePointer<UInt64>
    /// Per frame: the renderer's submission CPU time (GL thread) and packing CPU time (all threads).
    private let renderCPU: UnsafeMutablePointer<UInt64>
    private let systemCPU: UnsafeMutablePointer<UInt64>
    private let slices: UnsafeMutablePointer<ProfileSlice>
    let records: UnsafeMutablePointer<ChunkRecord>
    /// Application systems (see `addApplicationSystem`): names, and per frame and system the
    /// elapsed and CPU nanoseconds and the start of the first recorded run.
    public private(set) var applicationSystemNames: [String] = []
    private let applicationWall: UnsafeMutablePointer<UInt64>
    private let applicationCPU: UnsafeMutablePointer<UInt64>
    private let applicationStart: UnsafeMutablePointer<UInt64>
    private let applicationThread: UnsafeMutablePointer<UInt64>
    /// Per frame: instances at each update rate (`UpdateRate.all`, see `FrameProfiler+UpdateRates`).
    let rateCounts: UnsafeMutablePointer<Int>
    /// Work recorded for the next frame, folded into it by `beginFrame`.
    private var pending = PendingApplicationWork()

    private var epoch: UInt64 = 0
    private var current = 0
    private var frameStart: UInt64 = 0
    private var frameThreads = 0
    private var frameChunks = 0

    /// A profiler keeping the last `capacity` frames, each with up to `slicesPerFrame` chunk slices
    /// (more are counted as dropped) and `maxChunks` chunks per pass; all memory is allocated here,
    /// none while recording.
    public init(capacity: Int = 256, slicesPerFrame: Int = 256, maxChunks: Int = 64) {
        self.capacity = max(1, capacity)
        self.slicesPerFrame = max(1, slicesPerFrame)
        self.maxChunks = max(1, maxChunks)
        let n = self.capacity
        let s = SystemID.count
        starts = .allocate(capacity: n)
        starts.initialize(repeating: 0, count: n)
        walls = .allocate(capacity: n)
        walls.initialize(repeating: 0, count: n)
        counts = .allocate(capacity: n * Self.countFields)
        counts.initialize(repeating: 0, count: n * Self.countFields)
        systemWall = .allocate(capacity: n * s)
        systemWall.initialize(repeating: 0, count: n * s)
        systemCPU = .allocate(capacity: n * s)
        systemCPU.initialize(repeating: 0, count: n * s)
        renderCPU = .allocate(capacity: n * 3)
        renderCPU.initialize(repeating: 0, count: n * 3)
        rateCounts = .allocate(capacity: n * UpdateRate.count)
        rateCounts.initialize(repeating: 0, count: n * UpdateRate.count)
        // Left uninitialized: a frame's slices are read only up to its count, each written
        // (initialized) first; `ProfileSlice` is a trivial type. (Filling the ring up front cost
        // a benchmark's profiler ~15 instructions per slot of it.)
        slices = .allocate(capacity: n * self.slicesPerFrame)
        records = .allocate(capacity: self.maxChunks)
        records.initialize(repeating: ChunkRecord(), count: self.maxChunks)
        let a = n * Self.maxApplicationSystems
        applicationWall = .allocate(capacity: a)
        applicationWall.initialize(repeating: 0, count: a)
        applicationCPU = .allocate(capacity: a)
        applicationCPU.initialize(repeating: 0, count: a)
        applicationStart = .allocate(capacity: a)
        applicationStart.initialize(repeating: 0, count: a)
        applicationThread = .allocate(capacity: a)
        applicationThread.initialize(repeating: 0, count: a)
    }

    deinit {
        starts.deallocate()
        walls.deallocate()
        counts.deallocate()
        systemWall.deallocate()
        systemCPU.deallocate()
        renderCPU.deallocate()
        rateCounts.deallocate()
        slices.deallocate()
        records.deallocate()
        applicationWall.deallocate()
        applicationCPU.deallocate()
        applicationStart.deallocate()
        applicationThread.deallocate()
    }

    // MARK: - Recording (calling thread)

    private enum Count: Int {
        case instances = 0, batches, threads, chunks, drawCalls, slices, dropped
    }

    @inline(__always)
    private func count(_ frame: Int, _ field: Count) -> UnsafeMutablePointer<Int> {
        counts + (frame &* Self.countFields &+ field.rawValue)
    }

    func beginFrame() {
        let now = ProfilerClock.wall()
        if frames == 0 { epoch = now }
        current = frames % capacity
        frameStart = now
        starts[current] = now &- epoch
        for s in 0..<SystemID.count {
            systemWall[current &* SystemID.count &+ s] = 0
            systemCPU[current &* SystemID.count &+ s] = 0
        }
        for f in 0..<Self.countFields { counts[current &* Self.countFields &+ f] = 0 }
        for r in 0..<UpdateRate.count { rateCounts[current &* UpdateRate.count &+ r] = 0 }
        count(current, .drawCalls).pointee = -1
        renderCPU[current &* 3] = 0
        renderCPU[current &* 3 &+ 1] = 0
        renderCPU[current &* 3 &+ 2] = 0
        frameThreads = 0
        frameChunks = 0
        let a = current &* Self.maxApplicationSystems
        for k in 0..<Self.maxApplicationSystems {
            applicationWall[a &+ k] = pending.wall[k]
            applicationCPU[a &+ k] = pending.cpu[k]
            applicationStart[a &+ k] = pending.start[k] > epoch ? pending.start[k] &- epoch : 0
            applicationThread[a &+ k] = pending.thread[k]
        }
        pending = PendingApplicationWork()
    }

    /// The worker-side timer for a pass of at most `maxChunks` chunks.
    var timer: ChunkTimer { ChunkTimer(records: records) }

    /// Adds instances to the current frame's count at update rate `rate` (an `UpdateRate` shift).
    @inline(__always)
    func countUpdateRate(_ rate: Int, instances: Int) {
        rateCounts[current &* UpdateRate.count &+ min(max(rate, 0), UpdateRate.count &- 1)] &+= instances
    }

    /// Folds the records of a finished pass (chunks 0..<chunks of batch `batch`) into the frame;
    /// returns the pass's thread CPU nanoseconds.
    @discardableResult
    func commitPass(chunks: Int, batch: Int) -> UInt64 {
        var total: UInt64 = 0
        let n = min(chunks, maxChunks)
        frameChunks &+= n
        frameThreads = max(frameThreads, n)
        let base = current &* slicesPerFrame
        for c in 0..<n {
            let r = records[c]
            var t = r.start &- epoch
            for s in 0..<SystemID.count {
                let w = r.wall[s]
                let cpu = r.cpu[s]
                if w == 0 && cpu == 0 { continue }
                systemWall[current &* SystemID.count &+ s] &+= w
                systemCPU[current &* SystemID.count &+ s] &+= cpu
                total &+= cpu
                let used = count(current, .slices)
                if used.pointee < slicesPerFrame {
                    (slices + (base &+ used.pointee)).initialize(
                        to: ProfileSlice(
                            thread: r.thread, chunk: Int32(truncatingIfNeeded: c),
                            batch: Int32(truncatingIfNeeded: batch),
                            system: SystemID(rawValue: s) ?? .animationState, rowStart: r.rowStart, rowEnd: r.rowEnd,
                            start: t, duration: w, cpu: cpu))
                    used.pointee &+= 1
                } else {
                    count(current, .dropped).pointee &+= 1
                }
                t &+= w
            }
            records[c] = ChunkRecord()
        }
        return total
    }

    func endFrame(instances: Int, batches: Int) {
        walls[current] = ProfilerClock.wall() &- frameStart
        count(current, .instances).pointee = instances
        count(current, .batches).pointee = batches
        count(current, .threads).pointee = max(1, frameThreads)
        count(current, .chunks).pointee = frameChunks
        frames &+= 1
    }

    /// Registers work the application does on its own thread around the engine's frame (AI,
    /// steering, rendering...): it then appears beside the engine's systems in the records,
    /// summaries and exporters. At most `maxApplicationSystems`; the same name twice is one system.
    public func addApplicationSystem(_ name: String) throws(WorldError) -> ApplicationSystem {
        if let k = applicationSystemNames.firstIndex(of: name) { return ApplicationSystem(index: k) }
        guard applicationSystemNames.count < Self.maxApplicationSystems else {
            throw .tooManyApplicationSystems(name, limit: Self.maxApplicationSystems)
        }
        applicationSystemNames.append(name)
        return ApplicationSystem(index: applicationSystemNames.count - 1)
    }

    /// Runs `body` on the calling thread and charges its elapsed and CPU time to `system`, in the
    /// next frame the scheduler runs (`.nextFrame`, for work that prepares it) or in the last one
    /// (`.lastFrame`, for work that consumes it, such as drawing). Never allocates.
    @inline(__always)
    public func measure<T, E: Error>(
        _ system: ApplicationSystem, in frame: ApplicationFrame = .nextFrame, _ body: () throws(E) -> T
    ) throws(E) -> T {
        let w0 = ProfilerClock.wall()
        let c0 = ProfilerClock.threadCPU()
        let result = try body()
        record(system, in: frame, start: w0, wall: ProfilerClock.wall() &- w0, cpu: ProfilerClock.threadCPU() &- c0)
        return result
    }

    /// Charges measured time to `system` (`start`: a `CLOCK_MONOTONIC` reading in nanoseconds).
    public func record(
        _ system: ApplicationSystem, in frame: ApplicationFrame, start: UInt64, wall: UInt64, cpu: UInt64
    ) {
        let k = system.index
        guard k >= 0 && k < Self.maxApplicationSystems else { return }
        let thread = ProfilerClock.threadID()
        switch frame {
        case .nextFrame:
            if pending.wall[k] == 0 && pending.cpu[k] == 0 { pending.start[k] = start }
            pending.wall[k] &+= wall
            pending.cpu[k] &+= cpu
            pending.thread[k] = thread
        case .lastFrame:
            guard frames > 0 else { return }
            let i = ((frames - 1) % capacity) &* Self.maxApplicationSystems &+ k
            if applicationWall[i] == 0 && applicationCPU[i] == 0 {
                applicationStart[i] = start > epoch ? start &- epoch : 0
            }
            applicationWall[i] &+= wall
            applicationCPU[i] &+= cpu
            applicationThread[i] = thread
        }
    }

    /// Records the draw calls the renderer issued for the last frame.
    public func recordDrawCalls(_ calls: Int) {
        guard frames > 0 else { return }
        count((frames - 1) % capacity, .drawCalls).pointee = calls
    }

    /// Records what drawing the last frame cost the renderer: draw calls, CPU time of the thread
    /// that submitted to GL, and CPU time spent packing per-instance data (all threads), in
    /// nanoseconds; `gpu`: GPU time of its draw calls (timer query), 0 when not measured.
    public func recordRender(drawCalls: Int, submitCPU: UInt64, packCPU: UInt64, gpu: UInt64 = 0) {
        guard frames > 0 else { return }
        let f = (frames - 1) % capacity
        count(f, .drawCalls).pointee = drawCalls
        renderCPU[f &* 3] = submitCPU
        renderCPU[f &* 3 &+ 1] = packCPU
        renderCPU[f &* 3 &+ 2] = gpu
    }

    // MARK: - Reading

    /// Frames available (at most `capacity`).
    public var available: Int { min(frames, capacity) }

    func ringIndex(_ back: Int) -> Int? {
        guard back >= 0, back < available else { return nil }
        return (frames - 1 - back) % capacity
    }

    /// Elapsed (wall) nanoseconds of system `system` summed over the chunks that ran it, in the
    /// frame `back` frames ago (0 = the last).
    public func wall(_ system: SystemID, framesAgo back: Int = 0) -> UInt64? {
        guard let f = ringIndex(back) else { return nil }
        return systemWall[f * SystemID.count + system.rawValue]
    }

    /// Thread CPU nanoseconds of `system` summed over the threads that ran it.
    public func cpu(_ system: SystemID, framesAgo back: Int = 0) -> UInt64? {
        guard let f = ringIndex(back) else { return nil }
        return systemCPU[f * SystemID.count + system.rawValue]
    }

    /// Elapsed nanoseconds of application system `k` (in the order they were added) in the frame
    /// `back` frames ago; nil when that frame or system does not exist. Allocates nothing.
    public func applicationWall(_ k: Int, framesAgo back: Int = 0) -> UInt64? {
        guard k >= 0 && k < applicationSystemNames.count, let f = ringIndex(back) else { return nil }
        return applicationWall[f * Self.maxApplicationSystems + k]
    }

    /// CPU nanoseconds of application system `k` in the frame `back` frames ago; nil when that
    /// frame or system does not exist. Allocates nothing.
    public func applicationCPU(_ k: Int, framesAgo back: Int = 0) -> UInt64? {
        guard k >= 0 && k < applicationSystemNames.count, let f = ringIndex(back) else { return nil }
        return applicationCPU[f * Self.maxApplicationSystems + k]
    }

    /// The record of the frame `back` frames ago (allocates; for reports, not per frame).
    public func frame(framesAgo back: Int = 0) -> FrameRecord? {
        guard let f = ringIndex(back) else { return nil }
        let s = SystemID.count
        let used = counts[f * Self.countFields + Count.slices.rawValue]
        return FrameRecord(
            index: frames - 1 - back, start: starts[f], wall: walls[f],
            instances: counts[f * Self.countFields + Count.instances.rawValue],
            batches: counts[f * Self.countFields + Count.batches.rawValue],
            threads: counts[f * Self.countFields + Count.threads.rawValue],
            chunks: counts[f * Self.countFields + Count.chunks.rawValue],
            drawCalls: counts[f * Self.countFields + Count.drawCalls.rawValue],
            renderSubmitCPU: renderCPU[f * 3], renderPackCPU: renderCPU[f * 3 + 1], renderGPU: renderCPU[f * 3 + 2],
            systemWall: Array(UnsafeBufferPointer(start: systemWall + f * s, count: s)),
            systemCPU: Array(UnsafeBufferPointer(start: systemCPU + f * s, count: s)),
            slices: Array(UnsafeBufferPointer(start: slices + f * slicesPerFrame, count: used)),
            droppedSlices: counts[f * Self.countFields + Count.dropped.rawValue],
            applicationWall: Array(
                UnsafeBufferPointer(
                    start: applicationWall + f * Self.maxApplicationSystems, count: applicationSystemNames.count)),
            applicationCPU: Array(
                UnsafeBufferPointer(
                    start: applicationCPU + f * Self.maxApplicationSystems, count: applicationSystemNames.count)),
            applicationStart: Array(
                UnsafeBufferPointer(
                    start: applicationStart + f * Self.maxApplicationSystems, count: applicationSystemNames.count)),
            applicationThread: Array(
                UnsafeBufferPointer(
                    start: applicationThread + f * Self.maxApplicationSystems, count: applicationSystemNames.count)))
    }

    /// The kept frames, oldest first.
    public func recentFrames() -> [FrameRecord] {
        (0..<available).reversed().compactMap { frame(framesAgo: $0) }
    }

    /// Forgets every recorded frame.
    public func reset() {
        frames = 0
    }
}

/// A system the application runs on its own thread, registered with
/// `FrameProfiler.addApplicationSystem`.
public struct ApplicationSystem: Sendable, Equatable {
    /// Its index in `FrameProfiler.applicationSystemNames` and in the records' application arrays.
    public let index: Int
}

/// Which frame application work is charged to.
public enum ApplicationFrame: Sendable {
    /// The next frame the scheduler runs (work done before `World.update`).
    case nextFrame
    /// The frame the scheduler ran last (work done after `World.update`).
    case lastFrame
}

extension FrameProfiler {
    /// Application systems a profiler keeps times for.
    public static let maxApplicationSystems = 8
}
