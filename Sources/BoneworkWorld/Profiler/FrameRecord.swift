/// A copy of one frame's profile.
public struct FrameRecord: Sendable, Equatable {
    /// The frame's number since the profiler started (0 = first).
    public var index: Int
    /// Nanoseconds since the first frame began.
    public var start: UInt64
    /// Elapsed nanoseconds of the whole frame on the calling thread.
    public var wall: UInt64
    /// Instances alive during the frame, all batches together.
    public var instances: Int
    /// Batches (skeleton datas) the frame ran.
    public var batches: Int
    /// The most threads a pass of the frame used.
    public var threads: Int
    /// Chunks run over all passes and batches.
    public var chunks: Int
    /// Draw calls the renderer reported, -1 when none did.
    public var drawCalls: Int
    /// The renderer's submission CPU time (the GL thread), nanoseconds; 0 when none was reported.
    public var renderSubmitCPU: UInt64 = 0
    /// The renderer's packing CPU time (all threads), nanoseconds; 0 when none was reported.
    public var renderPackCPU: UInt64 = 0
    /// GPU nanoseconds of the frame's draw calls (a timer query, read back a frame or more later);
    /// 0 where none was measured.
    public var renderGPU: UInt64 = 0
    /// Per system (`SystemID.rawValue`): elapsed nanoseconds summed over its chunks.
    public var systemWall: [UInt64]
    /// Per system: thread CPU nanoseconds summed over its chunks.
    public var systemCPU: [UInt64]
    /// Every chunk the frame ran, in the order they finished (up to the profiler's slice capacity).
    public var slices: [ProfileSlice]
    /// Chunks beyond the slice capacity, counted but not kept.
    public var droppedSlices: Int
    /// Per application system (`FrameProfiler.applicationSystemNames`): elapsed and CPU
    /// nanoseconds, start (nanoseconds since the first frame began) and thread of its first run.
    public var applicationWall: [UInt64] = []
    /// Per application system: thread CPU nanoseconds.
    public var applicationCPU: [UInt64] = []
    /// Per application system: start of its first run, nanoseconds since the first frame began.
    public var applicationStart: [UInt64] = []
    /// Per application system: the thread of its first run.
    public var applicationThread: [UInt64] = []

    /// Thread CPU nanoseconds of the frame's engine systems, all threads together.
    public var cpu: UInt64 { systemCPU.reduce(0, &+) }

    /// Engine and application systems together.
    public var totalCPU: UInt64 { cpu &+ applicationCPU.reduce(0, &+) }

    /// Per thread (in order of first appearance): CPU nanoseconds spent in systems this frame.
    public var cpuPerThread: [(thread: UInt64, cpu: UInt64)] {
        var result: [(thread: UInt64, cpu: UInt64)] = []
        for s in slices {
            if let i = result.firstIndex(where: { $0.thread == s.thread }) {
                result[i].cpu &+= s.cpu
            } else {
                result.append((s.thread, s.cpu))
            }
        }
        return result
    }
}

/// One system's work on one chunk of instances during a frame: a slice of a thread's timeline.
/// When a chunk runs several systems interleaved (block by block), its slices are laid end to
/// end from the chunk's start, each as long as the time its system took inside the chunk.
public struct ProfileSlice: Sendable, Equatable {
    /// The thread that ran the chunk (`ProfilerClock.threadID`; exporters number threads 1, 2, ...).
    public var thread: UInt64
    /// The chunk's index in its pass (0 runs on the calling thread when work is split).
    public var chunk: Int32
    /// The batch's index in the world.
    public var batch: Int32
    /// The system the chunk ran.
    public var system: SystemID
    /// Rows `rowStart..<rowEnd` of the batch.
    public var rowStart: Int32
    /// One past the chunk's last row.
    public var rowEnd: Int32
    /// Nanoseconds since the profiler's first frame began.
    public var start: UInt64
    /// Elapsed nanoseconds.
    public var duration: UInt64
    /// Nanoseconds of the thread's CPU time.
    public var cpu: UInt64
}
