import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// One spelling per animation-state operation (track index first and unlabelled, then the
/// animation, then labelled arguments), `Int` indices from the data's lookups, and the earlier
/// spellings still there, deprecated, doing exactly the same.
@Suite struct ApiConsistencyTests {
    /// One spineboy instance in a world of its own.
    static func spineboy() throws -> (SkeletonData, World, Entity) {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        return (data, world, try world.spawn(data))
    }

    /// The script both spellings run: walk, run queued, an empty mix on track 1, 40 frames.
    static func play(_ spelling: any AnimationSpelling) throws -> [BoneWorldTransform] {
        let (data, world, entity) = try Self.spineboy()
        let state = AnimationState(world: world, entity: entity)
        let run = try #require(data.findAnimation("run"))
        try spelling.run(state, runIndex: run)
        for _ in 0..<40 { world.update(1.0 / 30) }
        return try (0..<data.bones.count).map { try world.boneWorld(entity, bone: $0) }
    }

    @Test func chosenSpellingsPlayAndNameTheirEntries() throws {
        let (data, world, entity) = try Self.spineboy()
        let state = AnimationState(world: world, entity: entity)
        let walk = try state.setAnimation(0, "walk", loop: true)
        #expect(walk.name == "walk")
        let run = try state.addAnimation(0, try #require(data.findAnimation("run")), loop: true, delay: 0.5)
        #expect(run.name == "run")
        #expect(try state.setEmptyAnimation(1, mixDuration: 0.2).name == "<empty>")
        #expect(try state.addEmptyAnimation(0, mixDuration: 0.2, delay: 0).name == "<empty>")
        try state.clearTrack(1)
        #expect(try state.getCurrent(0) == walk)
    }

    @Test func lookupsGiveTheIndexTheAccessorsTake() throws {
        let (data, world, entity) = try Self.spineboy()
        let head = try #require(data.findBoneIndex("head"))
        world.update(0)
        #expect(try world.boneWorld(entity, bone: head).worldY > 0)
        #expect(data.findBoneIndex("no such bone") == nil)
        #expect(try world.slotColor(entity, slot: try #require(data.findSlotIndex("head"))) == Color(1, 1, 1, 1))
        #expect(data.findSkinIndex("default") == 0)
        #expect(data.findSkinIndex("no such skin") == nil)
    }

    /// A disposed entry's name is nil, not an error, so listeners need no `try`.
    @Test func disposedEntryHasNoName() throws {
        let (_, world, entity) = try Self.spineboy()
        let state = AnimationState(world: world, entity: entity)
        let walk = try state.setAnimation(0, "walk", loop: true)
        try state.clearTrack(0)
        world.update(1.0 / 30)
        #expect(walk.name == nil)
    }

    @Test func deprecatedSpellingsDoTheSame() throws {
        let chosen = try Self.play(ChosenSpelling())
        let earlier = try Self.play(EarlierSpelling())
        #expect(chosen == earlier)
        #expect(chosen != (try Self.play(IdleOnly())), "the script changes the pose")
    }
}

/// The script in one spelling or another; called through the protocol, the deprecated spelling
/// is exercised without a deprecation warning in the test itself.
protocol AnimationSpelling {
    func run(_ state: AnimationState, runIndex: Int32) throws
}

struct ChosenSpelling: AnimationSpelling {
    func run(_ state: AnimationState, runIndex: Int32) throws {
        try state.setAnimation(0, "walk", loop: true)
        try state.addAnimation(0, runIndex, loop: true, delay: 0.5)
        try state.setEmptyAnimation(1, mixDuration: 0.2)
        try state.addEmptyAnimation(1, mixDuration: 0.1, delay: 0)
    }
}

struct EarlierSpelling: AnimationSpelling {
    @available(*, deprecated, message: "exercises the deprecated spellings")
    func run(_ state: AnimationState, runIndex: Int32) throws {
        try state.setAnimationByName(trackIndex: 0, animationName: "walk", loop: true)
        try state.addAnimation(trackIndex: 0, animation: runIndex, loop: true, delay: 0.5)
        try state.setEmptyAnimation(trackIndex: 1, mixDuration: 0.2)
        try state.addEmptyAnimation(trackIndex: 1, mixDuration: 0.1, delay: 0)
    }
}

struct IdleOnly: AnimationSpelling {
    func run(_ state: AnimationState, runIndex: Int32) throws {
        try state.setAnimation(0, "idle", loop: true)
    }
}
