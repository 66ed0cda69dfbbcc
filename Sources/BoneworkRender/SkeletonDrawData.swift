import BoneworkFormat

/// The parts of a `SkeletonData` that drawing reads, flattened once into frozen tables (plain
/// buffers of trivial values owned by this object) so that building a frame does no reference
/// counting and no nested-array access per slot: attachment kinds, colours, triangle ranges, image
/// frames, clip end slots, slot bones and blend modes. Immutable and shared by every instance.
public final class SkeletonDrawData: @unchecked Sendable {
    // @unchecked: every buffer is written once in init and only read afterwards.
    /// The skeleton data the tables were built from.
    public let data: SkeletonData

    // Per attachment.
    let kinds: UnsafeBufferPointer<AttachmentKind>
    let colors: UnsafeBufferPointer<Color>
    /// Range of the attachment's triangles in `triangles` (regions share the quad at 0).
    let triangleStarts: UnsafeBufferPointer<Int32>
    let triangleCounts: UnsafeBufferPointer<Int32>
    /// World vertex count (regions 4; vertex attachments worldVerticesLength / 2).
    let vertexCounts: UnsafeBufferPointer<Int32>
    let firstFrames: UnsafeBufferPointer<Int32>
    let frameCounts: UnsafeBufferPointer<Int32>
    /// The frame a sequence shows at sequence index -1 (0 without a sequence).
    let setupFrames: UnsafeBufferPointer<Int32>
    let endSlots: UnsafeBufferPointer<Int32>
    /// Every triangle list, flat: the region quad (0, 1, 2, 2, 3, 0) first, then each mesh's.
    let triangles: UnsafeBufferPointer<UInt16>

    // Per image frame (`SkeletonData.attachmentFrames`).
    let framePages: UnsafeBufferPointer<Int32>
    let frameOffsets: UnsafeBufferPointer<SIMD8<Float>>
    let frameUVs: UnsafeBufferPointer<SIMD8<Float>>
    let frameMeshUVStarts: UnsafeBufferPointer<Int32>
    let meshUVs: UnsafeBufferPointer<Float>

    // Per slot.
    let slotBones: UnsafeBufferPointer<Int32>
    let slotBlendModes: UnsafeBufferPointer<BlendMode>
    let slotHasDark: UnsafeBufferPointer<Bool>

    /// The largest world vertex buffer any attachment needs, in floats.
    public let maxVertexFloats: Int
    /// Slots in the skeleton.
    public var slotCount: Int { slotBones.count }
    /// Bones in the skeleton.
    public var boneCount: Int { data.bones.count }
    /// Attachments in the data, every skin's together.
    public var attachmentCount: Int { kinds.count }

    private let allocations: [UnsafeMutableRawPointer]

    /// Builds the tables once (allocating them; freed with the object).
    public init(_ data: SkeletonData) {
        self.data = data
        var allocations: [UnsafeMutableRawPointer] = []
        func freeze<T>(_ values: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
            _ = buffer.initialize(from: values)
            allocations.append(UnsafeMutableRawPointer(buffer.baseAddress!))
            return UnsafeBufferPointer(start: buffer.baseAddress, count: values.count)
        }
        var triangles: [UInt16] = [0, 1, 2, 2, 3, 0]
        var starts: [Int32] = []
        var counts: [Int32] = []
        var vertexCounts: [Int32] = []
        var maxFloats = 8
        for attachment in data.attachments {
            switch attachment.kind {
            case .region:
                starts.append(0)
                counts.append(6)
                vertexCounts.append(4)
            case .mesh:
                starts.append(Int32(triangles.count))
                counts.append(Int32(attachment.triangles.count))
                triangles.append(contentsOf: attachment.triangles)
                vertexCounts.append(Int32(attachment.vertexCount))
            default:
                starts.append(0)
                counts.append(0)
                vertexCounts.append(Int32(attachment.vertexCount))
            }
            maxFloats = max(maxFloats, Int(attachment.worldVerticesLength))
        }
        kinds = freeze(data.attachments.map(\.kind))
        colors = freeze(data.attachments.map(\.color))
        triangleStarts = freeze(starts)
        triangleCounts = freeze(counts)
        self.vertexCounts = freeze(vertexCounts)
        firstFrames = freeze(data.attachments.map(\.firstFrame))
        frameCounts = freeze(data.attachments.map(\.frameCount))
        setupFrames = freeze(data.attachments.map { $0.sequence?.setupIndex ?? 0 })
        endSlots = freeze(data.attachments.map(\.endSlot))
        self.triangles = freeze(triangles)
        framePages = freeze(data.attachmentFrames.map(\.page))
        frameOffsets = freeze(data.attachmentFrames.map(\.offsets))
        frameUVs = freeze(data.attachmentFrames.map(\.uvs))
        frameMeshUVStarts = freeze(data.attachmentFrames.map(\.meshUVStart))
        meshUVs = freeze(data.meshUVs)
        slotBones = freeze(data.slots.map(\.bone))
        slotBlendModes = freeze(data.slots.map(\.blendMode))
        slotHasDark = freeze(data.slots.map { $0.darkColor != nil })
        maxVertexFloats = maxFloats
        self.allocations = allocations
    }

    deinit {
        // Every table holds trivial values: releasing the memory is enough.
        for pointer in allocations { pointer.deallocate() }
    }

    /// The index in `data.attachmentFrames` of the image an attachment shows at a slot's sequence
    /// index (-1: the sequence's setup frame), clamped to its frames; -1 when it has none.
    @inline(__always)
    func frameIndex(attachment: Int, sequenceIndex: Int) -> Int {
        let count = Int(frameCounts[attachment])
        guard count > 0 else { return -1 }
        var index = sequenceIndex < 0 ? Int(setupFrames[attachment]) : sequenceIndex
        if index >= count { index = count - 1 }
        if index < 0 { index = 0 }
        let frame = Int(firstFrames[attachment]) + index
        return frame < framePages.count ? frame : -1
    }
}
