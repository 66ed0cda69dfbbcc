import BoneworkFormat
import BoneworkWorld

/// Which texture each atlas page is drawn with, and whether it holds premultiplied alpha.
public struct PageBindings: Sendable, Equatable {
    /// Per page: the GL texture name (or the caller's numbering).
    public var textures: [UInt32]
    /// Per page: whether it holds premultiplied alpha.
    public var premultiplied: [Bool]

    /// Bindings for pages `0..<textures.count`.
    public init(textures: [UInt32], premultiplied: [Bool]) {
        self.textures = textures
        self.premultiplied = premultiplied
    }

    /// Pages numbered 0..<count, all premultiplied (for building lists without GL).
    public static func numbered(_ count: Int) -> PageBindings {
        PageBindings(textures: (0..<count).map { UInt32($0) }, premultiplied: [Bool](repeating: true, count: count))
    }
}

extension AtlasTextures {
    /// These textures as page bindings for `FrameBuilder.build`.
    public var bindings: PageBindings { PageBindings(textures: names, premultiplied: premultiplied) }
}

/// What the last frame drew (and skipped), for diagnostics and tests.
public struct FrameStats: Sendable, Equatable {
    /// Slots that produced at least one triangle.
    public var drawnSlots = 0
    /// Region attachments drawn.
    public var regions = 0
    /// Mesh attachments drawn.
    public var meshes = 0
    /// Triangles drawn, after clipping.
    public var triangles = 0
    /// Region and mesh slots reached while a clip was active.
    public var clippedSlots = 0
    /// Drawn slots with a dark colour.
    public var tintedSlots = 0
    /// Drawn slots whose colour alpha is strictly between 0 and 1.
    public var translucentSlots = 0
    /// Drawn slots with the additive blend mode.
    public var additiveSlots = 0
    /// Drawn slots with the multiply blend mode.
    public var multiplySlots = 0
    /// Drawn slots with the screen blend mode.
    public var screenSlots = 0
    /// Slots with an attachment whose bone is inactive.
    public var inactiveSkipped = 0
    /// Region and mesh slots skipped because the slot's or the attachment's alpha is 0.
    public var alphaSkipped = 0
    /// Region and mesh slots skipped because their image has no page.
    public var missingPage = 0

    /// Zero counts.
    public init() {}
}

/// Walks one posed instance's draw order and appends its triangles to a `DrawList`:
///
/// 1. no attachment, or its bone inactive: end the clip if this is its end slot; next slot;
/// 2. a clipping attachment starts a clip (unless one is active); next slot;
/// 3. slot alpha 0: end the clip at its end slot; next slot;
/// 4. a region (4 vertices from its bone and its current sequence frame, triangles 0-1-2, 2-3-0)
///    or a mesh (world vertices from the pose, its triangles); anything else ends the clip at its
///    end slot and goes on;
/// 5. attachment alpha 0: end the clip at its end slot; next slot;
/// 6. clipped when a clip is active, then appended with the slot's blend mode and colours
///    (`SlotVertexColors`), then the clip ends if this is its end slot.
///
/// After the last slot any clip still active ends. The builder keeps its buffers: once warm,
/// building a frame allocates nothing.
public struct FrameBuilder: Sendable {
    /// The clipper the builder clips with (its part counts tell tests what was clipped).
    public private(set) var clipper = Clipper()
    /// What the last ``build(_:drawData:pages:into:)`` drew and skipped.
    public private(set) var stats = FrameStats()
    private var vertices: [Float] = []
    private var regionUVs = [Float](repeating: 0, count: 8)

    /// A builder with empty buffers (they grow on first use, then are reused).
    public init() {}

