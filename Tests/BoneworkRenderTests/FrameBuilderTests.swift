import BoneworkFormat
import BoneworkWorld
import Testing

@testable import BoneworkRender

/// The draw-order walk on a hand-built skeleton: which slots draw, clipping start and end,
/// inactive bones, alpha-0 skips, region corner order, batching by blend mode.
@Suite struct FrameBuilderTests {
    /// Slots (all on the root bone unless said): 0 a: quad; 1 clip: square [0,5]^2 ending at slot 3;
    /// 2 b: quad (clipped); 3 c: point (ends the clip); 4 d: quad, additive, dark colour;
    /// 5 e: quad on an inactive bone; 6 f: quad, slot alpha 0; 7 g: quad, attachment alpha 0.
    static func makeData(clipBoneInactive: Bool = false, clipEnd: Int32 = 3) throws -> SkeletonData {
        var b = SkeletonDataBuilder(file: "synthetic.json")
        b.bones = [BoneData(name: "root", parent: -1), BoneData(name: "optional", parent: 0)]
        b.bones[1].skinRequired = true
        let slotNames = ["a", "clip", "b", "c", "d", "e", "f", "g"]
        b.slots = slotNames.map { SlotData(name: $0, bone: 0) }
        b.slots[5].bone = 1
        if clipBoneInactive { b.slots[1].bone = 1 }
        b.slots[4].blendMode = .additive
        b.slots[4].darkColor = Color(0.5, 0.25, 0, 1)
        b.skins = [SkinData(name: "default")]
        b.defaultSkin = 0
        var quad = AttachmentData(name: "sq", kind: .region)
        quad.x = 5
        quad.y = 5
        quad.width = 10
        quad.height = 10
        var clip = AttachmentData(name: "clip", kind: .clipping)
        clip.vertices = [0, 0, 0, 5, 5, 5, 5, 0]
        clip.worldVerticesLength = 8
        clip.endSlot = clipEnd
        var faded = quad
        faded.color = Color(1, 1, 1, 0)
        let point = AttachmentData(name: "pt", kind: .point)
        for (slot, attachment) in [
            (0, quad), (1, clip), (2, quad), (3, point), (4, quad), (5, quad), (6, quad), (7, faded),
        ] {
            b.addAttachment(attachment, skin: 0, slot: Int32(slot), name: attachment.name, at: .file)
            b.slots[slot].attachmentName = b.intern(attachment.name)
        }
        var page = AtlasPage(name: "page.png")
        page.width = 10
        page.height = 10
        page.pma = true
        var region = AtlasRegion(name: "sq", page: 0)
        region.width = 10
        region.height = 10
        region.u2 = 1
        region.v2 = 1
        region.originalWidth = 10
        region.originalHeight = 10
        return try b.finish(atlas: Atlas(file: "synthetic.atlas", pages: [page], regions: [region]))
    }

    static func setupPose(_ data: SkeletonData) -> PoseSnapshot {
        var pose = PoseSnapshot(
            data: data, bones: [BoneWorldTransform](repeating: .identity, count: data.bones.count),
            boneActive: data.bones.map { !$0.skinRequired },
            slotColors: [Color](repeating: .white, count: data.slots.count),
            darkColors: data.slots.map { $0.darkColor ?? Color(0, 0, 0, 1) },
            attachments: (0..<data.slots.count).map {
                PoseSnapshot.attachmentIndex(
                    data: data, skin: nil, slot: $0,
                    name: data.slots[$0].attachmentName >= 0
                        ? data.attachmentNames[Int(data.slots[$0].attachmentName)] : nil)
            },
            vertices: [[Float]?](repeating: nil, count: data.slots.count), drawOrder: Array(0..<data.slots.count))
        pose.slotColors[6] = Color(1, 1, 1, 0)
        return pose
    }

