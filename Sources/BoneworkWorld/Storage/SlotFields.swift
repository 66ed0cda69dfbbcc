/// Slot fields with compact rows: colours, dark colours, sequence frames and deform lengths are
/// stored per instance only for the slots timelines change (`RigTables.slotColorRow` ...; colours
/// also for slots application code coloured, `Batch.ensureColorRow`). A slot without a row
/// always has its setup value. These read a field whatever its storage.
extension BatchColumns {
    /// The row of bone `k`'s inherit mode, -1 when it never leaves the setup mode.
    @inline(__always)
    func inheritRow(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> Int {
        let row = Int(rig.boneInheritRow[k])
        return row < 0 ? -1 : r.inherit(row)
    }

    /// Bone `k`'s inherit mode (`Inherit` raw value).
    @inline(__always)
    func inheritMode(_ rig: RigTables, _ r: InstanceRows, bone k: Int) -> UInt8 {
        let row = Int(rig.boneInheritRow[k])
        return row < 0 ? rig.boneInherit[k] : inherit[r.inherit(row)]
    }

    /// The row of slot `s`'s colour, -1 when the colour never leaves its setup value.
    @inline(__always)
    func colorRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(colorRowOfSlot[s])
        return k < 0 ? -1 : r.color(k)
    }

    @inline(__always)
    func darkRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotDarkRow[s])
        return k < 0 ? -1 : r.dark(k)
    }

    @inline(__always)
    func sequenceRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotSequenceRow[s])
        return k < 0 ? -1 : r.sequence(k)
    }

    @inline(__always)
    func deformRow(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int {
        let k = Int(rig.slotDeformRow[s])
        return k < 0 ? -1 : r.deformSlot(k)
    }

    /// Slot `s`'s colour (r, g, b, a).
    @inline(__always)
    func slotColor(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> (Float, Float, Float, Float) {
        let i = colorRow(rig, r, slot: s)
        if i >= 0 { return (colorR[i], colorG[i], colorB[i], colorA[i]) }
        let c = rig.slotColor + s &* 4
        return (c[0], c[1], c[2], c[3])
    }

    @inline(__always)
    func slotAlpha(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Float {
        let i = colorRow(rig, r, slot: s)
        return i >= 0 ? colorA[i] : rig.slotColor[s &* 4 &+ 3]
    }

    /// Slot `s`'s dark colour (black when the slot has none).
    @inline(__always)
    func slotDark(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> (Float, Float, Float) {
        let i = darkRow(rig, r, slot: s)
        if i >= 0 { return (darkR[i], darkG[i], darkB[i]) }
        let d = rig.slotDark + s &* 3
        return (d[0], d[1], d[2])
    }

    /// The frame of slot `s`'s sequence attachment, -1 = the sequence's setup frame. Without a
    /// row the value is what showing an attachment leaves (-1), or 0 on a slot that shows none
    /// (the value a slot starts with).
    @inline(__always)
    func sequenceIndex(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        let i = sequenceRow(rig, r, slot: s)
        if i >= 0 { return sequenceIndex[i] }
        return attachment[r.slot(s)] < 0 ? 0 : -1
    }

    /// Floats in use in slot `s`'s deform buffer (0 = no deform).
    @inline(__always)
    func deformLength(_ rig: RigTables, _ r: InstanceRows, slot s: Int) -> Int32 {
        let i = deformRow(rig, r, slot: s)
        return i >= 0 ? deformLength[i] : 0
    }
}
