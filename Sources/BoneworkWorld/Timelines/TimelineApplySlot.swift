import BoneworkFormat

/// Slot timelines: colour (rgba, rgb, alpha, and the two-colour rgba2 / rgb2), attachment and
/// sequence frame.
extension TimelineApply {
    static func applyColor(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        alpha: Float, blend: MixBlend
    ) {
        let slot = Int(t.target)
        guard ctx.slotActive(rig, slot) else { return }
        // Every slot a colour timeline targets has colour rows (and dark rows for two-colour ones).
        let i = cols.colorRow(rig, ctx.r, slot: slot)
        guard i >= 0 else { return }
        let di = cols.darkRow(rig, ctx.r, slot: slot)
        let keys = TimelineKeys(t, rig)
        let setup = rig.slotColor + slot &* 4
        let setupDark = rig.slotDark + slot &* 3
        var light = SlotColor(cols, i)
        var dark = di >= 0 ? DarkColor(cols, di) : DarkColor(r: 0, g: 0, b: 0)
        if time < keys.firstTime {
            switch (t.kind, blend) {
            case (.alpha, .setup):
                cols.colorA[i] = setup[3]
            case (.alpha, .first):
                cols.colorA[i] += (setup[3] - cols.colorA[i]) * alpha
            case (.rgba, .setup), (.rgb, .setup):
                light.set(setup[0], setup[1], setup[2], setup[3])
            case (.rgba, .first), (.rgb, .first):
                light.add(
                    (setup[0] - light.r) * alpha, (setup[1] - light.g) * alpha, (setup[2] - light.b) * alpha,
                    (setup[3] - light.a) * alpha)
            case (.rgba2, .setup):
                light.set(setup[0], setup[1], setup[2], setup[3])
                dark.set(setupDark[0], setupDark[1], setupDark[2])
            case (.rgb2, .setup):
                light.set(setup[0], setup[1], setup[2])
                dark.set(setupDark[0], setupDark[1], setupDark[2])
            case (.rgba2, .first):
                light.add(
                    (setup[0] - light.r) * alpha, (setup[1] - light.g) * alpha, (setup[2] - light.b) * alpha,
                    (setup[3] - light.a) * alpha)
                dark.mix(setupDark[0], setupDark[1], setupDark[2], alpha)
            case (.rgb2, .first):
                light.add((setup[0] - light.r) * alpha, (setup[1] - light.g) * alpha, (setup[2] - light.b) * alpha)
                dark.mix(setupDark[0], setupDark[1], setupDark[2], alpha)
            default:
                break
            }
            light.store(cols, i)
            if di >= 0 { dark.store(cols, di) }
            return
        }
        let (k, curve) = keys.searchCurve(time)
        @inline(__always) func v(_ n: Int) -> Float { keys.value(time, key: k, value: n, curve: curve) }
        switch t.kind {
        case .alpha:
            let a = v(1)
            if alpha == 1 {
                cols.colorA[i] = a
            } else {
                if blend == .setup { cols.colorA[i] = setup[3] }
                cols.colorA[i] += (a - cols.colorA[i]) * alpha
            }
            return
        case .rgba:
            let (r, g, b, a) = (v(1), v(2), v(3), v(4))
            if alpha == 1 {
                light.set(r, g, b, a)
            } else {
                if blend == .setup { light.set(setup[0], setup[1], setup[2], setup[3]) }
                light.add((r - light.r) * alpha, (g - light.g) * alpha, (b - light.b) * alpha, (a - light.a) * alpha)
            }
        case .rgb:
            let (r, g, b) = (v(1), v(2), v(3))
            if alpha == 1 {
                light.set(r, g, b)
            } else {
                if blend == .setup { light.set(setup[0], setup[1], setup[2]) }
                light.add((r - light.r) * alpha, (g - light.g) * alpha, (b - light.b) * alpha)
            }
        case .rgba2:
            let (r, g, b, a) = (v(1), v(2), v(3), v(4))
            let (r2, g2, b2) = (v(5), v(6), v(7))
            if alpha == 1 {
                light.set(r, g, b, a)
                dark.set(r2, g2, b2)
            } else {
                if blend == .setup {
                    light.set(setup[0], setup[1], setup[2], setup[3])
                    dark.set(setupDark[0], setupDark[1], setupDark[2])
                }
                light.add((r - light.r) * alpha, (g - light.g) * alpha, (b - light.b) * alpha, (a - light.a) * alpha)
                dark.mix(r2, g2, b2, alpha)
            }
        case .rgb2:
            let (r, g, b) = (v(1), v(2), v(3))
            let (r2, g2, b2) = (v(4), v(5), v(6))
            if alpha == 1 {
                light.set(r, g, b)
                dark.set(r2, g2, b2)
            } else {
                if blend == .setup {
                    light.set(setup[0], setup[1], setup[2])
                    dark.set(setupDark[0], setupDark[1], setupDark[2])
                }
                light.add((r - light.r) * alpha, (g - light.g) * alpha, (b - light.b) * alpha)
                dark.mix(r2, g2, b2, alpha)
            }
        default:
            return
        }
        light.store(cols, i)
        if di >= 0 { dark.store(cols, di) }
    }

