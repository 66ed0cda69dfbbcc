import BoneworkFormat

/// System 4: what each instance draws this frame, in draw order: the slots whose bone is
/// active, whose alpha is not zero and whose attachment is a region (with an image) or a mesh,
/// each with its image (a sequence's current frame, or the attachment's only image). The list
/// goes to the chunk's `VertexScratch`, where the vertex system fills in world vertices.
enum SlotSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, into out: VertexScratch) {
        var n = out.drawCount
        let list = out.draws
        let capacity = out.drawCapacity
        for instance in range {
            let r = cols.rows(instance)
            let active = rig.planBoneActive + Int(cols.plan[instance]) &* rig.boneCount
            let order = cols.drawOrder + r.drawOrder
            for k in 0..<rig.slotCount {
                let s = Int(order[k])
                if active[Int(rig.slotBone[s])] == 0 { continue }
                let attachment = cols.attachment[r.slot(s)]
                if attachment < 0 { continue }
                let kind = rig.attachmentKind(Int(attachment))
                if kind != .region && kind != .mesh { continue }
                if cols.slotAlpha(rig, r, slot: s) == 0 { continue }
                let frame = imageFrame(cols, rig, r, slot: s, attachment: Int(attachment))
                if kind == .region && frame < 0 { continue }
                guard n < capacity else { break }
                list[n] = VertexDraw(
                    row: Int32(truncatingIfNeeded: instance), slot: Int32(truncatingIfNeeded: s),
                    attachment: attachment,
                    frame: frame, offset: 0, count: 0)
                n &+= 1
            }
        }
        out.drawCount = n
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
