import BoneworkFormat

/// World positions of the attachments that are never drawn but that game code asks about:
/// bounding box polygons (hit areas) and point attachments (muzzles, hands, spawn points).
/// They are computed on demand from the instance's current world transforms (as of the last
/// frame or `updateWorldTransforms`), never stored.

/// A bounding box attachment shown by one slot, as a world-space polygon.
public struct BoundingBoxPolygon: Equatable, Sendable {
    /// The slot showing the bounding box.
    public var slot: Int
    /// Index into `SkeletonData.attachments`.
    public var attachment: Int
    /// x, y per vertex, in world space.
    public var vertices: [Float]

    /// A polygon shown by `slot`.
    public init(slot: Int, attachment: Int, vertices: [Float]) {
        self.slot = slot
        self.attachment = attachment
        self.vertices = vertices
    }

    /// Whether (x, y) lies inside the polygon (even-odd rule, as the reference's bounds test).
    public func contains(x: Float, y: Float) -> Bool {
        vertices.withUnsafeBufferPointer { BoundingBoxPolygon.contains($0, x: x, y: y) }
    }

    /// Even-odd point-in-polygon test over x, y pairs.
    ///
    /// # Safety
    /// `polygon` must hold an even number of floats (a trailing odd one is ignored).
    public static func contains(_ polygon: UnsafeBufferPointer<Float>, x: Float, y: Float) -> Bool {
        let n = polygon.count & ~1
        guard n >= 6 else { return false }
        var prevIndex = n - 2
        var inside = false
        var i = 0
        while i < n {
            let vertexY = polygon[i + 1]
            let prevY = polygon[prevIndex + 1]
            if (vertexY < y && prevY >= y) || (prevY < y && vertexY >= y) {
                let vertexX = polygon[i]
                if vertexX + (y - vertexY) / (prevY - vertexY) * (polygon[prevIndex] - vertexX) < x {
                    inside = !inside
                }
            }
            prevIndex = i
            i += 2
        }
        return inside
    }
}

/// A point attachment shown by one slot, in world space.
public struct PointAttachmentPosition: Equatable, Sendable {
    /// The slot showing the point.
    public var slot: Int
    /// Index into `SkeletonData.attachments`.
    public var attachment: Int
    /// World x.
    public var x: Float
    /// World y.
    public var y: Float
    /// World rotation in degrees.
    public var rotation: Float

    /// A point attachment's world position and rotation.
    public init(slot: Int, attachment: Int, x: Float, y: Float, rotation: Float) {
        self.slot = slot
        self.attachment = attachment
        self.x = x
        self.y = y
        self.rotation = rotation
    }
}

/// World positions of a vertex attachment (bounding box, path, clipping, mesh) for one
/// instance: the slot bone's transform when unweighted, the weighted bones otherwise, with the
/// slot's deform offsets when it has any. Float operations follow the reference.
///
/// `VertexSystem.computeSlot` computes the same positions for drawn meshes with its own loops, on
/// purpose: this type serves any sub-range (`start`, `count`: path curves read a few vertices,
/// bounds and hit tests read whole polygons) on demand, with the deform choice made per
/// influence, while the vertex system runs every frame over every drawn mesh and keeps one loop
/// per case (deformed or not, whole attachments only). Both follow the reference's operation
/// order, so their results are bit-identical; the pose and render conformance tests check both.
struct AttachmentWorldVertices {
    let cols: AttachmentColumns
    let r: InstanceRows
    let vertices: UnsafePointer<Float>
    /// [n, bone * n] per vertex; nil when unweighted.
    let bones: UnsafePointer<Int32>?
    let deform: UnsafePointer<Float>?
    let slotBone: Int

    @inline(__always)
    init(_ cols: AttachmentColumns, _ rig: RigTables, _ r: InstanceRows, slot: Int, attachment: Int) {
        self.cols = cols
        self.r = r
        vertices = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
        bones = rig.attachmentBoneCount[attachment] > 0 ? rig.bonePool + Int(rig.attachmentBoneStart[attachment]) : nil
        let hasDeform = cols.deformLength(rig, r, slot: slot) > 0
        deform = hasDeform ? cols.deform + (r.deform &+ Int(rig.slotDeformOffset[slot])) : nil
        slotBone = Int(rig.slotBone[slot])
    }

