import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkRender

/// The instanced path against the CPU path and the reference renders.
@Suite(.serialized) struct InstancedRenderTests {

    /// Largest channel difference and the number of pixels differing by more than 2 levels.
    static func difference(_ a: Image, _ b: Image) -> (max: Int, over2: Int) {
        var worst = 0
        var over = 0
        for p in stride(from: 0, to: min(a.pixels.count, b.pixels.count), by: 4) {
            var pixel = 0
            for c in 0..<4 { pixel = max(pixel, abs(Int(a.pixels[p + c]) - Int(b.pixels[p + c]))) }
            worst = max(worst, pixel)
            if pixel > 2 { over += 1 }
        }
        return (worst, over)
    }

    @Test func geometryOfSyntheticSkeleton() throws {
        let data = try FrameBuilderTests.makeData()
        let geometry = InstancedGeometry(SkeletonDrawData(data))
        // Slots a, b, d, e, f, g show the quad (region, 4 vertices each); the faded attachment too.
        #expect(geometry.vertices.count == 6 * 4)
        #expect(geometry.indices.count == 6 * 6)
        #expect(geometry.groups.map(\.blendMode) == [.normal, .additive])
        #expect(geometry.limitations.contains { $0.contains("clipping") })
        // Per-instance rows follow the CPU path's skip rules.
        let pose = FrameBuilderTests.setupPose(data)
        var bones = [Float](repeating: 0, count: data.bones.count * 6)
        var slots = [UInt32](repeating: 0, count: data.slots.count * 4)
        bones.withUnsafeMutableBufferPointer { b in
            slots.withUnsafeMutableBufferPointer { s in
                geometry.writeInstance(pose, pages: .numbered(1), bones: b.baseAddress!, slots: s.baseAddress!)
            }
        }
        let shown = (0..<data.slots.count).map { slots[$0 * 4] != .max }
        #expect(shown == [true, false, true, false, true, false, false, false])
        // Slot 4's dark colour, packed RGBA8 (red in the lowest byte).
        #expect(slots[4 * 4 + 2] == 127 | 63 << 8 | 0 << 16 | 255 << 24)
        #expect(slots[1 * 4 + 1] == 0 && slots[1 * 4 + 2] == 0)
        // Bones: a, b, c, d, worldX, worldY.
        let root = pose.boneWorld(0)
        #expect(Array(bones[0..<6]) == [root.a, root.b, root.c, root.d, root.worldX, root.worldY])
        #expect(geometry.bytesPerInstance == data.bones.count * 24 + data.slots.count * 16)
    }

