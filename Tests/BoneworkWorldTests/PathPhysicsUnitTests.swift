import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Behaviour of the path and physics solvers and attachment positions that traces cannot show:
/// physics modes, global reset keys, moving a simulation with its skeleton, bad path data, and
/// the bounding box and point APIs.
@Suite("Path and physics behaviour")
struct PathPhysicsUnitTests {
    /// Two physics bones on a bone that an animation shakes; `reset` adds a global reset key.
    static func physicsSkeleton(reset: Bool) throws -> SkeletonData {
        let resetKeys = reset ? #", "physics": {"": {"reset": [{"time": 0.5}]}}"# : ""
        let json = """
            {"skeleton": {"spine": "4.2.22"},
             "bones": [{"name": "root"}, {"name": "mover", "parent": "root", "length": 30},
                       {"name": "a", "parent": "mover", "length": 40, "x": 30},
                       {"name": "b", "parent": "mover", "length": 25, "x": -20, "rotation": 90}],
             "physics": [{"name": "pa", "bone": "a", "x": 1, "y": 1, "rotate": 1, "scaleX": 0.5, "gravity": 20},
                         {"name": "pb", "order": 1, "bone": "b", "rotate": 1, "shearX": 0.5, "wind": 10}],
             "skins": [{"name": "default", "attachments": {}}],
             "animations": {"shake": {"bones": {"mover": {
                 "translate": [{"time": 0}, {"time": 0.25, "x": 80, "y": 30}, {"time": 0.5, "x": -60}, {"time": 1}],
                 "rotate": [{"time": 0}, {"time": 0.4, "value": 60}, {"time": 1}]}}\(resetKeys)}}}
            """
        return try SkeletonLoader.load(bytes: Array(json.utf8), file: "physics-test.json", atlas: nil)
    }

    /// The physics columns of every constraint of one instance, as raw bits.
    static func physicsState(_ world: World, _ entity: Entity) throws -> [UInt32] {
        let (batch, row) = try world.locate(entity)
        let cols = batch.columns()
        let r = cols.rows(row)
        var bits: [UInt32] = []
        for k in 0..<batch.rig.tables.physicsCount {
            let s = PhysicsConstraintSolver.State(PoseColumns(cols), row: r.physics(k))
            for f in 0..<PhysicsField.count { bits.append(s[f].bitPattern) }
            bits.append(UInt32(bitPattern: cols.physicsReset[r.physics(k)]))
        }
        return bits
    }

    static func velocities(_ world: World, _ entity: Entity) throws -> [Float] {
        let (batch, row) = try world.locate(entity)
        let cols = batch.columns()
        let r = cols.rows(row)
        return (0..<batch.rig.tables.physicsCount).flatMap { k -> [Float] in
            let s = PhysicsConstraintSolver.State(PoseColumns(cols), row: r.physics(k))
            return [s[PhysicsField.xVelocity], s[PhysicsField.yVelocity], s[PhysicsField.rotateVelocity]]
        }
    }

    @Test("a global reset key clears every constraint's motion in the frame it passes")
    func globalReset() throws {
        let data = try Self.physicsSkeleton(reset: true)
        #expect(data.animations[0].timelines.contains { $0.kind == .physicsReset && $0.target == -1 })
        let world = World(trackCount: 1)
        let e = try world.spawn(data)
        try world.setAnimation(e, track: 0, "shake", loop: true)
        let control = World(trackCount: 1)
        let c = try control.spawn(try Self.physicsSkeleton(reset: false))
        try control.setAnimation(c, track: 0, "shake", loop: true)
        let dt: Float = 1 / 30
        var sawMotion = false
        for step in 1...20 {
            world.update(dt)
            control.update(dt)
            let v = try Self.velocities(world, e)
            if Float(step) * dt < 0.5 {
                sawMotion = sawMotion || v.contains { $0 != 0 }
            } else if step == 15 {
                // The key at 0.5 s passed in this frame: every constraint starts afresh.
                #expect(v.allSatisfy { $0 == 0 }, "velocities after the reset: \(v)")
                #expect(try Self.velocities(control, c).contains { $0 != 0 })
            }
        }
        #expect(sawMotion)
    }

