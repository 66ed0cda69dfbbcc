import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// World transforms and slot attachments read where the World keeps them
/// (`World.columnMemory = GPURenderer.columnMemory`) draw exactly what copying them draws: a crowd
/// of five kinds (more batches than a frame has in-place sources, so the last batch's columns are
/// copied beside the others read in place), before and after despawns, growth past capacity and a
/// new outfit, on two packing threads.
@Suite(.serialized) struct GPUInPlaceColumnTests {
    @Test func columnsReadInPlaceDrawWhatCopiesDraw() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let gpu = try renderer.gpuRenderer()
        let memory = try #require(gpu.columnMemory, "llvmpipe maps buffers persistently")
        let files = [
            ("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas"),
            ("tank/tank-pro.json", "tank/tank-pma.atlas"),
            ("owl/owl-pro.json", "owl/owl-pma.atlas"), ("raptor/raptor-pro.json", "raptor/raptor-pma.atlas"),
            ("goblins/goblins-pro.json", "goblins/goblins-pma.atlas"),
        ]
        var kinds: [(data: SkeletonData, gpu: Int32)] = []
        for (skeleton, atlas) in files {
            let (data, draw) = try renderer.skeleton(skeleton, atlas: atlas)
            kinds.append((data, Int32(try renderer.gpuKind(draw, textures: try renderer.textures(atlas: atlas)))))
        }
        let world = World(trackCount: 1)
        var entities: [Entity] = []
        var characterKinds: [Int32] = []
        func spawn(_ k: Int) throws {
            let kind = kinds[k % kinds.count]
            let skins = kind.data.skins
            let entity = try world.spawn(kind.data, skin: skins.count > 1 ? skins[1 + k % (skins.count - 1)].name : nil)
            let animations = kind.data.animations
            try world.setAnimation(entity, track: 0, animations[(k / kinds.count) % animations.count].name, loop: true)
            try world.place(
                entity, x: Float(k % 20) * 45 - 450, y: 350 - Float(k / 20) * 45, scaleX: k % 2 == 0 ? 0.15 : -0.15,
                scaleY: 0.15)
            entities.append(entity)
            characterKinds.append(kind.gpu)
        }
        for k in 0..<200 { try spawn(k) }
        let target = try OffscreenTarget(width: 160, height: 160, context: renderer.context)
        let viewport = WorldViewport(x: -500, y: -500, width: 1000, height: 1000)
        gpu.packThreads = 2
        gpu.minimumPackRows = 50
        defer {
            gpu.packThreads = 1
            gpu.minimumPackRows = 256
        }
        func frame(inPlace: Bool) throws -> (pixels: [UInt8], stats: RenderFrameStats) {
            world.columnMemory = inPlace ? memory : nil
            target.clear(0, 0, 0, 0)
            let order = (0..<Int32(entities.count)).map { $0 }
            let stats = try entities.withUnsafeBufferPointer { e in
                try characterKinds.withUnsafeBufferPointer { k in
                    try order.withUnsafeBufferPointer { o in
                        try gpu.draw(world, entities: e, kinds: k, order: o, viewport: viewport)
                    }
                }
            }
            return (target.readImage().pixels, stats)
        }
        for step in 0..<3 {
            world.columnMemory = step % 2 == 0 ? memory : nil
            for _ in 0..<4 { world.update(0.1) }
            let copied = try frame(inPlace: false)
            let inPlace = try frame(inPlace: true)
            #expect(copied.stats.inPlaceBytes == 0)
            #expect(inPlace.stats.inPlaceBytes > 0, "step \(step): columns read in place")
            #expect(inPlace.stats.columnBytes < copied.stats.columnBytes, "step \(step): fewer bytes copied")
            #expect(inPlace.stats.fromColumns == copied.stats.fromColumns)
            #expect(copied.pixels.contains { $0 != 0 }, "step \(step): something was drawn")
            let differing = zip(copied.pixels, inPlace.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "step \(step): \(differing) bytes differ between copied and in-place columns")
            // Churn between the steps: despawns move rows, spawns grow the batches, outfits change.
            for e in entities.prefix(30) { try world.despawn(e) }
            entities.removeFirst(30)
            characterKinds.removeFirst(30)
            for k in 0..<(step == 0 ? 120 : 40) { try spawn(200 + step * 200 + k) }
        }
        // Five batches need ten sources: at least one batch's columns were copied.
        #expect(world.batches.count == 5)
        world.columnMemory = nil
        #expect(memory.allocations.isEmpty, "every buffer handed back")
    }
}
