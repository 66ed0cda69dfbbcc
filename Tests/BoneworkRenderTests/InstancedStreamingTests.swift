import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// The instanced path's per-frame tables: their size, packing on several threads, the two ways of
/// streaming them, and frames that are closed.
@Suite(.serialized) struct InstancedStreamingTests {
    static let spineboy = TestPaths.example("spineboy")

    /// A spineboy crowd at different animation times and colours.
    static func crowd(_ data: SkeletonData, count: Int) throws -> World {
        let world = World(trackCount: 1)
        world.batch(for: data).reserve(count)
        for k in 0..<count {
            let e = try world.spawn(data)
            try world.setAnimation(e, k % 3 == 0 ? "run" : "walk", loop: true)
            try world.setTrackTime(e, Float(k % 37) / 37)
        }
        world.update(1.0 / 60)
        return world
    }

    /// Copies of the open frame's rows (the persistent mapping is plain memory on this driver).
    static func tables(_ frame: InstancedFrame) -> (bones: [Float], slots: [UInt32]) {
        let w = frame.writer
        return (
            Array(UnsafeBufferPointer(start: w.bones, count: frame.count * w.boneStride)),
            Array(UnsafeBufferPointer(start: w.slots, count: frame.count * w.slotStride))
        )
    }

    /// Packing on one thread, on two, and in five chunks written out of order gives byte-identical
    /// tables, equal to writing each instance on its own.
    @Test func packingIsIndependentOfThreads() throws {
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy)
        let (data, drawData) = try renderer.skeleton("spineboy-pro.skel", atlas: "spineboy-pma.atlas")
        let pages = try renderer.textures(atlas: "spineboy-pma.atlas").bindings
        let instanced = try InstancedRenderer(context: renderer.context, streaming: .persistent)
        let geometry = InstancedGeometry(drawData)
        let buffers = try instanced.prepare(geometry)
        let target = try OffscreenTarget(width: 32, height: 32, context: renderer.context)
        target.bind()
        let viewport = WorldViewport(x: -1000, y: -200, width: 2000, height: 2000)
        let count = 600
        let world = try Self.crowd(data, count: count)
        let batch = world.batch(for: data)
        let views = batch.poseViews()
        instanced.minimumPackRows = 1

        var expectedBones = [Float](repeating: 0, count: count * drawData.boneCount * 6)
        var expectedSlots = [UInt32](repeating: 0, count: count * drawData.slotCount * 4)
        expectedBones.withUnsafeMutableBufferPointer { b in
            expectedSlots.withUnsafeMutableBufferPointer { s in
                for k in 0..<count {
                    geometry.writeInstance(
                        views[k], pages: pages, bones: b.baseAddress! + k * drawData.boneCount * 6,
                        slots: s.baseAddress! + k * drawData.slotCount * 4)
                }
            }
        }

        var results: [(bones: [Float], slots: [UInt32], chunks: Int)] = []
        for threads in [1, 2] {
            instanced.packThreads = threads
            let frame = try instanced.beginFrame(buffers, count: count, pages: pages)
            instanced.pack(frame, views)
            let (bones, slots) = Self.tables(frame)
            let stats = instanced.submit(frame, with: buffers, viewport: viewport)
            results.append((bones, slots, stats.packChunks))
            #expect(stats.instances == count)
            #expect(stats.drawCalls == geometry.groups.count)
        }
        // Five chunks through the public API, last chunk first.
        let frame = try instanced.beginFrame(buffers, count: count, pages: pages)
        for c in (0..<5).reversed() { frame.pack(batch: batch, range: count * c / 5..<count * (c + 1) / 5) }
        let (bones, slots) = Self.tables(frame)
        let stats = instanced.submit(frame, with: buffers, viewport: viewport)
        results.append((bones, slots, stats.packChunks))

