import CAllocationCounter
import Foundation

/// Heap allocations per frame, counted by the tool's own malloc (`CAllocationCounter`) on every
/// thread, from frame `warmup` on. What happens inside GL driver and window-system calls (GLFW,
/// Xlib) is counted apart (`bonework_driver_section`): those allocations are the driver's own
/// business (llvmpipe allocates about 1.3 times per draw command inside the draw call; a
/// hardware driver differs).
struct FrameAllocations {
    /// Frames before this one are not counted (buffers growing to their size).
    let warmup: Int
    private(set) var frames = 0
    private(set) var outside = 0
    private(set) var inDriver = 0
    private(set) var worst = 0
    private(set) var framesWithAny = 0
    private var frameStart = 0
    private var driverStart = 0

    init(warmup: Int) { self.warmup = warmup }

    /// Whether this build counts (not under a sanitizer's allocator).
    static var available: Bool { bonework_allocation_count() >= 0 }

    /// Call before frame `frame`'s work.
    mutating func begin() {
        frameStart = bonework_allocation_count()
        driverStart = bonework_driver_allocation_count()
    }

    /// Call after frame `frame`'s work.
    mutating func end(frame: Int) {
        guard frame >= warmup, frameStart >= 0 else { return }
        let driver = bonework_driver_allocation_count() - driverStart
        let ours = bonework_allocation_count() - frameStart - driver
        frames += 1
        outside += ours
        inDriver += driver
        worst = max(worst, ours)
        if ours > 0 { framesWithAny += 1 }
    }

    /// "allocations per steady frame: ..." (or why there is no count).
    var line: String {
        guard Self.available else { return "allocations per steady frame: not counted (sanitizer build)" }
        guard frames > 0 else { return "allocations per steady frame: no frame after the \(warmup) warm-up frames" }
        let mean = Double(outside) / Double(frames)
        let driverMean = Double(inDriver) / Double(frames)
        return
            "allocations per steady frame (\(frames) frames after \(warmup)): \(formatted(mean)) outside driver calls "
            + "(worst frame \(worst), \(framesWithAny) frames with any); \(formatted(driverMean)) inside GL driver and window-system calls"
    }

    private func formatted(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.2f", v)
    }
}

/// Runs `body` as a driver section (see `bonework_driver_section`).
@inline(__always)
func inDriver<T>(_ body: () throws -> T) rethrows -> T {
    bonework_driver_section(1)
    defer { bonework_driver_section(0) }
    return try body()
}
