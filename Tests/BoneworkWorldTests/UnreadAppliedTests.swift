import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Transform, path and physics steps leave their bones' applied pose alone when no later step of
/// the program reads it (`UpdateOp.recomputesApplied`, `CompiledSkeleton.markingUnreadApplied`):
/// the marking first, then the world transforms and physics states of every example with such
/// constraints, posed with the marks and with every step recomputing, on the scalar path and in
/// 4 and 8 lanes.
@Suite("Unread applied poses")
struct UnreadAppliedTests {
    /// The examples with transform, path or physics constraints (skeleton, atlas).
    static let examples: [(String, String)] = [
        ("alien/alien-pro.json", "alien/alien.atlas"),
        ("celestial-circus/celestial-circus-pro.skel", "celestial-circus/celestial-circus.atlas"),
        ("chibi-stickers/chibi-stickers.json", "chibi-stickers/chibi-stickers.atlas"),
        ("cloud-pot/cloud-pot.json", "cloud-pot/cloud-pot.atlas"),
        ("hero/hero-pro.json", "hero/hero.atlas"),
        ("mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas"),
        ("owl/owl-pro.json", "owl/owl.atlas"),
        ("sack/sack-pro.json", "sack/sack.atlas"),
        ("snowglobe/snowglobe-pro.json", "snowglobe/snowglobe.atlas"),
        ("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas"),
        ("stretchyman/stretchyman-pro.json", "stretchyman/stretchyman.atlas"),
        ("tank/tank-pro.json", "tank/tank.atlas"),
        ("vine/vine-pro.json", "vine/vine.atlas"),
    ]

    /// Plan 0's program of `data` (no skin) as compiled.
    static func program(_ world: World, _ data: SkeletonData) throws -> [UpdateOp] {
        _ = try world.spawn(data)
        let rig = world.batches[0].rig.tables
        let start = Int(rig.planOpStart[0])
        return (0..<Int(rig.planOpCount[0])).map { rig.ops[start + $0] }
    }

    @Test("a step is unread exactly when no later step reads a bone it moves")
    func marking() throws {
        let data = try ExampleSkeletons.load("celestial-circus/celestial-circus-pro.skel", atlas: nil)
        let ops = try Self.program(World(), data)
        // Compiled programs are marked already: marking again changes nothing.
        #expect(CompiledSkeleton.markingUnreadApplied(ops, data) == ops)
        let unread = ops.indices.filter { ops[$0].kind == .physics && !ops[$0].recomputesApplied }
        // celestial-circus's physics bones are read by no later step.
        #expect(unread.count >= 20)
        #expect(ops.allSatisfy { $0.recomputesApplied || [.transform, .path, .physics].contains($0.kind) })
        for o in unread.prefix(4) {
            let bone = data.physicsConstraints[Int(ops[o].index)].bone
            let otherBone = Int32((Int(bone) + 1) % data.bones.count)
            // A later step of the bone itself, or a constraint naming it, reads it.
            let readers = [
                UpdateOp(kind: .bone, index: bone),
                UpdateOp(kind: .physics, index: ops[o].index),
                UpdateOp(kind: .childBone, index: bone, parent: data.bones[Int(bone)].parent),
            ]
            for reader in readers {
                let marked = CompiledSkeleton.markingUnreadApplied(ops + [reader], data)
                #expect(marked[o].recomputesApplied, "\(reader.kind) of \(data.bones[Int(bone)].name) reads it")
            }
            // A step of another bone does not; an earlier reader does not either.
            let other = CompiledSkeleton.markingUnreadApplied(ops + [UpdateOp(kind: .bone, index: otherBone)], data)
            #expect(other[o].recomputesApplied == (otherBone == bone))
            let earlier = CompiledSkeleton.markingUnreadApplied([UpdateOp(kind: .bone, index: bone)] + ops, data)
            #expect(!earlier[o + 1].recomputesApplied)
        }
    }

