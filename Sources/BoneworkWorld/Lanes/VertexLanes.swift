import BoneworkFormat

/// The vertex system on 4 or 8 instances at once (`LaneVector`). In a chunked layout whose
/// chunk size is a multiple of the width, bone k of rows r ..< r + width (r a multiple of the
/// width) is that many consecutive floats of each world transform column: one vector per column,
/// one lane per instance. When the rows draw the same slots in the same order, each draw that
/// shows the same attachment and image on every lane (a region, or a mesh with deform on no lane
/// or on all) is computed once for all lanes; weighted meshes without deform that differ between
/// the lanes once per attachment shown (the lanes showing another write to scratch); the other
/// draws go lane by lane. Rows whose lists differ only by draws some rows lack (in setup draw
/// order) are aligned slot by slot first (`VertexLanes+Align.swift`). Rows that do not form a
/// group of 8 try a group of 4, then the scalar code.
///
/// Per lane the float operations are the scalar path's, in its order, so the vertices are bit
/// for bit the same; each lane's vertices go where the scalar path puts them (rows in order,
/// each row's draws in order) and every draw gets the same offset and count.
extension VertexSystem {
    /// Whether `update` runs the lane path on `cols`: chunk size a multiple of 4 and world
    /// transform columns aligned to 16 bytes (so 4 lanes are one aligned vector).
    @inline(__always)
    static func lanesApply(_ cols: VertexColumns) -> Bool {
        guard cols.layout.chunkSize & 3 == 0 else { return false }
        let bits =
            UInt(bitPattern: cols.a) | UInt(bitPattern: cols.b) | UInt(bitPattern: cols.c)
            | UInt(bitPattern: cols.d) | UInt(bitPattern: cols.worldX) | UInt(bitPattern: cols.worldY)
        return bits & 15 == 0
    }

    /// `update` when `lanesApply(cols)`: groups of 8 rows (chunk sizes that are a multiple of
    /// 8) or 4 rows with matching draw lists take the lane path, other rows the scalar one.
    static func updateLanes(_ cols: VertexColumns, _ rig: RigTables, draws: Range<Int>, into out: VertexScratch) {
        let list = out.draws
        let vertices = out.vertices
        let capacity = out.vertexCapacity
        let gathered = out.bones
        let eight = cols.layout.chunkSize & 7 == 0
        var gatheredRow = -1
        var used = 0
        var k = draws.lowerBound
        let end = draws.upperBound
        while k < end {
            let row = Int(list[k].row)
            var next = k &+ 1
            while next < end && Int(list[next].row) == row { next &+= 1 }
            let n = next &- k
            if eight && row & 7 == 0 && listsAgree(list, start: k, count: n, end: end, lanes: 8) {
                used = group(
                    SIMD8<Float>.self, cols, rig, list: list, start: k, count: n, vertices: vertices, used: used,
                    capacity: capacity, scratch: out)
                k &+= 8 &* n
                continue
            }
            if row & 3 == 0 && listsAgree(list, start: k, count: n, end: end, lanes: 4) {
                used = group(
                    SIMD4<Float>.self, cols, rig, list: list, start: k, count: n, vertices: vertices, used: used,
                    capacity: capacity, scratch: out)
                k &+= 4 &* n
                continue
            }
            // Rows whose lists differ by draws some of them lack (an attachment shown in some
            // instances only), each in setup draw order: their lists aligned slot by slot.
            if eight && row & 7 == 0, let groupEnd = alignable(list, start: k, end: end, lanes: 8, scratch: out) {
                used = assignOffsets(rig, list: list, draws: k..<groupEnd, used: used, capacity: capacity)
                let count = align(list, lanes: 8, stride: rig.slotCount, into: out)
                compute(
                    SIMD8<Float>.self, cols, rig, list: out.aligned, start: 0, count: count, stride: rig.slotCount,
                    vertices: vertices, scratch: out)
                k = groupEnd
                continue
            }
            if row & 3 == 0, let groupEnd = alignable(list, start: k, end: end, lanes: 4, scratch: out) {
                used = assignOffsets(rig, list: list, draws: k..<groupEnd, used: used, capacity: capacity)
                let count = align(list, lanes: 4, stride: rig.slotCount, into: out)
                compute(
                    SIMD4<Float>.self, cols, rig, list: out.aligned, start: 0, count: count, stride: rig.slotCount,
                    vertices: vertices, scratch: out)
                k = groupEnd
                continue
            }
            let r = cols.rows(row)
            while k < next {
                let draw = list[k]
                let s = Int(draw.slot)
                let room = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
                if used &+ room <= capacity {
                    let written = max(
                        0,
                        compute(
                            cols, rig, r, draw, room: room, bones: gathered, gatheredRow: &gatheredRow,
                            into: vertices + used))
                    list[k].offset = Int32(truncatingIfNeeded: used)
                    list[k].count = Int32(truncatingIfNeeded: written)
                    used &+= written
                } else {
                    list[k].count = 0
                }
                k &+= 1
            }
        }
        out.vertexCount = used
    }

