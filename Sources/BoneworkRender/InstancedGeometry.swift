import BoneworkFormat

/// One vertex of the instanced path's static geometry: texture coordinates, the slot it belongs
/// to, the image variant it shows (a `SkeletonData.attachmentFrames` index: one per attachment
/// and sequence frame) and its range of bone influences. 24 bytes.
public struct InstancedVertex: Sendable, Equatable {
    /// Texture u, 0...1 across the page.
    public var u: Float
    /// Texture v, 0...1 down the page.
    public var v: Float
    /// The slot the vertex belongs to.
    public var slot: Int32
    /// The image variant (attachment and sequence frame) it belongs to.
    public var variant: Int32
    /// Its first bone influence in `InstancedGeometry.influences` (in influences, 4 floats each).
    public var influenceStart: Int32
    /// How many influences it has (1 for regions and unweighted meshes).
    public var influenceCount: Int32
}

/// Triangles of the static geometry that draw with one page and one blend mode.
public struct InstancedGroup: Sendable, Equatable {
    /// The atlas page the group samples.
    public var page: Int32
    /// The blend mode the group draws with.
    public var blendMode: BlendMode
    /// The group's first index in `InstancedGeometry.indices`.
    public var indexStart: Int
    /// The group's number of indices.
    public var indexCount: Int
}

/// The static geometry of every image every slot of a skeleton can show, built once per
/// `SkeletonData` for the instanced path: each (slot, attachment, sequence frame) gets its
/// vertices as bone influences (bone, local x, local y, weight) and its triangles. Per instance only
/// bone transforms and per-slot state (shown variant, light and dark colour) change; the vertex
/// shader skins the vertices and collapses the triangles of variants a slot does not show.
///
/// Triangles are grouped by (page, blend mode), groups in order of first use in the setup draw
/// order, slots in setup order within a group. What this cannot express is listed in
/// `limitations`; a skeleton with none draws exactly like the CPU path.
public final class InstancedGeometry: Sendable {
    /// The draw tables the geometry was built from.
    public let drawData: SkeletonDrawData
    /// Every variant's vertices.
    public let vertices: [InstancedVertex]
    /// Four floats per influence: bone index, local x, local y, weight.
    public let influences: [Float]
    /// Triangles (three indices each) into ``vertices``, grouped as ``groups`` says.
    public let indices: [UInt32]
    /// The (page, blend mode) groups, in drawing order.
    public let groups: [InstancedGroup]
    /// Features that make instanced drawing differ from the CPU path (clipping, deform or draw
    /// order timelines, several page/blend groups); empty when the two agree.
    public let limitations: [String]

