import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// Draw calls per frame do not grow with the number of characters nor with the number of kinds:
/// one `glMultiDrawArraysIndirect` per frame (premultiplied atlases), whatever is drawn.
@Suite(.serialized) struct GPUDrawCallTests {
    @Test func drawCallsStayOneForAnyCountAndKinds() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let gpu = try renderer.gpuRenderer()
        let files = [
            ("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas"),
            ("tank/tank-pro.json", "tank/tank-pma.atlas"),
            ("owl/owl-pro.json", "owl/owl-pma.atlas"), ("raptor/raptor-pro.json", "raptor/raptor-pma.atlas"),
        ]
        var kinds: [(data: SkeletonData, gpu: Int32)] = []
        for (skeleton, atlas) in files {
            let (data, draw) = try renderer.skeleton(skeleton, atlas: atlas)
            kinds.append((data, Int32(try renderer.gpuKind(draw, textures: try renderer.textures(atlas: atlas)))))
        }
        let target = try OffscreenTarget(width: 64, height: 64, context: renderer.context)
        for kindCount in [1, 4] {
            for count in [1, 1000] {
                let world = World(trackCount: 1)
                var entities: [Entity] = []
                var characterKinds: [Int32] = []
                for k in 0..<count {
                    let kind = kinds[k % kindCount]
                    let entity = try world.spawn(kind.data)
                    if let animation = kind.data.animations.first {
                        try world.setAnimation(entity, track: 0, animation.name, loop: true)
                    }
                    try world.place(entity, x: Float(k % 40) * 20 - 400, y: Float(k / 40) * 20 - 250)
                    entities.append(entity)
                    characterKinds.append(kind.gpu)
                }
                world.update(0.25)
                target.clear(0, 0, 0, 0)
                let order = (0..<Int32(count)).map { $0 }
                let stats = try entities.withUnsafeBufferPointer { e in
                    try characterKinds.withUnsafeBufferPointer { k in
                        try order.withUnsafeBufferPointer { o in
                            try gpu.draw(
                                world, entities: e, kinds: k, order: o,
                                viewport: WorldViewport(x: -500, y: -500, width: 1000, height: 1000))
                        }
                    }
                }
                #expect(stats.instances == count)
                #expect(stats.commands >= count, "at least one command per character")
                let expected = gpu.submission == .multiDrawIndirect ? 1 : stats.commands
                #expect(stats.drawCalls == expected, "\(count) characters of \(kindCount) kinds")
                withExtendedLifetime(world) {}
            }
        }
    }
}