    /// Every reference whose skeleton the instanced path draws exactly: the instanced render
    /// matches the CPU path's to within rounding, and passes the reference comparison.
    @Test func referencesWithoutLimitations() throws {
        let cpu = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let instanced = try InstancedRenderer(context: cpu.context)
        var checked: [String] = []
        var failures: [String] = []
        var limited: [String: [String]] = [:]
        var poseLimited: [String] = []
        var prepared: [ObjectIdentifier: InstancedSkeletonBuffers] = [:]
        for name in try GoldenRenderTests.requestNames() {
            let request = try RenderRequest(file: TestPaths.renders.path + "/\(name).request.json")
            let (data, drawData) = try cpu.skeleton(request.skeleton, atlas: request.atlas)
            let buffers: InstancedSkeletonBuffers
            if let cached = prepared[ObjectIdentifier(drawData)] {
                buffers = cached
            } else {
                buffers = try instanced.prepare(InstancedGeometry(drawData))
                prepared[ObjectIdentifier(drawData)] = buffers
            }
            let limitations = buffers.geometry.limitations(
                animation: request.animation.flatMap { data.findAnimation($0) }.map(Int.init))
            guard limitations.isEmpty else {
                limited[request.skeleton + " " + (request.animation ?? "setup")] = limitations
                continue
            }
            checked.append(name)
            let pages = try cpu.textures(atlas: request.atlas).bindings
            let pose = try RequestRenderer.pose(request, data: data)
            let expected = try cpu.render(pose, drawData: drawData, pages: pages, request: request)
            let target = try OffscreenTarget(width: request.width, height: request.height, context: cpu.context)
            target.clear(0, 0, 0, 0)
            instanced.draw([pose], with: buffers, pages: pages, viewport: request.viewport, into: target)
            #expect(instanced.lastDrawCalls == 1)
            let image = target.readImage()
            let path = GoldenRenderTests.outputDirectory + "/\(name).instanced.png"
            try PNG.write(image, to: path)
            let (worst, over) = Self.difference(image, expected)
            if over > image.width * image.height / 1000 {
                failures.append("\(name): instanced vs CPU path: max \(worst), \(over) pixels over 2")
            }
            let verdict = GoldenRenderTests.compare(
                path, TestPaths.renders.path + "/\(name).png",
                diff: GoldenRenderTests.outputDirectory + "/\(name).instanced-diff.png")
            if !verdict.pass {
                // Judged against the reference only where the CPU path (same pose) passes: a pose
                // the engine does not reproduce yet fails both.
                let cpuVerdict = GoldenRenderTests.compare(
                    GoldenRenderTests.outputDirectory + "/\(name).cpu-check.png",
                    TestPaths.renders.path + "/\(name).png",
                    diff: "/dev/null", write: expected)
                if cpuVerdict.pass {
                    failures.append("\(name): instanced vs reference: \(verdict.summary)")
                } else {
                    poseLimited.append(name)
                }
            }
        }
        let report =
            "instanced: \(checked.count) references checked; not judged against the reference (the CPU path fails "
            + "them too): \(poseLimited.joined(separator: ", "))\n" + failures.joined(separator: "\n")
            + "\nnot exact:\n"
            + limited.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value.joined(separator: "; "))" }
            .joined(separator: "\n")
        try report.write(
            toFile: GoldenRenderTests.outputDirectory + "/instanced-report.txt", atomically: true, encoding: .utf8)
        #expect(checked.count >= 5, "\(report)")
        #expect(failures.isEmpty, "\(report)")
    }

    /// A crowd: many posed instances at different places, one draw call per group, the same
    /// picture as drawing them one by one on the CPU path.
    @Test func crowdMatchesCPUPath() throws {
        let cpu = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let instanced = try InstancedRenderer(context: cpu.context)
        let request = try RenderRequest(file: TestPaths.renders.path + "/raptor-pro__walk__10.request.json")
        let (data, drawData) = try cpu.skeleton(request.skeleton, atlas: request.atlas)
        let pages = try cpu.textures(atlas: request.atlas).bindings
        var poses: [PoseSnapshot] = []
        for k in 0..<24 {
            var stepped = request
            stepped.steps = k % 7
            var pose = try RequestRenderer.pose(stepped, data: data)
            let dx = Float(k % 6) * 300 - 750
            let dy = Float(k / 6) * 250 - 500
            pose.bones = pose.bones.map {
                var t = $0
                t.worldX += dx
                t.worldY += dy
                return t
            }
            // Mesh world vertices come with the pose: move them too.
            pose.vertices = pose.vertices.map { list in
                list.map { values in values.enumerated().map { $0.offset % 2 == 0 ? $0.element + dx : $0.element + dy }
                }
            }
            poses.append(pose)
        }
        let geometry = InstancedGeometry(drawData)
        let buffers = try instanced.prepare(geometry)
        let target = try OffscreenTarget(width: 256, height: 256, context: cpu.context)
        target.clear(0, 0, 0, 0)
        let viewport = WorldViewport(x: -1400, y: -900, width: 2800, height: 2800)
        instanced.draw(poses, with: buffers, pages: pages, viewport: viewport, into: target)
        #expect(instanced.lastDrawCalls == geometry.groups.count)
        let image = target.readImage()
        try PNG.write(image, to: GoldenRenderTests.outputDirectory + "/crowd.instanced.png")

        var list = DrawList()
        var builder = FrameBuilder()
        for pose in poses { builder.build(pose, drawData: drawData, pages: pages, into: &list) }
        target.clear(0, 0, 0, 0)
        cpu.renderer.draw(list, viewport: viewport, into: target)
        let expected = target.readImage()
        try PNG.write(expected, to: GoldenRenderTests.outputDirectory + "/crowd.cpu.png")
        let (worst, over) = Self.difference(image, expected)
        // Deform is not applied by the instanced path; raptor's walk has none at these steps.
        let limit = 256 * 256 / 1000
        #expect(over <= limit, "instanced vs CPU: max \(worst), \(over) pixels over 2")
        #expect(image.pixels.contains { $0 != 0 })
    }
}
