import BoneworkFormat

/// An axis-aligned box in world space.
public struct WorldBounds: Equatable, Sendable {
    /// The minimum x.
    public var x: Float
    /// The minimum y.
    public var y: Float
    /// The extent along x.
    public var width: Float
    /// The extent along y.
    public var height: Float

    /// A box from its minimum corner and size.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension World {
    /// The box around an instance's current pose as the reference's `Skeleton::getBounds` with a
    /// clipper computes it: over the draw order, slots of inactive bones skipped, the world
    /// vertices of each region (4 corners) and mesh, clipped by the clipping attachments that
    /// cover them when `clipping` is on (a clipping attachment starts clipping at its slot and
    /// stops after its end slot; one whose end slot is its own slot clips nothing). Nil when no
    /// vertex counts (the reference then reports non-finite values).
    ///
    /// Reads the world transforms as they are (call after a frame or `updateWorldTransforms`);
    /// allocates its scratch: for application calls, not for every instance of a crowd per frame.
    public func bounds(_ entity: Entity, clipping: Bool = true) throws -> WorldBounds? {
        let (batch, row) = try locate(entity)
        let cols = batch.columns()
        let r = cols.rows(row)
        let t = batch.rig.tables
        let data = batch.data
        let view = try poseView(entity)
        var clipper = Clipper()
        let quad: [UInt16] = [0, 1, 2, 2, 3, 0]
        var vertices = [Float](repeating: 0, count: 8)
        var uvs = vertices
        var box = Box()
        for k in 0..<t.slotCount {
            let s = view.drawOrderSlot(k)
            guard view.isBoneActive(Int(t.slotBone[s])) else { continue }
            let attachment = view.slotAttachment(s)
            var count = 0
            var triangles: [UInt16] = []
            if attachment >= 0 {
                let a = data.attachments[attachment]
                switch a.kind {
                case .region, .mesh:
                    let capacity = Int(t.slotVertexOffset[s + 1] - t.slotVertexOffset[s])
                    if vertices.count < capacity { vertices = [Float](repeating: 0, count: capacity) }
                    let frame = SlotSystem.imageFrame(SlotColumns(cols), t, r, slot: s, attachment: attachment)
                    count = vertices.withUnsafeMutableBufferPointer {
                        VertexSystem.computeSlot(
                            VertexColumns(cols), t, r, slot: s, attachment: attachment, frame: frame,
                            into: $0.baseAddress!, capacity: capacity)
                    }
                    triangles = a.kind == .region ? quad : a.triangles
                case .clipping where clipping:
                    let n = Int(a.worldVerticesLength)
                    var polygon = [Float](repeating: 0, count: n)
                    polygon.withUnsafeMutableBufferPointer {
                        view.computeVertexAttachment(slot: s, attachment: attachment, into: $0)
                    }
                    clipper.clipStart(worldPolygon: polygon, endSlot: a.endSlot)
                default:
                    break
                }
            }
            if count > 0 {
                if clipper.isClipping {
                    if uvs.count < count { uvs = [Float](repeating: 0, count: count) }
                    vertices.withUnsafeBufferPointer { v in
                        uvs.withUnsafeBufferPointer { uv in
                            triangles.withUnsafeBufferPointer {
                                clipper.clipTriangles(
                                    vertices: UnsafeBufferPointer(rebasing: v[0..<count]), uvs: uv, triangles: $0)
                            }
                        }
                    }
                    box.add(clipper.clippedVertices, count: clipper.clippedVertices.count)
                } else {
                    box.add(vertices, count: count)
                }
            }
            clipper.clipEnd(slot: Int32(s))
        }
        guard box.minX <= box.maxX, box.minY <= box.maxY else { return nil }
        return WorldBounds(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }
}

/// The running extent of `x, y` pairs.
private struct Box {
    var minX = Float.greatestFiniteMagnitude
    var minY = Float.greatestFiniteMagnitude
    var maxX = -Float.greatestFiniteMagnitude
    var maxY = -Float.greatestFiniteMagnitude

    mutating func add(_ xy: [Float], count: Int) {
        var i = 0
        while i + 1 < count {
            minX = min(minX, xy[i])
            minY = min(minY, xy[i + 1])
            maxX = max(maxX, xy[i])
            maxY = max(maxY, xy[i + 1])
            i += 2
        }
    }
}
