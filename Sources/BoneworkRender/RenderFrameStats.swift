import BoneworkWorld
import Foundation

/// What drawing one frame cost the renderer, returned by each draw (and kept as `lastFrame`) so
/// that a profiler can report it next to the engine's systems.
public struct RenderFrameStats: Sendable, Equatable {
    /// GL draw calls issued.
    public var drawCalls = 0
    /// Instances drawn.
    public var instances = 0
    /// Bytes of per-frame data handed to GL: the per-instance tables written into mapped GL
    /// memory (instanced path), or the streamed vertices and indices.
    public var uploadBytes = 0
    /// Elapsed time spent filling per-frame data on the CPU, nanoseconds (instanced path: from the
    /// end of `beginFrame` to the start of `submit`, i.e. packing as the GL thread sees it).
    public var fillNanoseconds: UInt64 = 0
    /// Elapsed time spent handing the data to GL, nanoseconds (buffer updates; for the instanced
    /// path mapping and unmapping, waits for the GPU to release a region included).
    public var uploadNanoseconds: UInt64 = 0
    /// Elapsed time of the whole frame (fill, upload, state changes, draw calls), nanoseconds.
    /// It does not wait for the GPU; with a software driver it includes the driver's own CPU work.
    public var wallNanoseconds: UInt64 = 0
    /// CPU time of the renderer's work for the frame, all threads: `submitNanoseconds` plus
    /// `packNanoseconds`.
    public var cpuNanoseconds: UInt64 = 0
    /// CPU time of the GL thread: mapping, unmapping, state changes and draw calls (instanced path:
    /// `beginFrame` plus `submit`; the batch path: its whole draw), nanoseconds.
    public var submitNanoseconds: UInt64 = 0
    /// Of `submitNanoseconds`, the CPU time spent inside the instanced draw calls themselves. On a
    /// hardware driver a draw call only records a command; a software driver (llvmpipe) runs the
    /// vertex stage there, so this is the emulated GPU's vertex work, not submission overhead.
    public var drawCallNanoseconds: UInt64 = 0
    /// CPU time spent packing per-instance rows, summed over the threads that packed, nanoseconds
    /// (instanced path; 0 for the batch path, whose list is built by the caller).
    public var packNanoseconds: UInt64 = 0
    /// Packing calls (chunks) that wrote rows.
    public var packChunks = 0
    /// GPU time of the draw calls of the latest frame whose timer query had finished (the GPU
    /// path reads queries back a few frames late so as not to wait for the GPU), nanoseconds; 0
    /// when none was measured.
    public var gpuNanoseconds: UInt64 = 0
    /// Draw commands issued (the GPU path: runs of slots and clipped ranges, all characters).
    public var commands = 0
    /// Characters the GPU path drew straight from their batch's columns (no per-slot packing);
    /// the others of `instances` were packed bone by bone and slot by slot.
    public var fromColumns = 0
    /// Of `fromColumns`, the characters whose clip the GPU cut (`gl_ClipDistance`, once per convex
    /// part of the clip).
    public var clippedOnGPU = 0
    /// Of `packNanoseconds`, the thread CPU time of copying the batches' columns in bulk (GPU path).
    public var columnCopyNanoseconds: UInt64 = 0
    /// Of `packNanoseconds`, the first pass of a frame drawn from columns: locating and
    /// classifying the characters (all threads).
    public var classifyNanoseconds: UInt64 = 0
    /// Of `classifyNanoseconds`, flagging every row of the batches drawn (what each row shows:
    /// clips, deform, draw order), all threads.
    public var rowFlagNanoseconds: UInt64 = 0
    /// Bytes of batch columns copied for the characters drawn from columns (GPU path).
    public var columnBytes = 0
    /// Bytes of batch columns the GPU read where the World keeps them, uncopied: world
    /// transforms in the renderer's `GPUColumnMemory` (GPU path).
    public var inPlaceBytes = 0

    /// Zero counts.
    public init() {}

    /// Packing CPU time per instance, microseconds.
    public var packMicrosecondsPerInstance: Double {
        instances > 0 ? Double(packNanoseconds) / 1000 / Double(instances) : 0
    }
}

/// Monotonic and thread CPU clocks read at the start of a submission; `threadCPU()` is public so
/// that callers can time their own part of a frame (culling, ordering) the same way.
public struct RenderClock {
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
        stats.submitNanoseconds = stats.cpuNanoseconds
    }

    /// Monotonic wall-clock time, nanoseconds.
    public static func wall() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// The calling thread's CPU time, nanoseconds (what the renderer's figures are measured in).
    public static func threadCPU() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}

extension FrameProfiler {
    /// Hands the renderer's figures for the last frame to the profiler: draw calls, the GL
    /// thread's submission CPU time and the packing CPU time (all packing threads).
    public func record(_ stats: RenderFrameStats) {
        recordRender(
            drawCalls: stats.drawCalls, submitCPU: stats.submitNanoseconds, packCPU: stats.packNanoseconds,
            gpu: stats.gpuNanoseconds)
    }
}