    /// Whether the `count` draws from `start` (one row, a multiple of `lanes`) are followed by
    /// the next `lanes - 1` rows' lists, each `count` draws long with the same slots in the same
    /// order.
    @inline(__always)
    static func listsAgree(
        _ list: UnsafeMutablePointer<VertexDraw>, start: Int, count n: Int, end: Int, lanes: Int
    ) -> Bool {
        guard end &- start >= lanes &* n else { return false }
        let row = list[start].row
        for lane in 1..<lanes {
            let first = start &+ lane &* n
            // Rows are listed in increasing order, so the first and last entries bound the row.
            if list[first].row != row &+ Int32(lane) || list[first &+ n &- 1].row != row &+ Int32(lane) {
                return false
            }
        }
        let after = start &+ lanes &* n
        if after < end && list[after].row == row &+ Int32(lanes &- 1) { return false }
        for j in 0..<n {
            let s = list[start &+ j].slot
            for lane in 1..<lanes where list[start &+ lane &* n &+ j].slot != s {
                return false
            }
        }
        return true
    }

    /// One group of `V.scalarCount` rows whose lists agree (`listsAgree`), `n` draws each from
    /// `start`: sets every draw's offset and count as the scalar path would, then computes the
    /// vertices, in lanes where the lanes' draws show the same thing. Returns the floats used.
    static func group<V: LaneVector>(
        _: V.Type, _ cols: VertexColumns, _ rig: RigTables, list: UnsafeMutablePointer<VertexDraw>, start: Int,
        count n: Int, vertices: UnsafeMutablePointer<Float>, used start0: Int, capacity: Int, scratch: VertexScratch
    ) -> Int {
        let used = assignOffsets(
            rig, list: list, draws: start..<(start &+ V.scalarCount &* n), used: start0, capacity: capacity)
        compute(V.self, cols, rig, list: list, start: start, count: n, stride: n, vertices: vertices, scratch: scratch)
        return used
    }

