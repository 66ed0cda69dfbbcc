import BoneworkFormat

/// The columns of one batch that drawing reads, fetched once (`Batch.poseViews()`); `self[row]`
/// gives one instance's `PoseView`. Holds raw pointers: valid until the batch grows (a spawn past
/// its capacity) or is deallocated, and rows move when an instance is despawned.
public struct BatchPoseViews {
    let a: UnsafePointer<Float>
    let b: UnsafePointer<Float>
    let c: UnsafePointer<Float>
    let d: UnsafePointer<Float>
    let worldX: UnsafePointer<Float>
    let worldY: UnsafePointer<Float>
    let colorR: UnsafePointer<Float>
    let colorG: UnsafePointer<Float>
    let colorB: UnsafePointer<Float>
    let colorA: UnsafePointer<Float>
    let darkR: UnsafePointer<Float>
    let darkG: UnsafePointer<Float>
    let darkB: UnsafePointer<Float>
    let attachment: UnsafePointer<Int32>
    let sequenceIndex: UnsafePointer<Int32>
    let frame: UnsafePointer<Int32>
    let deformLength: UnsafePointer<Int32>
    let plan: UnsafePointer<Int32>
    let drawOrder: UnsafePointer<Int32>
    let deform: UnsafePointer<Float>
    let slotDeformOffset: UnsafePointer<Int32>
    let planBoneActive: UnsafePointer<UInt8>
    let slotBone: UnsafePointer<Int32>
    let vertexPool: UnsafePointer<Float>
    let attVertexStart: UnsafePointer<Int32>
    let bonePool: UnsafePointer<Int32>
    let attBoneStart: UnsafePointer<Int32>
    let attBoneCount: UnsafePointer<Int32>
    let attWorldLength: UnsafePointer<Int32>
    let attachmentCount: Int
    let layout: ColumnLayout
    /// Bones and slots per instance.
    public let boneCount: Int
    public let slotCount: Int
    let deformFloats: Int
    /// Instances in the batch when the views were fetched.
    public let count: Int

    init(_ cols: BatchColumns, _ rig: RigTables, attachmentCount: Int, count: Int) {
        a = UnsafePointer(cols.a)
        b = UnsafePointer(cols.b)
        c = UnsafePointer(cols.c)
        d = UnsafePointer(cols.d)
        worldX = UnsafePointer(cols.worldX)
        worldY = UnsafePointer(cols.worldY)
        colorR = UnsafePointer(cols.colorR)
        colorG = UnsafePointer(cols.colorG)
        colorB = UnsafePointer(cols.colorB)
        colorA = UnsafePointer(cols.colorA)
        darkR = UnsafePointer(cols.darkR)
        darkG = UnsafePointer(cols.darkG)
        darkB = UnsafePointer(cols.darkB)
        attachment = UnsafePointer(cols.attachment)
        sequenceIndex = UnsafePointer(cols.sequenceIndex)
        frame = UnsafePointer(cols.frame)
        deformLength = UnsafePointer(cols.deformLength)
        plan = UnsafePointer(cols.plan)
        drawOrder = UnsafePointer(cols.drawOrder)
        deform = UnsafePointer(cols.deform)
        slotDeformOffset = rig.slotDeformOffset
        planBoneActive = rig.planBoneActive
        slotBone = rig.slotBone
        vertexPool = rig.vertexPool
        attVertexStart = rig.attVertexStart
        bonePool = rig.bonePool
        attBoneStart = rig.attBoneStart
        attBoneCount = rig.attBoneCount
        attWorldLength = rig.attWorldLength
        self.attachmentCount = attachmentCount
        layout = cols.layout
        boneCount = cols.boneCount
        slotCount = cols.slotCount
        deformFloats = cols.deformFloats
        self.count = count
    }

    /// The view of row `row` (`0..<count`); nothing is copied.
    @inline(__always)
    public subscript(row: Int) -> PoseView {
        PoseView(
            columns: self, bone: layout.base(row, perInstance: boneCount),
            slot: layout.base(row, perInstance: slotCount), stride: layout.stride,
            active: planBoneActive + Int(plan[row]) &* boneCount, drawOrder: drawOrder + row &* slotCount,
            deform: deform + row &* deformFloats)
    }
}

/// A read-only view of one instance's posed state, straight from its batch's columns (no copy,
/// no allocation, no reference counting): bone world transforms, active bones, slot colours,
/// attachments, sequence indices and draw order; world vertices of meshes and other vertex
/// attachments are computed on request from the bones and the slot's deform. Indices are the
/// `SkeletonData`'s. Valid as long as its `BatchPoseViews` is.
public struct PoseView {
    let columns: BatchPoseViews
    let bone: Int
    let slot: Int
    let stride: Int
    let active: UnsafePointer<UInt8>
    let drawOrder: UnsafePointer<Int32>
    let deform: UnsafePointer<Float>

