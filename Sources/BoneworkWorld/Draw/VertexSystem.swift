import BoneworkFormat

/// System 5: world vertices of the slots the slot system listed (every visible region or mesh
/// attachment, in draw order), as a renderer needs them: skinning with weights, deform offsets
/// applied. Vertices are not kept per instance: each chunk writes a block's vertices into its
/// own `VertexScratch` and hands the block to `Scheduler.vertexHandler`.
/// Regions give 8 floats in the order BR, BL, UL, UR; meshes `worldVerticesLength` floats.
enum VertexSystem {
    /// Computes the draws `draws` of `out`'s list, writing their vertices from the start of
    /// `out.vertices` and their offsets and counts into the list. Chunked layouts whose chunk
    /// size is a multiple of 4 take the lane path (4 or 8 instances at once, `updateLanes`),
    /// which gives the same list and the same vertex bits.
    static func update(_ cols: VertexColumns, _ rig: RigTables, draws: Range<Int>, into out: VertexScratch) {
        if lanesApply(cols) {
            updateLanes(cols, rig, draws: draws, into: out)
            return
        }
        var used = 0
        let vertices = out.vertices
        let list = out.draws
        let capacity = out.vertexCapacity
        let gathered = out.bones
        var row = -1
        var gatheredRow = -1
        var r = cols.rows(0)
        for k in draws {
            let draw = list[k]
            if Int(draw.row) != row {
                row = Int(draw.row)
                r = cols.rows(row)
            }
            let s = Int(draw.slot)
            let room = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
            guard used &+ room <= capacity else {
                list[k].count = 0
                continue
            }
            let written = compute(
                cols, rig, r, draw, room: room, bones: gathered, gatheredRow: &gatheredRow, into: vertices + used)
            list[k].offset = Int32(truncatingIfNeeded: used)
            list[k].count = Int32(truncatingIfNeeded: max(0, written))
            used &+= max(0, written)
        }
        out.vertexCount = used
    }

    /// Writes one draw's world vertices (at most `room` floats) to `out`; returns the floats
    /// written. `gatheredRow` is the row whose bones `bones` holds (-1 = none).
    @inline(__always)
    static func compute(
        _ cols: VertexColumns, _ rig: RigTables, _ r: InstanceRows, _ draw: VertexDraw, room: Int,
        bones gathered: UnsafeMutablePointer<SIMD4<Float>>, gatheredRow: inout Int,
        into out: UnsafeMutablePointer<Float>
    ) -> Int {
        let s = Int(draw.slot)
        let attachment = Int(draw.attachment)
        if rig.attachmentBoneCount[attachment] > 0 && rig.attachmentKind(attachment) == .mesh {
            // Weighted meshes read many bones: their world transforms are gathered once per
            // instance, each bone's (a, c, b, d, worldX, worldY) side by side.
            if gatheredRow != r.instance {
                gather(cols, r, boneCount: rig.boneCount, into: gathered)
                gatheredRow = r.instance
            }
            return skin(cols, rig, r, slot: s, attachment: attachment, bones: gathered, into: out, capacity: room)
        }
        return computeSlot(
            cols, rig, r, slot: s, attachment: attachment, frame: draw.frame, into: out, capacity: room)
    }

    /// Copies an instance's world transforms into `g`: per bone (a, c, b, d) and
    /// (worldX, worldY, 0, 0), so that one influence transforms x and y together.
    @inline(__always)
    static func gather(
        _ cols: VertexColumns, _ r: InstanceRows, boneCount: Int, into g: UnsafeMutablePointer<SIMD4<Float>>
    ) {
        var o = 0
        for k in 0..<boneCount {
            let i = r.bone(k)
            g[o] = SIMD4(cols.a[i], cols.c[i], cols.b[i], cols.d[i])
            g[o &+ 1] = SIMD4(cols.worldX[i], cols.worldY[i], 0, 0)
            o &+= 2
        }
    }

