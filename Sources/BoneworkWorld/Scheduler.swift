import Foundation

/// The systems of a frame, in the order the scheduler runs them.
public enum SystemID: Int, CaseIterable, Sendable {
    case animationState = 0
    case timelineApply
    case pose
    case slots
    case vertices

    /// Number of systems (`allCases` builds an array; frames must not allocate).
    public static let count = 5

    public var name: String {
        switch self {
        case .animationState: return "animation state"
        case .timelineApply: return "timeline apply"
        case .pose: return "constraints + world"
        case .slots: return "slots"
        case .vertices: return "vertices"
        }
    }
}

/// Runs the systems over every batch in a fixed order each frame and times each one.
/// The last `capacity` frames' timings are kept in a ring buffer (nanoseconds per system, summed
/// over batches) together with the number of instances the frame posed.
public final class Scheduler {
    /// What the timings measure.
    public enum Clock: Sendable {
        /// Elapsed (monotonic) time: what a frame costs, including time the thread waited for a core.
        case wall
        /// CPU time of the running thread: what the systems cost, not counting time the thread
        /// was descheduled (steadier on a busy machine; a system call per reading).
        case threadCPU
    }

    public let capacity: Int
    public let clock: Clock
    /// capacity * SystemID.count nanosecond values.
    private let timings: UnsafeMutablePointer<UInt64>
    private let instanceCounts: UnsafeMutablePointer<Int>
    /// Frames recorded so far (the ring holds the last `capacity`).
    public private(set) var frames = 0
    /// Which systems run (all by default); a benchmark may switch some off.
    public var enabled: Set<SystemID> = Set(SystemID.allCases)

    public init(capacity: Int = 256, clock: Clock = .wall) {
        self.capacity = max(1, capacity)
        self.clock = clock
        let n = self.capacity * SystemID.count
        timings = .allocate(capacity: n)
        timings.initialize(repeating: 0, count: n)
        instanceCounts = .allocate(capacity: self.capacity)
        instanceCounts.initialize(repeating: 0, count: self.capacity)
    }

    deinit {
        timings.deallocate()
        instanceCounts.deallocate()
    }

    /// Runs one frame over `batches`, advancing animations by `delta` seconds.
    public func run(_ batches: [Batch], delta: Float) {
        let slot = frames % capacity
        let row = timings + slot * SystemID.count
        let runState = enabled.contains(.animationState)
        let runApply = enabled.contains(.timelineApply)
        let runPose = enabled.contains(.pose)
        let runSlots = enabled.contains(.slots)
        let runVertices = enabled.contains(.vertices)
        var instances = 0
        for s in 0..<SystemID.count { row[s] = 0 }
        for batch in batches { batch.clearEvents() }
        for batch in batches where batch.count > 0 {
            let rig = batch.rig.tables
            var t0 = now()
            if runState { StateSystem.update(batch, delta: delta) }
            var t1 = now()
            row[SystemID.animationState.rawValue] &+= t1 &- t0
            if runApply { StateSystem.apply(batch) }
            t0 = now()
            row[SystemID.timelineApply.rawValue] &+= t0 &- t1
            // Animation state listeners may spawn or despawn instances: columns and rows are
            // fetched after them.
            let cols = batch.columns()
            let range = 0..<batch.count
            instances += batch.count
            // The skeleton clock (read by physics) advances between apply and world transforms.
            for i in range { cols.time[i] += delta }
            if runPose { PoseSystem.update(cols, rig, range: range) }
            t1 = now()
            row[SystemID.pose.rawValue] &+= t1 &- t0
            if runSlots { SlotSystem.update(cols, rig, range: range) }
            t0 = now()
            row[SystemID.slots.rawValue] &+= t0 &- t1
            if runVertices { VertexSystem.update(cols, rig, range: range) }
            t1 = now()
            row[SystemID.vertices.rawValue] &+= t1 &- t0
        }
        instanceCounts[slot] = instances
        frames += 1
    }

    /// Nanoseconds system `system` took in the frame `back` frames ago (0 = the last frame).
    public func nanoseconds(_ system: SystemID, framesAgo back: Int = 0) -> UInt64? {
        guard back >= 0, back < min(frames, capacity) else { return nil }
        let slot = (frames - 1 - back) % capacity
        return timings[slot * SystemID.count + system.rawValue]
    }

    /// Instances posed in the frame `back` frames ago.
    public func instances(framesAgo back: Int = 0) -> Int? {
        guard back >= 0, back < min(frames, capacity) else { return nil }
        return instanceCounts[(frames - 1 - back) % capacity]
    }

    /// The current reading of `clock`, in nanoseconds.
    @inline(__always)
    func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(clock == .wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
