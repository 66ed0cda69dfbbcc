import BoneworkFormat
import BoneworkWorld

/// A posed instance the GPU path can draw: a `PosedSkeleton` that also hands out each slot's
/// deform offsets, so that deformed meshes are skinned on the GPU from the same numbers the CPU
/// path uses.
public protocol DeformedPose: PosedSkeleton, SendableMetatype {
    /// The slot's deform offsets (empty when none is applied): for an unweighted mesh its vertex
    /// positions (`x, y` each, replacing the setup ones); for a weighted mesh an `x, y` offset per
    /// bone influence, in the attachment's influence order.
    func deform(slot: Int) -> UnsafeBufferPointer<Float>
    /// Copies the drawing inputs of slots `0..<count` into `states` (`count` entries) in one
    /// call and returns true, or returns false when the pose has no such bulk read (the default):
    /// the caller then asks the per-slot accessors. The engine's `PoseView` copies its columns.
    func readSlots(_ count: Int, into states: UnsafeMutablePointer<SlotDrawState>) -> Bool
    /// Copies at most `capacity` entries of the draw order into `order`: how many were written and
    /// whether they are the setup order.
    func readDrawOrder(_ capacity: Int, into order: UnsafeMutablePointer<Int32>) -> (count: Int, setup: Bool)
}

extension DeformedPose {
    /// No bulk read: false (the caller asks the per-slot accessors).
    public func readSlots(_ count: Int, into states: UnsafeMutablePointer<SlotDrawState>) -> Bool { false }

    /// Reads the draw order through `drawOrderSlot`.
    public func readDrawOrder(_ capacity: Int, into order: UnsafeMutablePointer<Int32>) -> (count: Int, setup: Bool) {
        let n = min(capacity, drawOrderCount)
        var setup = true
        for k in 0..<n {
            let slot = Int32(truncatingIfNeeded: drawOrderSlot(k))
            order[k] = slot
            setup = setup && slot == Int32(truncatingIfNeeded: k)
        }
        return (n, setup)
    }
}

/// The static geometry of every image every slot of one skeleton can show, built once per
/// `SkeletonDrawData` for the GPU path (no GL): vertices as bone influences, triangles as corner
/// lists (three vertex indices each) laid out slot by slot in setup order, so that any run of
/// consecutive slots is one range of corners. Per character and frame only bone transforms, slot
/// state and deform offsets change (`GPUFrame`); the vertex shader skins the vertices and collapses
/// the triangles of images a slot does not show.
///
/// Vertex record (8 words): u, v (float bits), slot, variant (a `SkeletonData.attachmentFrames`
/// index), first influence, influence count, `meta` (page | blend mode << 16 | weighted << 18),
/// first deform float (offset within the slot's deform offsets).
public final class GPUSkeletonGeometry: Sendable {
    /// The draw tables the geometry was built from.
    public let drawData: SkeletonDrawData
    /// Eight words per vertex (see the type's documentation); influence indices are local.
    let vertexWords: [UInt32]
    /// Four floats per influence: bone index, local x, local y, weight.
    let influences: [Float]
    /// Local vertex index per triangle corner, slot by slot in setup order.
    let corners: [UInt32]
    /// Per slot: its first corner; `slotCount + 1` entries (the last is the corner count).
    let slotCornerStarts: [Int32]
    /// Per slot: its first float in a character's deform area, -1 when no timeline deforms it.
    let slotDeformStarts: [Int32]
    /// Per attachment: deform floats a full deform has (unweighted: the world vertex length;
    /// weighted: two per influence); 0 for attachments that are not meshes.
    let attachmentDeformLengths: [Int32]
    /// Per attachment: whether its vertices are weighted (a full deform offsets them; an
    /// unweighted mesh's deform replaces them).
    let attachmentWeighted: [Bool]
    /// Deform floats per character (every deformed slot's largest mesh).
    public let deformFloats: Int
    /// What the vertex shader reads of each attachment when it derives a slot's state from a
    /// batch's columns (`GPURenderer.draw(batches:rows:kinds:viewport:)`), 8 words per attachment:
    /// flags (1 region or mesh, 2 weighted) | full deform length << 2, first frame, frame count,
    /// setup frame (sequence index -1), then its colour r, g, b, a (float bits).
    let columnAttachments: [UInt32]
    /// Slots that some skin lets show a clipping attachment: a character showing one is packed on
    /// the CPU (its clip is cut there), the others are drawn from their columns.
    let clipSlots: [Int32]
    /// Whether some slot blends as multiply (on a straight-alpha page that needs a blend state of
    /// its own, so such kinds are packed on the CPU).
    let hasMultiplySlot: Bool
    /// The convex parts of every clipping attachment the GPU can clip with (one bound to a single
    /// bone: its parts are the same in bone space every frame), 5 texels (20 words) per part: the
    /// vertex count (at most `maxClipEdges`), then 8 vertices `x, y` (float bits) in the bone's
    /// space. Clipping a slot then draws it once per part with that part's edges as clip planes
    /// (`gl_ClipDistance`): the union of the pieces, as the CPU path's clipper cuts them.
    let clipParts: [UInt32]
    /// Per attachment: its first part in `clipParts` (in parts) and how many it has; -1 when the
    /// GPU does not clip with it (not a clipping attachment, or weighted to several bones).
    let clipPartStarts: [Int32]
    let clipPartCounts: [Int32]
    /// The one slot whose clipping attachments the GPU clips with, -1 when characters showing a
    /// clip are packed and clipped on the CPU (several clip slots, or a clipping attachment
    /// weighted to several bones).
    let gpuClipSlot: Int32
    /// Edges of a part at most: the clip planes a vertex shader writes (GL guarantees 8).
    static let maxClipEdges = 8
    /// Parts of one clip at most (one instance each, `GPURenderer` draws a clipped run with one
    /// command); a clipping attachment with more is clipped on the CPU.
    static let maxClipParts = 256
    /// Words per part in `clipParts`.
    static let clipPartWords = 20
    /// Atlas pages the images sample (page indices in vertex records are below it).
    public let pageCount: Int