    /// The attachment timeline as a plain timeline (outside an AnimationState): shows the keyed
    /// attachment, or the setup one before the first key / when mixing out from setup.
    static func applyAttachment(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        blend: MixBlend, direction: MixDirection
    ) {
        let slot = Int(t.target)
        guard ctx.slotActive(rig, slot) else { return }
        if direction == .mixOut {
            if blend == .setup {
                SetupPose.setAttachment(cols, rig, ctx.r, slot: slot, setupAttachment(rig, ctx, slot))
            }
            return
        }
        let keys = TimelineKeys(t, rig)
        if time < keys.firstTime {
            if blend == .setup || blend == .first {
                SetupPose.setAttachment(cols, rig, ctx.r, slot: slot, setupAttachment(rig, ctx, slot))
            }
            return
        }
        SetupPose.setAttachment(cols, rig, ctx.r, slot: slot, keyedAttachment(t, rig, ctx, keys.search(time)))
    }

    /// The attachment the key at frame offset `k` names for this instance's skin (-1 = none).
    @inline(__always)
    static func keyedAttachment(_ t: CompiledTimeline, _ rig: RigTables, _ ctx: InstanceContext, _ k: Int) -> Int32 {
        let key = rig.keyPool[Int(t.values) &+ k]
        return key >= 0 ? ctx.attachments[Int(key)] : -1
    }

    @inline(__always)
    static func setupAttachment(_ rig: RigTables, _ ctx: InstanceContext, _ slot: Int) -> Int32 {
        let key = rig.slotSetupKey[slot]
        return key >= 0 ? ctx.attachments[Int(key)] : -1
    }

    /// Which frame of a sequence attachment the slot shows.
    static func applySequence(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        blend: MixBlend
    ) {
        let slot = Int(t.target)
        guard ctx.slotActive(rig, slot) else { return }
        let i = ctx.r.slot(slot)
        // Every slot a sequence timeline targets has a sequence row.
        let q = cols.sequenceRow(rig, ctx.r, slot: slot)
        guard q >= 0 else { return }
        let current = cols.attachment[i]
        if current != t.attachment {
            guard current >= 0, SetupPose.isVertexAttachment(rig.attachmentKind(Int(current))),
                rig.attachmentTimeline[Int(current)] == t.attachment
            else { return }
        }
        let keys = TimelineKeys(t, rig)
        if time < keys.firstTime {
            if blend == .setup || blend == .first { cols.sequenceIndex[q] = -1 }
            return
        }
        let k = keys.search(time)
        let before = keys.frames[k]
        let modeAndIndex = Int(clampingToInt32(Double(keys.frames[k &+ 1])))
        let delay = keys.frames[k &+ 2]
        let count = Int(rig.attachmentSequenceCount[Int(t.attachment)])
        guard count > 0 else { return }
        var index = modeAndIndex >> 4
        let mode = modeAndIndex & 0xf
        if mode != Int(SequenceMode.hold.rawValue) {
            index &+= Int(clampingToInt32(Double((time - before) / delay) + 0.0001))
            switch mode {
            case Int(SequenceMode.once.rawValue):
                index = min(count - 1, index)
            case Int(SequenceMode.loop.rawValue):
                index %= count
            case Int(SequenceMode.pingpong.rawValue):
                let n = (count << 1) - 2
                index = n == 0 ? 0 : index % n
                if index >= count { index = n - index }
            case Int(SequenceMode.onceReverse.rawValue):
                index = max(count - 1 - index, 0)
            case Int(SequenceMode.loopReverse.rawValue):
                index = count - 1 - (index % count)
            case Int(SequenceMode.pingpongReverse.rawValue):
                let n = (count << 1) - 2
                index = n == 0 ? 0 : (index + count - 1) % n
                if index >= count { index = n - index }
            default:
                break
            }
        }
        cols.sequenceIndex[q] = Int32(clampingToInt32(Double(index)))
    }

