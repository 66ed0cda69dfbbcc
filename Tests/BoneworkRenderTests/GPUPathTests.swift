import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// The GPU path (`GPURenderer`) against the reference renders and against the CPU path, judged by
/// the shared `compare-image.py` (through `Tools/compare-images.py`, which applies its rules to many
/// pairs in one process).
@Suite(.serialized) struct GPUPathTests {
    /// Runs the batch judge over `pairs` (actual, reference, label); returns the failing lines and
    /// how many pairs were checked.
    static func judge(_ pairs: [(String, String, String)], in directory: String) throws -> (
        failures: [String], checked: Int
    ) {
        let list = directory + "/pairs.tsv"
        try pairs.map { "\($0.0)\t\($0.1)\t\($0.2)" }.joined(separator: "\n").write(
            toFile: list, atomically: true, encoding: .utf8)
        let script = TestPaths.repositoryRoot.appendingPathComponent("Tools/compare-images.py")
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path, TestPaths.compareImageTool.path, list])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let failures = lines.filter { $0.hasPrefix("FAIL") }
        let checked = lines.filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }.count
        if checked != pairs.count {
            return (["the judge checked \(checked) of \(pairs.count) pairs: \(result.stderr)"], checked)
        }
        return (failures, checked)
    }

    /// Every reference render (`golden/renders`) drawn through the GPU path and through the CPU path
    /// passes `compare-image.py` against the reference.
    @Test func referenceRendersThroughBothPaths() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let directory = try TemporaryFiles.freshDirectory("gpu-references")
        var pairs: [(String, String, String)] = []
        let names = try GoldenRenderTests.requestNames()
        #expect(names.count >= 70)
        for name in names {
            let request = try RenderRequest(file: TestPaths.renders.path + "/\(name).request.json")
            for path in RenderPath.allCases {
                let out = directory + "/\(name).\(path).png"
                try PNG.write(try renderer.render(request, path: path), to: out)
                pairs.append((out, TestPaths.renders.path + "/\(name).png", "\(name) through the \(path) path"))
            }
        }
        let (failures, checked) = try Self.judge(pairs, in: directory)
        #expect(checked == names.count * 2)
        #expect(failures.isEmpty, "\(failures.count) renders differ from the reference; first: \(failures.first ?? "")")
    }

    /// Every example skeleton in `spine-examples` (each export once), every one of its animations,
    /// at three times in the animation, with the default skin on the premultiplied atlas and with a
    /// non-default skin (a different one per animation) on the straight-alpha atlas: the GPU path's
    /// picture passes `compare-image.py` against the CPU path's picture of the same pose.
    @Test func everyExampleAnimationMatchesTheCPUPath() throws {
        let renderer = try RequestRenderer(baseDirectory: "")
        let directory = try TemporaryFiles.freshDirectory("gpu-examples")
        var pairs: [(String, String, String)] = []
        var seen = Set<String>()
        var skeletons = 0
        var animations = 0
        for relative in TestPaths.skeletonFiles() {
            // One export per skeleton: the JSON and the binary hold the same data.
            let base = relative.replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".skel", with: "")
            guard seen.insert(base).inserted else { continue }
            let folder = String(relative.split(separator: "/")[0])
            let pma = TestPaths.example("\(folder)/\(folder)-pma.atlas")
            let straight = TestPaths.atlasPath(forSkeleton: relative)
            let atlases = [FileManager.default.fileExists(atPath: pma) ? pma : straight, straight ?? pma].compactMap {
                $0
            }
            guard let first = atlases.first else {
                Issue.record("\(relative): no atlas to draw it with")
                continue
            }
            let skeleton = TestPaths.example(relative)
            let (data, _) = try renderer.skeleton(skeleton, atlas: first)
            skeletons += 1
            let otherSkins = data.skins.map(\.name).filter { $0 != "default" }
            for (k, animation) in data.animations.enumerated() {
                animations += 1
                var variants: [(skin: String?, atlas: String)] = [(nil, first)]
                if !otherSkins.isEmpty { variants.append((otherSkins[k % otherSkins.count], atlases.last ?? first)) }
                for variant in variants {
                    let (data, drawData) = try renderer.skeleton(skeleton, atlas: variant.atlas)
                    let textures = try renderer.textures(atlas: variant.atlas)
                    let world = World(trackCount: 1)
                    let entity = try world.spawn(data, skin: variant.skin)
                    try world.setAnimation(entity, track: 0, animation.name, loop: true)
                    let duration = max(animation.duration, 0.1)
                    var now: Float = 0
                    for (f, t) in [Float(0), duration / 3, duration * 2 / 3].enumerated() {
                        world.update(t - now)
                        now = t
                        let label =
                            "\(relative) \(animation.name) t=\(t) skin \(variant.skin ?? "default") "
                            + "atlas \((variant.atlas as NSString).lastPathComponent)"
                        let file = directory + "/\(skeletons)-\(k)-\(variant.skin == nil ? 0 : 1)-\(f)"
                        try render(
                            world.poseView(entity), drawData: drawData, textures: textures, renderer: renderer,
                            files: (file + ".gpu.png", file + ".cpu.png"))
                        pairs.append((file + ".gpu.png", file + ".cpu.png", label))
                    }
                    withExtendedLifetime(world) {}
                }
            }
        }
        #expect(skeletons >= 20)
        let (failures, checked) = try Self.judge(pairs, in: directory)
        #expect(checked == pairs.count && checked >= 300)
        #expect(failures.isEmpty, "\(failures.count) of \(checked) frames differ; first: \(failures.first ?? "")")
    }

    /// A pose without the bulk reads (every field asked through its accessor, as a pose type of
    /// an application's own would) draws exactly the pixels the engine's `PoseView` draws, for
    /// every example skeleton mid-way through its first animation with each of its skins.
    @Test func aPoseWithoutBulkReadsDrawsTheSamePixels() throws {
        let renderer = try RequestRenderer(baseDirectory: "")
        var seen = Set<String>()
        var drawn = 0
        for relative in TestPaths.skeletonFiles() {
            let base = relative.replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".skel", with: "")
            guard seen.insert(base).inserted, let atlas = TestPaths.atlasPath(forSkeleton: relative) else { continue }
            let (data, drawData) = try renderer.skeleton(TestPaths.example(relative), atlas: atlas)
            let textures = try renderer.textures(atlas: atlas)
            let world = World(trackCount: 1)
            for skin in [nil] + data.skins.map(\.name).filter({ $0 != "default" }).map({ Optional($0) }) {
                let entity = try world.spawn(data, skin: skin)
                if let animation = data.animations.first {
                    try world.setAnimation(entity, track: 0, animation.name, loop: true)
                }
                world.update(max(data.animations.first?.duration ?? 0, 0.1) / 2)
                let view = try world.poseView(entity)
                let (list, viewport) = Self.framed(view, drawData: drawData, textures: textures)
                let target = try OffscreenTarget(width: 128, height: 128, context: renderer.context)
                target.clear(0, 0, 0, 0)
                // The engine's pose packed on the CPU (its bulk reads), not drawn from columns.
                try renderer.drawGPU(PackedPose(view: view), drawData: drawData, textures: textures, viewport: viewport)
                let bulk = target.readImage()
                target.clear(0, 0, 0, 0)
                try renderer.drawGPU(
                    PerFieldPose(view: view), drawData: drawData, textures: textures, viewport: viewport)
                let perField = target.readImage()
                let same = bulk.pixels == perField.pixels
                #expect(same, "\(relative) skin \(skin ?? "default")")
                #expect(list.vertices.isEmpty || bulk.pixels.contains { $0 != 0 }, "\(relative): nothing drawn")
                try world.despawn(entity)
                drawn += 1
            }
        }
        #expect(drawn >= 30)
    }

    /// Drawn straight from the batch's columns (the shader derives each slot's image, colours and
    /// deform), every example skeleton with each of its skins, at two times of every animation,
    /// gives exactly the pixels of the same pose packed slot by slot on the CPU; characters in
    /// their setup draw order are drawn from columns, the others packed. A clip the GPU cuts
    /// (clip planes per convex part, where the packed pose is clipped by the CPU path's clipper)
    /// may move an edge pixel: those frames are judged by `compare-image.py`.
    @Test func columnsDrawWhatPackingDraws() throws {
        let renderer = try RequestRenderer(baseDirectory: "")
        let target = try OffscreenTarget(width: 96, height: 96, context: renderer.context)
        let directory = try TemporaryFiles.freshDirectory("gpu-columns")
        var clippedPairs: [(String, String, String)] = []
        var seen = Set<String>()
        var frames = 0
        var fromColumns = 0
        var drawn = 0
        var differing: [String] = []
        for relative in TestPaths.skeletonFiles() {
            let base = relative.replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".skel", with: "")
            guard seen.insert(base).inserted, let atlas = TestPaths.atlasPath(forSkeleton: relative) else { continue }
            let (data, drawData) = try renderer.skeleton(TestPaths.example(relative), atlas: atlas)
            let textures = try renderer.textures(atlas: atlas)
            let world = World(trackCount: 1)
            let skins = [nil] + data.skins.map(\.name).filter({ $0 != "default" }).map({ Optional($0) })
            for (k, animation) in data.animations.enumerated() {
                let skin = skins[k % skins.count]
                let entity = try world.spawn(data, skin: skin)
                try world.setAnimation(entity, track: 0, animation.name, loop: true)
                for step in [animation.duration * 0.3, animation.duration * 0.4] {
                    world.update(max(step, 0.05))
                    let view = try world.poseView(entity)
                    let (_, viewport) = Self.framed(view, drawData: drawData, textures: textures)
                    target.clear(0, 0, 0, 0)
                    try renderer.drawGPU(view, drawData: drawData, textures: textures, viewport: viewport)
                    let columns = target.readImage()
                    let stats = try renderer.gpuRenderer().lastFrame
                    fromColumns += stats.fromColumns
                    if columns.pixels.contains(where: { $0 != 0 }) { drawn += 1 }
                    target.clear(0, 0, 0, 0)
                    try renderer.drawGPU(
                        PackedPose(view: view), drawData: drawData, textures: textures, viewport: viewport)
                    let packed = target.readImage()
                    let label = "\(relative) \(animation.name) skin \(skin ?? "default") t+\(step)"
                    if stats.clippedOnGPU > 0 {
                        let file = directory + "/\(frames)"
                        try PNG.write(columns, to: file + ".columns.png")
                        try PNG.write(packed, to: file + ".packed.png")
                        clippedPairs.append((file + ".columns.png", file + ".packed.png", label))
                    } else if columns.pixels != packed.pixels {
                        differing.append(label)
                    }
                    frames += 1
                }
                try world.despawn(entity)
            }
        }
        #expect(frames >= 200)
        #expect(fromColumns >= frames / 2, "\(fromColumns) of \(frames) frames drawn from columns")
        #expect(drawn >= frames * 3 / 4, "\(drawn) of \(frames) frames show something")
        #expect(differing.isEmpty, "\(differing.count) of \(frames) frames differ; first: \(differing.first ?? "")")
        #expect(clippedPairs.count >= 4, "frames clipped on the GPU: \(clippedPairs.count)")
        let (failures, checked) = try GPUPathTests.judge(clippedPairs, in: directory)
        #expect(checked == clippedPairs.count)
        #expect(failures.isEmpty, "\(failures.count) clipped frames differ; first: \(failures.first ?? "")")
        print("columns: \(frames) frames, \(fromColumns) from columns, \(clippedPairs.count) clipped on the GPU")
    }

    /// Draws one pose through both paths, framed on its CPU-path triangles (256 x 256, 10 % margin).
    func render(
        _ pose: PoseView, drawData: SkeletonDrawData, textures: AtlasTextures, renderer: RequestRenderer,
        files: (gpu: String, cpu: String)
    ) throws {
        let (list, viewport) = Self.framed(pose, drawData: drawData, textures: textures)
        let target = try OffscreenTarget(width: 256, height: 256, context: renderer.context)
        target.clear(0, 0, 0, 0)
        try renderer.drawGPU(pose, drawData: drawData, textures: textures, viewport: viewport)
        try PNG.write(target.readImage(), to: files.gpu)
        target.clear(0, 0, 0, 0)
        renderer.renderer.draw(list, viewport: viewport, into: target)
        try PNG.write(target.readImage(), to: files.cpu)
    }

    /// A pose's CPU-path draw list and a square viewport around its triangles (10 % margin each
    /// side).
    static func framed(
        _ pose: PoseView, drawData: SkeletonDrawData, textures: AtlasTextures
    ) -> (DrawList, WorldViewport) {
        var builder = FrameBuilder()
        var list = DrawList()
        builder.build(pose, drawData: drawData, pages: textures.bindings, into: &list)
        var low = SIMD2<Float>(repeating: .greatestFiniteMagnitude)
        var high = -low
        for v in list.vertices {
            low = pointwiseMin(low, SIMD2(v.x, v.y))
            high = pointwiseMax(high, SIMD2(v.x, v.y))
        }
        if list.vertices.isEmpty {
            low = SIMD2(-100, -100)
            high = SIMD2(100, 100)
        }
        let side = max(high.x - low.x, high.y - low.y, 1) * 1.2
        let centre = (low + high) / 2
        return (list, WorldViewport(x: centre.x - side / 2, y: centre.y - side / 2, width: side, height: side))
    }
}

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

