import BoneworkFormat

/// The vertex system on four instances at once. In a chunked layout whose chunk size is a
/// multiple of 4, bone k of rows r ..< r + 4 (r a multiple of 4) is 4 consecutive floats of
/// each world transform column: one vector per column, one lane per instance. When the 4 rows
/// draw the same slots in the same order, each draw that shows the same attachment and image
/// on all 4 (a region, or a mesh with deform on no lane or on all 4) is computed once for the 4
/// lanes; weighted meshes without deform that differ between the lanes once per attachment
/// shown (the lanes showing another write to scratch); the other draws, and rows that do not
/// form such a group, go through the scalar code.
///
/// Per lane the float operations are the scalar path's, in its order, so the vertices are bit
/// for bit the same; each lane's vertices go where the scalar path puts them (rows in order,
/// each row's draws in order) and every draw gets the same offset and count.
extension VertexSystem {
    /// Whether `update` runs the lane path on `cols`: chunk size a multiple of 4 and world
    /// transform columns aligned to 16 bytes (so 4 lanes are one aligned vector).
    @inline(__always)
    static func lanesApply(_ cols: BatchColumns) -> Bool {
        guard cols.layout.chunkSize & 3 == 0 else { return false }
        let bits =
            UInt(bitPattern: cols.a) | UInt(bitPattern: cols.b) | UInt(bitPattern: cols.c)
            | UInt(bitPattern: cols.d) | UInt(bitPattern: cols.worldX) | UInt(bitPattern: cols.worldY)
        return bits & 15 == 0
    }