        #expect(results.map(\.chunks) == [1, min(2, Scheduler.maxThreads), 5])
        for r in results {
            // Bitwise: compare the floats' bit patterns, not their values.
            #expect(r.bones.map(\.bitPattern) == expectedBones.map(\.bitPattern))
            #expect(r.slots == expectedSlots)
        }
        // The crowd really differs from instance to instance.
        #expect(
            expectedBones[0..<drawData.boneCount * 6] != expectedBones[drawData.boneCount * 6..<drawData.boneCount * 12]
        )
        #expect(expectedSlots.contains(.max) && expectedSlots.contains { $0 != .max && $0 > 0 })
    }

    /// What one instance costs in the tables: 6 floats per bone and 16 bytes per slot (2,440 bytes
    /// for spineboy-pro), and that is what a frame reports writing.
    @Test func tableBytesPerInstance() throws {
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy)
        let (data, drawData) = try renderer.skeleton("spineboy-pro.skel", atlas: "spineboy-pma.atlas")
        let pages = try renderer.textures(atlas: "spineboy-pma.atlas").bindings
        let geometry = InstancedGeometry(drawData)
        #expect(drawData.boneCount == 67 && drawData.slotCount == 52)
        #expect(geometry.bytesPerInstance == 67 * 24 + 52 * 16)
        #expect(geometry.bytesPerInstance == 2440)
        let instanced = try InstancedRenderer(context: renderer.context)
        let buffers = try instanced.prepare(geometry)
        let target = try OffscreenTarget(width: 32, height: 32, context: renderer.context)
        let world = try Self.crowd(data, count: 100)
        let stats = instanced.draw(
            batch: world.batch(for: data), with: buffers, pages: pages,
            viewport: WorldViewport(x: -1000, y: -200, width: 2000, height: 2000), into: target)
        #expect(stats.uploadBytes == 100 * 2440)
        #expect(buffers.boneRegionBytes >= 100 * 67 * 24 && buffers.slotRegionBytes >= 100 * 52 * 16)
        // Regions hold the tables with little more than the growth headroom.
        #expect(buffers.boneRegionBytes <= 100 * 67 * 24 * 3 / 2 + 4096)
    }

    /// Mapped ranges (GL 3.3 core) and the persistent mapping draw the same pictures, over more
    /// frames than there are regions, with the instance count changing (the tables grow).
    @Test func mappedRangesDrawLikePersistentMapping() throws {
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy)
        let (data, drawData) = try renderer.skeleton("spineboy-pro.skel", atlas: "spineboy-pma.atlas")
        let pages = try renderer.textures(atlas: "spineboy-pma.atlas").bindings
        let target = try OffscreenTarget(width: 96, height: 96, context: renderer.context)
        let viewport = WorldViewport(x: -700, y: -100, width: 1400, height: 1400)
        var images: [InstancedStreaming: [Image]] = [:]
        for streaming in [InstancedStreaming.persistent, .mappedRanges] {
            let instanced = try InstancedRenderer(context: renderer.context, streaming: streaming)
            #expect(instanced.streaming == streaming)
            let buffers = try instanced.prepare(InstancedGeometry(drawData))
            #expect(buffers.streaming == streaming)
            for (frame, count) in [3, 1, 8, 8, 2, 40].enumerated() {
                let world = World(trackCount: 1)
                for k in 0..<count {
                    let e = try world.spawn(data)
                    try world.setAnimation(e, "walk", loop: true)
                    try world.setTrackTime(e, Float(k + frame) / 9)
                    try world.setSkeletonTransform(e, x: Float(k % 5) * 200 - 400, y: Float(k / 5) * 120)
                }
                world.update(1.0 / 60)
                target.clear(0, 0, 0, 0)
                let stats = instanced.draw(
                    batch: world.batch(for: data), with: buffers, pages: pages, viewport: viewport, into: target)
                #expect(stats.instances == count)
                #expect(instanced.lastError == nil)
                images[streaming, default: []].append(target.readImage())
            }
        }
        let persistent = try #require(images[.persistent])
        let mapped = try #require(images[.mappedRanges])
        #expect(persistent.count == 6 && mapped.count == 6)
        for (a, b) in zip(persistent, mapped) {
            #expect(a.pixels == b.pixels)
            #expect(a.pixels.contains { $0 != 0 })
        }
        // Each frame drew its own instances, not an earlier frame's region.
        #expect(persistent[2].pixels != persistent[3].pixels)
    }

    /// A submitted frame takes no more rows, and submitting it again draws nothing.
    @Test func closedFramesIgnorePacking() throws {
        let renderer = try RequestRenderer(baseDirectory: Self.spineboy)
        let (data, drawData) = try renderer.skeleton("spineboy-pro.skel", atlas: "spineboy-pma.atlas")
        let pages = try renderer.textures(atlas: "spineboy-pma.atlas").bindings
        let instanced = try InstancedRenderer(context: renderer.context, streaming: .persistent)
        let buffers = try instanced.prepare(InstancedGeometry(drawData))
        let target = try OffscreenTarget(width: 32, height: 32, context: renderer.context)
        target.bind()
        let viewport = WorldViewport(x: -1000, y: -200, width: 2000, height: 2000)
        let world = try Self.crowd(data, count: 4)
        let batch = world.batch(for: data)
        let frame = try instanced.beginFrame(buffers, count: 4, pages: pages)
        frame.pack(batch: batch, range: 0..<4)
        let first = instanced.submit(frame, with: buffers, viewport: viewport)
        #expect(first.drawCalls >= 1)
        #expect(first.packChunks == 1)
        let before = Self.tables(frame)
        world.update(0.25)
        frame.pack(batch: batch, range: 0..<4)
        let after = Self.tables(frame)
        #expect(before.bones.map(\.bitPattern) == after.bones.map(\.bitPattern))
        let again = instanced.submit(frame, with: buffers, viewport: viewport)
        #expect(again.drawCalls == 0)
        // Rows of another skeleton are refused; out-of-range rows are clamped.
        let next = try instanced.beginFrame(buffers, count: 4, pages: pages)
        let other = try ExampleSkeletons.load("raptor/raptor-pro.skel", atlas: "raptor/raptor-pma.atlas")
        let otherWorld = World(trackCount: 1)
        _ = try otherWorld.spawn(other)
        next.pack(batch: otherWorld.batch(for: other), range: 0..<4)
        next.pack(batch: batch, range: -3..<100)
        let stats = instanced.submit(next, with: buffers, viewport: viewport)
        #expect(stats.packChunks == 1)
        #expect(stats.drawCalls == first.drawCalls)
    }
}
