/// What an attachment is (same raw values as the binary format); decides which fields of
/// ``AttachmentData`` it uses.
public enum AttachmentKind: UInt8, Sendable {
    /// A textured rectangle placed by x, y, rotation, scale, width and height.
    case region = 0
    /// A polygon that is never drawn, for hit tests and physics bodies in the application.
    case boundingBox = 1
    /// A textured triangle mesh, optionally weighted to several bones and deformable.
    case mesh = 2
    /// A cubic bezier spline that path constraints follow; never drawn.
    case path = 3
    /// A single position and rotation (a muzzle, a hand), never drawn.
    case point = 4
    /// A polygon that clips the slots drawn after it, up to its ``AttachmentData/endSlot``.
    case clipping = 5
}

/// A sequence of images for a region or mesh attachment. Which frame shows is per-instance state
/// (a slot's sequence index); the data only describes the frames.
public struct SequenceData: Sendable, Equatable {
    /// Unique id, used by the format to tell sequences apart.
    public var id: Int32 = 0
    /// Number of frames (images) in the sequence.
    public var count: Int32 = 0
    /// The number in the atlas path of frame 0 (frame `i` is named with `start + i`).
    public var start: Int32 = 1
    /// Minimum digits of the frame number in the atlas path, zero-padded (0 = no padding).
    public var digits: Int32 = 0
    /// The frame shown in the setup pose, 0..<count.
    public var setupIndex: Int32 = 0

    /// A sequence of `count` frames; `id` stays 0 until a reader assigns one.
    /// - Parameters:
    ///   - count: The number of frames.
    ///   - start: The number in the path of the first frame.
    ///   - digits: The minimum width of that number, zero-padded.
    ///   - setupIndex: The frame shown in the setup pose.
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

    /// A frame resolved against no atlas: no region or page, zero offsets and coordinates.
    public init() {}
}

/// One attachment of one skin. All kinds share this value type; fields a kind does not use keep
/// their defaults. Vertex data uses the reference's layout so that skinning code can be checked
/// against it line by line.
public struct AttachmentData: Sendable, Equatable {
    /// The attachment's name within its skin placeholder (what ``SkinEntry/name`` interns).
    public var name: String
    /// What the attachment is; decides which of the fields below it uses.
    public var kind: AttachmentKind
    /// Atlas lookup path for region and mesh attachments (defaults to the name).
    public var path: String
    /// Tint multiplied with the slot's colour (region, mesh); the editor colour for the undrawn kinds.
    public var color: Color = .white
    /// The image sequence of a region or mesh attachment; nil when it shows a single image.
    public var sequence: SequenceData?

    // Region and point geometry.
    /// Region and point: x offset from the slot's bone, in skeleton units.
    public var x: Float = 0
    /// Region and point: y offset from the slot's bone, in skeleton units.
    public var y: Float = 0
    /// Region and point: rotation relative to the slot's bone, in degrees.
    public var rotation: Float = 0
    /// Region: scale along the attachment's x axis.
    public var scaleX: Float = 1
    /// Region: scale along the attachment's y axis.
    public var scaleY: Float = 1
    /// Region: width in skeleton units (the image's original width unless resized in the editor);
    /// meshes keep it as nonessential data.
    public var width: Float = 0
    /// Region: height in skeleton units; meshes keep it as nonessential data.
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
    /// Texture coordinates of each vertex within its atlas region, u,v pairs in 0...1 (before the
    /// region's page placement is applied, which ``AttachmentFrame/meshUVStart`` holds).
    public var regionUVs: [Float] = []
    /// Vertex indices, three per triangle, in the order they are drawn.
    public var triangles: [UInt16] = []
    /// Number of vertices on the mesh's outer hull, which come first (editor data; not used to draw).
    public var hullLength: Int32 = 0
    /// Editor-only wireframe edges (nonessential data) as pairs of vertex references; empty when not
    /// exported.
    public var edges: [UInt16] = []
    /// Linked meshes: the attachment index of the parent mesh; -1 otherwise.
    public var parentMesh: Int32 = -1

    // Paths.
    /// Whether the path's last point joins its first.
    public var closed = false
    /// Whether positions along the path are measured by arc length (true), or per curve segment so
    /// that bones move faster on longer segments (false).
    public var constantSpeed = false
    /// The length of each curve of the path, in skeleton units, one per three vertices.
    public var lengths: [Float] = []

    // Clipping.
    /// The slot index where clipping ends; -1 when it runs to the end of the draw order.
    public var endSlot: Int32 = -1

    /// Resolved images: a range in `SkeletonData.attachmentFrames` (1 frame, or the sequence's count).
    public var firstFrame: Int32 = 0
    /// Number of entries from ``firstFrame`` in `SkeletonData.attachmentFrames`: 1, the sequence's
    /// count, or 0 for kinds without an image.
    public var frameCount: Int32 = 0

    /// An attachment with default geometry and no vertices; the reader fills in what its kind uses.
    /// - Parameters:
    ///   - name: The attachment's name in its skin.
    ///   - kind: What the attachment is.
    ///   - path: The atlas lookup path; nil uses `name`.
    public init(name: String, kind: AttachmentKind, path: String? = nil) {
        self.name = name
        self.kind = kind
        self.path = path ?? name
    }

    /// Whether the vertices are bound to several bones with weights (``bones`` is not empty)
    /// rather than positioned relative to the slot's bone.
    public var isWeighted: Bool { !bones.isEmpty }
    /// Whether this is a linked mesh sharing a parent mesh's geometry (``parentMesh`` is set).
    public var isLinkedMesh: Bool { parentMesh >= 0 }
    /// Vertex count of a vertex attachment.
    public var vertexCount: Int { Int(worldVerticesLength) / 2 }
}