    @Test("IK and transform constraints naming a moved bone read its applied pose")
    func constraintReaders() throws {
        let data = try ExampleSkeletons.load("celestial-circus/celestial-circus-pro.skel", atlas: nil)
        let ops = try Self.program(World(), data)
        let o = try #require(ops.indices.first { ops[$0].kind == .physics && !ops[$0].recomputesApplied })
        let bone = data.physicsConstraints[Int(ops[o].index)].bone
        let other = Int32((Int(bone) + 1) % data.bones.count)
        // A later constraint step whose bones are given here: it reads `read`.
        for kind in [UpdateOp.Kind.ik, .transform, .path] {
            for (read, isRead) in [([other], false), ([bone], true), ([other, bone], true)] {
                let marked = CompiledSkeleton.markingUnreadApplied(
                    ops + [UpdateOp(kind: kind, index: 0)], boneCount: data.bones.count
                ) { op in
                    op.kind == kind ? ([], read) : CompiledSkeleton.stepBones(op, data)
                }
                #expect(marked[o].recomputesApplied == isRead, "\(kind) reading \(read)")
            }
        }
        // What the data says each kind reads: constrained bones and targets.
        for (k, tc) in data.transformConstraints.enumerated() {
            let (moved, read) = CompiledSkeleton.stepBones(UpdateOp(kind: .transform, index: Int32(k)), data)
            #expect(moved == tc.bones && Set(read) == Set(tc.bones + [tc.target]))
        }
        for (k, physics) in data.physicsConstraints.enumerated() {
            let (moved, read) = CompiledSkeleton.stepBones(UpdateOp(kind: .physics, index: Int32(k)), data)
            #expect(moved == [physics.bone] && read == [physics.bone])
        }
    }

    @Test(
        "posing with unread applied poses skipped gives every recomputed pose's bits",
        arguments: examples.map { [$0.0, $0.1] })
    func sameWorld(_ example: [String]) throws {
        let data = try ExampleSkeletons.load(example[0], atlas: example[1])
        var unreadSteps = 0
        // Instance-major (the scalar path), chunks of 4 (4 lanes) and of 8 (8 lanes).
        for layout in [ColumnLayout(), ColumnLayout(chunkSize: 4), ColumnLayout(chunkSize: 8)] {
            let marked = World(layout: layout)
            let markedEntities = try Self.populate(marked, data)
            let recomputing = World(layout: layout)
            let recomputingEntities = try Self.populate(recomputing, data)
            let batch = recomputing.batches[0]
            var rig = batch.rig.tables
            let total = (0...data.skins.count).map { Int(rig.planOpStart[$0] + rig.planOpCount[$0]) }.max() ?? 0
            let every = UnsafeMutablePointer<UpdateOp>.allocate(capacity: max(1, total))
            defer { every.deallocate() }
            for k in 0..<total {
                var op = rig.ops[k]
                if !op.recomputesApplied { unreadSteps += 1 }
                op.recomputesApplied = true
                (every + k).initialize(to: op)
            }
            rig.ops = UnsafePointer(every)
            typealias Runner = PhysicsDeterminismTests.ChunkedRunner
            let a = Runner(batch: marked.batches[0], workers: 1, chunkSize: 16)
            let b = Runner(batch: batch, workers: 1, chunkSize: 16, rig: rig)
            for frame in 0..<24 {
                let delta: Float = frame % 5 == 4 ? 0.05 : 1 / 60
                a.frame(delta: delta)
                b.frame(delta: delta)
            }
            for (e, f) in zip(markedEntities, recomputingEntities) {
                let x = try marked.pose(e).bones
                let y = try recomputing.pose(f).bones
                for k in x.indices {
                    let same = zip(x[k], y[k]).allSatisfy { FloatBits.same($0, $1) }
                    #expect(same, "\(example[0]), chunk \(layout.chunkSize): bone \(data.bones[k].name) differs")
                    if !same { return }
                }
            }
        }
        // Every example here has a transform, path or physics step that nothing reads after it.
        #expect(unreadSteps > 0)
    }

    /// 16 instances, each skin and animation in turn, at different times.
    static func populate(_ world: World, _ data: SkeletonData) throws -> [Entity] {
        try (0..<16).map { i in
            let skin = data.skins.isEmpty ? nil : data.skins[i % data.skins.count].name
            let e = try world.spawn(data, skin: skin)
            if !data.animations.isEmpty {
                try world.setAnimation(e, data.animations[i % data.animations.count].name, loop: true)
                try world.setTrackTime(e, Float(i) * 0.037)
            }
            return e
        }
    }
}
