import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// Crowd scenes: many overlapping characters of several kinds (clipping, deform, draw-order
/// timelines, additive, multiply and screen slots, straight and premultiplied atlases), half of them
/// mirrored, drawn by the GPU path in one frame and character by character through the CPU path.
@Suite(.serialized) struct GPUCrowdSceneTests {
    struct Scene {
        var name: String
        var count: Int
        /// (skeleton, atlas) relative to the examples folder.
        var kinds: [(String, String)]
    }

    static let scenes = [
        Scene(
            name: "clipping and deform", count: 200,
            kinds: [
                ("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas"),
                ("tank/tank-pro.json", "tank/tank-pma.atlas"),
                ("owl/owl-pro.json", "owl/owl-pma.atlas"), ("coin/coin-pro.json", "coin/coin-pma.atlas"),
            ]),
        Scene(
            name: "draw order and blend modes", count: 500,
            kinds: [
                ("chibi-stickers/chibi-stickers.json", "chibi-stickers/chibi-stickers.atlas"),
                ("powerup/powerup-ess.json", "powerup/powerup-pma.atlas"),
                ("snowglobe/snowglobe-pro.json", "snowglobe/snowglobe-pma.atlas"),
                ("raptor/raptor-pro.json", "raptor/raptor-pma.atlas"),
            ]),
        Scene(
            name: "skins, physics and meshes", count: 50,
            kinds: [
                ("mix-and-match/mix-and-match-pro.json", "mix-and-match/mix-and-match-pma.atlas"),
                ("celestial-circus/celestial-circus-pro.json", "celestial-circus/celestial-circus-pma.atlas"),
                ("stretchyman/stretchyman-pro.json", "stretchyman/stretchyman-pma.atlas"),
                ("alien/alien-ess.json", "alien/alien-pma.atlas"),
            ]),
    ]

    /// spineboy-pro with every third slot blended as screen and every seventh as multiply: no
    /// example export uses screen. Written into `directory`; returns its path.
    static func screenSpineboy(in directory: String) throws -> String {
        let source = TestPaths.example("spineboy/spineboy-pro.json")
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source))) as? [String: Any])
        var slots = try #require(root["slots"] as? [[String: Any]])
        for k in slots.indices {
            if k % 3 == 1 { slots[k]["blend"] = "screen" } else if k % 7 == 3 { slots[k]["blend"] = "multiply" }
        }
        root["slots"] = slots
        let file = directory + "/spineboy-screen.json"
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test func crowdScenesMatchTheCPUPath() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let directory = try TemporaryFiles.freshDirectory("gpu-crowds")
        let screen = try Self.screenSpineboy(in: directory)
        var scenes = Self.scenes
        // Screen (and more multiply) slots on both a premultiplied and a straight-alpha atlas.
        scenes[0].kinds.append((screen, TestPaths.example("spineboy/spineboy-pma.atlas")))
        scenes[1].kinds.append((screen, TestPaths.example("spineboy/spineboy.atlas")))
        var pairs: [(String, String, String)] = []
        for (s, scene) in scenes.enumerated() {
            let world = World(trackCount: 1)
            var entities: [(entity: Entity, kind: Int, y: Float)] = []
            var kinds: [(data: SkeletonData, draw: SkeletonDrawData, textures: AtlasTextures, gpu: Int)] = []
            for (skeleton, atlas) in scene.kinds {
                let (data, draw) = try renderer.skeleton(skeleton, atlas: atlas)
                let textures = try renderer.textures(atlas: atlas)
                kinds.append((data, draw, textures, try renderer.gpuKind(draw, textures: textures)))
            }
            var seed: UInt64 = 0x9E37_79B9_7F4A_7C15 &+ UInt64(s)
            func random() -> Float {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Float(seed >> 40) / Float(1 << 24)
            }
            for k in 0..<scene.count {
                let kind = k % kinds.count
                let data = kinds[kind].data
                let skins = data.skins.map(\.name)
                let skin = skins.count > 1 ? skins[1 + k % (skins.count - 1)] : nil
                let entity = try world.spawn(data, skin: skin)
                if !data.animations.isEmpty {
                    let animation = data.animations[(k / kinds.count) % data.animations.count]
                    try world.setAnimation(entity, track: 0, animation.name, loop: true)
                }
                let scale = 120 / max(data.height, 50)
                let x = random() * 1000 - 500
                let y = random() * 1000 - 500
                try world.place(entity, x: x, y: y, scaleX: k % 2 == 0 ? scale : -scale, scaleY: scale)
                entities.append((entity, kind, y))
            }
            for _ in 0..<12 { world.update(1.0 / 30) }
            entities.sort { $0.y > $1.y }
            let viewport = WorldViewport(x: -600, y: -600, width: 1200, height: 1200)
            let target = try OffscreenTarget(width: 512, height: 512, context: renderer.context)
            // GPU path: one frame of every character.
            target.clear(0.1, 0.1, 0.1, 1)
            let views = try entities.map { try world.poseView($0.entity) }
            let gpu = try renderer.gpuRenderer()
            // As the crowd draws: agents in back-to-front order, located and drawn from the
            // World's columns, those with clips or draw-order keys packed slot by slot.
            let handles = entities.map(\.entity)
            let agentKinds = entities.map { Int32(kinds[$0.kind].gpu) }
            let order = (0..<Int32(entities.count)).map { $0 }
            let stats = try handles.withUnsafeBufferPointer { e in
                try agentKinds.withUnsafeBufferPointer { k in
                    try order.withUnsafeBufferPointer { o in
                        try gpu.draw(world, entities: e, kinds: k, order: o, viewport: viewport)
                    }
                }
            }
            #expect(stats.instances == scene.count)
            #expect(stats.fromColumns > 0, "scene \(scene.name): some characters drawn from columns")
            let gpuFile = directory + "/scene-\(s).gpu.png"
            try PNG.write(target.readImage(), to: gpuFile)
            // CPU path: each character's triangles in turn, one list.
            target.clear(0.1, 0.1, 0.1, 1)
            var builder = FrameBuilder()
            var list = DrawList()
            for (k, e) in entities.enumerated() {
                builder.build(
                    views[k], drawData: kinds[e.kind].draw, pages: kinds[e.kind].textures.bindings, into: &list)
            }
            renderer.renderer.draw(list, viewport: viewport, into: target)
            let cpuFile = directory + "/scene-\(s).cpu.png"
            try PNG.write(target.readImage(), to: cpuFile)
            pairs.append((gpuFile, cpuFile, "scene \(scene.name) (\(scene.count) characters)"))
            withExtendedLifetime(world) {}
        }
        let (failures, checked) = try GPUPathTests.judge(pairs, in: directory)
        #expect(checked == scenes.count)
        #expect(failures.isEmpty, "\(failures)")
    }
}