    /// Floats per bone in the bone table: a, b, c, d, worldX, worldY.
    public static let boneFloats = 6
    /// Words per slot in the slot table: shown variant (`UInt32.max`: none), light colour, dark
    /// colour (RGBA8 each, red in the lowest byte), first deform float in the frame's deform
    /// table (`UInt32.max`: none).
    public static let slotWords = 4
    /// Words per vertex record.
    static let vertexWordCount = 8

    /// Vertices in the geometry.
    public var vertexCount: Int { vertexWords.count / Self.vertexWordCount }
    /// Triangle corners in the geometry (three per triangle).
    public var cornerCount: Int { corners.count }
    /// Floats one character takes in the bone table, padded to whole 4-float texels.
    public var boneTableFloats: Int { (drawData.boneCount * Self.boneFloats + 3) & ~3 }
    /// Bytes one character writes per frame: bone, slot and deform tables and its character record.
    public var bytesPerCharacter: Int {
        boneTableFloats * 4 + drawData.slotCount * Self.slotWords * 4 + deformFloats * 4 + GPUFrame.recordWords * 4
    }

    /// Builds the geometry of every (slot, attachment, sequence frame) a skin can put in a slot.
    public init(_ drawData: SkeletonDrawData) {
        self.drawData = drawData
        let data = drawData.data
        let slotCount = drawData.slotCount
        var vertexWords: [UInt32] = []
        var influences: [Float] = []
        var corners: [UInt32] = []
        var slotCornerStarts: [Int32] = []
        var seen = Set<Int64>()
        var slotAttachments = [[Int32]](repeating: [], count: slotCount)
        for skin in data.skins {
            for entry in skin.entries where entry.slot >= 0 && Int(entry.slot) < slotCount {
                let key = Int64(entry.slot) << 32 | Int64(entry.attachment)
                if seen.insert(key).inserted { slotAttachments[Int(entry.slot)].append(entry.attachment) }
            }
        }
        var deformed = [Bool](repeating: false, count: slotCount)
        for animation in data.animations {
            for timeline in animation.timelines where timeline.kind == .deform {
                if timeline.target >= 0 && Int(timeline.target) < slotCount { deformed[Int(timeline.target)] = true }
            }
        }
        var deformLengths = [Int32](repeating: 0, count: data.attachments.count)
        var weighted = [Bool](repeating: false, count: data.attachments.count)
        for (a, attachment) in data.attachments.enumerated() where attachment.kind == .mesh {
            weighted[a] = !attachment.bones.isEmpty
            deformLengths[a] =
                attachment.bones.isEmpty ? attachment.worldVerticesLength : Int32(attachment.vertices.count / 3 * 2)
        }
        var slotDeformStarts = [Int32](repeating: -1, count: slotCount)
        var deformFloats = 0
        var pageCount = 0

        for slot in 0..<slotCount {
            slotCornerStarts.append(Int32(corners.count))
            let slotBone = Float(drawData.slotBones[slot])
            let blend = UInt32(Self.blendCode(drawData.slotBlendModes[slot]))
            var deformCapacity = 0
            for attachmentIndex in slotAttachments[slot] {
                let a = Int(attachmentIndex)
                guard a >= 0 && a < data.attachments.count else { continue }
                let attachment = data.attachments[a]
                guard attachment.kind == .region || attachment.kind == .mesh else { continue }
                if attachment.kind == .mesh { deformCapacity = max(deformCapacity, Int(deformLengths[a])) }
                let first = Int(drawData.firstFrames[a])
                for frame in first..<(first + Int(drawData.frameCounts[a])) {
                    guard frame >= 0 && frame < drawData.framePages.count else { continue }
                    let page = Int(drawData.framePages[frame])
                    guard page >= 0 && page < 0xFFFF else { continue }
                    pageCount = max(pageCount, page + 1)
                    let base = UInt32(vertexWords.count / Self.vertexWordCount)
                    let meta = UInt32(page) | blend << 16 | (weighted[a] ? 1 << 18 : 0)
                    func addVertex(_ u: Float, _ v: Float, _ list: [(Float, Float, Float, Float)], deform: Int) {
                        vertexWords += [
                            u.bitPattern, v.bitPattern, UInt32(slot), UInt32(frame),
                            UInt32(influences.count / 4), UInt32(list.count), meta, UInt32(deform),
                        ]
                        for (bone, x, y, weight) in list { influences += [bone, x, y, weight] }
                    }
                    let triangleStart = Int(drawData.triangleStarts[a])
                    let triangles = drawData.triangles[
                        triangleStart..<(triangleStart + Int(drawData.triangleCounts[a]))]
                    var vertexCount = 0
                    if attachment.kind == .region {
                        // Corners BR, BL, UL, UR, matching the texture coordinates and the CPU path.
                        let o = drawData.frameOffsets[frame]
                        let uv = drawData.frameUVs[frame]
                        for (corner, source) in [(0, 6), (1, 0), (2, 2), (3, 4)] {
                            addVertex(
                                uv[corner * 2], uv[corner * 2 + 1], [(slotBone, o[source], o[source + 1], 1)],
                                deform: 0)
                        }
                        vertexCount = 4
                    } else {
                        let count = Int(drawData.vertexCounts[a])
                        let uvStart = Int(drawData.frameMeshUVStarts[frame])
                        guard uvStart >= 0 && uvStart + count * 2 <= drawData.meshUVs.count else { continue }
                        let local = InstancedGeometry.influences(of: attachment, slotBone: slotBone)
                        guard local.count == count else { continue }
                        var deform = 0
                        for k in 0..<count {
                            addVertex(
                                drawData.meshUVs[uvStart + k * 2], drawData.meshUVs[uvStart + k * 2 + 1], local[k],
                                deform: deform)
                            deform += 2 * local[k].count
                        }
                        vertexCount = count
                    }
                    var t = triangles.startIndex
                    while t + 2 < triangles.endIndex {
                        let i1 = Int(triangles[t])
                        let i2 = Int(triangles[t + 1])
                        let i3 = Int(triangles[t + 2])
                        t += 3
                        guard i1 < vertexCount, i2 < vertexCount, i3 < vertexCount else { continue }
                        corners += [base + UInt32(i1), base + UInt32(i2), base + UInt32(i3)]
                    }
                }
            }
            if deformed[slot] && deformCapacity > 0 {
                slotDeformStarts[slot] = Int32(deformFloats)
                deformFloats += deformCapacity
            }
        }
        slotCornerStarts.append(Int32(corners.count))
        var columnAttachments: [UInt32] = []
        columnAttachments.reserveCapacity(data.attachments.count * 8)
        for (a, attachment) in data.attachments.enumerated() {
            let drawn: UInt32 = attachment.kind == .region || attachment.kind == .mesh ? 1 : 0
            let color = drawData.colors[a]
            columnAttachments += [
                drawn | (weighted[a] ? 2 : 0) | UInt32(max(0, deformLengths[a])) << 2,
                UInt32(bitPattern: drawData.firstFrames[a]), UInt32(bitPattern: drawData.frameCounts[a]),
                UInt32(bitPattern: drawData.setupFrames[a]), color.r.bitPattern, color.g.bitPattern,
                color.b.bitPattern, color.a.bitPattern,
            ]
        }
        self.columnAttachments = columnAttachments
        clipSlots = (0..<slotCount).filter { slot in
            slotAttachments[slot].contains { a in
                a >= 0 && Int(a) < data.attachments.count && data.attachments[Int(a)].kind == .clipping
            }
        }.map { Int32($0) }
        hasMultiplySlot = (0..<slotCount).contains { drawData.slotBlendModes[$0] == .multiply }
        let (parts, partStarts, partCounts) = Self.clipParts(data)
        (clipParts, clipPartStarts, clipPartCounts) = (parts, partStarts, partCounts)
        // The GPU clips characters of kinds with one slot that shows clipping attachments, every
        // one of which it can clip with.
        let slotsShowingClips = clipSlots
        if slotsShowingClips.count == 1,
            slotAttachments[Int(slotsShowingClips[0])].allSatisfy({ a in
                a < 0 || Int(a) >= data.attachments.count || data.attachments[Int(a)].kind != .clipping
                    || partStarts[Int(a)] >= 0
            })
        {
            gpuClipSlot = slotsShowingClips[0]
        } else {
            gpuClipSlot = -1
        }
        self.vertexWords = vertexWords
        self.influences = influences
        self.corners = corners
        self.slotCornerStarts = slotCornerStarts
        self.slotDeformStarts = slotDeformStarts
        self.attachmentDeformLengths = deformLengths
        self.attachmentWeighted = weighted
        self.deformFloats = deformFloats
        self.pageCount = pageCount
    }