    /// Total area of the list's triangles in batch `batch`.
    static func area(_ list: DrawList, batch: Int) -> Double {
        let b = list.batches[batch]
        var total = 0.0
        for k in stride(from: b.indexStart, to: b.indexStart + b.indexCount, by: 3) {
            let p = (0..<3).map { list.vertices[Int(list.indices[k + $0])] }
            let cross = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x)
            total += abs(Double(cross)) / 2
        }
        return total
    }

    @Test func drawOrderWalk() throws {
        let data = try Self.makeData()
        let drawData = SkeletonDrawData(data)
        var builder = FrameBuilder()
        var list = DrawList()
        builder.build(Self.setupPose(data), drawData: drawData, pages: .numbered(1), into: &list)
        let stats = builder.stats
        // a, b (clipped), d drawn; e inactive; f and g alpha 0.
        #expect(stats.drawnSlots == 3 && stats.regions == 3 && stats.meshes == 0)
        #expect(stats.clippedSlots == 1 && stats.inactiveSkipped == 1 && stats.alphaSkipped == 2)
        #expect(stats.tintedSlots == 1 && stats.additiveSlots == 1)
        // a and b share a batch (normal); d is additive.
        #expect(list.batches.count == 2)
        #expect(list.batches.map(\.blendMode) == [.normal, .additive])
        #expect(abs(Self.area(list, batch: 0) - (100 + 25)) < 1e-3)
        #expect(abs(Self.area(list, batch: 1) - 100) < 1e-3)
        // Slot a's corners: BR, BL, UL, UR with their texture coordinates (v = 0 at the top).
        let corners = list.vertices[0..<4].map { [$0.x, $0.y, $0.u, $0.v] }
        #expect(corners == [[10, 0, 1, 1], [0, 0, 0, 1], [0, 10, 0, 0], [10, 10, 1, 0]])
        #expect(list.indices[0..<6].map { $0 } == [0, 1, 2, 2, 3, 0])
        // d's colours: light white, dark (0.5, 0.25, 0) premultiplied by alpha 1, quantised.
        let d = list.vertices[Int(list.indices[list.batches[1].indexStart])]
        #expect(d.light == 0xFFFF_FFFF && d.dark == 127 | 63 << 8 | 255 << 24)
        #expect(!builder.clipper.isClipping)
    }

    @Test func clipWithoutEndSlotRunsToTheEnd() throws {
        let data = try Self.makeData(clipEnd: -1)
        var builder = FrameBuilder()
        var list = DrawList()
        builder.build(Self.setupPose(data), drawData: SkeletonDrawData(data), pages: .numbered(1), into: &list)
        #expect(builder.stats.clippedSlots == 2)
        #expect(abs(Self.area(list, batch: 0) - 125) < 1e-3 && abs(Self.area(list, batch: 1) - 25) < 1e-3)
        #expect(!builder.clipper.isClipping)
    }

    @Test func clipOnInactiveBoneDoesNotStart() throws {
        let data = try Self.makeData(clipBoneInactive: true)
        var builder = FrameBuilder()
        var list = DrawList()
        builder.build(Self.setupPose(data), drawData: SkeletonDrawData(data), pages: .numbered(1), into: &list)
        #expect(builder.stats.clippedSlots == 0 && builder.stats.inactiveSkipped == 2)
        #expect(abs(Self.area(list, batch: 0) - 200) < 1e-3)
    }

    @Test func skeletonColourAndDrawOrder() throws {
        let data = try Self.makeData()
        var pose = Self.setupPose(data)
        pose.skeletonColor = Color(1, 1, 1, 0.5)
        pose.drawOrder = [4, 0, 1, 2, 3, 5, 6, 7]
        var builder = FrameBuilder()
        var list = DrawList()
        builder.build(pose, drawData: SkeletonDrawData(data), pages: .numbered(1), into: &list)
        #expect(list.batches.map(\.blendMode) == [.additive, .normal])
        // Light = (c.rgb * c.a, c.a) with c.a = 0.5: 127 each.
        #expect(list.vertices[0].light == 0x7F7F_7F7F)
        #expect(builder.stats.translucentSlots == 3)
    }

    @Test func warmBuilderReusesItsBuffers() throws {
        let data = try Self.makeData()
        let drawData = SkeletonDrawData(data)
        let pose = Self.setupPose(data)
        var builder = FrameBuilder()
        var list = DrawList()
        func frame() -> [UnsafeRawPointer?] {
            list.removeAll()
            builder.build(pose, drawData: drawData, pages: .numbered(1), into: &list)
            return [
                list.vertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                list.indices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                builder.clipper.clippedVertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            ]
        }
        _ = frame()
        let warm = frame()
        for _ in 0..<3 { #expect(frame() == warm) }
    }
}
