import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

@Suite("Batch storage")
struct WorldTests {
    static let delta: Float = 1.0 / 30.0
    nonisolated(unsafe) static var sink: [Int] = []

    /// What one instance plays: skin, animation and the track time it starts at.
    struct Spec {
        var data: SkeletonData
        var skin: String?
        var animation: String
        var phase: Float
        var frames = 0
    }

    static func spawn(_ spec: Spec, in world: World) throws -> Entity {
        let e = try world.spawn(spec.data, skin: spec.skin)
        try world.setAnimation(e, track: 0, spec.animation, loop: true)
        try world.setTrackTime(e, track: 0, spec.phase)
        return e
    }

    /// A lone instance of `spec` in its own world, run for as many frames.
    static func lonePose(_ spec: Spec, layout: ColumnLayout) throws -> InstancePose {
        let world = World(layout: layout, trackCount: 2)
        let e = try spawn(spec, in: world)
        for _ in 0..<spec.frames { world.update(delta) }
        return try world.pose(e)
    }

    @Test(
        "Instances with different skins, animations and phases share a batch without disturbing each other",
        arguments: [ColumnLayout.instanceMajor, ColumnLayout(chunkSize: 8)])
    func survivorsMatchLoneInstances(layout: ColumnLayout) throws {
        let chibi = try ExampleSkeletons.chibi()
        let spineboy = try ExampleSkeletons.spineboy()
        let skins: [String?] = [nil] + chibi.skins.map(\.name).filter { $0 != "default" }
        let world = World(layout: layout, trackCount: 2)
        var specs: [Entity: Spec] = [:]
        var order: [Entity] = []
        func add(_ i: Int) throws {
            let spec: Spec
            if i % 3 == 2 {
                let animation = spineboy.animations[i % spineboy.animations.count].name
                spec = Spec(data: spineboy, skin: nil, animation: animation, phase: Float(i) * 0.11)
            } else {
                let animation = chibi.animations[(i * 7) % chibi.animations.count].name
                spec = Spec(data: chibi, skin: skins[i % skins.count], animation: animation, phase: Float(i) * 0.07)
            }
            let e = try Self.spawn(spec, in: world)
            specs[e] = spec
            order.append(e)
        }
        func run(_ frames: Int) {
            for _ in 0..<frames { world.update(Self.delta) }
            for e in specs.keys { specs[e]?.frames += frames }
        }
        for i in 0..<45 { try add(i) }
        #expect(world.batches.count == 2)
        run(17)
        // Despawn from the middle of both batches (rows move), then spawn more into the holes.
        var despawned: [Entity] = []
        for (n, e) in order.enumerated() where n % 4 == 1 {
            try world.despawn(e)
            specs[e] = nil
            despawned.append(e)
        }
        for i in 45..<52 { try add(i) }
        run(23)
        #expect(world.count == specs.count)
        for e in despawned { #expect(!world.isAlive(e)) }
        for (e, spec) in specs {
            let pose = try world.pose(e)
            let lone = try Self.lonePose(spec, layout: layout)
            #expect(pose == lone, "\(e) (\(spec.skin ?? "no skin"), \(spec.animation)) differs from a lone instance")
        }
    }

    @Test("A stale handle is refused, never aimed at the instance that reuses its slot")
    func staleHandleRefused() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let a = try world.spawn(data)
        let other = try world.spawn(data)
        try world.despawn(a)
        #expect(throws: WorldError.staleEntity(a)) { try world.setAnimation(a, "walk", loop: true) }
        #expect(throws: WorldError.staleEntity(a)) { try world.despawn(a) }
        #expect(throws: WorldError.staleEntity(a)) { try world.pose(a) }
        let b = try world.spawn(data)
        #expect(b.index == a.index)
        #expect(b.generation != a.generation)
        #expect(throws: WorldError.staleEntity(a)) { try world.setSkin(a, nil) }
        try world.setAnimation(b, "run", loop: true)
        #expect(world.isAlive(b) && world.isAlive(other) && !world.isAlive(a))
        #expect(throws: WorldError.staleEntity(Entity(index: 999, generation: 0))) {
            try world.pose(Entity(index: 999, generation: 0))
        }
        #expect(throws: WorldError.unknownAnimation("no-such")) { try world.setAnimation(b, "no-such", loop: true) }
        #expect(throws: WorldError.noSuchSkin("no-such", skeleton: data.file)) {
            try world.spawn(data, skin: "no-such")
        }
    }

    @Test("Despawning the last row and respawning keeps every handle pointing at its own instance")
    func handlesFollowMovedRows() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let entities = try (0..<5).map { _ in try world.spawn(data) }
        for (i, e) in entities.enumerated() {
            try world.setAnimation(e, ["walk", "run", "idle", "jump", "shoot"][i], loop: true)
        }
        try world.despawn(entities[1])
        try world.despawn(entities[4])
        world.update(Self.delta)
        let batch = try world.locate(entities[0]).batch
        #expect(batch.count == 3)
        for e in [entities[0], entities[2], entities[3]] {
            let (_, row) = try world.locate(e)
            #expect(batch.entity(atRow: row) == e)
        }
    }

    /// A world in steady state: both example skeletons, many instances, a few frames run.
    static func steadyWorld(instances: Int) throws -> World {
        let chibi = try ExampleSkeletons.chibi()
        let spineboy = try ExampleSkeletons.spineboy()
        let world = World()
        for i in 0..<instances {
            if i % 2 == 0 {
                let e = try world.spawn(chibi, skin: chibi.skins[i % chibi.skins.count].name)
                try world.setAnimation(e, chibi.animations[i % chibi.animations.count].name, loop: true)
            } else {
                let e = try world.spawn(spineboy)
                try world.setAnimation(e, spineboy.animations[i % spineboy.animations.count].name, loop: true)
            }
        }
        for _ in 0..<5 { world.update(delta) }
        return world
    }

    @Test("Nothing per frame allocates: 100 steady frames, zero heap allocations")
    func framesDoNotAllocate() throws {
        let world = try Self.steadyWorld(instances: 120)
        // The probe sees an allocation that is freed again (so a zero below means something).
        let probe = try MallocProbe.isolatedAllocationDelta {
            for n in 0..<100 { WorldTests.sink = [Int](repeating: n, count: 8) }
        }
        MallocProbe.expectProbeWorks(probe)
        let delta = try MallocProbe.isolatedAllocationDelta {
            for _ in 0..<100 { world.update(Self.delta) }
        }
        MallocProbe.expectNoFrameAllocations(delta)
    }

    @Test("The scheduler times every system of every frame")
    func schedulerTimings() throws {
        let world = try Self.steadyWorld(instances: 10)
        let before = world.scheduler.frames
        for _ in 0..<3 { world.update(Self.delta) }
        #expect(world.scheduler.frames == before + 3)
        #expect(world.scheduler.instances() == 10)
        var total: UInt64 = 0
        for system in SystemID.allCases {
            let ns = try #require(world.scheduler.nanoseconds(system))
            total += ns
        }
        #expect(total > 0)
        #expect(world.scheduler.nanoseconds(.pose, framesAgo: world.scheduler.capacity) == nil)
    }

    @Test("Skins activate their bones and constraints; other skins' bones stay at the identity")
    func skinPlans() throws {
        let chibi = try ExampleSkeletons.chibi()
        let rig = CompiledSkeleton(chibi)
        let required = chibi.bones.indices.filter { chibi.bones[$0].skinRequired }
        try #require(!required.isEmpty, "chibi-stickers has skin-required bones")
        for bone in required { #expect(!rig.isBoneActive(plan: 0, bone: bone)) }
        for (s, skin) in chibi.skins.enumerated() {
            for bone in skin.bones { #expect(rig.isBoneActive(plan: Int32(s + 1), bone: Int(bone))) }
        }
        let world = World()
        let e = try world.spawn(chibi)
        let pose = try world.pose(e)
        for bone in required { #expect(pose.bones[bone] == [1, 0, 0, 1, 0, 0]) }
        // Program: every active bone exactly once as a bone step... or more when constraints
        // re-place their bones; never an inactive one.
        let steps = rig.describeProgram(plan: 0)
        for bone in required { #expect(!steps.contains("bone \(chibi.bones[bone].name)")) }
    }

    @Test("Event keys fire once per pass, with completions, in the reference's order")
    func eventsFire() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let e = try world.spawn(data)
        try world.setAnimation(e, "walk", loop: true)
        let batch = try world.locate(e).batch
        let walk = try #require(data.animations.first { $0.name == "walk" })
        #expect(batch.firedEvents.contains { $0.type == .start })
        var fired: [String] = []
        var completes = 0
        let frames = Int((walk.duration * 30).rounded(.up)) * 2 + 1
        for _ in 0..<frames {
            world.update(Self.delta)
            for event in batch.firedEvents {
                #expect(event.entity == e)
                if event.type == .event, let key = batch.eventKey(event.key) {
                    fired.append(data.events[Int(key.event)].name)
                }
                if event.type == .complete { completes += 1 }
            }
        }
        #expect(completes == 2)
        try #require(!walk.events.isEmpty)
        // Every key fired in each of the two whole loops (and keys at the loop start once more).
        #expect(fired.count >= walk.events.count * 2)
        #expect(fired.count <= walk.events.count * 3)
        #expect(batch.droppedEvents == 0)
    }
}
