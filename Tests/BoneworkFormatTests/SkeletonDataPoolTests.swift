import BoneworkTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import BoneworkFormat

@Suite struct SkeletonDataPoolTests {
    let skeleton = TestPaths.example("spineboy/spineboy-pro.skel")
    let atlas = TestPaths.example("spineboy/spineboy.atlas")

    @Test func loadsOnceForManyThreads() throws {
        let pool = SkeletonDataPool()
        // The results are collected under a pthread lock (NSLock), which ThreadSanitizer sees;
        // the Synchronization module's Mutex is not instrumented, so its critical sections look
        // like races to it.
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var identities: [ObjectIdentifier] = []
        }
        let results = Results()
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                let data = try pool.load(skeleton: skeleton, atlas: atlas)
                results.lock.withLock { results.identities.append(ObjectIdentifier(data)) }
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let identities = results.lock.withLock { results.identities }
        #expect(identities.count == 16)
        #expect(Set(identities).count == 1, "every thread must get the same SkeletonData")
        #expect(pool.loadCount == 1)
        #expect(pool.count == 1)
    }

    @Test func failedLoadIsNotCached() throws {
        let pool = SkeletonDataPool()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("bonework-missing.skel").path
        #expect(throws: LoadError.self) { try pool.load(skeleton: missing, atlas: nil) }
        #expect(pool.count == 0)
    }
}