    /// A float-to-int conversion that cannot trap (NaN -> 0, out of range -> the nearest bound).
    @inline(__always)
    static func clampingToInt32(_ v: Double) -> Int32 {
        guard v == v else { return 0 }
        if v >= Double(Int32.max) { return Int32.max }
        if v <= Double(Int32.min) { return Int32.min }
        return Int32(v)
    }
}

/// A slot's colour while a timeline works on it; `set` and `add` clamp every channel to 0...1
/// as the reference's colour type does (the alpha timeline writes alpha unclamped).
struct SlotColor {
    var r: Float
    var g: Float
    var b: Float
    var a: Float

    @inline(__always)
    init(_ cols: ApplyColumns, _ i: Int) {
        r = cols.colorR[i]
        g = cols.colorG[i]
        b = cols.colorB[i]
        a = cols.colorA[i]
    }

    @inline(__always)
    mutating func clamp() {
        r = TimelineKeys.clamp01(r)
        g = TimelineKeys.clamp01(g)
        b = TimelineKeys.clamp01(b)
        a = TimelineKeys.clamp01(a)
    }

    @inline(__always)
    mutating func set(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        (self.r, self.g, self.b, self.a) = (r, g, b, a)
        clamp()
    }

    @inline(__always)
    mutating func set(_ r: Float, _ g: Float, _ b: Float) {
        (self.r, self.g, self.b) = (r, g, b)
        clamp()
    }

    @inline(__always)
    mutating func add(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        self.r += r
        self.g += g
        self.b += b
        self.a += a
        clamp()
    }

    @inline(__always)
    mutating func add(_ r: Float, _ g: Float, _ b: Float) {
        self.r += r
        self.g += g
        self.b += b
        clamp()
    }

    @inline(__always)
    func store(_ cols: ApplyColumns, _ i: Int) {
        cols.colorR[i] = r
        cols.colorG[i] = g
        cols.colorB[i] = b
        cols.colorA[i] = a
    }
}

/// A slot's dark colour (two-colour tinting): `set` clamps, mixing does not, as in the reference.
struct DarkColor {
    var r: Float
    var g: Float
    var b: Float

    @inline(__always)
    init(r: Float, g: Float, b: Float) {
        (self.r, self.g, self.b) = (r, g, b)
    }

    @inline(__always)
    init(_ cols: ApplyColumns, _ i: Int) {
        r = cols.darkR[i]
        g = cols.darkG[i]
        b = cols.darkB[i]
    }

    @inline(__always)
    mutating func set(_ r: Float, _ g: Float, _ b: Float) {
        self.r = TimelineKeys.clamp01(r)
        self.g = TimelineKeys.clamp01(g)
        self.b = TimelineKeys.clamp01(b)
    }

    @inline(__always)
    mutating func mix(_ r: Float, _ g: Float, _ b: Float, _ alpha: Float) {
        self.r += (r - self.r) * alpha
        self.g += (g - self.g) * alpha
        self.b += (b - self.b) * alpha
    }

    @inline(__always)
    func store(_ cols: ApplyColumns, _ i: Int) {
        cols.darkR[i] = r
        cols.darkG[i] = g
        cols.darkB[i] = b
    }
}
