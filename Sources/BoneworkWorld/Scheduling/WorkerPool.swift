import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Worker threads that run the iterations of a parallel loop beside the calling thread, with no
/// allocation per loop. The systems' chunks, the GPU path's packing and the crowd's culling all
/// run through `WorkerPool.shared`. The workers are Dispatch's threads, each held by one
/// long-running block on a serial queue of the pool's.
///
/// Why not `DispatchQueue.concurrentPerform`: it allocates on every call (counted with an
/// interposed malloc on this machine: 3.97 allocations per call of two iterations, and
/// `dispatch_apply_f` 2.0), and a frame makes a dozen such calls, so a steady frame could never
/// be free of allocation.
///
/// `perform(iterations:_:)` hands a job's iterations out one at a time from an atomic counter to the
/// calling thread and to the workers that wake in time, and returns when every iteration has
/// run. Which thread runs an iteration is left to chance; callers make each iteration's result
/// independent of that (their chunks write disjoint rows), so results are the same whatever runs
/// them. One loop runs on the pool at a time: a call made while another is running (from another
/// thread, or from inside an iteration) and a call in a child process forked after the workers
/// started run their iterations in order on the calling thread, with the same result.
public final class WorkerPool: @unchecked Sendable {
    /// The process's pool: one worker per active processor besides the calling thread.
    public static let shared = WorkerPool(workers: ProcessInfo.processInfo.activeProcessorCount - 1)

    /// Worker threads (besides the calling thread).
    public let workerCount: Int
    /// The process that started the workers (a forked child has none of them).
    private let owner: pid_t
    private let busy = Atomic<Bool>(false)
    private let next = Atomic<Int>(0)
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let wake: UnsafeMutablePointer<pthread_cond_t>
    private let finished: UnsafeMutablePointer<pthread_cond_t>
    // Guarded by `lock`.
    private var generation = 0
    private var job: UnsafeRawPointer?
    private var jobType: any ParallelIterations.Type = ClosureIterations.self
    private var iterations = 0
    private var joinable = 0
    private var joined = 0
    private var done = 0

    /// A pool of `workers` threads (0 to 63), started now and never stopped: each holds the pool
    /// for the life of the process.
    init(workers: Int) {
        workerCount = max(0, min(workers, 63))
        owner = getpid()
        lock = .allocate(capacity: 1)
        wake = .allocate(capacity: 1)
        finished = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        pthread_cond_init(wake, nil)
        pthread_cond_init(finished, nil)
        // Each worker is one never-ending block on a serial Dispatch queue of its own: the loops
        // run on Dispatch's threads, which the pool holds instead of asking for them per call.
        for k in 0..<workerCount {
            DispatchQueue(label: "bonework.worker.\(k)", qos: .userInitiated).async { self.work() }
        }
    }

    /// Runs `job.run(i)` for every `i` in `0..<iterations`, on the calling thread and the
    /// workers, and returns when all have run. `job.run` must be safe to call on several threads
    /// at once for different `i` (each iteration touching only what is its own, or what nothing
    /// writes). Allocates nothing: the workers reach the job through a pointer to the caller's copy.
    public func perform<Job: ParallelIterations>(iterations count: Int, _ job: Job) {
        // One iteration, no workers, a forked child or a busy pool: in order, on this thread.
        guard count > 1, workerCount > 0, getpid() == owner,
            busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        else {
            for i in 0..<max(0, count) { job.run(i) }
            return
        }
        defer { busy.store(false, ordering: .releasing) }
        withUnsafePointer(to: job) { pointer in
            pthread_mutex_lock(lock)
            self.job = UnsafeRawPointer(pointer)
            jobType = Job.self
            iterations = count
            next.store(0, ordering: .relaxed)
            joinable = min(workerCount, count - 1)
            joined = 0
            done = 0
            generation &+= 1
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(lock)
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= count { break }
                pointer.pointee.run(i)
            }
            // Workers that have not joined by now find nothing left and stay out.
            pthread_mutex_lock(lock)
            joinable = joined
            while done < joined { pthread_cond_wait(finished, lock) }
            self.job = nil
            pthread_mutex_unlock(lock)
        }
    }

    /// Runs `body(i)` for every `i` in `0..<iterations`, as `perform(iterations:_:)` runs a job.
    /// Handing a closure to other threads costs two small allocations per call (the closure's
    /// escaping form); loops that run every frame use a `ParallelIterations` job instead.
    public func perform(iterations count: Int, _ body: (Int) -> Void) {
        if count <= 1 || workerCount == 0 {
            for i in 0..<max(0, count) { body(i) }
            return
        }
        withoutActuallyEscaping(body) { escapable in perform(iterations: count, ClosureIterations(body: escapable)) }
    }

    /// Iteration `i` of the job at `job`, of type `type`.
    private static func run<Job: ParallelIterations>(_ type: Job.Type, at job: UnsafeRawPointer, _ i: Int) {
        job.assumingMemoryBound(to: Job.self).pointee.run(i)
    }

    /// A worker's life: wait for a loop, run iterations until none is left, report, repeat.
    private func work() {
        pthread_mutex_lock(lock)
        var seen = generation
        while true {
            while generation == seen { pthread_cond_wait(wake, lock) }
            seen = generation
            guard let job, joined < joinable else { continue }
            joined += 1
            let count = iterations
            let type = jobType
            pthread_mutex_unlock(lock)
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= count { break }
                Self.run(type, at: job, i)
            }
            pthread_mutex_lock(lock)
            done += 1
            pthread_cond_signal(finished)
        }
    }
}

/// The body of a parallel loop (`WorkerPool.perform(iterations:_:)`): `run(i)` is called once for
/// every iteration, on any of the pool's threads.
public protocol ParallelIterations {
    /// Runs iteration `i`.
    func run(_ i: Int)
}

/// A closure as a loop body (see `WorkerPool.perform(iterations:_:)` with a closure).
private struct ClosureIterations: ParallelIterations {
    let body: (Int) -> Void
    func run(_ i: Int) { body(i) }
}
