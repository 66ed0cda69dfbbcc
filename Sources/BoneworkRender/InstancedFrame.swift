import BoneworkWorld
import Synchronization

/// One open frame of the instanced path (from `InstancedRenderer.beginFrame`): writes instances'
/// rows straight into the mapped per-instance tables. Sendable: hand copies to worker threads and
/// have each pack its own range of instances; ranges packed at the same time must not overlap.
/// Packing stops having any effect once the frame is submitted (or the next frame begins).
public struct InstancedFrame: Sendable {
    /// Instances in the frame; rows `0..<count` are drawn.
    public let count: Int
    let id: UInt64
    let writer: InstanceTableWriter
    let geometry: InstancedGeometry
    let tally: PackTally

    /// Bytes the frame's rows take in the per-instance tables.
    public var bytes: Int { count &* geometry.bytesPerInstance }

    /// Writes rows `range` (clamped to `0..<count`) from `pose(k)`, on the calling thread.
    @inline(__always)
    public func pack<Pose: PosedSkeleton>(range: Range<Int>, pose: (Int) -> Pose) {
        let lower = max(0, range.lowerBound)
        let upper = min(count, range.upperBound)
        guard lower < upper, tally.frame.load(ordering: .acquiring) == id else { return }
        let start = RenderClock.threadCPU()
        let w = writer
        var bones = w.bones + lower &* w.boneStride
        var slots = w.slots + lower &* w.slotStride
        for k in lower..<upper {
            geometry.writeInstance(pose(k), premultiplied: w.premultiplied, bones: bones, slots: slots)
            bones += w.boneStride
            slots += w.slotStride
        }
        tally.add(cpu: RenderClock.threadCPU() &- start)
    }

    /// Writes rows `range` from the batch's columns (`views[k]` for row k). Nothing is written
    /// when the views are of another skeleton (bone or slot counts differ).
    public func pack(_ views: BatchPoseViews, range: Range<Int>) {
        guard views.boneCount == geometry.drawData.boneCount && views.slotCount == geometry.drawData.slotCount
        else { return }
        pack(range: range.clamped(to: 0..<views.count)) { views[$0] }
    }

    /// Writes rows `range` of `batch`.
    public func pack(batch: Batch, range: Range<Int>) {
        pack(batch.poseViews(), range: range)
    }
}

/// Raw pointers into one frame's region of the mapped per-instance tables. `@unchecked Sendable`
/// because it is copied to the packing threads: instance k's rows (`boneStride` floats at
/// `bones + k * boneStride`, `slotStride` words at `slots + k * slotStride`) are written only by
/// the call that packs row k, and concurrent calls pack disjoint ranges (the renderer's chunks
/// are disjoint by construction), so no two threads write the same bytes. The premultiplied flags
/// are only read while the frame is open. The memory stays mapped until the frame is closed on
/// the GL thread, after which `PackTally.frame` no longer matches and nothing is written.
struct InstanceTableWriter: @unchecked Sendable {
    let bones: UnsafeMutablePointer<Float>
    let slots: UnsafeMutablePointer<UInt32>
    let premultiplied: UnsafeBufferPointer<Bool>
    let boneStride: Int
    let slotStride: Int
}

/// What the packing threads report back to the GL thread: the open frame's number (0: none is
/// open) and the thread CPU time they spent.
final class PackTally: Sendable {
    let frame = Atomic<UInt64>(0)
    let cpu = Atomic<UInt64>(0)
    let chunks = Atomic<Int>(0)

    func reset(frame id: UInt64) {
        cpu.store(0, ordering: .relaxed)
        chunks.store(0, ordering: .relaxed)
        frame.store(id, ordering: .releasing)
    }

    @inline(__always)
    func add(cpu nanoseconds: UInt64) {
        cpu.add(nanoseconds, ordering: .relaxed)
        chunks.add(1, ordering: .relaxed)
    }
}

/// One `WorkerPool.shared` pass packing a batch: chunk c writes rows
/// `count * c / chunks ..< count * (c + 1) / chunks`. `@unchecked Sendable` because the batch's
/// column views are raw pointers: every chunk only reads them, and the batch is not changed while
/// the pass runs (the calling thread waits for it); the chunks' row ranges are disjoint.
struct PackJob: ParallelIterations, @unchecked Sendable {
    /// Chunk `i` (`WorkerPool`).
    func run(_ i: Int) { run(chunk: i) }

    let frame: InstancedFrame
    let views: BatchPoseViews
    let count: Int
    let chunks: Int

    func run(chunk c: Int) {
        let lower = count &* c / chunks
        let upper = count &* (c &+ 1) / chunks
        frame.pack(views, range: lower..<upper)
    }
}
