import Bonework
import BoneworkImage
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

    @Test func bitmapFontRunsJoinNeighbouringPixels() {
        #expect(BitmapFont.runs("-") == [BitmapFont.Run(x: 0, y: 3, length: 5)])
        #expect(BitmapFont.runs(" -") == [BitmapFont.Run(x: 6, y: 3, length: 5)])
        #expect(BitmapFont.runs(" ").isEmpty)
        #expect(BitmapFont.width("ab") == 11)
    }

    /// The text overlay is drawn in GL into the frame: the file name's glyphs in the top-left
    /// corner, light on the dark backdrop, as many lit pixels as the font's runs cover (2x2 view
    /// pixels per font pixel), and the time line along the bottom.
    @Test func textOverlayIsDrawnOverTheFrame() throws {
        let out = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/bonework-view-cli-text.png"
        let r = try CLI.run([
            "view", TestPaths.example("spineboy/spineboy-pro.skel"), "--atlas",
            TestPaths.example("spineboy/spineboy-pma.atlas"), "--headless", "--frames", "2", "--out", out,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageMeasures.read(out)
        #expect(image.width == 1280 && image.height == 720)
        func lit(x: Range<Int>, y: Range<Int>) -> Int {
            var n = 0
            for j in y {
                for i in x {
                    let p = (j * image.width + i) * 4
                    if image.pixels[p] >= 200 && image.pixels[p + 1] >= 200 && image.pixels[p + 2] >= 200 { n += 1 }
                }
            }
            return n
        }
        let name = "spineboy-pro.skel"
        let expected = BitmapFont.runs(name).reduce(0) { $0 + $1.length } * 4
        let found = lit(x: 6..<(14 + BitmapFont.width(name) * 2), y: 4..<(12 + BitmapFont.glyphHeight * 2))
        #expect(abs(found - expected) <= expected / 10, "\(found) lit pixels where the name has \(expected)")
        #expect(lit(x: 0..<600, y: 670..<720) > 500, "no text along the bottom")
    }
}