    /// Writes the world positions of vertex floats `start ..< start + count` to `out[offset...]`.
    @inline(__always)
    func compute(start: Int, count: Int, into out: UnsafeMutablePointer<Float>, offset: Int) {
        let end = offset &+ count
        guard let bones else {
            let source = deform.map { UnsafePointer($0) } ?? vertices
            let bi = r.bone(slotBone)
            let x = cols.worldX[bi]
            let y = cols.worldY[bi]
            let a = cols.a[bi]
            let b = cols.b[bi]
            let c = cols.c[bi]
            let d = cols.d[bi]
            var v = start
            var w = offset
            while w < end {
                let vx = source[v]
                let vy = source[v &+ 1]
                out[w] = vx * a + vy * b + x
                out[w &+ 1] = vx * c + vy * d + y
                v &+= 2
                w &+= 2
            }
            return
        }
        var v = 0
        var skip = 0
        var i = 0
        while i < start {
            let n = Int(bones[v])
            v &+= n &+ 1
            skip &+= n
            i &+= 2
        }
        var b = skip &* 3
        var f = skip &<< 1
        var w = offset
        while w < end {
            var wx: Float = 0
            var wy: Float = 0
            var n = Int(bones[v])
            v &+= 1
            n &+= v
            while v < n {
                let bi = r.bone(Int(bones[v]))
                var vx = vertices[b]
                var vy = vertices[b &+ 1]
                if let deform {
                    vx = vx + deform[f]
                    vy = vy + deform[f &+ 1]
                }
                let weight = vertices[b &+ 2]
                wx += (vx * cols.a[bi] + vy * cols.b[bi] + cols.worldX[bi]) * weight
                wy += (vx * cols.c[bi] + vy * cols.d[bi] + cols.worldY[bi]) * weight
                v &+= 1
                b &+= 3
                f &+= 2
            }
            out[w] = wx
            out[w &+ 1] = wy
            w &+= 2
        }
    }
}

extension Batch {
    /// Whether slot `slot` of row `row` is updated under the row's skin.
    private func slotIsActive(_ cols: AttachmentColumns, row: Int, slot: Int) -> Bool {
        let t = rig.tables
        let plan = Int(cols.plan[row])
        return t.planBoneActive[plan &* t.boneCount &+ Int(t.slotBone[slot])] != 0
    }

    /// Writes the world polygon of the bounding box that slot `slot` of row `row` shows into
    /// `out` (x, y per vertex) and returns the number of floats written; nil when the slot shows
    /// no bounding box, its bone is inactive, or `out` is too small. Does not allocate.
    ///
    /// # Safety
    /// Writes only inside `out` (rows and slots out of range, or too small a buffer, give nil).
    public func boundingBoxVertices(row: Int, slot: Int, into out: UnsafeMutableBufferPointer<Float>) -> Int? {
        guard row >= 0, row < count, slot >= 0, slot < rig.slotCount, let base = out.baseAddress else { return nil }
        let cols = AttachmentColumns(columns())
        guard slotIsActive(cols, row: row, slot: slot) else { return nil }
        let r = cols.rows(row)
        let t = rig.tables
        let attachment = Int(cols.attachment[r.slot(slot)])
        guard attachment >= 0, t.attachmentKindRaw[attachment] == AttachmentKind.boundingBox.rawValue else {
            return nil
        }
        let length = Int(t.attachmentWorldLength[attachment])
        guard length <= out.count else { return nil }
        AttachmentWorldVertices(cols, t, r, slot: slot, attachment: attachment)
            .compute(start: 0, count: length, into: base, offset: 0)
        return length
    }