    /// World vertices of a weighted mesh from gathered bone transforms (`gather`): each
    /// influence's bone is one contiguous record, found by one shift instead of six column
    /// lookups, and x and y are computed side by side in the lanes of vectors. Per lane the
    /// float operations are the reference's, in its order:
    /// x += (vx * a + vy * b + worldX) * weight, y += (vx * c + vy * d + worldY) * weight.
    @inline(__always)
    static func skin(
        _ cols: VertexColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, attachment: Int,
        bones g: UnsafePointer<SIMD4<Float>>, into out: UnsafeMutablePointer<Float>, capacity: Int
    ) -> Int {
        let length = Int(rig.attachmentWorldLength[attachment])
        guard length <= capacity else { return 0 }
        let deformLength = Int(cols.deformLength(rig, r, slot: s))
        let bones = rig.bonePool + Int(rig.attachmentBoneStart[attachment])
        let vertices = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
        var v = 0  // cursor in bones
        var f = 0  // cursor in vertices (3 per influence)
        var w = 0  // output cursor
        if deformLength == 0 {
            // Per influence (x, x, y, y) and the weight in every lane (`RigTables.skinPool`).
            let pairs = rig.skinPool + Int(rig.attachmentSkinStart[attachment])
            while w < length {
                var world = SIMD2<Float>(0, 0)
                let n = Int(bones[v])
                v &+= 1
                let end = v &+ n
                while v < end {
                    let t = g + Int(bones[v]) &* 2
                    // (x * a, x * c, y * b, y * d): the halves add to (x * a + y * b, x * c + y * d).
                    let p = pairs[f] * t[0]
                    world += (p.lowHalf + p.highHalf + t[1].lowHalf) * pairs[f &+ 1].lowHalf
                    v &+= 1
                    f &+= 2
                }
                out[w] = world.x
                out[w &+ 1] = world.y
                w &+= 2
            }
        } else {
            let deform = cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s]))
            var o = 0  // cursor in deform offsets (2 per influence)
            while w < length {
                var world = SIMD2<Float>(0, 0)
                let n = Int(bones[v])
                v &+= 1
                let end = v &+ n
                while v < end {
                    let t = g + Int(bones[v]) &* 2
                    let x = vertices[f] + deform[o]
                    let y = vertices[f &+ 1] + deform[o &+ 1]
                    let p = SIMD4(x, x, y, y) * t[0]
                    world += (p.lowHalf + p.highHalf + t[1].lowHalf) * SIMD2(repeating: vertices[f &+ 2])
                    v &+= 1
                    f &+= 3
                    o &+= 2
                }
                out[w] = world.x
                out[w &+ 1] = world.y
                w &+= 2
            }
        }
        return length
    }

    /// Writes slot `s`'s world vertices (at most `capacity` floats) to `out`; returns the floats
    /// written, 0 when the slot shows nothing with vertices.
    @inline(__always)
    static func computeSlot(
        _ cols: VertexColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, attachment: Int, frame: Int32,
        into out: UnsafeMutablePointer<Float>, capacity: Int
    ) -> Int {
        guard attachment >= 0 else { return 0 }
        let bone = r.bone(Int(rig.slotBone[s]))
        switch rig.attachmentKind(attachment) {
        case .region:
            guard capacity >= 8, rig.attachmentFrameCount[attachment] > 0, frame >= 0 else { return 0 }
            let o = rig.frameOffsets + Int(frame) &* 8
            let a = cols.a[bone]
            let b = cols.b[bone]
            let c = cols.c[bone]
            let d = cols.d[bone]
            let x = cols.worldX[bone]
            let y = cols.worldY[bone]
            // Corner offsets are stored BL, UL, UR, BR; output starts at BR.
            out[0] = o[6] * a + o[7] * b + x
            out[1] = o[6] * c + o[7] * d + y
            out[2] = o[0] * a + o[1] * b + x
            out[3] = o[0] * c + o[1] * d + y
            out[4] = o[2] * a + o[3] * b + x
            out[5] = o[2] * c + o[3] * d + y
            out[6] = o[4] * a + o[5] * b + x
            out[7] = o[4] * c + o[5] * d + y
            return 8
        case .mesh:
            let length = Int(rig.attachmentWorldLength[attachment])
            guard length <= capacity else { return 0 }
            let deformLength = Int(cols.deformLength(rig, r, slot: s))
            let deform = cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s]))
            let boneCount = Int(rig.attachmentBoneCount[attachment])
            if boneCount == 0 {
                let vertices =
                    deformLength > 0
                    ? UnsafePointer(deform) : rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
                let a = cols.a[bone]
                let b = cols.b[bone]
                let c = cols.c[bone]
                let d = cols.d[bone]
                let x = cols.worldX[bone]
                let y = cols.worldY[bone]
                var v = 0
                while v < length {
                    let vx = vertices[v]
                    let vy = vertices[v &+ 1]
                    out[v] = vx * a + vy * b + x
                    out[v &+ 1] = vx * c + vy * d + y
                    v &+= 2
                }
                return length
            }
            let bones = rig.bonePool + Int(rig.attachmentBoneStart[attachment])
            let vertices = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
            var v = 0  // cursor in bones
            var f = 0  // cursor in vertices (3 per influence)
            var w = 0  // output cursor
            if deformLength == 0 {
                while w < length {
                    var wx: Float = 0
                    var wy: Float = 0
                    let n = Int(bones[v])
                    v &+= 1
                    let end = v &+ n
                    while v < end {
                        let bi = r.bone(Int(bones[v]))
                        let vx = vertices[f]
                        let vy = vertices[f &+ 1]
                        let weight = vertices[f &+ 2]
                        wx += (vx * cols.a[bi] + vy * cols.b[bi] + cols.worldX[bi]) * weight
                        wy += (vx * cols.c[bi] + vy * cols.d[bi] + cols.worldY[bi]) * weight
                        v &+= 1
                        f &+= 3
                    }
                    out[w] = wx
                    out[w &+ 1] = wy
                    w &+= 2
                }
            } else {
                var o = 0  // cursor in deform offsets (2 per influence)
                while w < length {
                    var wx: Float = 0
                    var wy: Float = 0
                    let n = Int(bones[v])
                    v &+= 1
                    let end = v &+ n
                    while v < end {
                        let bi = r.bone(Int(bones[v]))
                        let vx = vertices[f] + deform[o]
                        let vy = vertices[f &+ 1] + deform[o &+ 1]
                        let weight = vertices[f &+ 2]
                        wx += (vx * cols.a[bi] + vy * cols.b[bi] + cols.worldX[bi]) * weight
                        wy += (vx * cols.c[bi] + vy * cols.d[bi] + cols.worldY[bi]) * weight
                        v &+= 1
                        f &+= 3
                        o &+= 2
                    }
                    out[w] = wx
                    out[w &+ 1] = wy
                    w &+= 2
                }
            }
            return length
        default:
            return 0
        }
    }
}

