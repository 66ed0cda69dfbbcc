import Foundation
import Synchronization
import Testing

@testable import BoneworkWorld

/// `WorkerPool`: every iteration runs exactly once, the call returns after all have run, and calls
/// made while the pool is busy (from other threads, or from inside an iteration) still run every
/// iteration. Run under ThreadSanitizer by `Tools/sanitize.sh thread`.
@Suite struct WorkerPoolTests {
    @Test func noIterationsRunNothing() {
        let ran = Atomic<Int>(0)
        WorkerPool.shared.perform(iterations: 0) { _ in ran.add(1, ordering: .relaxed) }
        WorkerPool.shared.perform(iterations: -3) { _ in ran.add(1, ordering: .relaxed) }
        #expect(ran.load(ordering: .relaxed) == 0)
    }

    @Test func everyIterationRunsOnceAndIsVisibleAfterwards() {
        let pool = WorkerPool(workers: 3)
        for count in [1, 2, 3, 7, 64, 1000] {
            let slots = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
            slots.initialize(repeating: 0)
            defer { slots.deallocate() }
            let shared = Slots(slots: slots)
            for round in 1...20 {
                pool.perform(iterations: count) { i in shared.slots[i] += 1 }
                #expect(shared.slots.allSatisfy { $0 == round }, "\(count) iterations, round \(round)")
            }
        }
    }

    @Test func busyPoolStillRunsEveryIteration() async {
        let pool = WorkerPool(workers: 1)
        let total = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        pool.perform(iterations: 4) { _ in
                            // Nested: runs while its own pool is busy.
                            pool.perform(iterations: 3) { _ in total.value.add(1, ordering: .relaxed) }
                        }
                    }
                }
            }
        }
        #expect(total.value.load(ordering: .relaxed) == 8 * 50 * 4 * 3)
    }
}

private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

/// A buffer the iterations write, each its own element. `@unchecked Sendable`: disjoint writes,
/// read after `perform` returns.
private struct Slots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<Int>
}
