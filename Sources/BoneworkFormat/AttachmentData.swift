public enum AttachmentKind: UInt8, Sendable {
    case region = 0
    case boundingBox = 1
    case mesh = 2
    case path = 3
    case point = 4
    case clipping = 5
}

/// A sequence of images for a region or mesh attachment. Which frame shows is per-instance state
/// (a slot's sequence index); the data only describes the frames.
public struct SequenceData: Sendable, Equatable {
    /// Unique id, used by the format to tell sequences apart.
    public var id: Int32 = 0
    public var count: Int32 = 0
    public var start: Int32 = 1
    public var digits: Int32 = 0
    public var setupIndex: Int32 = 0

    public init(count: Int32, start: Int32 = 1, digits: Int32 = 0, setupIndex: Int32 = 0) {
        self.count = count
        self.start = start
        self.digits = digits
        self.setupIndex = setupIndex
    }

    /// The atlas path of frame `index`: base path + zero-padded (start + index).
    public func path(base: String, frame index: Int) -> String {
        var number = String(Int(start) + index)
        while number.count < Int(digits) { number = "0" + number }
        return base + number
    }
}

/// The image one attachment shows, resolved against the atlas at load time. Attachments without
/// a sequence have one frame; sequences have `count` frames.
public struct AttachmentFrame: Sendable, Equatable {
    /// Atlas region index, -1 when loaded without an atlas.
    public var region: Int32 = -1
    /// Atlas page index, -1 when loaded without an atlas.
    public var page: Int32 = -1
    /// Region attachments: the 8 local vertex offsets (BL, UL, UR, BR; x then y), as the
    /// reference's RegionAttachment::updateRegion computes them.
    public var offsets: SIMD8<Float> = .zero
    /// Region attachments: the 8 texture coordinates in the same corner order.
    public var uvs: SIMD8<Float> = .zero
    /// Mesh attachments: start of this frame's texture coordinates in `SkeletonData.meshUVs`
    /// (one u,v pair per vertex); -1 for other kinds.
    public var meshUVStart: Int32 = -1

    public init() {}
}

/// One attachment of one skin. All kinds share this value type; fields a kind does not use keep
/// their defaults. Vertex data uses the reference's layout so that skinning code can be checked
/// against it line by line.
public struct AttachmentData: Sendable, Equatable {
    public var name: String
    public var kind: AttachmentKind
    /// Atlas lookup path for region and mesh attachments (defaults to the name).
    public var path: String
    public var color: Color = .white
    public var sequence: SequenceData?

    // Region and point geometry.
    public var x: Float = 0
    public var y: Float = 0
    public var rotation: Float = 0
    public var scaleX: Float = 1
    public var scaleY: Float = 1
    public var width: Float = 0
    public var height: Float = 0

    // Vertex attachments (mesh, bounding box, path, clipping).
    /// Empty when unweighted. Weighted: for each vertex, a bone count n followed by n bone indices.
    public var bones: [Int32] = []
    /// Unweighted: x,y per vertex. Weighted: x,y,weight per bone influence.
    public var vertices: [Float] = []
    /// Number of floats the world vertices take (2 per vertex).
    public var worldVerticesLength: Int32 = 0
    /// The attachment whose deform timelines drive this one (itself, or a linked mesh's parent).
    public var timelineAttachment: Int32 = -1

    // Meshes.
    public var regionUVs: [Float] = []
    public var triangles: [UInt16] = []
    public var hullLength: Int32 = 0
    public var edges: [UInt16] = []
    /// Linked meshes: the attachment index of the parent mesh; -1 otherwise.
    public var parentMesh: Int32 = -1

    // Paths.
    public var closed = false
    public var constantSpeed = false
    public var lengths: [Float] = []

    // Clipping.
    /// The slot index where clipping ends; -1 when it runs to the end of the draw order.
    public var endSlot: Int32 = -1

    /// Resolved images: a range in `SkeletonData.attachmentFrames` (1 frame, or the sequence's count).
    public var firstFrame: Int32 = 0
    public var frameCount: Int32 = 0

    public init(name: String, kind: AttachmentKind, path: String? = nil) {
        self.name = name
        self.kind = kind
        self.path = path ?? name
    }

    public var isWeighted: Bool { !bones.isEmpty }
    public var isLinkedMesh: Bool { parentMesh >= 0 }
    /// Vertex count of a vertex attachment.
    public var vertexCount: Int { Int(worldVerticesLength) / 2 }
}
