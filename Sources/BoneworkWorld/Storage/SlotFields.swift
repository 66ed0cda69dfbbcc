/// Slot fields with compact rows: colours, dark colours, sequence frames and deform lengths are
/// stored per instance only for the slots timelines change (`RigTables.slotColorRow` ...; colours
/// also for slots application code coloured, `Batch.ensureColorRow`). A slot without a row
/// always has its setup value. These read a field whatever its storage; `BatchColumns` and the
/// systems' column views (`ApplyColumns`, `PoseColumns`, `SlotColumns`, `VertexColumns`,
/// `AttachmentColumns`) call them with the columns they hold.
///
/// # Safety
/// `r` must be the rows of an instance of the batch the pointers belong to (`BatchShape.rows`),
/// `rig` the tables of that batch's skeleton, and `s` / `k` a slot / bone index below its count.
enum SlotFields {
    /// The row of bone `k`'s inherit mode, -1 when it never leaves the setup mode.
    @inline(__always)
    static func inheritRow(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> Int {
        let row = Int(rig.boneInheritRow[k])
        return row < 0 ? -1 : r.inherit(row)
    }

    /// Bone `k`'s inherit mode (`Inherit` raw value).
    @inline(__always)
    static func inheritMode(_ rig: RigTables, _ r: InstanceRows, bone k: Int, _ inherit: UnsafePointer<UInt8>) -> UInt8
    {
        let row = Int(rig.boneInheritRow[k])
        return row < 0 ? rig.boneInherit[k] : inherit[r.inherit(row)]
    }

    /// The row of slot `s`'s colour, -1 when the colour never leaves its setup value.
    @inline(__always)
    static func colorRow(_ colorRowOfSlot: UnsafePointer<Int32>, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(colorRowOfSlot[s])
        return k < 0 ? -1 : r.color(k)
    }

    @inline(__always)
    static func darkRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotDarkRow[s])
        return k < 0 ? -1 : r.dark(k)
    }

    @inline(__always)
    static func sequenceRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotSequenceRow[s])
        return k < 0 ? -1 : r.sequence(k)
    }

    @inline(__always)
    static func deformRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotDeformRow[s])
        return k < 0 ? -1 : r.deformSlot(k)
    }

    /// Slot `s`'s alpha.
    @inline(__always)
    static func alpha(
        _ rig: RigTables, _ r: InstanceRows, slot s: Int, _ colorRowOfSlot: UnsafePointer<Int32>,
        _ colorA: UnsafePointer<Float>
    ) -> Float {
        let i = colorRow(colorRowOfSlot, r, slot: s)
        return i >= 0 ? colorA[i] : rig.slotColor[s &* 4 &+ 3]
    }

    /// The frame of slot `s`'s sequence attachment, -1 = the sequence's setup frame. Without a
    /// row the value is what showing an attachment leaves (-1), or 0 on a slot that shows none
    /// (the value a slot starts with).
    @inline(__always)
    static func sequenceIndex(
        _ rig: RigTables, _ r: InstanceRows, slot s: Int, _ sequenceIndex: UnsafePointer<Int32>,
        _ attachment: UnsafePointer<Int32>
    ) -> Int32 {
        let i = sequenceRow(rig, r, slot: s)
        if i >= 0 { return sequenceIndex[i] }
        return attachment[r.slot(s)] < 0 ? 0 : -1
    }

    /// Floats in use in slot `s`'s deform buffer (0 = no deform).
    @inline(__always)
    static func deformLength(
        _ rig: RigTables, _ r: InstanceRows, slot s: Int, _ deformLength: UnsafePointer<Int32>
    ) -> Int32 {
        let i = deformRow(rig, r, slot: s)
        return i >= 0 ? deformLength[i] : 0
    }
}

extension BatchColumns {
    @inline(__always)
    func inheritRow(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> Int {
        SlotFields.inheritRow(rig, r, bone: k)
    }

    @inline(__always)
    func inheritMode(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> UInt8 {
        SlotFields.inheritMode(rig, r, bone: k, inherit)
    }

    @inline(__always)
    func colorRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        SlotFields.colorRow(colorRowOfSlot, r, slot: s)
    }

    @inline(__always)
    func darkRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int { SlotFields.darkRow(rig, r, slot: s) }

    @inline(__always)
    func sequenceRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        SlotFields.sequenceRow(rig, r, slot: s)
    }

    @inline(__always)
    func deformRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int { SlotFields.deformRow(rig, r, slot: s) }

    /// Slot `s`'s colour (r, g, b, a).
    @inline(__always)
    func slotColor(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> (Float, Float, Float, Float) {
        let i = colorRow(rig, r, slot: s)
        if i >= 0 { return (colorR[i], colorG[i], colorB[i], colorA[i]) }
        let c = rig.slotColor + s &* 4
        return (c[0], c[1], c[2], c[3])
    }

    /// Slot `s`'s dark colour (black when the slot has none).
    @inline(__always)
    func slotDark(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> (Float, Float, Float) {
        let i = darkRow(rig, r, slot: s)
        if i >= 0 { return (darkR[i], darkG[i], darkB[i]) }
        let d = rig.slotDark + s &* 3
        return (d[0], d[1], d[2])
    }

    @inline(__always)
    func sequenceIndex(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        SlotFields.sequenceIndex(rig, r, slot: s, sequenceIndex, attachment)
    }

    @inline(__always)
    func deformLength(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        SlotFields.deformLength(rig, r, slot: s, deformLength)
    }
}
