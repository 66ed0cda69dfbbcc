import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Counts, on one thread, the Swift runtime's heap object allocations, and reads glibc's malloc
/// statistics: the tools of the "nothing per frame allocates" test.
///
/// The Swift runtime routes `swift_allocObject` through a replaceable function pointer when its
/// instrumentation switch is on; while counting, that pointer leads through a counting
/// trampoline that only counts calls made by the watched thread (tests run in parallel) and then
/// calls the original function.
enum RuntimeCounters {
    typealias AllocFunction = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    struct Counts: Equatable {
        var allocations = 0
    }

    // Written only while no counting is active, read by the trampolines.
    nonisolated(unsafe) private static var watched: pthread_t = 0
    nonisolated(unsafe) private static var counts = Counts()
    nonisolated(unsafe) private static var originalAlloc: AllocFunction?
    private static let lock = NSLock()

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    private static func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
        guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, name) else {
            throw Unavailable(description: "Swift runtime symbol \(name) not found")
        }
        return p
    }

    /// Runs `body` on the calling thread and returns what it allocated.
    static func count(_ body: () -> Void) throws -> Counts {
        lock.lock()
        defer { lock.unlock() }
        let allocSlot = try symbol("_swift_allocObject")
        let enabled = try symbol("_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
        if originalAlloc == nil {
            originalAlloc = allocSlot.load(as: AllocFunction.self)
        }
        counts = Counts()
        watched = pthread_self()
        let wasEnabled = enabled.load(as: Bool.self)
        allocSlot.storeBytes(of: countingAlloc, as: AllocFunction.self)
        enabled.storeBytes(of: true, as: Bool.self)
        body()
        let result = counts
        watched = 0
        // Calls already inside a trampoline keep forwarding to the originals, which stay set.
        if !wasEnabled { enabled.storeBytes(of: false, as: Bool.self) }
        allocSlot.storeBytes(of: originalAlloc, as: AllocFunction?.self)
        return result
    }

    private static let countingAlloc: AllocFunction = { metadata, size, alignMask in
        if pthread_equal(pthread_self(), RuntimeCounters.watched) != 0 { RuntimeCounters.counts.allocations += 1 }
        return RuntimeCounters.originalAlloc!(metadata, size, alignMask)
    }

    /// Bytes glibc's malloc has handed out and not taken back, over all arenas (mallinfo2's
    /// `uordblks`), nil where it cannot be read.
    ///
    /// `mallinfo2` is not in the Glibc module map, so it is looked up by name. It returns a
    /// struct of ten `size_t` in memory: on x86-64 the caller passes the result's address as a
    /// hidden first argument, which is what the function type below spells out.
    static func mallocInUse() -> Int? {
        #if arch(x86_64)
            typealias MallinfoFunction = @convention(c) (UnsafeMutablePointer<Int>) -> UnsafeMutableRawPointer?
            guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, "mallinfo2") else { return nil }
            let mallinfo2 = unsafeBitCast(p, to: MallinfoFunction.self)
            var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            return withUnsafeMutableBytes(of: &fields) { raw in
                let ints = raw.bindMemory(to: Int.self)
                _ = mallinfo2(ints.baseAddress!)
                return ints[7]  // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, ...
            }
        #else
            return nil
        #endif
    }
}
