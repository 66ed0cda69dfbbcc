import Testing

@testable import bonework

/// The viewer's opening rules: which animation and which skin it starts on without options.
@Suite struct ViewCommandTests {
    @Test func opensOnAMovementAnimation() {
        #expect(ViewCommand.openingAnimationIndex(["aim", "death", "idle", "run", "walk"]) == 4)
        #expect(ViewCommand.openingAnimationIndex(["aim", "Run-fast", "idle"]) == 1)
        #expect(ViewCommand.openingAnimationIndex(["aim", "shoot"]) == 0)
        #expect(ViewCommand.openingAnimationIndex([]) == nil)
    }

    @Test func defaultOutfitIsACompleteCharacter() {
        let mix = ["default", "skin-base", "accessories/bag", "full-skins/boy", "hair/blue"]
        #expect(ViewCommand.defaultSkinIndex(mix) == 3)
        #expect(ViewCommand.defaultSkinIndex(["default", "skin-base", "hat"]) == 2)
        #expect(ViewCommand.defaultSkinIndex(["default", "skin-base"]) == 1)
        #expect(ViewCommand.defaultSkinIndex(["default"]) == 0)
        #expect(ViewCommand.defaultSkinIndex([]) == nil)
    }
}
