import BoneworkWorld
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Heap figures from glibc's malloc statistics, for benchmarks: bytes in use, and whether a
/// piece of code allocated at all.
///
/// `mallinfo2().uordblks` counts bytes handed out, chunks parked in the calling thread's cache
/// of freed chunks (tcache) included. `allocatedBytes(during:)` first empties that cache for
/// every small size class, so an allocation made by the body on the calling thread shows as a
/// positive result even when it is freed again before the body ends.
public enum HeapProbe {
    /// Bytes malloc has handed out and not taken back (all arenas and mmap'd blocks), nil where
    /// unavailable.
    public static func inUse() -> Int? {
        guard let mallinfo2 = mallinfo2 else { return nil }
        var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &fields) { raw in
            let ints = raw.bindMemory(to: Int.self)
            guard let base = ints.baseAddress else { return nil }
            _ = mallinfo2(base)
            // arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, ...: chunks in use
            // plus blocks served by mmap (large allocations).
            return ints[7] + ints[4]
        }
    }

    private typealias MallinfoFunction = @convention(c) (UnsafeMutablePointer<Int>) -> UnsafeMutableRawPointer?

    // `mallinfo2` returns a struct of ten size_t: on x86-64 through a hidden result pointer.
    private static let mallinfo2: MallinfoFunction? = {
        #if arch(x86_64)
            guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, "mallinfo2") else { return nil }
            return unsafeBitCast(p, to: MallinfoFunction.self)
        #else
            return nil
        #endif
    }()

    /// The change in bytes in use across `body`, run with the calling thread's chunk cache
    /// emptied; nil where malloc statistics are unavailable. 0 means `body` allocated nothing on
    /// the calling thread and left nothing allocated from other threads.
    public static func allocatedBytes(during body: () -> Void) -> Int? {
        guard inUse() != nil else { return nil }
        let sizes = (0..<64).map { 24 + 16 * $0 }
        let capacity = sizes.count * 512
        let held = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: capacity)
        defer { held.deallocate() }
        var n = 0
        for size in sizes {
            let chunk = max(32, (size + 8 + 15) & ~15)
            for _ in 0..<512 where n < capacity {
                let before = inUse() ?? 0
                held[n] = malloc(size)
                n += 1
                // A cached chunk adds nothing; a chunk from the bins adds exactly its size.
                if (inUse() ?? 0) - before == chunk { break }
            }
        }
        let before = inUse()
        body()
        let after = inUse()
        for i in 0..<n { free(held[i]) }
        guard let before, let after else { return nil }
        return after - before
    }

    /// The process's peak resident set size in bytes.
    public static func peakResidentBytes() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }
}