    /// Builds the static geometry of every variant of `drawData`'s skeleton.
    public init(_ drawData: SkeletonDrawData) {
        self.drawData = drawData
        let data = drawData.data
        var vertices: [InstancedVertex] = []
        var influences: [Float] = []
        var groupKeys: [(page: Int32, blend: BlendMode)] = []
        var groupIndices: [[UInt32]] = []
        var seen = Set<Int64>()
        var hasClipping = false

        // Which attachments each slot can show: every skin entry for that slot.
        var slotAttachments = [[Int32]](repeating: [], count: data.slots.count)
        for skin in data.skins {
            for entry in skin.entries where entry.slot >= 0 && Int(entry.slot) < data.slots.count {
                let key = Int64(entry.slot) << 32 | Int64(entry.attachment)
                if seen.insert(key).inserted { slotAttachments[Int(entry.slot)].append(entry.attachment) }
            }
        }

        for slot in data.slots.indices {
            let slotBone = Float(drawData.slotBones[slot])
            let blend = drawData.slotBlendModes[slot]
            for attachmentIndex in slotAttachments[slot] {
                let a = Int(attachmentIndex)
                guard a >= 0 && a < data.attachments.count else { continue }
                let attachment = data.attachments[a]
                if attachment.kind == .clipping { hasClipping = true }
                guard attachment.kind == .region || attachment.kind == .mesh else { continue }
                for frame in Int(attachment.firstFrame)..<Int(attachment.firstFrame + attachment.frameCount) {
                    guard frame >= 0 && frame < data.attachmentFrames.count else { continue }
                    let image = data.attachmentFrames[frame]
                    guard image.page >= 0 else { continue }
                    let base = UInt32(vertices.count)
                    func addVertex(_ u: Float, _ v: Float, _ list: [(Float, Float, Float, Float)]) {
                        vertices.append(
                            InstancedVertex(
                                u: u, v: v, slot: Int32(slot), variant: Int32(frame),
                                influenceStart: Int32(influences.count / 4), influenceCount: Int32(list.count)))
                        for (bone, x, y, weight) in list { influences += [bone, x, y, weight] }
                    }
                    var triangles: [UInt32] = []
                    if attachment.kind == .region {
                        // Corners BR, BL, UL, UR, matching the texture coordinates.
                        let o = image.offsets
                        let uv = image.uvs
                        for (corner, source) in [(0, 6), (1, 0), (2, 2), (3, 4)] {
                            addVertex(uv[corner * 2], uv[corner * 2 + 1], [(slotBone, o[source], o[source + 1], 1)])
                        }
                        triangles = [0, 1, 2, 2, 3, 0].map { base + $0 }
                    } else {
                        let count = attachment.vertexCount
                        let uvStart = Int(image.meshUVStart)
                        guard uvStart >= 0 && uvStart + count * 2 <= data.meshUVs.count else { continue }
                        let local = Self.influences(of: attachment, slotBone: slotBone)
                        guard local.count == count else { continue }
                        for k in 0..<count {
                            addVertex(data.meshUVs[uvStart + k * 2], data.meshUVs[uvStart + k * 2 + 1], local[k])
                        }
                        triangles = attachment.triangles.compactMap { Int($0) < count ? base + UInt32($0) : nil }
                        triangles.removeLast(triangles.count % 3)
                    }
                    let group: Int
                    if let existing = groupKeys.firstIndex(where: { $0.page == image.page && $0.blend == blend }) {
                        group = existing
                    } else {
                        group = groupKeys.count
                        groupKeys.append((image.page, blend))
                        groupIndices.append([])
                    }
                    groupIndices[group] += triangles
                }
            }
        }

        var indices: [UInt32] = []
        var groups: [InstancedGroup] = []
        for (k, key) in groupKeys.enumerated() where !groupIndices[k].isEmpty {
            groups.append(
                InstancedGroup(
                    page: key.page, blendMode: key.blend, indexStart: indices.count, indexCount: groupIndices[k].count))
            indices += groupIndices[k]
        }
        self.vertices = vertices
        self.influences = influences
        self.indices = indices
        self.groups = groups

        var always: [String] = []
        if hasClipping { always.append("clipping attachments are not clipped") }
        if groups.count > 1 {
            always.append("\(groups.count) page/blend groups are drawn one after another, not interleaved")
        }
        staticLimitations = always
        limitations = always + Self.timelineLimitations(data.animations)
    }

    /// What is not expressible regardless of the animation played.
    public let staticLimitations: [String]

    /// The limitations that matter while playing one animation (nil: the setup pose only).
    public func limitations(animation: Int?) -> [String] {
        guard let animation, animation >= 0, animation < drawData.data.animations.count else {
            return staticLimitations
        }
        return staticLimitations + Self.timelineLimitations([drawData.data.animations[animation]])
    }

    static func timelineLimitations(_ animations: [AnimationData]) -> [String] {
        let kinds = Set(animations.flatMap { $0.timelines.map(\.kind) })
        var result: [String] = []
        if kinds.contains(.deform) { result.append("deform timelines are not applied") }
        if kinds.contains(.drawOrder) { result.append("draw order timelines are not applied") }
        return result
    }

