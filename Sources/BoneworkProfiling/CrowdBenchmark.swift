import BoneworkFormat
import BoneworkWorld
import Foundation

/// The crowd workload `bonework bench` and the benchmark suite measure: `count` instances share
/// one `SkeletonData` (wearing `skin`, or `outfits[i % outfits.count]` composed when outfits are
/// given); instance i loops `animations[i % k]` on track 0 from a
/// seeded random start time in [0, duration). Each frame runs, for every instance, state
/// update, apply, the skeleton clock, constraints and world transforms, slot images, and the
/// world vertices of every visible region or mesh in draw order.
public struct CrowdWorkload: Sendable {
    /// The animations instances loop, instance i the `i % count`-th.
    public var animations: [String]
    /// The skin every instance wears when no outfits are given (nil: the default skin).
    public var skin: String?
    /// Composed skins (lists of skin names, `World.setSkin(_:parts:)`); empty: every instance
    /// wears `skin`.
    public var outfits: [[String]] = []
    /// Instances spawned.
    public var count: Int
    /// Seeds the start times (and outfit picks): the same seed, the same run.
    public var seed: UInt64
    /// Threads per frame.
    public var threads: Int
    /// How the scheduler orders systems over rows.
    public var mode: Scheduler.Mode
    /// Rows per block in interleaved mode.
    public var blockRows: Int
    /// The fewest rows per chunk before a frame was measured.
    public var minimumChunkRows: Int
    /// The least measured work per chunk (µs); 0 uses the row count only.
    public var minimumChunkMicroseconds: Double
    /// The column layout of the batch.
    public var layout: ColumnLayout
    /// Whether the vertex system computes world vertices on the CPU; false leaves them to the GPU
    /// path, which skins from the bones' world transforms (`bonework bench --gpu-tables`).
    public var cpuVertices = true

    /// A workload of `count` instances looping `animations`, scheduled as the defaults of `Scheduler`.
    public init(
        animations: [String], skin: String? = nil, count: Int, seed: UInt64 = 1, threads: Int = 1,
        mode: Scheduler.Mode = .interleaved, blockRows: Int = Scheduler.defaultBlockRows,
        minimumChunkRows: Int = Scheduler.defaultMinimumChunkRows,
        minimumChunkMicroseconds: Double = Scheduler.defaultMinimumChunkMicroseconds,
        layout: ColumnLayout = .standard
    ) {
        self.animations = animations
        self.skin = skin
        self.count = count
        self.seed = seed
        self.threads = threads
        self.mode = mode
        self.blockRows = blockRows
        self.minimumChunkRows = minimumChunkRows
        self.minimumChunkMicroseconds = minimumChunkMicroseconds
        self.layout = layout
    }
}

/// What a crowd run measured.
public struct CrowdResult: Sendable {
    /// Instances measured.
    public var count: Int
    /// Frames measured.
    public var frames: Int
    /// Frames run before measuring.
    public var warmup: Int
    /// Threads the frames used.
    public var threads: Int
    /// Per-system statistics of the measured frames.
    public var summary: ProfileSummary
    /// Heap bytes per instance, measured: (heap growth of a world of `count` instances - that of
    /// a world of `count / 2`) / (count - count / 2), both built the same way, so that what a
    /// world costs once (compiled tables, the scheduler, first chunks) cancels out. Nil below
    /// ``CrowdBenchmark/minimumMeasuredCount`` instances, where capacity rounding and fixed costs
    /// make the difference meaningless (it even comes out negative).
    public var bytesPerInstance: Int?
    /// Bytes of instance storage one row takes by the batch's layout (every column plus the
    /// animation state's row): exact at any count, without the heap's per-allocation overhead.
    public var storageBytesPerInstance: Int
    /// Heap bytes the measured frames allocated (see `HeapProbe.allocatedBytes`); nil when
    /// malloc statistics are unavailable. 0: no frame allocated.
    public var allocatedBytes: Int?
    /// The process's peak resident set size at the end of the run, bytes.
    public var peakResidentBytes: Int