    /// The vertices of `n` draws per lane of `list` (offsets and counts set): lane L's draw j at
    /// `start + L * stride + j`, every lane's draw j of the same slot (or a placeholder of count 0
    /// for a lane that draws nothing there, `alignLists`). In lanes where the lanes' draws show
    /// the same thing, else as `group` describes.
    static func compute<V: LaneVector>(
        _: V.Type, _ cols: VertexColumns, _ rig: RigTables, list: UnsafeMutablePointer<VertexDraw>, start: Int,
        count n: Int, stride: Int, vertices: UnsafeMutablePointer<Float>, scratch: VertexScratch
    ) {
        let width = V.scalarCount
        let row0 = Int(list[start].row)
        let rows0 = cols.rows(row0)
        let lanes = LaneBones(cols, rows0)
        let table = scratch.lanes
        let discard = scratch.discard
        // Gathered on first need (`gatherLanes`). Written out at each use rather than in a local
        // function: a debug build boxes a variable a local function captures, an allocation.
        var tableFilled = false
        for j in 0..<n {
            let k0 = start &+ j
            let d0 = list[k0]
            let attachment = Int(d0.attachment)
            var same = d0.count > 0
            // One pointer stepping `stride` draws per lane: indexing with `lane * n` kept an offset per
            // lane live across the whole draw loop, and the spills cost 74 instructions per spineboy
            // skeleton-frame (`Benchmarks/callgrind.sh`).
            var other = list + k0
            for _ in 1..<width where same {
                other += stride
                let d = other.pointee
                same = d.attachment == d0.attachment && d.frame == d0.frame && d.count == d0.count
            }
            var kind = AttachmentKind.point
            // Meshes: deform on no lane, or on all (`deformed`); mixed goes lane by lane.
            var deformed = false
            if same {
                kind = rig.attachmentKind(attachment)
                if kind == .mesh {
                    // The lanes' rows are neighbours in the slot field columns: lane L's deform
                    // length is L past lane 0's.
                    let deformRow = Int(rig.slotDeformRow[Int(d0.slot)])
                    var with = 0
                    if deformRow >= 0 {
                        let lengths = cols.deformLength + rows0.deformSlot(deformRow)
                        for lane in 0..<width where lengths[lane] != 0 { with &+= 1 }
                    }
                    same = with == 0 || with == width
                    deformed = with == width
                } else {
                    same = kind == .region
                }
            }
            if same {
                let out = LaneOut(lanes: width) { vertices + Int(list[k0 &+ $0 &* stride].offset) }
                let s = Int(d0.slot)
                if kind == .region {
                    regionLanes(
                        V.self, lanes, bone: Int(rig.slotBone[s]), corners: rig.frameOffsets + Int(d0.frame) &* 8, out)
                    continue
                }
                if rig.attachmentBoneCount[attachment] > 0 {
                    if !tableFilled {
                        gatherLanes(V.self, lanes, rig, into: table)
                        tableFilled = true
                    }
                    if deformed {
                        let deform = laneDeform(cols, rig, row0, lanes: width, slot: s)
                        skinLanes(V.self, rig, attachment: attachment, UnsafeRawPointer(table), deform: deform, out)
                    } else {
                        skinLanes(V.self, rig, attachment: attachment, UnsafeRawPointer(table), deform: nil, out)
                    }
                } else if deformed {
                    let deform = laneDeform(cols, rig, row0, lanes: width, slot: s)
                    meshLanes(
                        V.self, rig, attachment: attachment, lanes, bone: Int(rig.slotBone[s]), deform: deform, out)
                } else {
                    meshLanes(V.self, rig, attachment: attachment, lanes, bone: Int(rig.slotBone[s]), deform: nil, out)
                }
                continue
            }
            // Weighted meshes without deform that differ between lanes: once per attachment in
            // lanes, the lanes showing another one writing to `discard`.
            var allWeighted = true
            for lane in 0..<width where allWeighted {
                allWeighted = weightedWithoutDeform(cols, rig, list, k0 &+ lane &* stride, cols.rows(row0 &+ lane))
            }
            if allWeighted {
                if !tableFilled {
                    gatherLanes(V.self, lanes, rig, into: table)
                    tableFilled = true
                }
                for lane in 0..<width {
                    let shown = list[k0 &+ lane &* stride].attachment
                    var first = true
                    for earlier in 0..<lane where list[k0 &+ earlier &* stride].attachment == shown { first = false }
                    guard first else { continue }
                    let out = LaneOut(lanes: width) {
                        let d = list[k0 &+ $0 &* stride]
                        return d.attachment == shown ? vertices + Int(d.offset) : discard
                    }
                    skinLanes(V.self, rig, attachment: Int(shown), UnsafeRawPointer(table), deform: nil, out)
                }
                continue
            }
            // Lane by lane: weighted meshes from the lanes' bone records, others as the scalar path.
            for lane in 0..<width {
                let k = k0 &+ lane &* stride
                let draw = list[k]
                guard draw.count > 0 else { continue }
                let r = cols.rows(row0 &+ lane)
                let s = Int(draw.slot)
                let shown = Int(draw.attachment)
                if rig.attachmentBoneCount[shown] > 0 && rig.attachmentKind(shown) == .mesh {
                    if !tableFilled {
                        gatherLanes(V.self, lanes, rig, into: table)
                        tableFilled = true
                    }
                    let deform: UnsafePointer<Float>? =
                        cols.deformLength(rig, r, slot: s) == 0
                        ? nil : UnsafePointer(cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s])))
                    skinLane(
                        V.self, rig, attachment: shown, UnsafeRawPointer(table) + lane &* 4, deform: deform,
                        vertices + Int(draw.offset))
                    continue
                }
                let room = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
                _ = computeSlot(
                    cols, rig, r, slot: s, attachment: shown, frame: draw.frame, into: vertices + Int(draw.offset),
                    capacity: room)
            }
        }
    }

    /// Whether draw `k` (of the row at `r`) is a weighted mesh without deform that gets its
    /// vertices (a count the scalar path would write in full).
    @inline(__always)
    static func weightedWithoutDeform(
        _ cols: VertexColumns, _ rig: RigTables, _ list: UnsafeMutablePointer<VertexDraw>, _ k: Int, _ r: InstanceRows
    ) -> Bool {
        let draw = list[k]
        let attachment = Int(draw.attachment)
        return draw.count > 0 && rig.attachmentBoneCount[attachment] > 0 && rig.attachmentKind(attachment) == .mesh
            && cols.deformLength(rig, r, slot: Int(draw.slot)) == 0
    }

    /// One lane's weighted mesh (with deform offsets when `deform` is not nil) from lane records
    /// of `V` (`gatherLanes`; `g` points at the lane's float of the first record): the scalar
    /// path's float operations, in its order.
    @inline(__always)
    static func skinLane<V: LaneVector>(
        _: V.Type, _ rig: RigTables, attachment: Int, _ g: UnsafeRawPointer, deform: UnsafePointer<Float>?,
        _ out: UnsafeMutablePointer<Float>
    ) {
        let field = MemoryLayout<V>.stride
        let length = Int(rig.attachmentWorldLength[attachment])
        var bones = rig.laneBonePool + Int(rig.attachmentBoneStart[attachment])
        let vertices = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
        var f = 0  // cursor in vertices (3 per influence)
        var o = 0  // cursor in deform offsets (2 per influence)
        var w = 0  // output cursor
        while w < length {
            var wx: Float = 0
            var wy: Float = 0
            let end = bones + 1 + Int(bones.pointee)
            bones += 1
            while bones < end {
                let t = g + Int(bones.pointee) &* V.recordScale
                var vx = vertices[f]
                var vy = vertices[f &+ 1]
                if let deform {
                    vx = vx + deform[o]
                    vy = vy + deform[o &+ 1]
                }
                let weight = vertices[f &+ 2]
                let a = t.load(as: Float.self)
                let b = t.load(fromByteOffset: field, as: Float.self)
                let c = t.load(fromByteOffset: 2 &* field, as: Float.self)
                let d = t.load(fromByteOffset: 3 &* field, as: Float.self)
                let x = t.load(fromByteOffset: 4 &* field, as: Float.self)
                let y = t.load(fromByteOffset: 5 &* field, as: Float.self)
                wx += (vx * a + vy * b + x) * weight
                wy += (vx * c + vy * d + y) * weight
                bones += 1
                f &+= 3
                o &+= 2
            }
            out[w] = wx
            out[w &+ 1] = wy
            w &+= 2
        }
    }

    /// World vertices of a region in every lane: per corner, as the scalar path,
    /// x = ox * a + oy * b + worldX and y = ox * c + oy * d + worldY.
    @inline(__always)
    static func regionLanes<V: LaneVector>(
        _: V.Type, _ t: LaneBones, bone: Int, corners o: UnsafePointer<Float>, _ out: LaneOut
    ) {
        let m = t.bone(V.self, bone)
        @inline(__always) func corner(_ j: Int) {
            let (x, y) = m.point(V(repeating: o[j]), V(repeating: o[j &+ 1]))
            // Corner offsets are stored BL, UL, UR, BR; output starts at BR.
            V.store(x, y, out, at: (j &+ 2) & 7)
        }
        corner(6)
        corner(0)
        corner(2)
        corner(4)
    }

    /// World vertices of an unweighted mesh in every lane: x = vx * a + vy * b + worldX,
    /// y = vx * c + vy * d + worldY, from the setup vertices, or with `deform` from each lane's
    /// deform buffer (read as (x, y) pairs and transposed). Callers pass `deform` or `nil` at
    /// separate call sites, so each inlined copy knows which.
    @inline(__always)
    static func meshLanes<V: LaneVector>(
        _: V.Type, _ rig: RigTables, attachment: Int, _ t: LaneBones, bone: Int, deform: LaneOut?, _ out: LaneOut
    ) {
        let length = Int(rig.attachmentWorldLength[attachment])
        let vertices = rig.vertexPool + Int(rig.attachmentVertexStart[attachment])
        let m = t.bone(V.self, bone)
        var v = 0
        while v < length {
            if let deform {
                let (vx, vy) = V.load(deform, at: v)
                let (x, y) = m.point(vx, vy)
                V.store(x, y, out, at: v)
            } else {
                let (x, y) = m.point(V(repeating: vertices[v]), V(repeating: vertices[v &+ 1]))
                V.store(x, y, out, at: v)
            }
            v &+= 2
        }
    }

    /// The deform buffers of slot `s` of the `lanes` rows from `row0`.
    @inline(__always)
    static func laneDeform(_ cols: VertexColumns, _ rig: RigTables, _ row0: Int, lanes: Int, slot s: Int) -> LaneOut {
        let offset = Int(rig.slotDeformOffset[s])
        // Read only: `LaneOut` addresses lanes for stores as well, hence its mutable pointers.
        return LaneOut(lanes: lanes) {
            UnsafeMutablePointer(mutating: cols.deform + (cols.rows(row0 &+ $0).deform &+ offset))
        }
    }

    /// Copies the lanes' world transforms of the bones weighted meshes use
    /// (`RigTables.laneBones`) into `g`: per bone a, b, c, d, worldX, worldY, one vector each.
    @inline(__always)
    static func gatherLanes<V: LaneVector>(
        _: V.Type, _ t: LaneBones, _ rig: RigTables, into g: UnsafeMutableRawPointer
    ) {
        let field = MemoryLayout<V>.stride
        var record = g
        for i in 0..<rig.laneBoneCount {
            let m = t.bone(V.self, Int(rig.laneBones[i]))
            record.storeBytes(of: m.a, as: V.self)
            record.storeBytes(of: m.b, toByteOffset: field, as: V.self)
            record.storeBytes(of: m.c, toByteOffset: 2 &* field, as: V.self)
            record.storeBytes(of: m.d, toByteOffset: 3 &* field, as: V.self)
            record.storeBytes(of: m.x, toByteOffset: 4 &* field, as: V.self)
            record.storeBytes(of: m.y, toByteOffset: 5 &* field, as: V.self)
            record += 6 &* field
        }
    }

    /// World vertices of a weighted mesh in every lane: per vertex, from 0, per influence in
    /// order x += (vx * a + vy * b + worldX) * weight and y += (vx * c + vy * d + worldY) * weight,
    /// where with `deform` (deform on every lane) each lane's vx, vy get its deform offsets added,
    /// read as (x, y) pairs and transposed. `g` holds the lanes' bone records (`gatherLanes`),
    /// which `RigTables.laneBonePool` addresses by byte offset (of 4-lane records). Inlined at
    /// both call sites, so the deform test folds away.
    @inline(__always)
    static func skinLanes<V: LaneVector>(
        _: V.Type, _ rig: RigTables, attachment: Int, _ g: UnsafeRawPointer, deform: LaneOut?, _ out: LaneOut
    ) {
        let field = MemoryLayout<V>.stride
        let length = Int(rig.attachmentWorldLength[attachment])
        var bones = rig.laneBonePool + Int(rig.attachmentBoneStart[attachment])
        // Per influence x, y and weight in every lane.
        var s = rig.laneSkinPool + ((Int(rig.attachmentSkinStart[attachment]) &* 3) &>> 1)
        var o = 0  // cursor in deform offsets (2 per influence)
        var w = 0  // output cursor
        while w < length {
            var x = V(repeating: 0)
            var y = V(repeating: 0)
            let end = bones + 1 + Int(bones.pointee)
            bones += 1
            while bones < end {
                let t = g + Int(bones.pointee) &* V.recordScale
                var vx = V.splat(s)
                var vy = V.splat(s + 1)
                if let deform {
                    let (dx, dy) = V.load(deform, at: o)
                    vx = vx + dx
                    vy = vy + dy
                    o &+= 2
                }
                let weight = V.splat(s + 2)
                let a = t.load(as: V.self)
                let b = t.load(fromByteOffset: field, as: V.self)
                let c = t.load(fromByteOffset: 2 &* field, as: V.self)
                let d = t.load(fromByteOffset: 3 &* field, as: V.self)
                let wx = t.load(fromByteOffset: 4 &* field, as: V.self)
                let wy = t.load(fromByteOffset: 5 &* field, as: V.self)
                x += (vx * a + vy * b + wx) * weight
                y += (vx * c + vy * d + wy) * weight
                bones += 1
                s += 3
            }
            V.store(x, y, out, at: w)
            w &+= 2
        }
    }
}

