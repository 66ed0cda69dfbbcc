import BoneworkFormat
import BoneworkWorld

/// What the frame builder reads from one posed skeleton instance: the engine's per-instance state
/// after its world transforms (and vertex deforms) are up to date. Indices are the
/// `SkeletonData`'s (slot, bone and attachment indices).
public protocol PosedSkeleton {
    /// The skeleton's colour (multiplies every slot's).
    var skeletonColor: Color { get }
    /// The number of entries in the draw order (the slot count).
    var drawOrderCount: Int { get }
    /// The slot drawn at position `k` of the draw order (0 first, under everything later).
    func drawOrderSlot(_ k: Int) -> Int
    /// The slot's current colour (straight alpha).
    func slotColor(_ slot: Int) -> Color
    /// The slot's current dark colour; asked only for slots whose data defines one.
    func slotDarkColor(_ slot: Int) -> Color
    /// The slot's current attachment (index into `SkeletonData.attachments`), -1 when none.
    func slotAttachment(_ slot: Int) -> Int
    /// The slot's sequence frame, -1 for the sequence's setup frame.
    func slotSequenceIndex(_ slot: Int) -> Int
    /// Whether the bone is active (skin-required bones of a skin that is not set are not).
    func isBoneActive(_ bone: Int) -> Bool
    /// The bone's world transform.
    func boneWorld(_ bone: Int) -> BoneWorldTransform
    /// Writes the world positions (`x, y` per vertex) of the vertex attachment (mesh or clipping)
    /// `attachment` shown in `slot`, deform included, into `output` (`worldVerticesLength` floats).
    func computeWorldVertices(slot: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>)
    /// Writes the first `count` bones' world transforms as rows of six floats (a, b, c, d,
    /// worldX, worldY) from `row` (`count * 6` floats): the bone table both GPU-side paths upload.
    /// The default reads `boneWorld` bone by bone; the engine's `PoseView` copies its columns in
    /// one call.
    func writeBoneRows(_ count: Int, into row: UnsafeMutablePointer<Float>)
}

extension PosedSkeleton {
    /// Writes the first `count` bones' world transforms from `boneWorld`, bone by bone.
    @inline(__always)
    public func writeBoneRows(_ count: Int, into row: UnsafeMutablePointer<Float>) {
        var row = row
        for bone in 0..<count {
            let t = boneWorld(bone)
            row[0] = t.a
            row[1] = t.b
            row[2] = t.c
            row[3] = t.d
            row[4] = t.worldX
            row[5] = t.worldY
            row += 6
        }
    }

    /// White: a pose without a skeleton colour tints nothing.
    public var skeletonColor: Color { .white }
    /// -1 for every slot: sequences show their setup frame.
    public func slotSequenceIndex(_ slot: Int) -> Int { -1 }
}

/// World positions of vertex attachments from bone transforms.
public enum VertexAttachmentMath {
    /// The reference's vertex attachment transform: unweighted vertices go through the slot's bone;
    /// weighted ones sum `(bone * (x, y)) * weight` over their bones. `deform` (when not empty)
    /// replaces unweighted positions or offsets weighted ones. Writes at most `output.count` floats.
    public static func computeWorldVertices(
        _ attachment: AttachmentData, slotBone: Int, deform: UnsafeBufferPointer<Float>,
        bone: (Int) -> BoneWorldTransform, into output: UnsafeMutableBufferPointer<Float>
    ) {
        let count = min(Int(attachment.worldVerticesLength), output.count) & ~1
        let vertices = attachment.vertices
        if attachment.bones.isEmpty {
            let t = bone(slotBone)
            func transform(_ source: UnsafeBufferPointer<Float>) {
                var k = 0
                while k + 1 < count && k + 1 < source.count {
                    let vx = source[k]
                    let vy = source[k + 1]
                    output[k] = vx * t.a + vy * t.b + t.worldX
                    output[k + 1] = vx * t.c + vy * t.d + t.worldY
                    k += 2
                }
            }
            if deform.count >= count {
                transform(deform)
            } else {
                vertices.withUnsafeBufferPointer { transform($0) }
            }
            return
        }
        let bones = attachment.bones
        var v = 0
        var b = 0
        var f = 0
        var w = 0
        while w + 1 < count && v < bones.count {
            let n = Int(bones[v])
            v += 1
            var wx: Float = 0
            var wy: Float = 0
            let end = v + n
            while v < end && v < bones.count && b + 2 < vertices.count {
                let t = bone(Int(bones[v]))
                var vx = vertices[b]
                var vy = vertices[b + 1]
                if f + 1 < deform.count {
                    vx += deform[f]
                    vy += deform[f + 1]
                }
                let weight = vertices[b + 2]
                wx += (vx * t.a + vy * t.b + t.worldX) * weight
                wy += (vx * t.c + vy * t.d + t.worldY) * weight
                v += 1
                b += 3
                f += 2
            }
            output[w] = wx
            output[w + 1] = wy
            w += 2
        }
    }
}