    @Test("pose re-applies the last offsets without advancing; none leaves physics out")
    func poseAndNone() throws {
        let data = try Self.physicsSkeleton(reset: false)
        let world = World(trackCount: 1)
        let e = try world.spawn(data)
        try world.setAnimation(e, track: 0, "shake", loop: true)
        for _ in 0..<9 { world.update(1 / 30) }
        let after = try world.pose(e).bones
        let state = try Self.physicsState(world, e)

        try world.updateWorldTransforms(e, physics: .pose)
        #expect(try world.pose(e).bones == after)
        #expect(try Self.physicsState(world, e) == state)

        try world.updateWorldTransforms(e, physics: .none)
        let without = try world.pose(e).bones
        #expect(try Self.physicsState(world, e) == state)
        let a = try #require(data.findBoneIndex("a"))
        let mover = try #require(data.findBoneIndex("mover"))
        #expect(without[mover] == after[mover])
        #expect(without[a] != after[a], "physics offsets should move bone a")

        // Advancing with no time passed integrates nothing but keeps the offsets.
        try world.updateWorldTransforms(e, physics: .update)
        let again = try world.pose(e).bones
        for (x, y) in zip(again[a], after[a]) { #expect(abs(x - y) <= 1e-3 * max(1, abs(y))) }
    }

    @Test("physicsTranslate by the opposite of a teleport keeps the simulation calm")
    func translateWithSkeleton() throws {
        let data = try Self.physicsSkeleton(reset: false)
        let world = World(trackCount: 1)
        let moved = try world.spawn(data)
        let still = try world.spawn(data)
        let ignored = try world.spawn(data)
        for e in [moved, still, ignored] { try world.setAnimation(e, track: 0, "shake", loop: true) }
        for _ in 0..<5 { world.update(1 / 30) }
        let (batch, _) = try world.locate(moved)
        let cols = batch.columns()
        for e in [moved, ignored] { cols.skeletonX[try world.locate(e).row] = 500 }
        // Cancel the teleport's swing: the physics sees the bones move back by as much.
        try world.physicsTranslate(moved, x: -500, y: 0)
        for _ in 0..<5 { world.update(1 / 30) }
        let a = try #require(data.findBoneIndex("a"))
        let m = try world.pose(moved).bones[a]
        let s = try world.pose(still).bones[a]
        let i = try world.pose(ignored).bones[a]
        #expect(abs((m[4] - 500) - s[4]) < 0.01 && abs(m[5] - s[5]) < 0.01, "moved \(m) still \(s)")
        #expect(abs((i[4] - 500) - s[4]) > 1, "a teleport without physicsTranslate should swing the bone")
    }

    @Test("physicsRotate by zero degrees changes nothing; resetPhysics clears motion")
    func rotateAndReset() throws {
        let data = try Self.physicsSkeleton(reset: false)
        let world = World(trackCount: 1)
        let e = try world.spawn(data)
        try world.setAnimation(e, track: 0, "shake", loop: true)
        for _ in 0..<6 { world.update(1 / 30) }
        let state = try Self.physicsState(world, e)
        try world.physicsRotate(e, x: 10, y: 20, degrees: 0)
        #expect(try Self.physicsState(world, e) == state)
        try world.physicsRotate(e, x: 10, y: 20, degrees: 30)
        #expect(try Self.physicsState(world, e) != state)
        try world.resetPhysics(e)
        #expect(try Self.velocities(world, e).allSatisfy { $0 == 0 })
    }

    nonisolated(unsafe) static var sink: [Int] = []
    nonisolated(unsafe) static var otherThreadScratch: UInt = 0

    @Test("frames with path and physics constraints allocate nothing")
    func framesDoNotAllocate() throws {
        let world = World(trackCount: 1)
        for (skeleton, atlas, skin) in [
            ("tank/tank-pro.skel", "tank/tank.atlas", nil), ("vine/vine-pro.json", "vine/vine.atlas", nil),
            ("mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas", "full-skins/girl"),
            ("celestial-circus/celestial-circus-pro.skel", "celestial-circus/celestial-circus.atlas", nil),
            ("snowglobe/snowglobe-pro.skel", "snowglobe/snowglobe.atlas", nil),
        ] as [(String, String, String?)] {
            let data = try ExampleSkeletons.load(skeleton, atlas: atlas)
            #expect(!data.pathConstraints.isEmpty || !data.physicsConstraints.isEmpty)
            for i in 0..<12 {
                let e = try world.spawn(data, skin: skin)
                try world.setAnimation(e, data.animations[i % data.animations.count].name, loop: true)
            }
        }
        for _ in 0..<5 { world.update(1 / 60) }
        let probe = try MallocProbe.isolatedAllocationDelta {
            for n in 0..<50 { Self.sink = [Int](repeating: n, count: 8) }
        }
        MallocProbe.expectProbeWorks(probe)
        let delta = try MallocProbe.isolatedAllocationDelta {
            for _ in 0..<100 { world.update(1 / 60) }
        }
        MallocProbe.expectNoFrameAllocations(delta)
    }

    @Test("path scratch is one buffer per thread, reused across frames")
    func scratchPerThread() throws {
        let first = UInt(bitPattern: PathScratchBuffer.floats(3000))
        #expect(UInt(bitPattern: PathScratchBuffer.floats(10)) == first)
        #expect(UInt(bitPattern: PathScratchBuffer.floats(3000)) == first)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Self.otherThreadScratch = UInt(bitPattern: PathScratchBuffer.floats(3000))
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(Self.otherThreadScratch != first && Self.otherThreadScratch != 0)
        // A world with a large path (tank: 36 bones, 66 vertices) poses from the same buffer.
        let data = try ExampleSkeletons.load("tank/tank-pro.skel", atlas: "tank/tank.atlas")
        let rig = CompiledSkeleton(data)
        #expect(rig.tables.paths.scratchFloats > 256)
        let used = PathConstraintSolver.withScratch(rig.tables) { $0.map { UInt(bitPattern: $0) } }
        #expect(used == first)
    }

    /// A path constraint over two bones whose path attachment's curve lengths are missing.
    static func brokenPath() throws -> SkeletonData {
        var b = SkeletonDataBuilder(file: "broken-path")
        b.bones = [
            BoneData(name: "root", parent: -1), BoneData(name: "c0", parent: 0), BoneData(name: "c1", parent: 1),
        ]
        b.bones[1].length = 10
        b.bones[2].length = 10
        b.bones[2].x = 10
        var slot = SlotData(name: "path", bone: 0)
        slot.attachmentName = b.intern("path")
        b.slots = [slot]
        b.skins = [SkinData(name: "default")]
        b.defaultSkin = 0
        var path = AttachmentData(name: "path", kind: .path)
        path.vertices = [0, 0, 10, 0, 20, 0, 30, 0, 40, 0, 50, 0]
        path.worldVerticesLength = 12
        path.lengths = []
        b.addAttachment(path, skin: 0, slot: 0, name: "path", at: .file)
        var c = PathConstraintData(name: "follow")
        c.bones = [1, 2]
        c.target = 0
        c.positionMode = .fixed
        c.spacingMode = .fixed
        b.pathConstraints = [c]
        return try b.finish(atlas: nil)
    }

    @Test("a path without enough curve lengths is skipped, not read past its end")
    func brokenPathIsSkipped() throws {
        let data = try Self.brokenPath()
        let world = World(trackCount: 1)
        let e = try world.spawn(data)
        world.update(1 / 30)
        let bones = try world.pose(e).bones
        // The setup pose, untouched by the constraint.
        for (actual, expected) in zip(bones[1] + bones[2], [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 10, 0] as [Float]) {
            #expect(abs(actual - expected) < 1e-6)
        }
    }

    @Test("bounding boxes, hit tests and point attachments in world space")
    func attachmentPositions() throws {
        let json = """
            {"skeleton": {"spine": "4.2.22"},
             "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "x": 100, "y": 50, "rotation": 90,
                        "scaleX": 2}],
             "slots": [{"name": "hit", "bone": "arm", "attachment": "box"},
                       {"name": "muzzle", "bone": "arm", "attachment": "tip"},
                       {"name": "empty", "bone": "root"}],
             "skins": [{"name": "default", "attachments": {
                 "hit": {"box": {"type": "boundingbox", "vertexCount": 4, "vertices": [0, -5, 10, -5, 10, 5, 0, 5]}},
                 "muzzle": {"tip": {"type": "point", "x": 10, "y": 0, "rotation": 45}}}}]}
            """
        let data = try SkeletonLoader.load(bytes: Array(json.utf8), file: "positions.json", atlas: nil)
        let world = World(trackCount: 1)
        let e = try world.spawn(data)
        // arm: rotated 90 degrees, scaleX 2, at (100, 50): local (x, y) -> (100 - y, 50 + 2x).
        let boxes = try world.boundingBoxes(e)
        try #require(boxes.count == 1)
        #expect(boxes[0].slot == 0)
        let expected: [Float] = [105, 50, 105, 70, 95, 70, 95, 50]
        for (v, x) in zip(boxes[0].vertices, expected) { #expect(abs(v - x) < 1e-4) }
        #expect(try world.hitTest(e, x: 100, y: 60)?.slot == 0)
        #expect(try world.hitTest(e, x: 120, y: 60) == nil)

        let point = try #require(try world.pointAttachment(e, slot: "muzzle"))
        #expect(abs(point.x - 100) < 1e-4 && abs(point.y - 70) < 1e-4)
        // The point's 45 degrees in the arm's space: the arm maps (1, 1) to (-1, 2).
        #expect(abs(point.rotation - Float(atan2(2.0, -1.0) * 180 / Double.pi)) < 1e-3)
        #expect(try world.pointAttachment(e, slot: "hit") == nil)
        #expect(try world.pointAttachment(e, slot: "no such slot") == nil)
        #expect(try world.pointAttachments(e).count == 1)

        let (batch, row) = try world.locate(e)
        var small = [Float](repeating: 0, count: 4)
        #expect(small.withUnsafeMutableBufferPointer { batch.boundingBoxVertices(row: row, slot: 0, into: $0) } == nil)
        var buffer = [Float](repeating: 0, count: 16)
        #expect(buffer.withUnsafeMutableBufferPointer { batch.boundingBoxVertices(row: row, slot: 0, into: $0) } == 8)
        #expect(buffer.withUnsafeMutableBufferPointer { batch.boundingBoxVertices(row: row, slot: 2, into: $0) } == nil)
        #expect(buffer.withUnsafeMutableBufferPointer { batch.boundingBoxVertices(row: 99, slot: 0, into: $0) } == nil)
    }
}