    /// The convex parts of each single-bone clipping attachment in its bone's space, each at most
    /// `maxClipEdges` vertices (a larger convex part is cut into a fan of smaller ones, which covers
    /// the same area), and where each attachment's parts start.
    static func clipParts(_ data: SkeletonData) -> (parts: [UInt32], starts: [Int32], counts: [Int32]) {
        var words: [UInt32] = []
        var starts = [Int32](repeating: -1, count: data.attachments.count)
        var counts = [Int32](repeating: 0, count: data.attachments.count)
        var decomposer = ConvexDecomposer()
        for (a, attachment) in data.attachments.enumerated()
        where attachment.kind == .clipping && attachment.bones.isEmpty {
            var polygon = Array(attachment.vertices.prefix(Int(attachment.worldVerticesLength) & ~1))
            guard polygon.count == Int(attachment.worldVerticesLength) & ~1 else { continue }
            // Clockwise, as the clipper decomposes (the parts' union does not depend on it).
            var area: Float = 0
            let n = polygon.count / 2
            for i in 0..<n {
                let j = (i + 1) % n
                area += polygon[i * 2] * polygon[j * 2 + 1] - polygon[j * 2] * polygon[i * 2 + 1]
            }
            if area > 0 {
                var reversed: [Float] = []
                for i in stride(from: n - 1, through: 0, by: -1) { reversed += [polygon[i * 2], polygon[i * 2 + 1]] }
                polygon = reversed
            }
            let firstWord = words.count
            starts[a] = Int32(words.count / clipPartWords)
            polygon.withUnsafeBufferPointer { decomposer.decompose($0) }
            defer {
                if counts[a] > maxClipParts {
                    words.removeSubrange(firstWord...)
                    starts[a] = -1
                    counts[a] = 0
                }
            }
            for k in 0..<decomposer.partCount {
                let part = Array(decomposer.partVertices[decomposer.partRange(k)])
                let count = part.count / 2
                guard count >= 3 else { continue }
                // A fan of pieces of at most maxClipEdges vertices: v0 with each run of the rest.
                var first = 1
                while first < count - 1 {
                    let last = min(first + maxClipEdges - 2, count - 1)
                    var piece: [Float] = [part[0], part[1]]
                    for v in first...last { piece += [part[v * 2], part[v * 2 + 1]] }
                    var record = [UInt32](repeating: 0, count: clipPartWords)
                    record[0] = UInt32(piece.count / 2)
                    for (i, value) in piece.enumerated() { record[4 + i] = value.bitPattern }
                    words += record
                    counts[a] += 1
                    first = last
                }
            }
        }
        return (words, starts, counts)
    }

    /// The blend mode's code in vertex records and the fragment shader: normal 0, additive 1,
    /// multiply 2, screen 3.
    static func blendCode(_ mode: BlendMode) -> Int {
        switch mode {
        case .normal: 0
        case .additive: 1
        case .multiply: 2
        case .screen: 3
        }
    }
}