    /// Appends `pose`'s triangles to `list` in its draw order, by the rules above; `pages` says which
    /// texture each atlas page uses.
    public mutating func build<Pose: PosedSkeleton>(
        _ pose: Pose, drawData: SkeletonDrawData, pages: PageBindings, into list: inout DrawList
    ) {
        stats = FrameStats()
        if vertices.count < drawData.maxVertexFloats {
            vertices = [Float](repeating: 0, count: drawData.maxVertexFloats)
        }
        // Work on the scratch buffers moved out of self (no copy, no allocation), so that they can be
        // borrowed while self is mutated.
        var scratch: [Float] = []
        swap(&scratch, &vertices)
        var quadUVs: [Float] = []
        swap(&quadUVs, &regionUVs)
        defer {
            swap(&scratch, &vertices)
            swap(&quadUVs, &regionUVs)
        }
        let skeletonColor = pose.skeletonColor
        let slotCount = drawData.slotCount
        let attachmentCount = drawData.attachmentCount
        for k in 0..<pose.drawOrderCount {
            let slot = pose.drawOrderSlot(k)
            guard slot >= 0 && slot < slotCount else { continue }
            let slotID = Int32(slot)
            let attachment = pose.slotAttachment(slot)
            guard attachment >= 0 && attachment < attachmentCount else {
                clipper.clipEnd(slot: slotID)
                continue
            }
            guard pose.isBoneActive(Int(drawData.slotBones[slot])) else {
                stats.inactiveSkipped += 1
                clipper.clipEnd(slot: slotID)
                continue
            }
            let kind = drawData.kinds[attachment]
            if kind == .clipping {
                startClip(pose, slot: slot, attachment: attachment, drawData: drawData, scratch: &scratch)
                continue
            }
            let slotColor = pose.slotColor(slot)
            guard kind == .region || kind == .mesh else {
                clipper.clipEnd(slot: slotID)
                continue
            }
            if slotColor.a == 0 {
                stats.alphaSkipped += 1
                clipper.clipEnd(slot: slotID)
                continue
            }
            let frame = drawData.frameIndex(attachment: attachment, sequenceIndex: pose.slotSequenceIndex(slot))
            let page = frame >= 0 ? Int(drawData.framePages[frame]) : -1
            let attachmentColor = drawData.colors[attachment]
            if attachmentColor.a == 0 {
                stats.alphaSkipped += 1
                clipper.clipEnd(slot: slotID)
                continue
            }
            guard page >= 0 && page < pages.textures.count && page < pages.premultiplied.count else {
                stats.missingPage += 1
                clipper.clipEnd(slot: slotID)
                continue
            }
            let premultiplied = pages.premultiplied[page]
            let hasDark = drawData.slotHasDark[slot]
            let colors = SlotVertexColors(
                skeleton: skeletonColor, slot: slotColor, attachment: attachmentColor,
                dark: hasDark ? pose.slotDarkColor(slot) : nil, premultiplied: premultiplied)
            let vertexCount = Int(drawData.vertexCounts[attachment])
            let drawn = scratch.withUnsafeMutableBufferPointer { world -> Int in
                let uvs: UnsafeBufferPointer<Float>
                if kind == .region {
                    Self.regionWorldVertices(
                        pose.boneWorld(Int(drawData.slotBones[slot])), drawData.frameOffsets[frame], into: world)
                    let frameUVs = drawData.frameUVs[frame]
                    for i in 0..<8 { quadUVs[i] = frameUVs[i] }
                    return quadUVs.withUnsafeBufferPointer { uv in
                        emit(
                            world: UnsafeBufferPointer(world), vertexCount: 4, uvs: uv, attachment: attachment,
                            drawData: drawData, colors: colors, texture: pages.textures[page],
                            blend: drawData.slotBlendModes[slot], premultiplied: premultiplied, list: &list)
                    }
                }
                pose.computeWorldVertices(
                    slot: slot, attachment: attachment,
                    into: UnsafeMutableBufferPointer(rebasing: world[0..<(vertexCount * 2)]))
                let uvStart = Int(drawData.frameMeshUVStarts[frame])
                guard uvStart >= 0, uvStart + vertexCount * 2 <= drawData.meshUVs.count else { return 0 }
                uvs = UnsafeBufferPointer(rebasing: drawData.meshUVs[uvStart..<(uvStart + vertexCount * 2)])
                return emit(
                    world: UnsafeBufferPointer(world), vertexCount: vertexCount, uvs: uvs, attachment: attachment,
                    drawData: drawData, colors: colors, texture: pages.textures[page],
                    blend: drawData.slotBlendModes[slot], premultiplied: premultiplied, list: &list)
            }
            if drawn > 0 {
                stats.drawnSlots += 1
                stats.triangles += drawn
                if kind == .region { stats.regions += 1 } else { stats.meshes += 1 }
                if hasDark { stats.tintedSlots += 1 }
                let alpha = skeletonColor.a * slotColor.a * attachmentColor.a
                if alpha > 0 && alpha < 1 { stats.translucentSlots += 1 }
                switch drawData.slotBlendModes[slot] {
                case .additive: stats.additiveSlots += 1
                case .multiply: stats.multiplySlots += 1
                case .screen: stats.screenSlots += 1
                case .normal: break
                }
            }
            clipper.clipEnd(slot: slotID)
        }
        clipper.clipEnd()
    }

