import BoneworkFormat

/// System 5: world vertices of every visible region or mesh attachment, in draw order, as a
/// renderer needs them (skinning with weights, deform offsets applied). Slots whose bone the
/// skin leaves inactive and slots with zero alpha are skipped, as a renderer skips them.
///
/// Vertices are not kept per instance: each chunk of rows writes them into its own
/// `VertexScratch`, block by block, and hands each block to `Scheduler.vertexHandler`.
/// Regions give 8 floats in the order BR, BL, UL, UR; meshes `worldVerticesLength` floats.
enum VertexSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, into out: VertexScratch) {
        var used = 0
        var draws = 0
        let vertices = out.vertices
        let list = out.draws
        for instance in range {
            let r = cols.rows(instance)
            let active = rig.planBoneActive + Int(cols.plan[instance]) &* rig.boneCount
            let order = cols.drawOrder + r.drawOrder
            for k in 0..<rig.slotCount {
                let s = Int(order[k])
                if active[Int(rig.slotBone[s])] == 0 { continue }
                let si = r.slot(s)
                let attachment = cols.attachment[si]
                if attachment < 0 || cols.colorA[si] == 0 { continue }
                let capacity = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
                let written = computeSlot(cols, rig, r, slot: s, into: vertices + used, capacity: capacity)
                if written <= 0 { continue }
                list[draws] = VertexDraw(
                    row: Int32(truncatingIfNeeded: instance), slot: Int32(truncatingIfNeeded: s),
                    attachment: attachment,
                    offset: Int32(truncatingIfNeeded: used), count: Int32(truncatingIfNeeded: written))
                draws &+= 1
                used &+= written
            }
        }
        out.vertexCount = used
        out.drawCount = draws
    }

    /// Writes slot `s`'s world vertices (at most `capacity` floats) to `out`; returns the floats
    /// written, 0 when the slot shows nothing with vertices.
    @inline(__always)
    static func computeSlot(
        _ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, into out: UnsafeMutablePointer<Float>,
        capacity: Int
    ) -> Int {
        let si = r.slot(s)
        let attachment = Int(cols.attachment[si])
        guard attachment >= 0 else { return 0 }
        let bone = r.bone(Int(rig.slotBone[s]))
        switch rig.attachmentKind(attachment) {
        case .region:
            guard capacity >= 8, rig.attFrameCount[attachment] > 0 else { return 0 }
            let frame = SlotSystem.imageFrame(cols, rig, slotRow: si)
            guard frame >= 0 else { return 0 }
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
            let length = Int(rig.attWorldLength[attachment])
            guard length <= capacity else { return 0 }
            let deformLength = Int(cols.deformLength[si])
            let deform = cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s]))
            let boneCount = Int(rig.attBoneCount[attachment])
            if boneCount == 0 {
                let vertices =
                    deformLength > 0 ? UnsafePointer(deform) : rig.vertexPool + Int(rig.attVertexStart[attachment])
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
            let bones = rig.bonePool + Int(rig.attBoneStart[attachment])
            let vertices = rig.vertexPool + Int(rig.attVertexStart[attachment])
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

/// One drawn slot in a `VertexBlock`: its row, slot, attachment, and where its world vertices
/// are (`count` floats from `offset`).
public struct VertexDraw: Sendable, Equatable {
    public var row: Int32
    public var slot: Int32
    public var attachment: Int32
    public var offset: Int32
    public var count: Int32
}

/// The world vertices of a block of rows of one batch, in draw order per row (valid during the
/// `Scheduler.vertexHandler` call only).
public struct VertexBlock: @unchecked Sendable {
    /// The batch's index in the world.
    public let batch: Int
    public let rows: Range<Int>
    public let vertices: UnsafeBufferPointer<Float>
    public let draws: UnsafeBufferPointer<VertexDraw>
}

/// One chunk's vertex output buffers, reused block after block and frame after frame (they
/// grow only when a batch needs more than ever before, on the calling thread).
final class VertexScratch: @unchecked Sendable {
    private(set) var vertices: UnsafeMutablePointer<Float>
    private(set) var draws: UnsafeMutablePointer<VertexDraw>
    private var vertexCapacity = 0
    private var drawCapacity = 0
    var vertexCount = 0
    var drawCount = 0

    init() {
        vertices = .allocate(capacity: 1)
        draws = .allocate(capacity: 1)
    }

    deinit {
        vertices.deallocate()
        draws.deallocate()
    }

    /// Makes room for `rows` instances of `rig`.
    func reserve(_ rig: CompiledSkeleton, rows: Int) {
        let floats = max(1, rows * rig.vertexFloats)
        if floats > vertexCapacity {
            vertices.deallocate()
            vertices = .allocate(capacity: floats)
            vertexCapacity = floats
        }
        let entries = max(1, rows * rig.tables.slotCount)
        if entries > drawCapacity {
            draws.deallocate()
            draws = .allocate(capacity: entries)
            drawCapacity = entries
        }
    }

    func block(batch: Int, rows: Range<Int>) -> VertexBlock {
        VertexBlock(
            batch: batch, rows: rows, vertices: UnsafeBufferPointer(start: vertices, count: vertexCount),
            draws: UnsafeBufferPointer(start: draws, count: drawCount))
    }
}