    /// `update` when `lanesApply(cols)`: groups of 4 rows with matching draw lists take the lane
    /// path, other rows the scalar one.
    static func updateLanes(_ cols: BatchColumns, _ rig: RigTables, draws: Range<Int>, into out: VertexScratch) {
        let list = out.draws
        let vertices = out.vertices
        let capacity = out.vertexCapacity
        let gathered = out.bones
        var gatheredRow = -1
        var used = 0
        var k = draws.lowerBound
        let end = draws.upperBound
        while k < end {
            let row = Int(list[k].row)
            var next = k &+ 1
            while next < end && Int(list[next].row) == row { next &+= 1 }
            let n = next &- k
            if row & 3 == 0 && listsAgree(list, start: k, count: n, end: end) {
                used = group(
                    cols, rig, list: list, start: k, count: n, vertices: vertices, used: used, capacity: capacity,
                    lanes: out.lanes, discard: out.discard)
                k &+= 4 &* n
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

    /// Whether the `count` draws from `start` (one row, a multiple of 4) are followed by the
    /// next 3 rows' lists, each `count` draws long with the same slots in the same order.
    @inline(__always)
    static func listsAgree(_ list: UnsafeMutablePointer<VertexDraw>, start: Int, count n: Int, end: Int) -> Bool {
        guard end &- start >= 4 &* n else { return false }
        let row = list[start].row
        for lane in 1..<4 {
            let first = start &+ lane &* n
            // Rows are listed in increasing order, so the first and last entries bound the row.
            if list[first].row != row &+ Int32(lane) || list[first &+ n &- 1].row != row &+ Int32(lane) {
                return false
            }
        }
        let after = start &+ 4 &* n
        if after < end && list[after].row == row &+ 3 { return false }
        for j in 0..<n {
            let s = list[start &+ j].slot
            if list[start &+ n &+ j].slot != s || list[start &+ 2 &* n &+ j].slot != s
                || list[start &+ 3 &* n &+ j].slot != s
            {
                return false
            }
        }
        return true
    }

    /// The floats the scalar path writes for a draw of `attachment` showing `frame` given `room`
    /// floats (`compute`'s result).
    @inline(__always)
    static func expectedCount(_ rig: RigTables, attachment: Int, frame: Int32, room: Int) -> Int {
        guard attachment >= 0 else { return 0 }
        switch rig.attachmentKind(attachment) {
        case .region:
            return room >= 8 && rig.attFrameCount[attachment] > 0 && frame >= 0 ? 8 : 0
        case .mesh:
            let length = Int(rig.attWorldLength[attachment])
            return length <= room ? length : 0
        default:
            return 0
        }
    }

    /// One group of 4 rows whose lists agree (`listsAgree`), `n` draws each from `start`: sets
    /// every draw's offset and count as the scalar path would, then computes the vertices, in
    /// lanes where the 4 draws show the same thing. Returns the floats used.
    static func group(
        _ cols: BatchColumns, _ rig: RigTables, list: UnsafeMutablePointer<VertexDraw>, start: Int, count n: Int,
        vertices: UnsafeMutablePointer<Float>, used start0: Int, capacity: Int,
        lanes table: UnsafeMutablePointer<SIMD4<Float>>, discard: UnsafeMutablePointer<Float>
    ) -> Int {
        // Offsets and counts, in list order.
        var used = start0
        for k in start..<(start &+ 4 &* n) {
            let draw = list[k]
            let s = Int(draw.slot)
            let room = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
            guard used &+ room <= capacity else {
                list[k].count = 0
                continue
            }
            let written = expectedCount(rig, attachment: Int(draw.attachment), frame: draw.frame, room: room)
            list[k].offset = Int32(truncatingIfNeeded: used)
            list[k].count = Int32(truncatingIfNeeded: written)
            used &+= written
        }
        let row0 = Int(list[start].row)
        let rows = (cols.rows(row0), cols.rows(row0 &+ 1), cols.rows(row0 &+ 2), cols.rows(row0 &+ 3))
        let lanes = LaneBones(cols, rows.0)
        var tableFilled = false
        for j in 0..<n {
            let k0 = start &+ j
            let k1 = k0 &+ n
            let k2 = k1 &+ n
            let k3 = k2 &+ n
            let d0 = list[k0]
            let attachment = Int(d0.attachment)
            let count = d0.count
            var same =
                count > 0 && list[k1].attachment == d0.attachment && list[k2].attachment == d0.attachment
                && list[k3].attachment == d0.attachment && list[k1].frame == d0.frame && list[k2].frame == d0.frame
                && list[k3].frame == d0.frame && list[k1].count == count && list[k2].count == count
                && list[k3].count == count
            var kind = AttachmentKind.point
            // Meshes: deform on no lane, or on all 4 (`deformed`); mixed goes lane by lane.
            var deformed = false
            if same {
                kind = rig.attachmentKind(attachment)
                if kind == .mesh {
                    let s = Int(d0.slot)
                    let with =
                        (cols.deformLength(rig, rows.0, slot: s) != 0 ? 1 : 0)
                        &+ (cols.deformLength(rig, rows.1, slot: s) != 0 ? 1 : 0)
                        &+ (cols.deformLength(rig, rows.2, slot: s) != 0 ? 1 : 0)
                        &+ (cols.deformLength(rig, rows.3, slot: s) != 0 ? 1 : 0)
                    same = with == 0 || with == 4
                    deformed = with == 4
                } else {
                    same = kind == .region
                }
            }
            if same {
                let out = LaneOut(
                    vertices + Int(d0.offset), vertices + Int(list[k1].offset), vertices + Int(list[k2].offset),
                    vertices + Int(list[k3].offset))
                let s = Int(d0.slot)
                if kind == .region {
                    regionLanes(
                        lanes, bone: Int(rig.slotBone[s]), corners: rig.frameOffsets + Int(d0.frame) &* 8, out)
                    continue
                }
                if rig.attBoneCount[attachment] > 0 {
                    if !tableFilled {
                        gatherLanes(lanes, rig, into: table)
                        tableFilled = true
                    }
                    if deformed {
                        let deform = laneDeform(cols, rig, rows, slot: s)
                        skinLanes(rig, attachment: attachment, UnsafeRawPointer(table), deform: deform, out)
                    } else {
                        skinLanes(rig, attachment: attachment, UnsafeRawPointer(table), deform: nil, out)
                    }
                } else if deformed {
                    let deform = laneDeform(cols, rig, rows, slot: s)
                    meshLanes(rig, attachment: attachment, lanes, bone: Int(rig.slotBone[s]), deform: deform, out)
                } else {
                    meshLanes(rig, attachment: attachment, lanes, bone: Int(rig.slotBone[s]), deform: nil, out)
                }
                continue
            }
            // Weighted meshes without deform that differ between lanes: once per attachment in
            // lanes, the lanes showing another one writing to `discard`.
            if weightedWithoutDeform(cols, rig, list, k0, rows.0) && weightedWithoutDeform(cols, rig, list, k1, rows.1)
                && weightedWithoutDeform(cols, rig, list, k2, rows.2)
                && weightedWithoutDeform(cols, rig, list, k3, rows.3)
            {
                if !tableFilled {
                    gatherLanes(lanes, rig, into: table)
                    tableFilled = true
                }
                let d = (list[k0], list[k1], list[k2], list[k3])
                @inline(__always) func target(_ draw: VertexDraw, _ shown: Int32) -> UnsafeMutablePointer<Float> {
                    draw.attachment == shown ? vertices + Int(draw.offset) : discard
                }
                @inline(__always) func skin(_ shown: Int32) {
                    let out = LaneOut(target(d.0, shown), target(d.1, shown), target(d.2, shown), target(d.3, shown))
                    skinLanes(rig, attachment: Int(shown), UnsafeRawPointer(table), deform: nil, out)
                }
                let a = (d.0.attachment, d.1.attachment, d.2.attachment, d.3.attachment)
                skin(a.0)
                if a.1 != a.0 { skin(a.1) }
                if a.2 != a.0 && a.2 != a.1 { skin(a.2) }
                if a.3 != a.0 && a.3 != a.1 && a.3 != a.2 { skin(a.3) }
                continue
            }
            // Lane by lane: weighted meshes from the lanes' bone records, others as the scalar path.
            laneDraw(cols, rig, list, k0, rows.0, vertices, table, lane: 0, &tableFilled, lanes)
            laneDraw(cols, rig, list, k1, rows.1, vertices, table, lane: 1, &tableFilled, lanes)
            laneDraw(cols, rig, list, k2, rows.2, vertices, table, lane: 2, &tableFilled, lanes)
            laneDraw(cols, rig, list, k3, rows.3, vertices, table, lane: 3, &tableFilled, lanes)
        }
        return used
    }

    /// Whether draw `k` (of the row at `r`) is a weighted mesh without deform that gets its
    /// vertices (a count the scalar path would write in full).
    @inline(__always)
    static func weightedWithoutDeform(
        _ cols: BatchColumns, _ rig: RigTables, _ list: UnsafeMutablePointer<VertexDraw>, _ k: Int, _ r: InstanceRows
    ) -> Bool {
        let draw = list[k]
        let attachment = Int(draw.attachment)
        return draw.count > 0 && rig.attBoneCount[attachment] > 0 && rig.attachmentKind(attachment) == .mesh
            && cols.deformLength(rig, r, slot: Int(draw.slot)) == 0
    }

    /// Draw `k` of a group on its own, at the offset `group` gave it: a weighted mesh from lane
    /// `lane` of the lanes' bone records (gathered here if not yet), anything else through the
    /// scalar path.
    @inline(__always)
    static func laneDraw(
        _ cols: BatchColumns, _ rig: RigTables, _ list: UnsafeMutablePointer<VertexDraw>, _ k: Int, _ r: InstanceRows,
        _ vertices: UnsafeMutablePointer<Float>, _ table: UnsafeMutablePointer<SIMD4<Float>>, lane: Int,
        _ tableFilled: inout Bool, _ lanes: LaneBones
    ) {
        let draw = list[k]
        guard draw.count > 0 else { return }
        let s = Int(draw.slot)
        let attachment = Int(draw.attachment)
        if rig.attBoneCount[attachment] > 0 && rig.attachmentKind(attachment) == .mesh {
            if !tableFilled {
                gatherLanes(lanes, rig, into: table)
                tableFilled = true
            }
            let deform: UnsafePointer<Float>? =
                cols.deformLength(rig, r, slot: s) == 0
                ? nil : UnsafePointer(cols.deform + (r.deform &+ Int(rig.slotDeformOffset[s])))
            skinLane(
                rig, attachment: attachment, UnsafeRawPointer(table) + lane &* 4, deform: deform,
                vertices + Int(draw.offset))
            return
        }
        let room = Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
        _ = computeSlot(
            cols, rig, r, slot: s, attachment: attachment, frame: draw.frame, into: vertices + Int(draw.offset),
            capacity: room)
    }

    /// One lane's weighted mesh (with deform offsets when `deform` is not nil) from lane records
    /// (`gatherLanes`; `g` points at the lane's float of the first record): the scalar path's
    /// float operations, in its order.
    @inline(__always)
    static func skinLane(
        _ rig: RigTables, attachment: Int, _ g: UnsafeRawPointer, deform: UnsafePointer<Float>?,
        _ out: UnsafeMutablePointer<Float>
    ) {
        let length = Int(rig.attWorldLength[attachment])
        var bones = rig.laneBonePool + Int(rig.attBoneStart[attachment])
        let vertices = rig.vertexPool + Int(rig.attVertexStart[attachment])
        var f = 0  // cursor in vertices (3 per influence)
        var o = 0  // cursor in deform offsets (2 per influence)
        var w = 0  // output cursor
        while w < length {
            var wx: Float = 0
            var wy: Float = 0
            let end = bones + 1 + Int(bones.pointee)
            bones += 1
            while bones < end {
                let t = g + Int(bones.pointee)
                var vx = vertices[f]
                var vy = vertices[f &+ 1]
                if let deform {
                    vx = vx + deform[o]
                    vy = vy + deform[o &+ 1]
                }
                let weight = vertices[f &+ 2]
                let a = t.load(as: Float.self)
                let b = t.load(fromByteOffset: 16, as: Float.self)
                let c = t.load(fromByteOffset: 32, as: Float.self)
                let d = t.load(fromByteOffset: 48, as: Float.self)
                let x = t.load(fromByteOffset: 64, as: Float.self)
                let y = t.load(fromByteOffset: 80, as: Float.self)
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

    /// World vertices of a region for 4 lanes: per corner, as the scalar path,
    /// x = ox * a + oy * b + worldX and y = ox * c + oy * d + worldY.
    @inline(__always)
    static func regionLanes(_ t: LaneBones, bone: Int, corners o: UnsafePointer<Float>, _ out: LaneOut) {
        let m = t.bone(bone)
        @inline(__always) func corner(_ j: Int) -> (x: SIMD4<Float>, y: SIMD4<Float>) {
            m.point(SIMD4(repeating: o[j]), SIMD4(repeating: o[j &+ 1]))
        }
        // Corner offsets are stored BL, UL, UR, BR; output starts at BR.
        out.store(corner(6), at: 0)
        out.store(corner(0), at: 2)
        out.store(corner(2), at: 4)
        out.store(corner(4), at: 6)
    }

    /// World vertices of an unweighted mesh for 4 lanes: x = vx * a + vy * b + worldX,
    /// y = vx * c + vy * d + worldY, from the setup vertices, or with `deform` from each lane's
    /// deform buffer (read as (x, y) pairs and transposed). Callers pass `deform` or `nil` at
    /// separate call sites, so each inlined copy knows which.
    @inline(__always)
    static func meshLanes(
        _ rig: RigTables, attachment: Int, _ t: LaneBones, bone: Int, deform: LaneOut?, _ out: LaneOut
    ) {
        let length = Int(rig.attWorldLength[attachment])
        let vertices = rig.vertexPool + Int(rig.attVertexStart[attachment])
        let m = t.bone(bone)
        var v = 0
        while v < length {
            if let deform {
                let (vx, vy) = deform.load(at: v)
                out.store(m.point(vx, vy), at: v)
            } else {
                out.store(m.point(SIMD4(repeating: vertices[v]), SIMD4(repeating: vertices[v &+ 1])), at: v)
            }
            v &+= 2
        }
    }

    /// The 4 lanes' deform buffers of slot `s`.
    @inline(__always)
    static func laneDeform(
        _ cols: BatchColumns, _ rig: RigTables, _ rows: (InstanceRows, InstanceRows, InstanceRows, InstanceRows),
        slot s: Int
    ) -> LaneOut {
        let offset = Int(rig.slotDeformOffset[s])
        return LaneOut(
            cols.deform + (rows.0.deform &+ offset), cols.deform + (rows.1.deform &+ offset),
            cols.deform + (rows.2.deform &+ offset), cols.deform + (rows.3.deform &+ offset))
    }

    /// Copies the 4 lanes' world transforms of the bones weighted meshes use
    /// (`RigTables.laneBones`) into `g`: per bone a, b, c, d, worldX, worldY, one vector each.
    @inline(__always)
    static func gatherLanes(_ t: LaneBones, _ rig: RigTables, into g: UnsafeMutablePointer<SIMD4<Float>>) {
        var o = 0
        for i in 0..<rig.laneBoneCount {
            let m = t.bone(Int(rig.laneBones[i]))
            g[o] = m.a
            g[o &+ 1] = m.b
            g[o &+ 2] = m.c
            g[o &+ 3] = m.d
            g[o &+ 4] = m.x
            g[o &+ 5] = m.y
            o &+= 6
        }
    }

    /// World vertices of a weighted mesh for 4 lanes: per vertex, from 0, per influence in order
    /// x += (vx * a + vy * b + worldX) * weight and y += (vx * c + vy * d + worldY) * weight, where
    /// with `deform` (deform on all 4 lanes) each lane's vx, vy get its deform offsets added, read
    /// as (x, y) pairs and transposed. `g` holds the lanes' bone records (`gatherLanes`), which
    /// `RigTables.laneBonePool` addresses by byte offset. Inlined at both call sites, so the
    /// deform test folds away.
    @inline(__always)
    static func skinLanes(
        _ rig: RigTables, attachment: Int, _ g: UnsafeRawPointer, deform: LaneOut?, _ out: LaneOut
    ) {
        let length = Int(rig.attWorldLength[attachment])
        var bones = rig.laneBonePool + Int(rig.attBoneStart[attachment])
        // Per influence x, y and weight in every lane.
        var s = rig.laneSkinPool + ((Int(rig.attSkinStart[attachment]) &* 3) &>> 1)
        var o = 0  // cursor in deform offsets (2 per influence)
        var w = 0  // output cursor
        while w < length {
            var x = SIMD4<Float>(repeating: 0)
            var y = SIMD4<Float>(repeating: 0)
            let end = bones + 1 + Int(bones.pointee)
            bones += 1
            while bones < end {
                let t = g + Int(bones.pointee)
                var vx = s[0]
                var vy = s[1]
                if let deform {
                    let (dx, dy) = deform.load(at: o)
                    vx = vx + dx
                    vy = vy + dy
                    o &+= 2
                }
                let weight = s[2]
                let a = t.load(as: SIMD4<Float>.self)
                let b = t.load(fromByteOffset: 16, as: SIMD4<Float>.self)
                let c = t.load(fromByteOffset: 32, as: SIMD4<Float>.self)
                let d = t.load(fromByteOffset: 48, as: SIMD4<Float>.self)
                let wx = t.load(fromByteOffset: 64, as: SIMD4<Float>.self)
                let wy = t.load(fromByteOffset: 80, as: SIMD4<Float>.self)
                x += (vx * a + vy * b + wx) * weight
                y += (vx * c + vy * d + wy) * weight
                bones += 1
                s += 3
            }
            out.store(x, y, at: w)
            w &+= 2
        }
    }
}

/// The world transform columns of 4 consecutive lanes (rows r ..< r + 4, r a multiple of 4, in a
/// chunked layout whose chunk size is a multiple of 4): bone k's lanes are the aligned vector
/// `stride * k` bytes past each pointer.
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
    init(_ cols: BatchColumns, _ r: InstanceRows) {
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
    func bone(_ k: Int) -> LaneWorld {
        let o = k &* stride
        return LaneWorld(
            a: a.load(fromByteOffset: o, as: SIMD4<Float>.self), b: b.load(fromByteOffset: o, as: SIMD4<Float>.self),
            c: c.load(fromByteOffset: o, as: SIMD4<Float>.self), d: d.load(fromByteOffset: o, as: SIMD4<Float>.self),
            x: x.load(fromByteOffset: o, as: SIMD4<Float>.self), y: y.load(fromByteOffset: o, as: SIMD4<Float>.self))
    }
}

/// Where each of 4 lanes' vertices of one draw go (or, for deform, where each lane's floats
/// are read from).
struct LaneOut {
    let p0: UnsafeMutablePointer<Float>
    let p1: UnsafeMutablePointer<Float>
    let p2: UnsafeMutablePointer<Float>
    let p3: UnsafeMutablePointer<Float>

    @inline(__always)
    init(
        _ p0: UnsafeMutablePointer<Float>, _ p1: UnsafeMutablePointer<Float>, _ p2: UnsafeMutablePointer<Float>,
        _ p3: UnsafeMutablePointer<Float>
    ) {
        self.p0 = p0
        self.p1 = p1
        self.p2 = p2
        self.p3 = p3
    }

    /// Writes lane i's (x[i], y[i]) at floats w, w + 1 of lane i's output: a transpose into
    /// (x0, y0, x1, y1) and (x2, y2, x3, y3), then one 8-byte store per lane (each pair moved
    /// as the bits of one 64-bit lane, so the stores take the low or high half in place).
    @inline(__always)
    func store(_ x: SIMD4<Float>, _ y: SIMD4<Float>, at w: Int) {
        let low = unsafeBitCast(SIMD4(x[0], y[0], x[1], y[1]), to: SIMD2<Double>.self)
        let high = unsafeBitCast(SIMD4(x[2], y[2], x[3], y[3]), to: SIMD2<Double>.self)
        UnsafeMutableRawPointer(p0 + w).storeBytes(of: low[0], as: Double.self)
        UnsafeMutableRawPointer(p1 + w).storeBytes(of: low[1], as: Double.self)
        UnsafeMutableRawPointer(p2 + w).storeBytes(of: high[0], as: Double.self)
        UnsafeMutableRawPointer(p3 + w).storeBytes(of: high[1], as: Double.self)
    }

    /// `store` of a point (`LaneWorld.point`).
    @inline(__always)
    func store(_ point: (x: SIMD4<Float>, y: SIMD4<Float>), at w: Int) {
        store(point.x, point.y, at: w)
    }

    /// Reads lane i's floats w, w + 1 as (x[i], y[i]): one 8-byte load per lane, then the
    /// transpose of `store`.
    @inline(__always)
    func load(at w: Int) -> (SIMD4<Float>, SIMD4<Float>) {
        let low = unsafeBitCast(
            SIMD2(
                UnsafeRawPointer(p0 + w).loadUnaligned(as: Double.self),
                UnsafeRawPointer(p1 + w).loadUnaligned(as: Double.self)), to: SIMD4<Float>.self)
        let high = unsafeBitCast(
            SIMD2(
                UnsafeRawPointer(p2 + w).loadUnaligned(as: Double.self),
                UnsafeRawPointer(p3 + w).loadUnaligned(as: Double.self)), to: SIMD4<Float>.self)
        return (SIMD4(low[0], low[2], high[0], high[2]), SIMD4(low[1], low[3], high[1], high[3]))
    }
}