/// One drawn slot in a `VertexBlock`: its row, slot, attachment and image, and where its world
/// vertices are (`count` floats from `offset`).
public struct VertexDraw: Sendable, Equatable {
    /// The instance's row in the batch.
    public var row: Int32
    /// The slot drawn (index into `SkeletonData.slots`).
    public var slot: Int32
    /// The attachment drawn (index into the data's attachments).
    public var attachment: Int32
    /// The image (index into `SkeletonData.attachmentFrames`), -1 for a mesh without one.
    public var frame: Int32
    /// Where the slot's world vertices start in `VertexBlock.vertices`, in floats.
    public var offset: Int32
    /// How many floats of world vertices the slot has (x, y pairs).
    public var count: Int32
}

/// The world vertices of a block of rows of one batch, in draw order per row (valid during the
/// `Scheduler.vertexHandler` call only).
///
/// # Safety
/// `vertices` and `draws` point into the worker's scratch, reused for its next block: copy
/// what you keep before the handler returns, and never write through them.
public struct VertexBlock: @unchecked Sendable {
    /// The batch's index in the world.
    public let batch: Int
    /// The batch rows the block covers.
    public let rows: Range<Int>
    /// World vertices (x, y pairs) of every draw, addressed by `VertexDraw.offset`.
    public let vertices: UnsafeBufferPointer<Float>
    /// The drawn slots, row by row, each row in its current draw order.
    public let draws: UnsafeBufferPointer<VertexDraw>
}