    /// One JSON object: count, frames, threads, µs per skeleton per frame (thread CPU time; one
    /// key per system plus total, medians over frames), frame milliseconds (elapsed; median,
    /// p95), bytes per instance, allocations per frame, peak RSS.
    public var json: String {
        func f(_ v: Double, _ d: Int = 3) -> String { DecimalText.fixed(v, d) }
        var us: [String] = []
        var usWall: [String] = []
        for system in SystemID.allCases {
            us.append("\"\(system.key)\": \(f(summary.microsecondsPerSkeletonCPU[system.rawValue]))")
            usWall.append("\"\(system.key)\": \(f(summary.microsecondsPerSkeletonWall[system.rawValue]))")
        }
        us.append("\"total\": \(f(summary.microsecondsPerSkeletonCPU[SystemID.count]))")
        usWall.append("\"total\": \(f(summary.microsecondsPerSkeletonWall[SystemID.count]))")
        let wall = summary.frameWall.scaled(1e-6)
        let cpu = summary.frameCPU.scaled(1e-6)
        let busiest = summary.busiestThreadCPU.scaled(1e-6)
        let allocations: String
        if let allocatedBytes {
            // Negative: the heap shrank during the frames (another thread released cached memory).
            allocations = allocatedBytes <= 0 ? "0" : "null, \"allocated_bytes\": \(allocatedBytes)"
        } else {
            allocations = "null"
        }
        return "{\"count\": \(count), \"frames\": \(frames), \"warmup\": \(warmup), \"threads\": \(threads), "
            + "\"us_per_skeleton_frame\": {\(us.joined(separator: ", "))}, "
            + "\"us_per_skeleton_frame_wall\": {\(usWall.joined(separator: ", "))}, "
            + "\"frame_ms\": {\"median\": \(f(wall.median, 4)), \"p95\": \(f(wall.p95, 4)), \"max\": \(f(wall.max, 4))}, "
            + "\"frame_cpu_ms\": {\"median\": \(f(cpu.median, 4)), \"p95\": \(f(cpu.p95, 4))}, "
            + "\"busiest_thread_cpu_ms\": {\"median\": \(f(busiest.median, 4)), \"p95\": \(f(busiest.p95, 4))}, "
            + "\"bytes_per_instance\": \(bytesPerInstance.map(String.init) ?? "null"), "
            + "\"storage_bytes_per_instance\": \(storageBytesPerInstance), \"allocations_per_frame\": \(allocations), "
            + "\"peak_rss_bytes\": \(peakResidentBytes)}"
    }
}

/// A world set up with a `CrowdWorkload`, ready to run frames.
public final class CrowdBenchmark {
    /// The world the workload runs in.
    public let world: World
    /// The skeleton every instance shares.
    public let data: SkeletonData
    /// What was set up.
    public let workload: CrowdWorkload
    /// See ``CrowdResult/bytesPerInstance``.
    public let bytesPerInstance: Int?

    /// Sets the workload up (measuring the heap per instance from ``minimumMeasuredCount`` on), with a
    /// profiler keeping `profiledFrames` frames.
    /// - Throws: `WorldError` for an unknown animation or skin, or when the memory limit refuses the count.
    public init(data: SkeletonData, workload: CrowdWorkload, profiledFrames: Int) throws {
        self.data = data
        self.workload = workload
        // Heap growth of a world of half the instances, then of the full world: the difference
        // over the difference in instances is what one more instance costs (fixed costs such as
        // compiled tables cancel out).
        let half = workload.count / 2
        guard workload.count >= Self.minimumMeasuredCount, let before = HeapProbe.inUse() else {
            world = try Self.makeWorld(data, workload, count: workload.count, profiledFrames: profiledFrames)
            bytesPerInstance = nil
            return
        }
        let small = try Self.makeWorld(data, workload, count: half, profiledFrames: profiledFrames)
        let halfBytes = (HeapProbe.inUse() ?? before) - before
        withExtendedLifetime(small) {}
        let start = HeapProbe.inUse() ?? before
        world = try Self.makeWorld(data, workload, count: workload.count, profiledFrames: profiledFrames)
        let allBytes = (HeapProbe.inUse() ?? start) - start
        bytesPerInstance = (allBytes - halfBytes) / (workload.count - half)
    }

