import BoneworkFormat

/// Where a lane group's vertices go (`assignOffsets`, `expectedCount`: the scalar path's
/// offsets and counts), and lane groups whose draw lists differ: instances playing different
/// animations show different attachments in a few slots (an effect, a blink), so their lists
/// have the same slots but for some draws only some rows have. When every row's list is in setup draw order (increasing
/// slots), the lists are aligned slot by slot: lane L's j-th entry is its draw of the j-th slot
/// any lane draws, or a placeholder of count 0 where it draws nothing. `compute` then takes the
/// slots every lane draws alike in lanes and the rest lane by lane, as for agreeing lists.
extension VertexSystem {
    /// Whether the `lanes` rows from `list[start].row` (a multiple of `lanes`) can be aligned:
    /// each has draws, the rows are consecutive from `start` within `end`, and each row's slots
    /// increase. Returns the end of their draws, with each row's draws' bounds in
    /// `scratch.laneCursors` (starts, then ends from index 8); nil otherwise.
    @inline(__always)
    static func alignable(
        _ list: UnsafeMutablePointer<VertexDraw>, start: Int, end: Int, lanes: Int, scratch: VertexScratch
    ) -> Int? {
        let row = list[start].row
        let bounds = scratch.laneCursors
        var k = start
        for lane in 0..<lanes {
            let laneRow = row &+ Int32(lane)
            guard k < end && list[k].row == laneRow else { return nil }
            bounds[lane] = k
            var previous: Int32 = -1
            while k < end && list[k].row == laneRow {
                let slot = list[k].slot
                guard slot > previous else { return nil }
                previous = slot
                k &+= 1
            }
            bounds[8 &+ lane] = k
        }
        return k
    }

    /// Copies the rows' draws (offsets and counts set) found by `alignable` into
    /// `scratch.aligned`, lane L's entries from `L * stride`: entry j of every lane is of the
    /// j-th slot drawn by any lane (a placeholder of count 0 and no attachment for a lane that
    /// does not draw it). Returns the entries per lane (at most `stride`, the slot count).
    @inline(__always)
    static func align(_ list: UnsafeMutablePointer<VertexDraw>, lanes: Int, stride: Int, into scratch: VertexScratch)
        -> Int
    {
        let cursor = scratch.laneCursors
        let aligned = scratch.aligned
        let row = list[cursor[0]].row
        var count = 0
        while true {
            var slot = Int32.max
            for lane in 0..<lanes where cursor[lane] < cursor[8 &+ lane] {
                slot = min(slot, list[cursor[lane]].slot)
            }
            if slot == .max { break }
            for lane in 0..<lanes {
                let entry = aligned + (lane &* stride &+ count)
                let k = cursor[lane]
                if k < cursor[8 &+ lane] && list[k].slot == slot {
                    entry.pointee = list[k]
                    cursor[lane] = k &+ 1
                } else {
                    entry.pointee = VertexDraw(
                        row: row &+ Int32(lane), slot: slot, attachment: -1, frame: -1, offset: 0, count: 0)
                }
            }
            count &+= 1
        }
        return count
    }

    /// The floats the scalar path writes for a draw of `attachment` showing `frame` given `room`
    /// floats (`compute`'s result): a region 8 when it has an image, shows one and has room; a
    /// mesh its world length when there is room; anything else 0.
    @inline(__always)
    static func expectedCount(_ rig: RigTables, attachment: Int, frame: Int32, room: Int) -> Int {
        guard attachment >= 0 else { return 0 }
        let drawn = Int(rig.attachmentDrawnFloats[attachment])
        let floats = drawn >= 0 ? drawn : (frame >= 0 ? -drawn : 0)
        return floats <= room ? floats : 0
    }

    /// Every draw's offset and count in `draws` of `list`, in list order, as the scalar path
    /// sets them, the first at `start0`; returns the floats used.
    @inline(__always)
    static func assignOffsets(
        _ rig: RigTables, list: UnsafeMutablePointer<VertexDraw>, draws: Range<Int>, used start0: Int, capacity: Int
    ) -> Int {
        var used = start0
        guard !draws.isEmpty else { return used }
        // The draws of these rows fit when the rows' whole room does (the usual case: the vertex
        // buffer holds every row's room), and then no draw needs testing.
        let rows = Int(list[draws.upperBound &- 1].row &- list[draws.lowerBound].row) &+ 1
        if used &+ rows &* Int(rig.slotVertexOffset[rig.slotCount]) <= capacity {
            // Two loops rather than one testing `fits` per draw: the compiler keeps the test in
            // the loop (about 280 instructions per celestial-circus skeleton-frame).
            for k in draws { assign(rig, list, k, room: room(rig, list[k]), used: &used) }
            return used
        }
        for k in draws {
            let room = room(rig, list[k])
            guard used &+ room <= capacity else {
                list[k].count = 0
                continue
            }
            assign(rig, list, k, room: room, used: &used)
        }
        return used
    }

    /// The floats the vertex buffer holds for `draw`'s slot.
    @inline(__always)
    private static func room(_ rig: RigTables, _ draw: VertexDraw) -> Int {
        let s = Int(draw.slot)
        return Int(rig.slotVertexOffset[s &+ 1] &- rig.slotVertexOffset[s])
    }

    /// Sets draw `k`'s offset to `used` and its count as the scalar path would, given `room`
    /// floats, and advances `used`.
    @inline(__always)
    private static func assign(
        _ rig: RigTables, _ list: UnsafeMutablePointer<VertexDraw>, _ k: Int, room: Int, used: inout Int
    ) {
        let draw = list[k]
        let written = expectedCount(rig, attachment: Int(draw.attachment), frame: draw.frame, room: room)
        list[k].offset = Int32(truncatingIfNeeded: used)
        list[k].count = Int32(truncatingIfNeeded: written)
        used &+= written
    }
}
