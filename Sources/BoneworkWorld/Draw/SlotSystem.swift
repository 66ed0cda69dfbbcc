import BoneworkFormat

/// System 4: what each instance draws this frame, in draw order: the slots whose bone is
/// active, whose alpha is not zero and whose attachment is a region (with an image) or a mesh,
/// each with its image (a sequence's current frame, or the attachment's only image). The list
/// goes to the chunk's `VertexScratch`, where the vertex system fills in world vertices.
enum SlotSystem {
    /// Rows looked at together when their draw orders are the setup order.
    static let lanes = 8

    static func update(_ cols: SlotColumns, _ rig: RigTables, range: Range<Int>, into out: VertexScratch) {
        let list = out.draws
        var next = list + out.drawCount
        let end = list + out.drawCapacity
        let stride = cols.layout.stride
        // Lanes of a group are neighbours in the chunked columns.
        let grouped = stride % lanes == 0
        var instance = range.lowerBound
        while instance < range.upperBound {
            if grouped && instance % lanes == 0 && range.upperBound &- instance >= lanes
                && allSetupOrder(cols.drawOrderIsSetup + instance)
            {
                // Most slots show nothing in every lane (a spineboy shows 18 of 52): the slots
                // with an attachment in some lane are listed once for the group, and each lane
                // looks at those in the setup order.
                let slots = out.slotList
                var n = 0
                let attachments = cols.attachment + cols.rows(instance).slot
                for s in 0..<rig.slotCount where someAttachment(attachments + s &* stride) {
                    slots[n] = Int32(truncatingIfNeeded: s)
                    n &+= 1
                }
                for lane in 0..<lanes {
                    let row = SlotRow(cols, rig, instance &+ lane)
                    for j in 0..<n where !row.draw(Int(slots[j]), rig, &next, end) { break }
                }
                instance &+= lanes
            } else {
                let row = SlotRow(cols, rig, instance)
                let order = cols.drawOrder + row.r.drawOrder
                for k in 0..<rig.slotCount where !row.draw(Int(order[k]), rig, &next, end) { break }
                instance &+= 1
            }
        }
        out.drawCount = next - list
    }

    /// Whether the 8 flags from `p` (0 or 1 each) are all 1.
    @inline(__always)
    static func allSetupOrder(_ p: UnsafePointer<Int32>) -> Bool {
        and8(p) == 0x0000_0001_0000_0001
    }

    /// Whether some of the 8 attachment indices from `p` is not negative (-1 = no attachment):
    /// all are negative exactly when the AND of all has the sign bit set.
    @inline(__always)
    static func someAttachment(_ p: UnsafePointer<Int32>) -> Bool {
        let signs: UInt64 = 0x8000_0000_8000_0000
        return and8(p) & signs != signs
    }

    /// The AND of the 8 integers from `p`, in each 32-bit half of the result (the AND of 4
    /// each): 4 loads and 3 ANDs.
    @inline(__always)
    static func and8(_ p: UnsafePointer<Int32>) -> UInt64 {
        let raw = UnsafeRawPointer(p)
        return raw.loadUnaligned(as: UInt64.self) & raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            & raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
            & raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
    }

    /// One row's columns as the slot decision reads them.
    struct SlotRow {
        let r: InstanceRows
        let row: Int32
        let slotActive: UnsafePointer<UInt8>
        let attachments: UnsafePointer<Int32>
        let cols: SlotColumns

        @inline(__always)
        init(_ cols: SlotColumns, _ rig: RigTables, _ instance: Int) {
            r = cols.rows(instance)
            row = Int32(truncatingIfNeeded: instance)
            slotActive = rig.planSlotActive + Int(cols.plan[instance]) &* rig.slotCount
            attachments = cols.attachment + r.slot
            self.cols = cols
        }

        /// Lists slot `s` in `next` when it draws; false when the list is full.
        @inline(__always)
        func draw(
            _ s: Int, _ rig: RigTables, _ next: inout UnsafeMutablePointer<VertexDraw>,
            _ end: UnsafeMutablePointer<VertexDraw>
        ) -> Bool {
            let stride = r.stride
            // Most slots that draw nothing show no attachment: test that first.
            let attachment = attachments[s &* stride]
            if attachment < 0 || slotActive[s] == 0 { return true }
            var frame = rig.attachmentDraw[Int(attachment)]
            if frame < 0 {
                if frame == AttachmentDraw.never { return true }
                frame = imageFrame(cols, rig, r, slot: s, attachment: Int(attachment))
                if frame < 0 && rig.attachmentKindRaw[Int(attachment)] == AttachmentKind.region.rawValue { return true }
            }
            if cols.slotAlpha(rig, r, slot: s) == 0 { return true }
            guard next < end else { return false }
            next.pointee = VertexDraw(
                row: row, slot: Int32(truncatingIfNeeded: s), attachment: attachment, frame: frame, offset: 0,
                count: 0)
            next += 1
            return true
        }
    }

    /// The image a slot's region or mesh attachment shows (sequence frame clamped as the
    /// reference does), -1 if none.
    @inline(__always)
    static func imageFrame(_ cols: SlotColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, attachment: Int)
        -> Int32
    {
        guard attachment >= 0 else { return -1 }
        let kind = rig.attachmentKind(attachment)
        guard kind == .region || kind == .mesh else { return -1 }
        let frames = rig.attachmentFrameCount[attachment]
        guard frames > 0 else { return -1 }
        var index: Int32 = 0
        if rig.attachmentSequenceCount[attachment] > 0 {
            index = cols.sequenceIndex(rig, r, slot: s)
            if index == -1 { index = rig.attachmentSequenceSetup[attachment] }
            if index >= frames { index = frames - 1 }
            if index < 0 { index = 0 }
        }
        return rig.attachmentFirstFrame[attachment] + index
    }
}