    /// Every bounding box row `row` shows, in slot order, as world polygons (allocates).
    public func boundingBoxes(row: Int) -> [BoundingBoxPolygon] {
        guard row >= 0, row < count else { return [] }
        let cols = columns()
        let r = cols.rows(row)
        let t = rig.tables
        var result: [BoundingBoxPolygon] = []
        for slot in 0..<t.slotCount {
            let attachment = Int(cols.attachment[r.slot(slot)])
            guard attachment >= 0, t.attachmentKindRaw[attachment] == AttachmentKind.boundingBox.rawValue else {
                continue
            }
            var vertices = [Float](repeating: 0, count: Int(t.attachmentWorldLength[attachment]))
            let written = vertices.withUnsafeMutableBufferPointer {
                boundingBoxVertices(row: row, slot: slot, into: $0)
            }
            if written != nil {
                result.append(BoundingBoxPolygon(slot: slot, attachment: attachment, vertices: vertices))
            }
        }
        return result
    }

    /// The first bounding box of row `row` (in slot order) containing the world point (x, y).
    public func hitTest(row: Int, x: Float, y: Float) -> BoundingBoxPolygon? {
        boundingBoxes(row: row).first { $0.contains(x: x, y: y) }
    }

    /// The world position and rotation of the point attachment slot `slot` of row `row` shows;
    /// nil when it shows none or its bone is inactive.
    public func pointAttachment(row: Int, slot: Int) -> PointAttachmentPosition? {
        guard row >= 0, row < count, slot >= 0, slot < rig.slotCount else { return nil }
        let cols = AttachmentColumns(columns())
        guard slotIsActive(cols, row: row, slot: slot) else { return nil }
        let r = cols.rows(row)
        let t = rig.tables
        let attachment = Int(cols.attachment[r.slot(slot)])
        guard attachment >= 0, t.attachmentKindRaw[attachment] == AttachmentKind.point.rawValue else { return nil }
        let point = data.attachments[attachment]
        let bi = r.bone(Int(t.slotBone[slot]))
        let a = cols.a[bi]
        let b = cols.b[bi]
        let c = cols.c[bi]
        let d = cols.d[bi]
        let x = point.x * a + point.y * b + cols.worldX[bi]
        let y = point.x * c + point.y * d + cols.worldY[bi]
        let rr = point.rotation * SpineMath.degRad
        let cosine = SpineMath.cos(rr)
        let sine = SpineMath.sin(rr)
        let rotation = ArcTangent.atan2Deg(cosine * c + sine * d, cosine * a + sine * b)
        return PointAttachmentPosition(slot: slot, attachment: attachment, x: x, y: y, rotation: rotation)
    }

    /// Every point attachment row `row` shows, in slot order (allocates).
    public func pointAttachments(row: Int) -> [PointAttachmentPosition] {
        (0..<rig.slotCount).compactMap { pointAttachment(row: row, slot: $0) }
    }
}

extension World {
    /// Every bounding box the instance shows, as world polygons.
    public func boundingBoxes(_ entity: Entity) throws -> [BoundingBoxPolygon] {
        let (batch, row) = try locate(entity)
        return batch.boundingBoxes(row: row)
    }

    /// The first bounding box of the instance (in slot order) containing the world point (x, y).
    public func hitTest(_ entity: Entity, x: Float, y: Float) throws -> BoundingBoxPolygon? {
        let (batch, row) = try locate(entity)
        return batch.hitTest(row: row, x: x, y: y)
    }

    /// The world position and rotation of the point attachment shown in the slot named `slot`;
    /// nil when the slot shows no point attachment.
    public func pointAttachment(_ entity: Entity, slot: String) throws -> PointAttachmentPosition? {
        let (batch, row) = try locate(entity)
        guard let s = batch.data.findSlotIndex(slot) else { return nil }
        return batch.pointAttachment(row: row, slot: s)
    }

    /// Every point attachment the instance shows.
    public func pointAttachments(_ entity: Entity) throws -> [PointAttachmentPosition] {
        let (batch, row) = try locate(entity)
        return batch.pointAttachments(row: row)
    }
}
