import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// The instanced path drawing a batch straight from its columns: draw calls do not grow with the
/// instance count, it agrees with the CPU path, and GL objects go away with their owners.
@Suite(.serialized) struct InstancedScaleTests {
    static let spineboy = TestPaths.example("spineboy")

    /// One spineboy and 10,000 spineboys take the same draw calls: one per (page, blend mode) group.
    @Test func drawCallsDoNotGrowWithInstances() throws {
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy)
        let (data, drawData) = try renderer.skeleton("spineboy-pro.skel", atlas: "spineboy-pma.atlas")
        let pages = try renderer.textures(atlas: "spineboy-pma.atlas").bindings
        let instanced = try InstancedRenderer(context: renderer.context)
        let buffers = try instanced.prepare(InstancedGeometry(drawData))
        let target = try OffscreenTarget(width: 64, height: 64, context: renderer.context)
        let viewport = WorldViewport(x: -1000, y: -200, width: 2000, height: 2000)
        let world = World(trackCount: 1)
        let first = try world.spawn(data)
        try world.setAnimation(first, "walk", loop: true)
        world.update(0.1)
        let batch = world.batch(for: data)
        target.clear(0, 0, 0, 0)
        let one = instanced.draw(batch: batch, with: buffers, pages: pages, viewport: viewport, into: target)
        #expect(one.instances == 1)
        #expect(one.drawCalls == buffers.geometry.groups.count)
        #expect(one.drawCalls >= 1)
        batch.reserve(10_000)
        for k in 1..<10_000 {
            let e = try world.spawn(data)
            try world.setAnimation(e, "walk", loop: true)
            try world.setTrackTime(e, Float(k % 30) / 30)
        }
        world.update(1.0 / 30)
        let many = instanced.draw(batch: batch, with: buffers, pages: pages, viewport: viewport, into: target)
        #expect(many.instances == 10_000)
        #expect(many.drawCalls == one.drawCalls)
        #expect(instanced.lastFrame == many)
        // The profiler reports the renderer's draw calls next to the frame's systems.
        world.scheduler.profiler.record(many)
        #expect(world.scheduler.profiler.frame()?.drawCalls == many.drawCalls)
        #expect(world.scheduler.profiler.frame()?.renderSubmitCPU == many.submitNanoseconds)
        #expect(world.scheduler.profiler.frame()?.renderPackCPU == many.packNanoseconds)
        #expect(many.uploadBytes == 10_000 * (drawData.boneCount * 6 + drawData.slotCount * 4) * 4)
        #expect(many.wallNanoseconds > 0)
        #expect(many.submitNanoseconds > 0 && many.packNanoseconds > 0)
        #expect(many.cpuNanoseconds == many.submitNanoseconds + many.packNanoseconds)
    }

    /// The same frame through `draw(batch:)` and through the CPU path (frame builder over the same
    /// `PoseView`) on a skeleton the instanced path expresses exactly.
    @Test func batchDrawMatchesCPUPath() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let request = try RenderRequest(file: TestPaths.renders.path + "/raptor-pro__walk__10.request.json")
        let (data, drawData) = try renderer.skeleton(request.skeleton, atlas: request.atlas)
        let pages = try renderer.textures(atlas: request.atlas).bindings
        let geometry = InstancedGeometry(drawData)
        let animation = data.findAnimation("walk").map(Int.init)
        #expect(geometry.limitations(animation: animation).isEmpty)
        let (world, entity) = try RequestRenderer.posedWorld(request, data: data)
        let expected = try renderer.render(
            try world.poseView(entity), drawData: drawData, pages: pages, request: request)
        let instanced = try InstancedRenderer(context: renderer.context)
        let buffers = try instanced.prepare(geometry)
        let target = try OffscreenTarget(width: request.width, height: request.height, context: renderer.context)
        target.clear(0, 0, 0, 0)
        instanced.draw(
            batch: world.batch(for: data), with: buffers, pages: pages, viewport: request.viewport, into: target)
        let image = target.readImage()
        let (worst, over) = InstancedRenderTests.difference(image, expected)
        #expect(over <= image.width * image.height / 1000, "max \(worst), \(over) pixels over 2")
        let path = GoldenRenderTests.outputDirectory + "/raptor-batch.instanced.png"
        try PNG.write(image, to: path)
        let verdict = GoldenRenderTests.compare(
            path, TestPaths.renders.path + "/raptor-pro__walk__10.png", diff: "/dev/null")
        #expect(verdict.pass, "\(verdict.summary)")
    }

    /// Textures, buffers, vertex arrays and framebuffers are deleted when their owners go away
    /// (atlas textures, a skeleton's instanced buffers, offscreen targets, cached request assets),
    /// and names do not pile up over many load / drop cycles.
    @Test func glObjectsAreReleased() throws {
        let context = GLContext.headless(try HeadlessGLContext())
        let instanced = try InstancedRenderer(context: context)
        var firstTextures: [UInt32] = []
        var firstBuffers: [UInt32] = []
        var firstArrays: [UInt32] = []
        var firstFramebuffers: [UInt32] = []
        var largestName: UInt32 = 0
        var firstLargest: UInt32 = 0
        let liveBefore = Self.liveObjects(context, upTo: 256)
        for cycle in 0..<25 {
            let atlas = try AtlasReader.read(file: Self.spineboy + "/spineboy-pma.atlas")
            let textures = try AtlasTextures(atlas: atlas, context: context)
            let data = try SkeletonLoader.load(file: Self.spineboy + "/spineboy-pro.skel", atlas: atlas)
            let buffers = try instanced.prepare(InstancedGeometry(SkeletonDrawData(data)))
            let target = try OffscreenTarget(width: 32, height: 32, context: context)
            // A frame makes the streamed tables (buffers and their buffer textures).
            let world = World(trackCount: 1)
            _ = try world.spawn(data)
            world.update(0.1)
            let stats = instanced.draw(
                batch: world.batch(for: data), with: buffers, pages: textures.bindings,
                viewport: WorldViewport(x: -500, y: -100, width: 1000, height: 1000), into: target)
            #expect(stats.drawCalls >= 1)
            // Names exist as objects once bound: the static ones are bound while uploading.
            let bufferNames = [
                buffers.vertexBuffer, buffers.indexBuffer, buffers.influenceBuffer, buffers.boneBuffer,
                buffers.slotBuffer,
            ]
            let textureNames = textures.names + [buffers.influenceTexture, buffers.boneTexture, buffers.slotTexture]
            #expect(textureNames.allSatisfy { GLObjectProbe.isTexture($0, in: context) })
            #expect(bufferNames.allSatisfy { GLObjectProbe.isBuffer($0, in: context) })
            largestName = max(largestName, (textureNames + bufferNames + [target.framebuffer]).max() ?? 0)
            if cycle == 0 {
                firstTextures = textureNames
                firstBuffers = bufferNames
                firstArrays = [buffers.vertexArray]
                firstFramebuffers = [target.framebuffer]
                firstLargest = largestName
            }
        }
        #expect(!firstTextures.contains { GLObjectProbe.isTexture($0, in: context) })
        #expect(!firstBuffers.contains { GLObjectProbe.isBuffer($0, in: context) })
        #expect(!firstArrays.contains { GLObjectProbe.isVertexArray($0, in: context) })
        #expect(!firstFramebuffers.contains { GLObjectProbe.isFramebuffer($0, in: context) })
        // Live objects after 25 load / drop cycles: as many as before the first.
        #expect(firstLargest > 0)
        #expect(Self.liveObjects(context, upTo: largestName + 16) == liveBefore)

        // Cached request assets: unloading the renderer's skeletons and atlases deletes the pages.
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy, context: context)
        let pageNames = try renderer.textures(atlas: "spineboy-pma.atlas").names
        #expect(pageNames.allSatisfy { GLObjectProbe.isTexture($0, in: context) })
        renderer.unloadAll()
        #expect(!pageNames.contains { GLObjectProbe.isTexture($0, in: context) })
    }

    /// The frame builder reading the engine's columns through `PoseView` produces exactly the draw
    /// list it produces from the allocating copy (`InstancePose` with attachment names looked up),
    /// on frames with clipping, deform, tint black, path and physics; and a warm builder over a
    /// `PoseView` reuses its buffers. (tank-pro's shoot deforms its clipping polygon: the copy has
    /// no deform for clipping attachments and clips with the undeformed polygon; the view applies
    /// the deform, and its render passes the reference.)
    @Test(arguments: [
        "spineboy-pro__portal__45", "tank-pro__drive__20", "mix-and-match-pro__dance__20", "vine-pro__grow__90",
        "celestial-circus-pro__swing__30", "hero-pro__attack__5", "coin-pro__animation__15",
    ])
    func poseViewDrawsLikeTheCopy(_ name: String) throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let request = try RenderRequest(file: TestPaths.renders.path + "/\(name).request.json")
        let (data, drawData) = try renderer.skeleton(request.skeleton, atlas: request.atlas)
        let pages = try renderer.textures(atlas: request.atlas).bindings
        let (world, entity) = try RequestRenderer.posedWorld(request, data: data)
        let view = try world.poseView(entity)
        let copy = PoseSnapshot(try world.pose(entity), data: data, skin: request.skin)
        var builder = FrameBuilder()
        var fromView = DrawList()
        var fromCopy = DrawList()
        builder.build(copy, drawData: drawData, pages: pages, into: &fromCopy)
        let copyStats = builder.stats
        builder.build(view, drawData: drawData, pages: pages, into: &fromView)
        #expect(builder.stats == copyStats)
        #expect(fromView.batches == fromCopy.batches)
        #expect(fromView.indices == fromCopy.indices)
        #expect(fromView.vertices == fromCopy.vertices)
        #expect(!fromView.vertices.isEmpty)
        func frame() -> [UnsafeRawPointer?] {
            fromView.removeAll()
            builder.build(view, drawData: drawData, pages: pages, into: &fromView)
            return [
                fromView.vertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                fromView.indices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                builder.clipper.clippedVertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            ]
        }
        let warm = frame()
        for _ in 0..<3 { #expect(frame() == warm) }
    }

    /// GL objects alive among names 1...limit (textures, buffers, vertex arrays, framebuffers).
    static func liveObjects(_ context: GLContext, upTo limit: UInt32) -> Int {
        var live = 0
        for name in 1...max(1, limit) {
            if GLObjectProbe.isTexture(name, in: context) { live += 1 }
            if GLObjectProbe.isBuffer(name, in: context) { live += 1 }
            if GLObjectProbe.isVertexArray(name, in: context) { live += 1 }
            if GLObjectProbe.isFramebuffer(name, in: context) { live += 1 }
        }
        return live
    }

    /// Contexts come and go without leaking or crashing.
    @Test func headlessContextsComeAndGo() throws {
        for _ in 0..<10 {
            let context = GLContext.headless(try HeadlessGLContext())
            let target = try OffscreenTarget(width: 8, height: 8, context: context)
            target.clear(1, 0, 0, 1)
            #expect(target.readImage().pixels.prefix(4) == [255, 0, 0, 255])
        }
    }
}
