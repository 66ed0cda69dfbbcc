import BoneworkAssets
import BoneworkFormat
import BoneworkRender
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import Bonework

@Suite(.serialized) struct DrawableTests {
    @Test func drawablesShareDataAndFreeTheirEntity() async throws {
        let a = try await SkeletonDrawable.load(.defaultCharacter, skin: "blue")
        let b = try await SkeletonDrawable.load(
            .file(atlas: DefaultCharacter.atlasPath, skeleton: DefaultCharacter.skeletonPath))
        #expect(a.skeletonData === b.skeletonData)
        #expect(a.atlas === b.atlas)
        let world = World()
        var c: SkeletonDrawable? = try SkeletonDrawable(sharing: a, world: world, skin: "orange")
        let d = try SkeletonDrawable(sharing: a, world: world)
        #expect(world.count == 2)
        #expect(c?.assets === a.assets)
        c = nil
        #expect(world.count == 1, "dropping the drawable despawns its entity at once")
        d.dispose()
        #expect(world.count == 0)
        #expect(throws: BoneworkError.self) { try d.update(delta: 0.1) }
        #expect(throws: BoneworkError.disposed("SkeletonDrawable(\(a.skeletonData.file))")) { try d.skeleton }
        #expect(throws: BoneworkError.self) { try d.renderToImage(size: Size(width: 8, height: 8)) }
    }

    @Test func bundleSourceFindsPackageResources() async throws {
        let bundle = try #require(Bundle(path: DefaultCharacter.directory.deletingLastPathComponent().path))
        let drawable = try await SkeletonDrawable.load(
            .bundle(atlasFileName: "bonebot.atlas", skeletonFileName: "bonebot.json", bundle: bundle))
        #expect(drawable.skeletonData.bones.count > 10)
        await #expect(throws: BoneworkError.resourceNotFound("missing.atlas")) {
            _ = try await SkeletonDrawable.load(
                .bundle(atlasFileName: "missing.atlas", skeletonFileName: "bonebot.json", bundle: bundle))
        }
    }

    @Test func renderToImageDrawsTheCharacter() async throws {
        let drawable = try await SkeletonDrawable.load(.defaultCharacter, skin: "orange")
        try drawable.animationState.setAnimation(0, "walk", loop: true)
        try drawable.update(delta: 0.3)
        #expect(drawable.lastTimings.total > 0 && drawable.lastTimings.worldTransforms > 0)
        let image = try drawable.renderToImage(
            size: Size(width: 40, height: 30), backgroundColor: Color(0, 0, 1, 1), scaleFactor: 2)
        #expect(image.width == 80 && image.height == 60)
        // Corners are background blue, the middle holds the character.
        let corner = image.pixel(0, 0)
        #expect(corner.0 == 0 && corner.2 == 255 && corner.3 == 255)
        var notBlue = 0
        for y in 0..<60 { for x in 0..<80 where image.pixel(x, y).2 < 200 { notBlue += 1 } }
        #expect(notBlue > 200)
        let png = try image.pngData()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func bonesReadAndWriteTransforms() async throws {
        let drawable = try await SkeletonDrawable.load(.defaultCharacter, skin: "blue")
        let skeleton = try drawable.skeleton
        let head = try #require(skeleton.findBone("head"))
        let parent = try #require(head.parent)
        try drawable.updateWorldTransforms()
        // World to local and back.
        let p = Point(x: 31, y: 250)
        let local = try parent.worldToLocal(p)
        let world = try parent.localToWorld(local)
        #expect(abs(world.x - p.x) < 1e-3 && abs(world.y - p.y) < 1e-3)
        // Moving the head in its parent's frame moves its world position there.
        try head.setPosition(try head.worldToParent(p))
        try skeleton.updateWorldTransform()
        let moved = try head.worldPosition
        #expect(abs(moved.x - p.x) < 1e-2 && abs(moved.y - p.y) < 1e-2)
        // World transforms can be overwritten directly.
        var w = try head.worldTransform
        w.worldX += 5
        try head.setWorldTransform(w)
        #expect(try head.worldTransform.worldX == w.worldX)
        #expect(skeleton.findBone("tail") == nil)
    }

    @Test func skinsSwitchPerInstanceInOneBatch() async throws {
        let world = World()
        let blue = try await SkeletonDrawable.load(.defaultCharacter, world: world, skin: "blue")
        let orange = try SkeletonDrawable(sharing: blue, skin: "orange")
        #expect(world.batches.count == 1 && world.batches[0].count == 2)
        #expect(try blue.skeleton.skinName == "blue")
        #expect(try orange.skeleton.skinName == "orange")
        let a = try blue.renderToImage(size: Size(width: 48, height: 48))
        let b = try orange.renderToImage(size: Size(width: 48, height: 48))
        #expect(ImageMeasures.differingPixels(a.image, b.image) > 20)
        try orange.skeleton.setSkin("blue")
        try orange.updateWorldTransforms()
        let c = try orange.renderToImage(size: Size(width: 48, height: 48))
        #expect(ImageMeasures.differingPixels(a.image, c.image) == 0)
        // A custom skin made of both, reset slots, then found by name.
        let custom = Skin(name: "mixed", for: blue.skeletonData)
        try custom.addSkin("orange")
        try custom.addSkin("blue")
        #expect(custom.count > 0)
        try orange.skeleton.setSkin(custom)
        try orange.skeleton.setSlotsToSetupPose()
        #expect(try orange.skeleton.skinName == "mixed")
        #expect(try orange.skeleton.findSkin("orange") != nil)
        #expect(try orange.skeleton.findSkin("green") == nil)
        let file = try orange.skeleton.data.file
        #expect(throws: WorldError.noSuchSkin("green", skeleton: file)) {
            try orange.skeleton.setSkin("green")
        }
    }

    @Test func windowWithoutDisplayThrowsATypedError() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["DISPLAY"] == nil && env["WAYLAND_DISPLAY"] == nil else { return }
        #expect(throws: RenderError.self) {
            _ = try SkeletonWindow(title: "test", view: SkeletonView(size: Size(width: 64, height: 64)))
        }
    }
}
