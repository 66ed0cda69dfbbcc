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
