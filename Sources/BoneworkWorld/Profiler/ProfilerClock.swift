import Foundation

/// The clocks the profiler reads, in nanoseconds.
enum ProfilerClock {
    /// Monotonic elapsed time (a vDSO call, no system call).
    @inline(__always)
    static func wall() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(truncatingIfNeeded: ts.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: ts.tv_nsec)
    }

    /// CPU time of the calling thread (time it actually ran, not time it waited for a core).
    @inline(__always)
    static func threadCPU() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(truncatingIfNeeded: ts.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: ts.tv_nsec)
    }

    /// An identifier of the calling thread, unique among live threads.
    @inline(__always)
    static func threadID() -> UInt64 {
        UInt64(truncatingIfNeeded: UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))))
    }
}
