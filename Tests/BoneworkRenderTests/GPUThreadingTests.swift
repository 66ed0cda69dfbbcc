import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// The GPU path's parallel parts give the same result on any thread count: `BackToFront` orders
/// the same characters the same way, and a frame packed on 2 threads draws the same pixels as one
/// packed on 1. Run under ThreadSanitizer by `Tools/sanitize.sh thread`.
@Suite(.serialized) struct GPUThreadingTests {
    @Test func cullingOrdersTheSameOnAnyThreadCount() {
        var seed: UInt64 = 12345
        func random() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(seed >> 40) / Float(1 << 24) * 2000 - 1000
        }
        // Ties on y included: order by index then.
        let x = (0..<20_000).map { _ in random() }
        let y = (0..<20_000).map { k in k % 5 == 0 ? 7 : random() }
        let viewport = WorldViewport(x: -600, y: -600, width: 1200, height: 1200)
        let culling = BackToFront(margin: 100)
        culling.minimumChunk = 1000
        var orders: [[Int32]] = []
        for threads in [1, 2, 4] {
            let order = x.withUnsafeBufferPointer { xs in
                y.withUnsafeBufferPointer { ys in
                    Array(culling.run(x: xs, y: ys, viewport: viewport, threads: threads))
                }
            }
            orders.append(order)
        }
        #expect(orders[0] == orders[1] && orders[0] == orders[2])
        // Exactly the characters inside the grown viewport, higher on the plane first.
        let inside = (0..<x.count).filter { x[$0] > -700 && x[$0] < 700 && y[$0] > -700 && y[$0] < 700 }
        #expect(orders[0].count == inside.count)
        #expect(
            zip(orders[0], orders[0].dropFirst()).allSatisfy { a, b in
                y[Int(a)] > y[Int(b)] || (y[Int(a)] == y[Int(b)] && a < b)
            })
    }

    @Test func radixSortOrdersAsTheStandardSortDoes() {
        var seed: UInt64 = 99
        // High halves from a small set (many ties), low halves ascending as a chunk writes them.
        let keys = (0..<5_000).map { k -> UInt64 in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let high = [0, 1, 0x7F, 0x80, 0xFFFF, 0x1_0000, 0xFF00_0000, 0xFFFF_FFFF][Int(seed >> 61)] as UInt64
            return high << 32 | UInt64(k)
        }
        var sorted = keys
        let spare = UnsafeMutablePointer<UInt64>.allocate(capacity: keys.count)
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        defer {
            spare.deallocate()
            counts.deallocate()
        }
        sorted.withUnsafeMutableBufferPointer { buffer in
            BackToFront.sortByHighHalf(buffer.baseAddress!, spare: spare, count: buffer.count, counts: counts)
        }
        #expect(sorted == keys.sorted())
        #expect(sorted != keys)
        // High halves below 256: three of the four passes have one byte for all keys and are
        // skipped, so the one pass that moves leaves the keys in the spare buffer.
        let small = keys.map { ($0 >> 32 & 0xFF) << 32 | $0 & 0xFFFF_FFFF }
        var sortedSmall = small
        sortedSmall.withUnsafeMutableBufferPointer { buffer in
            BackToFront.sortByHighHalf(buffer.baseAddress!, spare: spare, count: buffer.count, counts: counts)
        }
        #expect(sortedSmall == small.sorted())
    }

    @Test func framesPackedOnTwoThreadsDrawTheSame() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let gpu = try renderer.gpuRenderer()
        let (data, draw) = try renderer.skeleton("tank/tank-pro.json", atlas: "tank/tank-pma.atlas")
        let kind = Int32(try renderer.gpuKind(draw, textures: try renderer.textures(atlas: "tank/tank-pma.atlas")))
        let world = World(trackCount: 1)
        var entities: [Entity] = []
        for k in 0..<600 {
            let entity = try world.spawn(data)
            try world.setAnimation(entity, track: 0, data.animations[k % data.animations.count].name, loop: true)
            try world.place(entity, x: Float(k % 30) * 30 - 450, y: Float(k / 30) * 30 - 300, scaleX: 0.1, scaleY: 0.1)
            entities.append(entity)
        }
        world.update(0.4)
        let batch = try world.locate(entities[0]).batch
        let views = [batch.poseViews()]
        let rows = try entities.map { UInt64(try world.locate($0).row) }
        let kinds = [Int32](repeating: kind, count: entities.count)
        let target = try OffscreenTarget(width: 128, height: 128, context: renderer.context)
        var images: [[UInt8]] = []
        var commands: [Int] = []
        gpu.minimumPackRows = 100
        for threads in [1, 2] {
            gpu.packThreads = threads
            target.clear(0, 0, 0, 0)
            let frame = try kinds.withUnsafeBufferPointer { k throws(RenderError) in
                try gpu.beginFrame(kinds: k, chunks: gpu.chunks(for: k.count))
            }
            #expect(frame.chunkCount == threads)
            views.withUnsafeBufferPointer { b in rows.withUnsafeBufferPointer { gpu.pack(frame, batches: b, rows: $0) }
            }
            let stats = gpu.submit(frame, viewport: WorldViewport(x: -500, y: -400, width: 1000, height: 1000))
            #expect(stats.packChunks == threads)
            commands.append(stats.commands)
            images.append(target.readImage().pixels)
        }
        gpu.packThreads = 1
        #expect(commands[0] == commands[1])
        let same = images[0] == images[1]
        #expect(same, "the same pixels on 1 and 2 packing threads")
        #expect(images[0].contains { $0 != 0 }, "something was drawn")
        withExtendedLifetime(world) {}
    }
}