    /// Appends one slot's triangles (clipped when a clip is active); returns how many.
    private mutating func emit(
        world: UnsafeBufferPointer<Float>, vertexCount: Int, uvs: UnsafeBufferPointer<Float>, attachment: Int,
        drawData: SkeletonDrawData, colors: SlotVertexColors, texture: UInt32, blend: BlendMode,
        premultiplied: Bool, list: inout DrawList
    ) -> Int {
        let start = Int(drawData.triangleStarts[attachment])
        let triangles = UnsafeBufferPointer(
            rebasing: drawData.triangles[start..<(start + Int(drawData.triangleCounts[attachment]))])
        let positions = UnsafeBufferPointer(rebasing: world[0..<(vertexCount * 2)])
        let before = list.indices.count
        if clipper.isClipping {
            stats.clippedSlots += 1
            clipper.clipTriangles(vertices: positions, uvs: uvs, triangles: triangles)
            clipper.clippedVertices.withUnsafeBufferPointer { v in
                clipper.clippedUVs.withUnsafeBufferPointer { uv in
                    clipper.clippedTriangles.withUnsafeBufferPointer { t in
                        list.append(
                            positions: v, uvs: uv, vertexCount: v.count / 2, triangles: t, colors: colors,
                            texture: texture, blendMode: blend, premultiplied: premultiplied)
                    }
                }
            }
        } else {
            list.append(
                positions: positions, uvs: uvs, vertexCount: vertexCount, triangles: triangles, colors: colors,
                texture: texture, blendMode: blend, premultiplied: premultiplied)
        }
        return (list.indices.count - before) / 3
    }

    private mutating func startClip<Pose: PosedSkeleton>(
        _ pose: Pose, slot: Int, attachment: Int, drawData: SkeletonDrawData, scratch: inout [Float]
    ) {
        guard !clipper.isClipping else { return }
        let count = Int(drawData.vertexCounts[attachment]) * 2
        scratch.withUnsafeMutableBufferPointer { world in
            let polygon = UnsafeMutableBufferPointer(rebasing: world[0..<count])
            pose.computeWorldVertices(slot: slot, attachment: attachment, into: polygon)
            clipper.clipStart(worldPolygon: UnsafeBufferPointer(polygon), endSlot: drawData.endSlots[attachment])
        }
    }

    /// A region's four corners in the order BR, BL, UL, UR (matching its texture coordinates),
    /// from the frame's local offsets (stored BL, UL, UR, BR) and the bone's world transform.
    @inline(__always)
    static func regionWorldVertices(
        _ t: BoneWorldTransform, _ offsets: SIMD8<Float>, into world: UnsafeMutableBufferPointer<Float>
    ) {
        @inline(__always) func corner(_ index: Int, _ x: Float, _ y: Float) {
            world[index * 2] = x * t.a + y * t.b + t.worldX
            world[index * 2 + 1] = x * t.c + y * t.d + t.worldY
        }
        corner(0, offsets[6], offsets[7])
        corner(1, offsets[0], offsets[1])
        corner(2, offsets[2], offsets[3])
        corner(3, offsets[4], offsets[5])
    }
}
