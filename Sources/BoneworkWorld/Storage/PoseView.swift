import BoneworkFormat

/// The columns of one batch that drawing reads, fetched once (`Batch.poseViews()`); `self[row]`
/// gives one instance's `PoseView`. Holds raw pointers: valid until the batch grows (a spawn past
/// its capacity) or is deallocated, and rows move when an instance is despawned.
public struct BatchPoseViews {
    let cols: BatchColumns
    let rig: RigTables
    let attachmentCount: Int
    /// Bones and slots per instance.
    public let boneCount: Int
    /// Slots per instance.
    public let slotCount: Int
    /// Instances in the batch when the views were fetched.
    public let count: Int
    /// Plans the batch's skeleton had handed out when the views were fetched.
    let planCount: Int
    /// The identity of the batch's `SkeletonData` (no reference is held).
    public let skeleton: ObjectIdentifier

    init(
        _ cols: BatchColumns, _ rig: RigTables, attachmentCount: Int, count: Int, planCount: Int,
        skeleton: ObjectIdentifier
    ) {
        self.cols = cols
        self.rig = rig
        self.skeleton = skeleton
        self.attachmentCount = attachmentCount
        self.planCount = planCount
        boneCount = cols.shape.boneCount
        slotCount = cols.shape.slotCount
        self.count = count
    }

    /// The view of row `row` (`0..<count`); nothing is copied.
    @inline(__always)
    public subscript(row: Int) -> PoseView {
        PoseView(
            columns: self, r: cols.rows(row), active: rig.planBoneActive + Int(cols.plan[row]) &* boneCount)
    }
}

/// A read-only view of one instance's posed state, straight from its batch's columns (no copy,
/// no allocation, no reference counting): bone world transforms, active bones, slot colours,
/// attachments, sequence indices and draw order; world vertices of meshes and other vertex
/// attachments are computed on request from the bones and the slot's deform. Indices are the
/// `SkeletonData`'s. Valid as long as its `BatchPoseViews` is.
public struct PoseView {
    let columns: BatchPoseViews
    let r: InstanceRows
    let active: UnsafePointer<UInt8>

    init(columns: BatchPoseViews, r: InstanceRows, active: UnsafePointer<UInt8>) {
        self.columns = columns
        self.r = r
        self.active = active
    }

    /// Bones in the instance's skeleton.
    public var boneCount: Int { columns.boneCount }
    /// Slots in the instance's skeleton.
    public var slotCount: Int { columns.slotCount }
    /// The instance's skeleton colour (`World.skeletonColor`).
    public var instanceColor: Color {
        let c = columns.cols
        let i = r.instance
        return Color(c.skeletonR[i], c.skeletonG[i], c.skeletonB[i], c.skeletonA[i])
    }

    /// Bone `k`'s world transform: world = (a x + b y + worldX, c x + d y + worldY).
    @inline(__always)
    public func boneTransform(_ k: Int) -> (a: Float, b: Float, c: Float, d: Float, worldX: Float, worldY: Float) {
        let i = r.bone(k)
        let t = columns.cols
        return (t.a[i], t.b[i], t.c[i], t.d[i], t.worldX[i], t.worldY[i])
    }

    /// Whether bone `k` is updated under the instance's skin (`0..<boneCount`).
    @inline(__always) public func isBoneActive(_ k: Int) -> Bool { active[k] != 0 }

    /// Slot `s`'s colour (r, g, b, a).
    @inline(__always)
    public func color(slot s: Int) -> (r: Float, g: Float, b: Float, a: Float) {
        let c = columns.cols.slotColor(columns.rig, r, slot: s)
        return (c.0, c.1, c.2, c.3)
    }

    /// Slot `s`'s dark colour (r, g, b); meaningful for slots whose data defines one.
    @inline(__always)
    public func darkColor(slot s: Int) -> (r: Float, g: Float, b: Float) {
        let c = columns.cols.slotDark(columns.rig, r, slot: s)
        return (c.0, c.1, c.2)
    }

    /// Slot `s`'s current attachment (index into `SkeletonData.attachments`), -1 when none.
    @inline(__always) public func slotAttachment(_ s: Int) -> Int { Int(columns.cols.attachment[r.slot(s)]) }

    /// Slot `s`'s sequence index, -1 for the sequence's setup frame.
    @inline(__always)
    public func slotSequenceIndex(_ s: Int) -> Int { Int(columns.cols.sequenceIndex(columns.rig, r, slot: s)) }