/// A crowd drawn from the World's columns gives the same pixels on any thread count, and the same
/// as packing every character slot by slot: spineboys through all their animations (the portal's
/// clip is packed, the rest drawn from columns), raptors and tanks (clipped, packed) in one frame.
@Suite(.serialized) struct GPUColumnThreadingTests {
    @Test func columnFramesDrawTheSameOnAnyThreadCount() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let gpu = try renderer.gpuRenderer()
        var kinds: [(data: SkeletonData, gpu: Int32)] = []
        for (skeleton, atlas) in [
            ("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas"),
            ("raptor/raptor-pro.json", "raptor/raptor-pma.atlas"),
            ("tank/tank-pro.json", "tank/tank-pma.atlas"),
        ] {
            let (data, draw) = try renderer.skeleton(skeleton, atlas: atlas)
            kinds.append((data, Int32(try renderer.gpuKind(draw, textures: try renderer.textures(atlas: atlas)))))
        }
        let world = World(trackCount: 1)
        var entities: [Entity] = []
        var agentKinds: [Int32] = []
        for k in 0..<600 {
            let kind = kinds[k % 3 == 2 && k % 9 != 8 ? 0 : k % 3]
            let entity = try world.spawn(kind.data)
            let animations = kind.data.animations
            try world.setAnimation(entity, track: 0, animations[(k / 3) % animations.count].name, loop: true)
            try world.place(entity, x: Float(k % 30) * 30 - 450, y: 300 - Float(k / 30) * 30, scaleX: 0.1, scaleY: 0.1)
            entities.append(entity)
            agentKinds.append(kind.gpu)
        }
        world.update(0.4)
        let order = (0..<Int32(entities.count)).map { $0 }
        let viewport = WorldViewport(x: -500, y: -400, width: 1000, height: 1000)
        let target = try OffscreenTarget(width: 128, height: 128, context: renderer.context)
        gpu.minimumPackRows = 100
        defer {
            gpu.packThreads = 1
            gpu.minimumPackRows = 256
        }
        var images: [[UInt8]] = []
        for threads in [1, 2, 3] {
            gpu.packThreads = threads
            target.clear(0, 0, 0, 0)
            let stats = try entities.withUnsafeBufferPointer { e in
                try agentKinds.withUnsafeBufferPointer { k in
                    try order.withUnsafeBufferPointer { o in
                        try gpu.draw(world, entities: e, kinds: k, order: o, viewport: viewport)
                    }
                }
            }
            #expect(stats.fromColumns > 0 && stats.fromColumns < entities.count, "a mixed frame on \(threads) threads")
            #expect(stats.clippedOnGPU > 0, "clips cut on the GPU")
            images.append(target.readImage().pixels)
        }
        let same = images[0] == images[1] && images[0] == images[2]
        #expect(same, "the same pixels on 1, 2 and 3 threads")
        #expect(images[0].contains { $0 != 0 }, "something was drawn")
        // Every character packed slot by slot (clips cut on the CPU): judged as a render is, since
        // a clip cut by clip planes may move an edge pixel.
        gpu.packThreads = 1
        let views = try entities.map { try world.poseView($0) }
        let directory = try TemporaryFiles.freshDirectory("gpu-column-threads")
        var columns = target.readImage()
        columns.pixels = images[0]
        try PNG.write(columns, to: directory + "/columns.png")
        target.clear(0, 0, 0, 0)
        gpu.draw(kinds: agentKinds, viewport: viewport) { views[$0] }
        try PNG.write(target.readImage(), to: directory + "/packed.png")
        let (failures, checked) = try GPUPathTests.judge(
            [(directory + "/columns.png", directory + "/packed.png", "columns against packing")], in: directory)
        #expect(checked == 1 && failures.isEmpty, "\(failures)")
        withExtendedLifetime(world) {}
    }
}
