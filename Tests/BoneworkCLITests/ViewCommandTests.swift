import Bonework
import BoneworkTestSupport
import Foundation
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

    /// Repeated `--skin` options are worn as one composed outfit, in order, and the headless frame
    /// is written at the default 1280x720 size.
    @Test func repeatedSkinsAreComposed() throws {
        let out = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/bonework-view-cli-compose.png"
        let r = try CLI.run([
            "view", TestPaths.example("mix-and-match/mix-and-match-pro.skel"), "--atlas",
            TestPaths.example("mix-and-match/mix-and-match-pma.atlas"), "--skin", "skin-base", "--skin",
            "hair/brown", "--skin", "clothes/hoodie-orange", "--headless", "--frames", "2", "--out", out,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("| anim walk (loop) | skin skin-base+hair/brown+clothes/hoodie-orange |"))
        #expect(FileManager.default.fileExists(atPath: out))
    }

    /// The fit covers the whole walk (every sampled pose) and adds 8% of each side around it.
    @Test func fitCoversTheAnimationWithAMargin() throws {
        let data = try SkeletonDataPool.shared.load(
            skeleton: TestPaths.example("spineboy/spineboy-pro.skel"),
            atlas: TestPaths.example("spineboy/spineboy-pma.atlas"))
        let drawable = try SkeletonDrawable(assets: SkeletonAssets.shared(data))
        let walk = try SkinAndAnimationBounds(animations: ["walk"], stepTime: 1.0 / 15).computeBounds(drawable)
        let setup = try SetupPoseBounds().computeBounds(drawable)
        #expect(walk.width >= setup.width * 0.5 && walk.height > 0)
        let fit = try ViewCommand.MarginBounds(
            inner: SkinAndAnimationBounds(animations: ["walk"], stepTime: 1.0 / 15), margin: 0.08
        ).computeBounds(drawable)
        #expect(abs(fit.x - (walk.x - walk.width * 0.08)) < 0.01)
        #expect(abs(fit.y - (walk.y - walk.height * 0.08)) < 0.01)
        #expect(abs(fit.width - walk.width * 1.16) < 0.01)
        #expect(abs(fit.height - walk.height * 1.16) < 0.01)
    }
}
