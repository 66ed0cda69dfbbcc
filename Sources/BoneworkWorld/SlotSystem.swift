import BoneworkFormat

/// System 4: what each instance draws this frame, in draw order: the slots whose bone is
/// active, whose alpha is not zero and whose attachment is a region (with an image) or a mesh,
/// each with its image (a sequence's current frame, or the attachment's only image). The list
/// goes to the chunk's `VertexScratch`, where the vertex system fills in world vertices.
enum SlotSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, into out: VertexScratch) {
        let list = out.draws
        var next = list + out.drawCount
        let end = list + out.drawCapacity
        let attDraw = rig.attDraw
        let colorRowOfSlot = cols.colorRowOfSlot
        let setupAlpha = rig.slotColor + 3
        for instance in range {
            let r = cols.rows(instance)
            let slotActive = rig.planSlotActive + Int(cols.plan[instance]) &* rig.slotCount
            let order = cols.drawOrder + r.drawOrder
            let stride = r.stride
            let attachments = cols.attachment + r.slot
            let alphas = cols.colorA + r.color
            let row = Int32(truncatingIfNeeded: instance)
            for k in 0..<rig.slotCount {
                let s = Int(order[k])
                // Most slots that draw nothing show no attachment: test that first.
                let attachment = attachments[s &* stride]
                if attachment < 0 || slotActive[s] == 0 { continue }
                var frame = attDraw[Int(attachment)]
                if frame < 0 {
                    if frame == AttachmentDraw.never { continue }
                    frame = imageFrame(cols, rig, r, slot: s, attachment: Int(attachment))
                    if frame < 0 && rig.attKind[Int(attachment)] == AttachmentKind.region.rawValue { continue }
                }
                // The slot's alpha (`slotAlpha`): its colour row, else its setup colour.
                let colorRow = Int(colorRowOfSlot[s])
                let alpha = colorRow >= 0 ? alphas[colorRow &* stride] : setupAlpha[s &* 4]
                if alpha == 0 { continue }
                guard next < end else { break }
                next.pointee = VertexDraw(
                    row: row, slot: Int32(truncatingIfNeeded: s), attachment: attachment,
                    frame: frame, offset: 0, count: 0)
                next += 1
            }
        }
        out.drawCount = next - list
    }

    /// The image a slot's region or mesh attachment shows (sequence frame clamped as the
    /// reference does), -1 if none.
    @inline(__always)
    static func imageFrame(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, slot s: Int, attachment: Int)
        -> Int32
    {
        guard attachment >= 0 else { return -1 }
        let kind = rig.attachmentKind(attachment)
        guard kind == .region || kind == .mesh else { return -1 }
        let frames = rig.attFrameCount[attachment]
        guard frames > 0 else { return -1 }
        var index: Int32 = 0
        if rig.attSequenceCount[attachment] > 0 {
            index = cols.sequenceIndex(rig, r, slot: s)
            if index == -1 { index = rig.attSequenceSetup[attachment] }
            if index >= frames { index = frames - 1 }
            if index < 0 { index = 0 }
        }
        return rig.attFirstFrame[attachment] + index
    }
}
