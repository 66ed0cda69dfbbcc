import BoneworkWorld
import Foundation

/// What drawing one frame cost the renderer, returned by each draw (and kept as `lastFrame`) so
/// that a profiler can report it next to the engine's systems.
public struct RenderFrameStats: Sendable, Equatable {
    /// GL draw calls issued.
    public var drawCalls = 0
    /// Instances drawn.
    public var instances = 0
    /// Bytes of per-frame data handed to GL (per-instance tables, or streamed vertices and indices).
    public var uploadBytes = 0
    /// Time spent filling per-frame data on the CPU (before the GL upload), nanoseconds.
    public var fillNanoseconds: UInt64 = 0
    /// Time spent in the buffer updates that hand the per-frame data to GL, nanoseconds.
    public var uploadNanoseconds: UInt64 = 0
    /// Elapsed time of the whole submission (fill, upload, state changes, draw calls), nanoseconds.
    /// It does not wait for the GPU; with a software driver it includes the driver's own CPU work.
    public var wallNanoseconds: UInt64 = 0
    /// CPU time of the submitting thread over the same span, nanoseconds.
    public var cpuNanoseconds: UInt64 = 0

    public init() {}
}

/// Monotonic and thread CPU clocks read at the start of a submission.
struct RenderClock {
    let wallStart: UInt64
    let cpuStart: UInt64

    init() {
        wallStart = Self.wall()
        cpuStart = Self.threadCPU()
    }

    func elapsed() -> UInt64 { Self.wall() &- wallStart }

    func finish(_ stats: inout RenderFrameStats) {
        stats.wallNanoseconds = Self.wall() &- wallStart
        stats.cpuNanoseconds = Self.threadCPU() &- cpuStart
    }

    static func wall() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    static func threadCPU() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}

extension FrameProfiler {
    /// Hands the renderer's figures for the last frame to the profiler (draw calls; the renderer's
    /// CPU time stays in `RenderFrameStats.cpuNanoseconds` until the profiler has a column for it).
    public func record(_ stats: RenderFrameStats) {
        recordDrawCalls(stats.drawCalls)
    }
}