    init(
        columns: BatchPoseViews, bone: Int, slot: Int, stride: Int, active: UnsafePointer<UInt8>,
        drawOrder: UnsafePointer<Int32>, deform: UnsafePointer<Float>
    ) {
        self.columns = columns
        self.bone = bone
        self.slot = slot
        self.stride = stride
        self.active = active
        self.drawOrder = drawOrder
        self.deform = deform
    }

    public var boneCount: Int { columns.boneCount }
    public var slotCount: Int { columns.slotCount }

    @inline(__always) func boneRow(_ k: Int) -> Int { bone &+ k &* stride }
    @inline(__always) func slotRow(_ s: Int) -> Int { slot &+ s &* stride }

    /// Bone `k`'s world transform: world = (a x + b y + worldX, c x + d y + worldY).
    @inline(__always)
    public func boneTransform(_ k: Int) -> (a: Float, b: Float, c: Float, d: Float, worldX: Float, worldY: Float) {
        let i = boneRow(k)
        let t = columns
        return (t.a[i], t.b[i], t.c[i], t.d[i], t.worldX[i], t.worldY[i])
    }

    /// Whether bone `k` is updated under the instance's skin (`0..<boneCount`).
    @inline(__always) public func isBoneActive(_ k: Int) -> Bool { active[k] != 0 }

    /// Slot `s`'s colour (r, g, b, a).
    @inline(__always)
    public func color(slot s: Int) -> (r: Float, g: Float, b: Float, a: Float) {
        let i = slotRow(s)
        let t = columns
        return (t.colorR[i], t.colorG[i], t.colorB[i], t.colorA[i])
    }

    /// Slot `s`'s dark colour (r, g, b); meaningful for slots whose data defines one.
    @inline(__always)
    public func darkColor(slot s: Int) -> (r: Float, g: Float, b: Float) {
        let i = slotRow(s)
        let t = columns
        return (t.darkR[i], t.darkG[i], t.darkB[i])
    }

    /// Slot `s`'s current attachment (index into `SkeletonData.attachments`), -1 when none.
    @inline(__always) public func slotAttachment(_ s: Int) -> Int { Int(columns.attachment[slotRow(s)]) }

    /// Slot `s`'s sequence index, -1 for the sequence's setup frame.
    @inline(__always) public func slotSequenceIndex(_ s: Int) -> Int { Int(columns.sequenceIndex[slotRow(s)]) }

    /// The image slot `s` draws as of the last slot pass (index into
    /// `SkeletonData.attachmentFrames`), -1 when it draws nothing.
    @inline(__always) public func frame(slot s: Int) -> Int { Int(columns.frame[slotRow(s)]) }

    /// The slot drawn at position `k` of the draw order (`0..<slotCount`).
    @inline(__always) public func drawOrderSlot(_ k: Int) -> Int { Int(drawOrder[k]) }

    /// Slot `s`'s deform offsets (empty when none is applied).
    @inline(__always)
    public func deform(slot s: Int) -> UnsafeBufferPointer<Float> {
        let length = Int(columns.deformLength[slotRow(s)])
        let capacity = Int(columns.slotDeformOffset[s &+ 1] &- columns.slotDeformOffset[s])
        return UnsafeBufferPointer(
            start: deform + Int(columns.slotDeformOffset[s]), count: max(0, min(length, capacity)))
    }

    /// Computes the world positions of vertex attachment `attachment` (mesh, clipping, bounding
    /// box, path) as shown in slot `s`, deform included, into `output` (at most its
    /// `worldVerticesLength` floats). Writes nothing for an attachment index out of range.
    public func computeVertexAttachment(slot s: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        let t = columns
        guard attachment >= 0 && attachment < t.attachmentCount, let out = output.baseAddress else { return }
        let length = min(Int(t.attWorldLength[attachment]), output.count) & ~1
        let vertices = t.vertexPool + Int(t.attVertexStart[attachment])
        let offsets = deform(slot: s)
        let boneCount = Int(t.attBoneCount[attachment])
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
        let bones = t.bonePool + Int(t.attBoneStart[attachment])
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
        BatchPoseViews(columns(), rig.tables, attachmentCount: data.attachments.count, count: count)
    }
}

extension World {
    /// A read view of one live instance's pose, valid until the next spawn or despawn.
    public func poseView(_ entity: Entity) throws -> PoseView {
        let (batch, row) = try locate(entity)
        return batch.poseViews()[row]
    }
}