    /// The image slot `s` draws (index into `SkeletonData.attachmentFrames`: its region's or
    /// mesh's image, a sequence's current frame), -1 when it draws nothing or its bone is inactive.
    @inline(__always)
    public func frame(slot s: Int) -> Int {
        let rig = columns.rig
        guard active[Int(rig.slotBone[s])] != 0 else { return -1 }
        return Int(SlotSystem.imageFrame(SlotColumns(columns.cols), rig, r, slot: s, attachment: slotAttachment(s)))
    }

    /// The slot drawn at position `k` of the draw order (`0..<slotCount`).
    @inline(__always) public func drawOrderSlot(_ k: Int) -> Int { Int(columns.cols.drawOrder[r.drawOrder &+ k]) }

    /// Slot `s`'s deform offsets (empty when none is applied).
    ///
    /// # Safety
    /// The buffer points into the batch: read it before the next frame, spawn or despawn, which
    /// may change or move it. `s` must be below `slotCount`.
    @inline(__always)
    public func deform(slot s: Int) -> UnsafeBufferPointer<Float> {
        let rig = columns.rig
        let length = Int(columns.cols.deformLength(rig, r, slot: s))
        let capacity = Int(rig.slotDeformOffset[s &+ 1] &- rig.slotDeformOffset[s])
        return UnsafeBufferPointer(
            start: columns.cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s])),
            count: max(0, min(length, capacity)))
    }

    /// Computes the world positions of vertex attachment `attachment` (mesh, clipping, bounding
    /// box, path) as shown in slot `s`, deform included, into `output` (at most its
    /// `worldVerticesLength` floats). Writes nothing for an attachment index out of range.
    ///
    /// # Safety
    /// `output` must hold the attachment's `worldVerticesLength` floats; `s` must be below
    /// `slotCount`.
    public func computeVertexAttachment(slot s: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        let t = columns.rig
        guard attachment >= 0 && attachment < columns.attachmentCount, let out = output.baseAddress else { return }
        let length = min(Int(t.attachmentWorldLength[attachment]), output.count) & ~1
        let vertices = t.vertexPool + Int(t.attachmentVertexStart[attachment])
        let offsets = deform(slot: s)
        let boneCount = Int(t.attachmentBoneCount[attachment])
        if boneCount == 0 {
            let source = offsets.count >= length ? offsets.baseAddress ?? vertices : vertices
            let (a, b, c, d, x, y) = boneTransform(Int(t.slotBone[s]))
            var v = 0
            while v < length {
                let vx = source[v]
                let vy = source[v &+ 1]
                out[v] = vx * a + vy * b + x
                out[v &+ 1] = vx * c + vy * d + y
                v &+= 2
            }
            return
        }
        let bones = t.bonePool + Int(t.attachmentBoneStart[attachment])
        var v = 0  // cursor in bones
        var f = 0  // cursor in vertices (3 per influence)
        var o = 0  // cursor in deform offsets (2 per influence)
        var w = 0
        while w < length && v < boneCount {
            var wx: Float = 0
            var wy: Float = 0
            let end = v &+ 1 &+ Int(bones[v])
            v &+= 1
            while v < end && v < boneCount {
                let (a, b, c, d, x, y) = boneTransform(Int(bones[v]))
                var vx = vertices[f]
                var vy = vertices[f &+ 1]
                if o &+ 1 < offsets.count {
                    vx += offsets[o]
                    vy += offsets[o &+ 1]
                }
                let weight = vertices[f &+ 2]
                wx += (vx * a + vy * b + x) * weight
                wy += (vx * c + vy * d + y) * weight
                v &+= 1
                f &+= 3
                o &+= 2
            }
            out[w] = wx
            out[w &+ 1] = wy
            w &+= 2
        }
    }
}

extension Batch {
    /// Read views of every row's pose (see `BatchPoseViews`).
    public func poseViews() -> BatchPoseViews {
        BatchPoseViews(
            columns(), rig.tables, attachmentCount: data.attachments.count, count: count, planCount: rig.planCount,
            skeleton: ObjectIdentifier(data))
    }
}

extension World {
    /// A read view of one live instance's pose, valid until the next spawn or despawn.
    public func poseView(_ entity: Entity) throws -> PoseView {
        let (batch, row) = try locate(entity)
        return batch.poseViews()[row]
    }
}