    /// Per vertex: its bone influences (bone, x, y, weight); unweighted vertices have one, on
    /// the slot's bone.
    static func influences(of attachment: AttachmentData, slotBone: Float) -> [[(Float, Float, Float, Float)]] {
        let count = attachment.vertexCount
        let vertices = attachment.vertices
        var result: [[(Float, Float, Float, Float)]] = []
        if attachment.bones.isEmpty {
            for k in 0..<count where k * 2 + 1 < vertices.count {
                result.append([(slotBone, vertices[k * 2], vertices[k * 2 + 1], 1)])
            }
            return result
        }
        var v = 0
        var b = 0
        let bones = attachment.bones
        while result.count < count && v < bones.count {
            let n = Int(bones[v])
            v += 1
            var list: [(Float, Float, Float, Float)] = []
            for _ in 0..<n where v < bones.count && b + 2 < vertices.count {
                list.append((Float(bones[v]), vertices[b], vertices[b + 1], vertices[b + 2]))
                v += 1
                b += 3
            }
            result.append(list)
        }
        return result
    }

    /// Floats per bone in the bone table: a, b, c, d, worldX, worldY.
    public static let boneFloats = 6
    /// 32-bit words per slot in the slot table: shown variant (`UInt32.max`: none), light colour
    /// and dark colour (RGBA8 each, red in the lowest byte), and one unused word (an RGBA32UI texel).
    public static let slotWords = 4

    /// Bytes one instance takes in the per-instance tables (bone table plus slot table).
    public var bytesPerInstance: Int {
        drawData.boneCount * Self.boneFloats * 4 + drawData.slotCount * Self.slotWords * 4
    }

    /// Fills one instance's rows of the per-instance tables: per bone `boneFloats` floats
    /// (a, b, c, d, worldX, worldY); per slot `slotWords` words (shown variant or `UInt32.max`, light
    /// and dark colour as packed 8-bit channels, 0). A slot shows nothing when the CPU path would
    /// skip it: no region or mesh attachment, inactive bone, slot or attachment alpha 0.
    public func writeInstance<Pose: PosedSkeleton>(
        _ pose: Pose, pages: PageBindings, bones: UnsafeMutablePointer<Float>, slots: UnsafeMutablePointer<UInt32>
    ) {
        pages.premultiplied.withUnsafeBufferPointer {
            writeInstance(pose, premultiplied: $0, bones: bones, slots: slots)
        }
    }

    /// The same, with the pages' premultiplied flags already at hand (no reference counting per
    /// instance).
    @inline(__always)
    func writeInstance<Pose: PosedSkeleton>(
        _ pose: Pose, premultiplied: UnsafeBufferPointer<Bool>, bones: UnsafeMutablePointer<Float>,
        slots: UnsafeMutablePointer<UInt32>
    ) {
        let d = drawData
        pose.writeBoneRows(d.boneCount, into: bones)
        let skeletonColor = pose.skeletonColor
        var slotRow = slots
        for slot in 0..<d.slotCount {
            let out = slotRow
            slotRow += Self.slotWords
            out[0] = .max
            out[1] = 0
            out[2] = 0
            out[3] = 0
            let attachment = pose.slotAttachment(slot)
            guard attachment >= 0 && attachment < d.attachmentCount else { continue }
            let kind = d.kinds[attachment]
            guard kind == .region || kind == .mesh, pose.isBoneActive(Int(d.slotBones[slot])) else { continue }
            let slotColor = pose.slotColor(slot)
            let attachmentColor = d.colors[attachment]
            guard slotColor.a != 0 && attachmentColor.a != 0 else { continue }
            let frame = d.frameIndex(attachment: attachment, sequenceIndex: pose.slotSequenceIndex(slot))
            guard frame >= 0 else { continue }
            let page = Int(d.framePages[frame])
            guard page >= 0 && page < premultiplied.count else { continue }
            let colors = SlotVertexColors(
                skeleton: skeletonColor, slot: slotColor, attachment: attachmentColor,
                dark: d.slotHasDark[slot] ? pose.slotDarkColor(slot) : nil, premultiplied: premultiplied[page])
            out[0] = UInt32(truncatingIfNeeded: frame)
            out[1] = colors.light
            out[2] = colors.dark
        }
    }
}
