import Bonework
import Testing

/// What an application writes with `import Bonework` alone (no other Bonework module imported in
/// this file): the pool, the World and its handles, colours and the default character.
@Suite struct SingleImportTests {
    @Test func theCoreTypesComeWithImportBonework() throws {
        let data = try SkeletonDataPool.shared.load(
            skeleton: DefaultCharacter.skeletonPath, atlas: DefaultCharacter.atlasPath)
        let world = World()
        let entity: Entity = try world.spawn(data)
        try world.setAnimation(entity, data.animations[0].name, loop: true)
        world.update(1 / 60)
        try world.setSkeletonColor(entity, Color(1, 0.5, 0.25, 1))
        #expect(try world.skeletonColor(entity) == Color(1, 0.5, 0.25, 1))
        #expect(try world.bounds(entity) != nil)
    }
}
