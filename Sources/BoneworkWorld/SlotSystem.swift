import BoneworkFormat

/// System 4: resolves what each slot draws this frame: the attachment image (a sequence's
/// current frame, or the attachment's only image), -1 for nothing (no attachment, a kind that
/// is not drawn, or a bone the skin leaves inactive).
enum SlotSystem {
    static func update(_ cols: BatchColumns, _ rig: RigTables, range: Range<Int>) {
        for instance in range {
            let r = cols.rows(instance)
            let active = rig.planBoneActive + Int(cols.plan[instance]) &* rig.boneCount
            for s in 0..<rig.slotCount {
                let i = r.slot(s)
                cols.frame[i] = active[Int(rig.slotBone[s])] != 0 ? imageFrame(cols, rig, slotRow: i) : -1
            }
        }
    }

    /// The image a slot's attachment shows (sequence frame clamped as the reference does), -1 if none.
    @inline(__always)
    static func imageFrame(_ cols: BatchColumns, _ rig: RigTables, slotRow i: Int) -> Int32 {
        let attachment = Int(cols.attachment[i])
        guard attachment >= 0 else { return -1 }
        let kind = rig.attachmentKind(attachment)
        guard kind == .region || kind == .mesh else { return -1 }
        let frames = rig.attFrameCount[attachment]
        guard frames > 0 else { return -1 }
        var index: Int32 = 0
        if rig.attSequenceCount[attachment] > 0 {
            index = cols.sequenceIndex[i]
            if index == -1 { index = rig.attSequenceSetup[attachment] }
            if index >= frames { index = frames - 1 }
            if index < 0 { index = 0 }
        }
        return rig.attFirstFrame[attachment] + index
    }
}