/// One chunk's draw list and vertex buffer, reused block after block and frame after frame
/// (they grow only when a batch needs more than ever before, on the calling thread).
final class VertexScratch: @unchecked Sendable {
    /// One instance's gathered bone transforms (`VertexSystem.gather`).
    private(set) var bones: UnsafeMutablePointer<SIMD4<Float>>
    private var boneCapacity = 0
    /// A lane group's world transforms of the bones weighted meshes use
    /// (`VertexSystem.gatherLanes`): room for 8-lane records, aligned for them.
    private(set) var lanes: UnsafeMutableRawPointer
    private var laneCapacity = 0
    /// Where lanes of a four-lane computation that are not wanted write (`VertexSystem.group`).
    private(set) var discard: UnsafeMutablePointer<Float>
    private var discardCapacity = 0
    private(set) var vertices: UnsafeMutablePointer<Float>
    private(set) var draws: UnsafeMutablePointer<VertexDraw>
    /// The slot system's list of slots that show something in some lane of a group
    /// (`SlotSystem.update`): room for every slot.
    private(set) var slotList: UnsafeMutablePointer<Int32>
    private var slotListCapacity = 0
    /// A lane group's draw lists aligned slot by slot (`VertexSystem.align`): 8 lanes of a
    /// slot count each.
    private(set) var aligned: UnsafeMutablePointer<VertexDraw>
    private var alignedCapacity = 0
    /// The bounds of a lane group's rows in the draw list (`VertexSystem.alignable`): 8 starts,
    /// 8 ends.
    let laneCursors = UnsafeMutablePointer<Int>.allocate(capacity: 16)
    private(set) var vertexCapacity = 0
    private(set) var drawCapacity = 0
    var vertexCount = 0
    var drawCount = 0

    init() {
        bones = .allocate(capacity: 1)
        lanes = .allocate(byteCount: 32, alignment: 32)
        discard = .allocate(capacity: 1)
        vertices = .allocate(capacity: 1)
        draws = .allocate(capacity: 1)
        slotList = .allocate(capacity: 1)
        aligned = .allocate(capacity: 1)
    }

    deinit {
        bones.deallocate()
        lanes.deallocate()
        discard.deallocate()
        vertices.deallocate()
        draws.deallocate()
        slotList.deallocate()
        aligned.deallocate()
        laneCursors.deallocate()
    }

    /// Makes room for the vertices of `rows` instances of `rig` and the draw list of `listRows`.
    func reserve(_ rig: CompiledSkeleton, rows: Int, listRows: Int) {
        let floats = max(1, rows * rig.vertexFloats)
        if floats > vertexCapacity {
            vertices.deallocate()
            vertices = .allocate(capacity: floats)
            vertexCapacity = floats
        }
        let bonePairs = max(1, rig.boneCount * 2)
        if bonePairs > boneCapacity {
            bones.deallocate()
            bones = .allocate(capacity: bonePairs)
            boneCapacity = bonePairs
        }
        let laneBytes = max(1, rig.tables.laneBoneCount * 6) * MemoryLayout<SIMD8<Float>>.stride
        if laneBytes > laneCapacity {
            lanes.deallocate()
            lanes = .allocate(byteCount: laneBytes, alignment: 32)
            laneCapacity = laneBytes
        }
        if rig.maxAttachmentFloats > discardCapacity {
            discard.deallocate()
            discard = .allocate(capacity: rig.maxAttachmentFloats)
            discardCapacity = rig.maxAttachmentFloats
        }
        if rig.slotCount > slotListCapacity {
            slotList.deallocate()
            slotList = .allocate(capacity: rig.slotCount)
            slotListCapacity = rig.slotCount
        }
        if rig.slotCount * 8 > alignedCapacity {
            aligned.deallocate()
            aligned = .allocate(capacity: rig.slotCount * 8)
            alignedCapacity = rig.slotCount * 8
        }
        let entries = max(1, max(rows, listRows) * rig.tables.slotCount)
        if entries > drawCapacity {
            draws.deallocate()
            draws = .allocate(capacity: entries)
            drawCapacity = entries
        }
    }

    func block(batch: Int, rows: Range<Int>, draws list: Range<Int>) -> VertexBlock {
        VertexBlock(
            batch: batch, rows: rows, vertices: UnsafeBufferPointer(start: vertices, count: vertexCount),
            draws: UnsafeBufferPointer(start: draws + list.lowerBound, count: list.count))
    }
}