/// An engine pose seen only through its per-field accessors: `DeformedPose`'s default bulk reads
/// (per slot, per bone) run for it.
struct PerFieldPose: DeformedPose {
    let view: PoseView
    var skeletonColor: Color { view.skeletonColor }
    var drawOrderCount: Int { view.drawOrderCount }
    func drawOrderSlot(_ k: Int) -> Int { view.drawOrderSlot(k) }
    func slotColor(_ slot: Int) -> Color { view.slotColor(slot) }
    func slotDarkColor(_ slot: Int) -> Color { view.slotDarkColor(slot) }
    func slotAttachment(_ slot: Int) -> Int { view.slotAttachment(slot) }
    func slotSequenceIndex(_ slot: Int) -> Int { view.slotSequenceIndex(slot) }
    func isBoneActive(_ bone: Int) -> Bool { view.isBoneActive(bone) }
    func boneWorld(_ bone: Int) -> BoneWorldTransform { view.boneWorld(bone) }
    func computeWorldVertices(slot: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        view.computeWorldVertices(slot: slot, attachment: attachment, into: output)
    }
    func deform(slot: Int) -> UnsafeBufferPointer<Float> { view.deform(slot: slot) }
}

/// An engine pose packed slot by slot on the CPU with its bulk reads (what `PoseView` itself does
/// when drawn through `GPURenderer.draw(kinds:viewport:pose:)`), never drawn from columns.
struct PackedPose: DeformedPose {
    let view: PoseView
    var skeletonColor: Color { view.skeletonColor }
    var drawOrderCount: Int { view.drawOrderCount }
    func drawOrderSlot(_ k: Int) -> Int { view.drawOrderSlot(k) }
    func slotColor(_ slot: Int) -> Color { view.slotColor(slot) }
    func slotDarkColor(_ slot: Int) -> Color { view.slotDarkColor(slot) }
    func slotAttachment(_ slot: Int) -> Int { view.slotAttachment(slot) }
    func slotSequenceIndex(_ slot: Int) -> Int { view.slotSequenceIndex(slot) }
    func isBoneActive(_ bone: Int) -> Bool { view.isBoneActive(bone) }
    func boneWorld(_ bone: Int) -> BoneWorldTransform { view.boneWorld(bone) }
    func computeWorldVertices(slot: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        view.computeWorldVertices(slot: slot, attachment: attachment, into: output)
    }
    func deform(slot: Int) -> UnsafeBufferPointer<Float> { view.deform(slot: slot) }
    func writeBoneRows(_ count: Int, into row: UnsafeMutablePointer<Float>) { view.writeBoneRows(count, into: row) }
    func readSlots(_ count: Int, into states: UnsafeMutablePointer<SlotDrawState>) -> Bool {
        view.readSlots(count, into: states)
    }
    func readDrawOrder(_ capacity: Int, into order: UnsafeMutablePointer<Int32>) -> (count: Int, setup: Bool) {
        view.readDrawOrder(capacity, into: order)
    }
}

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
