import BoneworkFormat
import BoneworkRender
import BoneworkWorld

/// Draws a skeleton's structure as an overlay (use it in `onAfterPaint`): bones, bounding boxes,
/// paths, clipping polygons and mesh hulls. Shapes come from the current world transforms
/// (bounding boxes, paths and clipping polygons without deform).
public struct DebugRenderer {
    /// Whether `draw` draws each bone as a line along its length, with a dot at its origin.
    public var drawBones = true
    /// Whether `draw` outlines the bounding box attachments shown in slots.
    public var drawBoundingBoxes = true
    /// Whether `draw` draws path attachments as polylines through their control points.
    public var drawPaths = true
    /// Whether `draw` outlines the clipping polygons shown in slots.
    public var drawClipping = true
    /// Whether `draw` outlines the hull (the first `hullLength` vertices) of each mesh attachment, with its deform applied.
    public var drawMeshHulls = true
    /// Colour of the bone lines (3 pixels wide).
    public var boneColor = Color(0.9, 0.3, 0.2, 1)
    /// Colour of the dot (5 pixels) at each bone's world origin.
    public var boneOriginColor = Color(0.2, 0.9, 0.3, 1)
    /// Colour of bounding box outlines.
    public var boundingBoxColor = Color(0, 0.8, 0.8, 1)
    /// Colour of path polylines.
    public var pathColor = Color(1, 0.5, 0, 1)
    /// Colour of clipping polygon outlines.
    public var clippingColor = Color(0.8, 0.2, 0.8, 1)
    /// Colour of mesh hull outlines (one pixel wide).
    public var hullColor = Color(0.3, 0.5, 1, 1)

    /// A renderer that draws every kind of shape in the default colours.
    public init() {}

    /// What the last `draw` drew, per kind.
    public struct Counts: Sendable, Equatable {
        /// Bones drawn (every bone when ``DebugRenderer/drawBones`` is on, none otherwise).
        public var bones = 0
        /// Bounding box attachments outlined.
        public var boundingBoxes = 0
        /// Path attachments drawn.
        public var paths = 0
        /// Clipping attachments outlined.
        public var clippingPolygons = 0
        /// Mesh attachments whose hull was outlined.
        public var meshHulls = 0

        /// No shapes counted yet.
        public init() {}
    }

    /// Draws the enabled shapes of `drawable`'s current pose onto `canvas`, in skeleton coordinates.
    ///
    /// Reads world transforms as they are now, so call it after the world transforms were updated
    /// (in `onAfterPaint`, or after `SkeletonDrawable.update(delta:)`).
    /// - Returns: How many shapes of each kind were drawn.
    /// - Throws: `WorldError.staleEntity` when the drawable's entity was despawned (after `dispose()`).
    @discardableResult
    public func draw(_ drawable: SkeletonDrawable, on canvas: SkeletonCanvas) throws -> Counts {
        var counts = Counts()
        let data = drawable.skeletonData
        let world = drawable.world
        let entity = drawable.entity
        var transforms: [BoneWorldTransform] = []
        for b in 0..<data.bones.count {
            transforms.append(try world.boneWorld(entity, bone: b))
        }
        for s in 0..<data.slots.count {
            let index = try world.slotAttachment(entity, slot: s)
            guard index >= 0 else { continue }
            let attachment = data.attachments[Int(index)]
            let wanted: Bool
            let color: Color
            switch attachment.kind {
            case .boundingBox: (wanted, color) = (drawBoundingBoxes, boundingBoxColor)
            case .path: (wanted, color) = (drawPaths, pathColor)
            case .clipping: (wanted, color) = (drawClipping, clippingColor)
            case .mesh: (wanted, color) = (drawMeshHulls, hullColor)
            default: (wanted, color) = (false, .white)
            }
            guard wanted, attachment.worldVerticesLength >= 4 else { continue }
            var output = [Float](repeating: 0, count: Int(attachment.worldVerticesLength))
            if attachment.kind == .mesh {
                let pose = try world.pose(entity)
                guard s < pose.vertices.count, let v = pose.vertices[s] else { continue }
                output = v
            } else {
                output.withUnsafeMutableBufferPointer { out in
                    VertexAttachmentMath.computeWorldVertices(
                        attachment, slotBone: Int(data.slots[s].bone),
                        deform: UnsafeBufferPointer(start: nil, count: 0),
                        bone: { $0 >= 0 && $0 < transforms.count ? transforms[$0] : .identity }, into: out)
                }
            }
            var points: [Point] = []
            var k = 0
            let limit = attachment.kind == .mesh ? min(output.count, Int(attachment.hullLength)) : output.count
            while k + 1 < limit {
                points.append(Point(x: output[k], y: output[k + 1]))
                k += 2
            }
            switch attachment.kind {
            case .path:
                for j in 0..<max(0, points.count - 1) { canvas.line(points[j], points[j + 1], color: color) }
                counts.paths += 1
            case .boundingBox:
                canvas.polygon(points, color: color)
                counts.boundingBoxes += 1
            case .clipping:
                canvas.polygon(points, color: color)
                counts.clippingPolygons += 1
            default:
                canvas.polygon(points, width: canvas.pixel, color: color)
                counts.meshHulls += 1
            }
        }
        if drawBones {
            for (b, bone) in data.bones.enumerated() {
                let t = transforms[b]
                let origin = Point(x: t.worldX, y: t.worldY)
                let length = bone.length > 0 ? bone.length : 0
                if length > 0 {
                    canvas.line(
                        origin, Point(x: t.worldX + t.a * length, y: t.worldY + t.c * length), width: canvas.pixel * 3,
                        color: boneColor)
                }
                canvas.dot(origin, size: 5, color: boneOriginColor)
                counts.bones += 1
            }
        }
        return counts
    }
}
