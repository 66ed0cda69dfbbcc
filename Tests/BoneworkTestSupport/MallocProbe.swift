import BoneworkProfiling
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Detects heap allocations made by a piece of code (the tool of the "nothing per frame
/// allocates" tests): the product's `HeapProbe` in a normal build, the sanitizer's allocation
/// hooks in a sanitizer build.
///
/// Tests run in parallel threads that share the heap, so `isolatedAllocationDelta` measures in
/// a forked child process, where the measuring thread is the only one.
public enum MallocProbe {
    private typealias MallocHook = @convention(c) (UnsafeRawPointer?, Int) -> Void
    private typealias FreeHook = @convention(c) (UnsafeRawPointer?) -> Void
    private typealias InstallHooks = @convention(c) (MallocHook?, FreeHook?) -> Int32

    /// The sanitizers' allocation hook installer, present only in a process built with one.
    private static let installSanitizerHooks: InstallHooks? = {
        guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, "__sanitizer_install_malloc_and_free_hooks")
        else { return nil }
        return unsafeBitCast(p, to: InstallHooks.self)
    }()

    // Written only by the measuring child process's single thread (see `isolatedAllocationDelta`).
    nonisolated(unsafe) private static var sanitizerCounting = false
    nonisolated(unsafe) private static var sanitizerAllocatedBytes = 0
    private static let countingMallocHook: MallocHook = { _, size in
        if MallocProbe.sanitizerCounting { MallocProbe.sanitizerAllocatedBytes &+= max(1, size) }
    }
    /// Whether this process was built with a sanitizer, whose allocator replaces glibc's.
    public static let underSanitizer: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(handle, "__sanitizer_get_current_allocated_bytes") != nil
    }()

    /// Checks that the probe saw `probe` bytes from code that certainly allocates. Under
    /// ThreadSanitizer neither glibc's statistics nor allocation hooks see its allocator: a known
    /// issue there (the frame checks that follow then prove nothing and say so).
    public static func expectProbeWorks(_ probe: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        if underSanitizer {
            withKnownIssue("allocation counting under this sanitizer", isIntermittent: true) {
                #expect(probe > 0, sourceLocation: sourceLocation)
            }
        } else {
            #expect(probe > 0, sourceLocation: sourceLocation)
        }
    }

    /// Checks that `delta` bytes were allocated over steady frames: none. Under AddressSanitizer
    /// the debug build's unspecialized generic code (array iteration in the scheduler's loops)
    /// allocates the frames of its accessor coroutines, which fit in the caller's buffer in a
    /// normal build; that is reported as a known issue, the count is still shown.
    public static func expectNoFrameAllocations(_ delta: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        if underSanitizer {
            withKnownIssue(
                "AddressSanitizer build: accessor coroutine frames of unspecialized generic code",
                isIntermittent: true
            ) {
                #expect(delta == 0, "bytes allocated over the frames: \(delta)", sourceLocation: sourceLocation)
            }
        } else {
            #expect(delta == 0, "bytes in use changed over the frames: \(delta)", sourceLocation: sourceLocation)
        }
    }

    /// The installer refuses a missing free hook.
    private static let ignoringFreeHook: FreeHook = { _ in }

    /// The change in heap bytes across `body` (`HeapProbe.allocatedBytes`: glibc's statistics with
    /// the calling thread's chunk cache emptied first, so a transient allocation shows too); under a
    /// sanitizer, the bytes of every allocation the body makes. nil where neither can be read.
    public static func allocationDelta(_ body: () -> Void) -> Int? {
        if let install = installSanitizerHooks {
            // Under AddressSanitizer malloc is the sanitizer's, and glibc's statistics stay still:
            // count the bytes of every allocation the body makes instead (freed or not).
            _ = install(countingMallocHook, ignoringFreeHook)
            sanitizerCounting = true
            body()
            sanitizerCounting = false
            return sanitizerAllocatedBytes
        }
        return HeapProbe.allocatedBytes(during: body)
    }

    /// The child process could not be started or gave no result.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// `allocationDelta(body)` measured in a child process forked from this one: the child has
    /// only the calling thread, so no other test's allocations mix in. Whatever `body` needs
    /// (types, lazily created data) should have been used once before, here in the parent.
    public static func isolatedAllocationDelta(timeoutSeconds: Int32 = 120, _ body: () -> Void) throws -> Int {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") }
        let pid = fork()
        guard pid >= 0 else { throw Failure(description: "fork failed") }
        if pid == 0 {
            close(fds[0])
            var result = allocationDelta(body) ?? Int.min
            _ = withUnsafeBytes(of: &result) { write(fds[1], $0.baseAddress, 8) }
            _exit(0)
        }
        close(fds[1])
        defer { close(fds[0]) }
        var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutSeconds * 1000)
        var result = Int.min
        let count = ready > 0 ? withUnsafeMutableBytes(of: &result) { read(fds[0], $0.baseAddress, 8) } : 0
        if count != 8 { kill(pid, SIGKILL) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard count == 8 else { throw Failure(description: "the measuring child process gave no result") }
        guard result != Int.min else { throw Failure(description: "mallinfo2 unavailable") }
        return result
    }
}
