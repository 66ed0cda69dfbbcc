import BoneworkFormat
import BoneworkTestSupport
import Dispatch
import Foundation
import Testing

@testable import BoneworkWorld

/// Physics is deterministic: the same instances driven by the same frames end with bit-identical
/// world transforms whether one thread runs every instance in order, two threads run chunks of
/// them concurrently (each taking its chunks in a different order), or the batch stores its
/// columns in another layout.
@Suite("Physics determinism")
struct PhysicsDeterminismTests {
    static let instances = 1000
    static let frames = 300
    static let delta: Float = 1 / 60

    static func load() throws -> SkeletonData {
        try ExampleSkeletons.load(
            "celestial-circus/celestial-circus-pro.skel", atlas: "celestial-circus/celestial-circus.atlas")
    }

    /// A world of `instances` celestial-circus instances, each with its own animation and phase.
    static func populate(_ world: World, _ data: SkeletonData, count: Int) throws -> [Entity] {
        var entities: [Entity] = []
        for i in 0..<count {
            let e = try world.spawn(data)
            let animation = data.animations[i % data.animations.count]
            try world.setAnimation(e, animation.name, loop: true)
            try world.setTrackTime(e, Float(i % 97) * 0.013)
            entities.append(e)
        }
        return entities
    }

    /// World transforms of every bone of every entity, as raw bits in entity order.
    static func transforms(_ world: World, _ entities: [Entity]) throws -> [UInt32] {
        var bits: [UInt32] = []
        bits.reserveCapacity(entities.count * 6 * 200)
        for e in entities {
            for bone in try world.pose(e).bones {
                for v in bone { bits.append(v.bitPattern) }
            }
        }
        return bits
    }

    /// Runs one frame of a batch the way `Scheduler.run` does, but over chunks of instances spread
    /// over `workers` concurrent workers; odd workers (or all, when `reversed`) take their chunks
    /// in reverse order.
    /// Each chunk has its own animation state workspace and vertex scratch, so workers share
    /// nothing they write. `rig` replaces the batch's tables when given (tests that change one
    /// table and compare).
    final class ChunkedRunner {
        let batch: Batch
        let rig: RigTables
        let workers: Int
        let chunkSize: Int
        let reversed: Bool
        let chunkCount: Int
        let scratch: [VertexScratch]

        init(batch: Batch, workers: Int, chunkSize: Int = 64, reversed: Bool = false, rig: RigTables? = nil) {
            self.batch = batch
            self.rig = rig ?? batch.rig.tables
            self.workers = workers
            self.chunkSize = chunkSize
            self.reversed = reversed
            chunkCount = (batch.count + chunkSize - 1) / chunkSize
            scratch = (0..<chunkCount).map { _ in
                let s = VertexScratch()
                s.reserve(batch.rig, rows: chunkSize, listRows: chunkSize)
                return s
            }
            _ = batch.animationStates.workspace(chunkCount - 1)
        }

        /// What the workers read and write. Unchecked: each worker writes only the rows of its own
        /// chunks and the chunk's own workspace and scratch.
        struct Shared: @unchecked Sendable {
            let cols: BatchColumns
            let rig: RigTables
            let kernel: StateKernel
            let store: AnimationStateStore
            let scratch: [VertexScratch]
        }

        func frame(delta: Float) {
            batch.clearEvents()
            let store = batch.animationStates
            let shared = Shared(
                cols: batch.columns(), rig: rig, kernel: store.kernel, store: store, scratch: scratch)
            let count = batch.count
            let chunkSize = self.chunkSize
            let chunkCount = self.chunkCount
            let workers = self.workers
            let reversed = self.reversed
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let views = SystemViews(shared.cols)
                let rig = shared.rig
                var mine = Array(stride(from: w, to: chunkCount, by: workers))
                if reversed || w % 2 == 1 { mine.reverse() }
                for c in mine {
                    let range = (c * chunkSize)..<min(count, (c + 1) * chunkSize)
                    let ws = shared.store.workspace(c)
                    for row in range { shared.kernel.update(row: row, delta: delta, &ws.events) }
                    for row in range { _ = shared.kernel.apply(row: row, views.apply, ws) }
                    for i in range { views.pose.time[i] += delta }
                    PoseSystem.update(views.pose, rig, range: range)
                    let out = shared.scratch[c]
                    out.drawCount = 0
                    SlotSystem.update(views.slots, rig, range: range, into: out)
                    VertexSystem.update(views.vertices, rig, draws: 0..<out.drawCount, into: out)
                }
            }
            store.collect(workers: chunkCount)
            store.drain()
        }
    }

    @Test("celestial-circus, 1000 instances, 300 frames: one thread and two threads give identical bits")
    func threadsAgree() throws {
        let data = try Self.load()
        #expect(data.physicsConstraints.count >= 20)
        let single = World()
        let singleEntities = try Self.populate(single, data, count: Self.instances)
        let double = World()
        let doubleEntities = try Self.populate(double, data, count: Self.instances)
        let runner = ChunkedRunner(batch: double.batches[0], workers: 2)
        #expect(runner.chunkCount > 2)

        let initial = try Self.transforms(single, singleEntities)
        for _ in 0..<Self.frames {
            single.update(Self.delta)
            runner.frame(delta: Self.delta)
        }
        let a = try Self.transforms(single, singleEntities)
        let b = try Self.transforms(double, doubleEntities)
        #expect(a.count == Self.instances * data.bones.count * 6)
        #expect(a == b, "one thread and two threads differ")
        // The simulation did run: the pose moved and physics is not at rest everywhere.
        #expect(a != initial)
        #expect(try Self.movingConstraints(single, singleEntities[0]) > Self.instances)
    }

    @Test("chunked column layout and reversed chunk order give the same bits as instance-major")
    func layoutsAgree() throws {
        let data = try Self.load()
        let count = 150
        let plain = World()
        let plainEntities = try Self.populate(plain, data, count: count)
        let chunked = World(layout: ColumnLayout(chunkSize: 8))
        let chunkedEntities = try Self.populate(chunked, data, count: count)
        let reversed = World()
        let reversedEntities = try Self.populate(reversed, data, count: count)
        let runner = ChunkedRunner(batch: reversed.batches[0], workers: 1, chunkSize: 16, reversed: true)
        for _ in 0..<Self.frames {
            plain.update(Self.delta)
            chunked.update(Self.delta)
            runner.frame(delta: Self.delta)
        }
        let a = try Self.transforms(plain, plainEntities)
        #expect(a == (try Self.transforms(chunked, chunkedEntities)), "instance-major and chunked layouts differ")
        #expect(a == (try Self.transforms(reversed, reversedEntities)), "reversed chunk order differs")
    }

    /// Physics constraints (over all instances of the entity's batch) that are moving.
    static func movingConstraints(_ world: World, _ entity: Entity) throws -> Int {
        let (batch, _) = try world.locate(entity)
        let cols = batch.columns()
        var moving = 0
        for row in 0..<batch.count {
            let r = cols.rows(row)
            for k in 0..<batch.data.physicsConstraints.count {
                let s = PhysicsConstraintSolver.State(PoseColumns(cols), row: r.physics(k))
                if s[PhysicsField.rotateVelocity] != 0 || s[PhysicsField.xVelocity] != 0 { moving += 1 }
            }
        }
        return moving
    }
}
