import BoneworkFormat
import BoneworkTestSupport
import BoneworkWorld
import Testing

@testable import BoneworkRender

/// `GPUHeapFrame`: the GPU path's packing into tables on the heap, as the `play` fuzz target runs
/// it. Its checks first, then that it packs what the renderer packs into its mapped tables.
@Suite(.serialized) struct GPUHeapFrameTests {
    /// Tanks (a clipping attachment) through their animations.
    static func tanks(_ count: Int) throws -> (World, SkeletonData, [Entity]) {
        let data = try ExampleSkeletons.load("tank/tank-pro.json", atlas: "tank/tank-pma.atlas")
        let world = World(trackCount: 1)
        var entities: [Entity] = []
        for k in 0..<count {
            let entity = try world.spawn(data)
            try world.setAnimation(entity, track: 0, data.animations[k % data.animations.count].name, loop: true)
            try world.place(entity, x: Float(k) * 40, y: 0)
            entities.append(entity)
        }
        world.update(0.4)
        return (world, data, entities)
    }

    @Test func anEmptyFramePacksNothingAndPassesItsCheck() throws {
        let data = try ExampleSkeletons.spineboy()
        let heap = try GPUHeapFrame(
            geometry: GPUSkeletonGeometry(SkeletonDrawData(data)), premultiplied: [false], count: 0, chunks: 2)
        heap.frame.pack(chunk: 0, range: 0..<0) { (_: Int) -> PoseView in fatalError("no character") }
        #expect(heap.check() == nil)
        #expect(heap.chunkOutput(0).commands.isEmpty && heap.chunkOutput(1).commands.isEmpty)
    }

    @Test func checkFindsRecordsAndSlotRowsThatDoNotPointAtTheCharactersRows() throws {
        let (world, data, entities) = try Self.tanks(3)
        let views = try entities.map { try world.poseView($0) }
        func packed() throws -> GPUHeapFrame {
            let heap = try GPUHeapFrame(
                geometry: GPUSkeletonGeometry(SkeletonDrawData(data)), premultiplied: [true], count: 3, chunks: 1)
            heap.frame.pack(chunk: 0, range: 0..<3) { views[$0] }
            return heap
        }
        let clean = try packed()
        #expect(clean.check() == nil)
        #expect(!clean.chunkOutput(0).commands.isEmpty, "tanks draw something")
        let record = try packed()
        record.frame.characters[GPUFrame.recordWords + 1] += 1
        #expect(record.check()?.hasPrefix("character 1: record") == true)
        let slot = try packed()
        slot.frame.slots[0] = UInt32(SkeletonDrawData(data).framePages.count)
        #expect(slot.check()?.hasPrefix("character 0 slot 0: region frame") == true)
        withExtendedLifetime(world) {}
    }

    /// The same characters packed by a `GPURenderer` into its mapped tables and into a heap frame:
    /// the same bone rows, slot rows (with their deform offsets' places) and character records,
    /// the same draw commands and clipped corners.
    @Test func packsWhatTheRendererPacksIntoItsMappedTables() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let gpu = try renderer.gpuRenderer()
        let (world, data, entities) = try Self.tanks(24)
        let textures = try renderer.textures(atlas: "tank/tank-pma.atlas")
        let (_, draw) = try renderer.skeleton("tank/tank-pro.json", atlas: "tank/tank-pma.atlas")
        let kind = Int32(try renderer.gpuKind(draw, textures: textures))
        #expect(kind == 0, "the renderer's first kind: its corners start at 0, as the heap frame's")
        let batch = try world.locate(entities[0]).batch
        let views = [batch.poseViews()]
        let rows = try entities.map { UInt64(try world.locate($0).row) }
        let kinds = [Int32](repeating: kind, count: entities.count)
        let frame = try kinds.withUnsafeBufferPointer { k throws(RenderError) in try gpu.beginFrame(kinds: k, chunks: 1)
        }
        views.withUnsafeBufferPointer { b in rows.withUnsafeBufferPointer { gpu.pack(frame, batches: b, rows: $0) } }
        let heap = try GPUHeapFrame(
            geometry: GPUSkeletonGeometry(SkeletonDrawData(data)), premultiplied: textures.premultiplied,
            count: entities.count, chunks: 1)
        views.withUnsafeBufferPointer { b in
            rows.withUnsafeBufferPointer { heap.frame.pack(chunk: 0, range: 0..<entities.count, batches: b, rows: $0) }
        }
        #expect(heap.check() == nil)
        let g = heap.kind.geometry
        let bytes = GPUFrame.tableBytes(
            count: entities.count, boneTexels: entities.count * g.boneTableFloats / 4,
            slotTexels: entities.count * g.drawData.slotCount, deformFloats: entities.count * g.deformFloats)
        func same<T: Equatable>(_ a: UnsafeMutablePointer<T>, _ b: UnsafeMutablePointer<T>, _ n: Int) -> Bool {
            Array(UnsafeBufferPointer(start: a, count: n)) == Array(UnsafeBufferPointer(start: b, count: n))
        }
        // Each character's bone rows (six floats per bone; the padding after them is not written)
        // and every slot row (a draw order holds every slot, so each is written).
        for k in 0..<entities.count {
            let offset = k * g.boneTableFloats
            #expect(
                same(frame.bones + offset, heap.frame.bones + offset, g.drawData.boneCount * 6), "character \(k) bones")
        }
        #expect(same(frame.slots, heap.frame.slots, bytes.1 / 4), "slot rows")
        #expect(same(frame.characters, heap.frame.characters, bytes.3 / 4), "character records")
        let mine = heap.chunkOutput(0)
        let theirs = gpu.chunks[0]
        #expect(mine.commands.count == theirs.commands.count && !mine.commands.isEmpty)
        for (a, b) in zip(mine.commands, theirs.commands) {
            #expect(
                a.count == b.count && a.first == b.first && a.character == b.character && a.dynamic == b.dynamic
                    && a.state == b.state && a.parts == b.parts, "\(a) against \(b)")
        }
        #expect(mine.dynamic == theirs.dynamic, "clipped corners")
        _ = gpu.submit(frame, viewport: WorldViewport(x: -500, y: -400, width: 1000, height: 1000))
        withExtendedLifetime(world) {}
    }
}