/// The world transform columns of consecutive lanes (rows r ..< r + width, r a multiple of the
/// width, in a chunked layout whose chunk size is a multiple of the width): bone k's lanes are
/// the vector `stride * k` bytes past each pointer.
struct LaneBones {
    let a: UnsafeRawPointer
    let b: UnsafeRawPointer
    let c: UnsafeRawPointer
    let d: UnsafeRawPointer
    let x: UnsafeRawPointer
    let y: UnsafeRawPointer
    /// Bytes from one bone's lanes to the next bone's.
    let stride: Int

    /// The lanes of `r` (the group's first row) in `cols`.
    @inline(__always)
    init(_ cols: VertexColumns, _ r: InstanceRows) {
        a = UnsafeRawPointer(cols.a + r.bone)
        b = UnsafeRawPointer(cols.b + r.bone)
        c = UnsafeRawPointer(cols.c + r.bone)
        d = UnsafeRawPointer(cols.d + r.bone)
        x = UnsafeRawPointer(cols.worldX + r.bone)
        y = UnsafeRawPointer(cols.worldY + r.bone)
        stride = r.stride &* MemoryLayout<Float>.stride
    }

    /// Bone `k`'s world transform, one lane per instance.
    @inline(__always)
    func bone<V: LaneVector>(_: V.Type, _ k: Int) -> LaneWorld<V> {
        let o = k &* stride
        return LaneWorld(
            a: V.column(a + o), b: V.column(b + o), c: V.column(c + o), d: V.column(d + o), x: V.column(x + o),
            y: V.column(y + o))
    }
}
