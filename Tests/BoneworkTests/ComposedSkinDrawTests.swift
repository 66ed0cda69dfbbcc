import BoneworkTestSupport
import Foundation
import Testing

@testable import Bonework

/// The DressUp outfit (`Examples.dressUp`) drawn through the application API: every part it
/// lists shows, whatever order the parts were added in.
@Suite(.serialized) struct ComposedSkinDrawTests {
    static let outfit = [
        "skin-base", "nose/short", "eyelids/girly", "eyes/violet", "hair/brown", "clothes/hoodie-orange",
        "legs/pants-jeans", "accessories/bag", "accessories/hat-red-yellow",
    ]

    static func drawable() async throws -> SkeletonDrawable {
        let dir = TestPaths.example("mix-and-match")
        return try await SkeletonDrawable.load(
            .file(atlas: dir + "/mix-and-match-pma.atlas", skeleton: dir + "/mix-and-match-pro.skel"))
    }

    /// The outfit made of `parts`, rendered at 128 × 128 in the setup pose.
    static func render(_ drawable: SkeletonDrawable, _ parts: [String]) throws -> RenderedImage {
        let skeleton = try drawable.skeleton
        let skin = Skin(name: "outfit", for: drawable.skeletonData)
        for part in parts { try skin.addSkin(part) }
        try skeleton.setSkin(skin)
        try skeleton.setSlotsToSetupPose()
        try drawable.update(delta: 0)
        return try drawable.renderToImage(size: Size(width: 128, height: 128))
    }

    @Test func theBagAndTheHatAreDrawnInAnyOrderOfComposition() async throws {
        let drawable = try await Self.drawable()
        let orders = [Self.outfit, Self.outfit.reversed(), ["accessories/hat-red-yellow"] + Self.outfit.dropLast()]
        for order in orders {
            let dressed = try Self.render(drawable, order)
            #expect(ImageMeasures.coverage(dressed.image) > 0.1)
            // Each accessory changes the picture: without it, pixels differ.
            for part in ["accessories/bag", "accessories/hat-red-yellow"] {
                let without = try Self.render(drawable, order.filter { $0 != part })
                #expect(ImageMeasures.differingPixels(dressed.image, without.image) > 40, "\(part) is drawn (\(order))")
            }
            // The accessories' slots show the accessories' attachments.
            let data = drawable.skeletonData
            _ = try Self.render(drawable, order)
            for part in ["accessories/bag", "accessories/hat-red-yellow"] {
                let skin = data.skins[try #require(data.findSkinIndex(part))]
                let own = Set(skin.entries.map(\.attachment))
                let shown = try Set(
                    skin.entries.map { try drawable.world.slotAttachment(drawable.entity, slot: Int($0.slot)) })
                #expect(!shown.isDisjoint(with: own), "\(part) shows on its slots (\(order))")
                // What the accessory needs to be drawn where it belongs: the bones its skin
                // brings, and the bones of the slots it shows on, are posed.
                let pose = try drawable.world.pose(drawable.entity)
                let needed = Set(skin.bones.map(Int.init) + skin.entries.map { Int(data.slots[Int($0.slot)].bone) })
                #expect(needed.isDisjoint(with: pose.inactiveBones), "\(part)'s bones are posed (\(order))")
            }
        }
    }
}
