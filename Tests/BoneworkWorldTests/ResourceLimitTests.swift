import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// What bounds a world's memory and a frame's work whatever it is asked: the memory limit checked
/// before instance storage grows, the physics catch-up bound, non-finite deltas.
@Suite("Resource limits")
struct ResourceLimitTests {
    // Validity first: what is refused, and that a refusal changes nothing.

    @Test func anAbsurdReservationIsRefusedAtOnceNamingTheSkeletonAndTheLimit() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let clock = ContinuousClock.now
        for count in [100_000_000, Int.max / 2, Int.max] {
            do {
                try world.reserve(count, of: data)
                Issue.record("reserving \(count) instances succeeded")
            } catch let WorldError.memoryLimit(skeleton, instances, each, limit, held) {
                #expect(skeleton == data.file)
                #expect(instances == count)
                #expect(each == world.bytesPerInstance(of: data))
                #expect(limit == world.memoryLimit)
                #expect(held == 0)
            }
        }
        #expect(ContinuousClock.now - clock < .seconds(5))
        #expect(world.count == 0)
        let message =
            "\(WorldError.memoryLimit(skeleton: data.file, instances: 100_000_000, bytesEach: 2000, limit: 1 << 34, held: 0))"
        #expect(message.contains(data.file) && message.contains("100000000 instances") && message.contains("16.0 GiB"))
        // A count that fits is reserved in one growth: spawning it moves no storage.
        try world.reserve(1000, of: data)
        let batch = world.batch(for: data)
        let capacity = batch.capacity
        #expect(capacity >= 1000)
        for _ in 0..<1000 { try world.spawn(data) }
        #expect(batch.capacity == capacity)
        #expect(world.reservedBytes == capacity * batch.bytesPerInstance)
    }

    @Test func spawningPastTheLimitIsRefusedAndLeavesEveryInstanceAsItWas() throws {
        let data = try ExampleSkeletons.spineboy()
        let probe = World()
        let each = probe.bytesPerInstance(of: data)
        // Room for about 100 instances of spineboy (capacity grows in whole chunks of rows).
        let rows = probe.layout.roundUp(100)
        let world = World(memoryLimit: rows * each + each / 2)
        var spawned: [Entity] = []
        var refusal: WorldError?
        for _ in 0..<(2 * rows) {
            do { spawned.append(try world.spawn(data, skin: "default")) } catch let error as WorldError {
                refusal = error
                break
            }
        }
        try #require(spawned.count == rows)
        #expect(world.count == rows)
        #expect(world.reservedBytes <= world.memoryLimit)
        guard case .memoryLimit(let skeleton, let instances, _, _, _) = refusal else {
            Issue.record("expected memoryLimit, got \(String(describing: refusal))")
            return
        }
        #expect(skeleton == data.file)
        #expect(instances == rows + 1)
        // Everything spawned before the refusal plays on.
        try world.setAnimation(spawned[rows - 1], "walk", loop: true)
        world.update(1 / 60)
        #expect(spawned.allSatisfy(world.isAlive))
        // The limit counts other skeletons' storage too.
        let other = try ExampleSkeletons.chibi()
        #expect(throws: WorldError.self) { try world.reserve(100, of: other) }
        // Despawning frees rows for reuse within the capacity already held.
        try world.despawn(spawned[0])
        _ = try world.spawn(data)
        #expect(world.count == rows)
    }

    @Test func checkingRoomReservesNothing() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        try world.checkRoom(for: 10_000, of: data)
        #expect(world.batch(for: data).capacity < 10_000)
        #expect(throws: WorldError.self) { try world.checkRoom(for: 100_000_000, of: data) }
        #expect(throws: WorldError.self) { try world.checkRoom(for: .max, of: data) }
    }

    // The work of a frame is bounded whatever its delta.

    static func celestialCircus() throws -> SkeletonData {
        try ExampleSkeletons.load(
            "celestial-circus/celestial-circus-pro.skel", atlas: "celestial-circus/celestial-circus.atlas")
    }

    static func allFinite(_ pose: InstancePose) -> Bool {
        pose.bones.allSatisfy { $0.allSatisfy(\.isFinite) } && pose.local.allSatisfy { $0.allSatisfy(\.isFinite) }
    }

    @Test func anHourLongFrameRunsAtMostOneSecondOfPhysicsSteps() throws {
        let data = try Self.celestialCircus()
        #expect(!data.physicsConstraints.isEmpty)
        let world = World()
        let e = try world.spawn(data)
        try world.setAnimation(e, "swing", loop: true)
        world.update(1 / 60)
        let clock = ContinuousClock.now
        for delta: Float in [3600, 1e9, 3.4e38] { world.update(delta) }
        #expect(ContinuousClock.now - clock < .seconds(10))
        #expect(Self.allFinite(try world.pose(e)))
        // Each constraint carries less than one step into the next frame.
        let (batch, row) = try world.locate(e)
        let cols = batch.columns()
        for k in 0..<data.physicsConstraints.count {
            let remaining = cols.physics[PhysicsField.remaining * cols.physicsFieldStride + cols.rows(row).physics(k)]
            #expect(remaining < data.physicsConstraints[k].step, "constraint \(data.physicsConstraints[k].name)")
        }
    }

    @Test func aSecondOrLessIsIntegratedAsBeforeTheBound() throws {
        // A frame of 0.9 s (under the bound) carries what the reference carries: the time
        // left after whole steps.
        let data = try Self.celestialCircus()
        let world = World()
        let e = try world.spawn(data)
        // The first update after a spawn only records where the bones are (the reference's reset);
        // the next one integrates the time carried since.
        world.update(1 / 60)
        world.update(0.905)
        let (batch, row) = try world.locate(e)
        let cols = batch.columns()
        for k in 0..<data.physicsConstraints.count {
            let remaining = cols.physics[PhysicsField.remaining * cols.physicsFieldStride + cols.rows(row).physics(k)]
            let step = data.physicsConstraints[k].step
            let carried: Float = 1 / 60 + 0.905
            let expected = carried - Float(Int(carried / step)) * step
            #expect(abs(remaining - expected) < 1e-4, "constraint \(data.physicsConstraints[k].name)")
        }
    }

    @Test func nonFiniteDeltasAdvanceNothing() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let e = try world.spawn(data)
        let entry = try world.animationState(e).setAnimation(0, "walk", loop: true)
        world.update(0.25)
        let before = try world.pose(e)
        for delta: Float in [.nan, .infinity, -.infinity] {
            world.update(delta)
            try world.update(e, delta: delta)
            try world.animationState(e).update(delta)
        }
        #expect(try entry.trackTime == 0.25)
        let after = try world.pose(e)
        #expect(Self.allFinite(after))
        #expect(after.bones == before.bones)
    }
}