    /// Below this many instances the heap is not measured per instance (see
    /// ``CrowdResult/bytesPerInstance``): measured on the default character, 10 instances gave
    /// 49,764 bytes and 100 gave -481, while 1,000...10,000 give 1,506...1,735.
    public static let minimumMeasuredCount = 1000

    /// Composed skins' plans the world compiled (one per distinct outfit worn).
    public var composedPlans: Int { world.batch(for: data).rig.planCount - (data.skins.count + 1) }

    static func makeWorld(_ data: SkeletonData, _ w: CrowdWorkload, count: Int, profiledFrames: Int) throws -> World {
        let scheduler = Scheduler(capacity: max(1, profiledFrames), clock: .threadCPU, threads: w.threads)
        scheduler.mode = w.mode
        scheduler.blockRows = w.blockRows
        scheduler.minimumChunkRows = w.minimumChunkRows
        scheduler.minimumChunkMicroseconds = w.minimumChunkMicroseconds
        if !w.cpuVertices { scheduler.enabled.remove(.vertices) }
        let world = World(layout: w.layout, trackCount: 1, scheduler: scheduler)
        world.batch(for: data).reserve(count)
        var random = SplitMix64(seed: w.seed)
        let animations = try w.animations.map { name -> (String, Float) in
            guard let a = data.findAnimation(name) else { throw WorldError.unknownAnimation(name) }
            return (name, data.animations[Int(a)].duration)
        }
        guard !animations.isEmpty else { throw WorldError.unknownAnimation("") }
        for i in 0..<count {
            let e = try world.spawn(data, skin: w.skin)
            if !w.outfits.isEmpty { try world.setSkin(e, parts: w.outfits[i % w.outfits.count]) }
            let (name, duration) = animations[i % animations.count]
            try world.setAnimation(e, track: 0, name, loop: true)
            let start = Float(random.nextUnit()) * duration
            try world.setTrackTime(e, track: 0, start < duration ? start : max(0, duration.nextDown))
        }
        return world
    }

    /// Runs `warmup` frames, then `frames` measured frames of `delta` seconds.
    public func run(frames: Int, warmup: Int, delta: Float) -> CrowdResult {
        for _ in 0..<warmup { world.update(delta) }
        // The probe's set-up runs even for 0 frames, so that the instruction count of a run minus
        // that of a 0-frame run (Benchmarks/callgrind.sh) holds the frames alone.
        let allocated = HeapProbe.allocatedBytes {
            for _ in 0..<frames { world.update(delta) }
        }
        let records = frames > 0 ? Array(world.scheduler.profiler.recentFrames().suffix(frames)) : []
        return CrowdResult(
            count: workload.count, frames: frames, warmup: warmup, threads: world.scheduler.threads,
            summary: ProfileSummary(records), bytesPerInstance: bytesPerInstance,
            storageBytesPerInstance: world.bytesPerInstance(of: data), allocatedBytes: allocated,
            peakResidentBytes: HeapProbe.peakResidentBytes())
    }
}

/// A small seeded generator (SplitMix64): the same seed gives the same start times everywhere.
public struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in [0, 1) with 24 random bits (exact in Float).
    public mutating func nextUnit() -> Double {
        Double(next() >> 40) / Double(1 << 24)
    }

    /// A value in `0..<bound` (the next 64 bits modulo `bound`); 0, drawing nothing, when `bound`
    /// is not positive.
    public mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int(next() % UInt64(bound)) : 0
    }
}
