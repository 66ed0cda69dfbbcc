import BoneworkFormat

/// One slot's drawing inputs as `PoseView.copySlotStates(_:into:)` copies them: what a renderer needs to
/// decide whether and how the slot draws, read in one pass instead of one call per field.
public struct SlotDrawState {
    /// The slot's current attachment (index into `SkeletonData.attachments`), -1 when none.
    public var attachment: Int32
    /// The slot's sequence index, -1 for the sequence's setup frame.
    public var sequenceIndex: Int32
    /// 1 when the slot's bone is active under the instance's skin, else 0.
    public var boneActive: Int32
    /// The slot's colour, red (straight alpha).
    public var r: Float
    /// The slot's colour, green.
    public var g: Float
    /// The slot's colour, blue.
    public var b: Float
    /// The slot's colour, alpha.
    public var a: Float
    /// The slot's dark colour, red (black when the slot has none).
    public var darkR: Float
    /// The slot's dark colour, green.
    public var darkG: Float
    /// The slot's dark colour, blue.
    public var darkB: Float

    /// A slot that shows nothing (its fields as an empty slot reads).
    public init() {
        attachment = -1
        sequenceIndex = 0
        boneActive = 0
        r = 1
        g = 1
        b = 1
        a = 1
        darkR = 0
        darkG = 0
        darkB = 0
    }
}

// Bulk reads for renderers in other modules: one call per instance copies a whole table out of
// the batch's columns, where a call per bone or slot would cost a cross-module call each (the
// GPU path measured 2.3 µs per spineboy with per-field calls, most of it call overhead and
// store-forwarding stalls on the returned tuples).
extension PoseView {
    /// Writes the first `count` bones' world transforms (`count` at most `boneCount`) as rows of
    /// six floats (a, b, c, d, worldX, worldY) from `row`.
    ///
    /// # Safety
    /// `row` must have room for `count * 6` floats.
    public func writeBoneRows(_ count: Int, into row: UnsafeMutablePointer<Float>) {
        let t = columns.cols
        let stride = r.stride
        var i = r.bone
        var out = row
        for _ in 0..<min(count, boneCount) {
            out[0] = t.a[i]
            out[1] = t.b[i]
            out[2] = t.c[i]
            out[3] = t.d[i]
            out[4] = t.worldX[i]
            out[5] = t.worldY[i]
            out += 6
            i &+= stride
        }
    }

    /// Copies the drawing inputs of slots `0..<count` into `states` (slots past `slotCount` read
    /// as empty).
    ///
    /// # Safety
    /// `states` must have room for `count` entries.
    public func copySlotStates(_ count: Int, into states: UnsafeMutablePointer<SlotDrawState>) {
        let c = columns.cols
        let rig = columns.rig
        let n = min(count, slotCount)
        for s in 0..<n {
            let color = c.slotColor(rig, r, slot: s)
            let dark = c.slotDark(rig, r, slot: s)
            let p = states + s
            p.pointee.attachment = c.attachment[r.slot(s)]
            p.pointee.sequenceIndex = c.sequenceIndex(rig, r, slot: s)
            p.pointee.boneActive = active[Int(rig.slotBone[s])] != 0 ? 1 : 0
            p.pointee.r = color.0
            p.pointee.g = color.1
            p.pointee.b = color.2
            p.pointee.a = color.3
            p.pointee.darkR = dark.0
            p.pointee.darkG = dark.1
            p.pointee.darkB = dark.2
        }
        if n < count { (states + n).update(repeating: SlotDrawState(), count: count - n) }
    }

    /// Copies the draw order (slot indices, first drawn first; at most `capacity` of them) into
    /// `order`: how many were written, and whether the order is the setup order (slot k drawn
    /// k-th).
    ///
    /// # Safety
    /// `order` must have room for `capacity` entries.
    public func readDrawOrder(_ capacity: Int, into order: UnsafeMutablePointer<Int32>) -> (count: Int, setup: Bool) {
        let source = columns.cols.drawOrder + r.drawOrder
        let n = min(capacity, slotCount)
        var setup = true
        for k in 0..<n {
            let slot = Int32(source[k])
            order[k] = slot
            setup = setup && slot == Int32(truncatingIfNeeded: k)
        }
        return (n, setup)
    }
}
