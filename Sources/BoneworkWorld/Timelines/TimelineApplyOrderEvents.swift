import BoneworkFormat

/// Draw order and event timelines.
extension TimelineApply {
    static func applyDrawOrder(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: ApplyColumns, _ ctx: InstanceContext, time: Float,
        blend: MixBlend, direction: MixDirection
    ) {
        let order = cols.drawOrder + ctx.r.drawOrder
        let slotCount = rig.slotCount
        let isSetup = cols.drawOrderIsSetup + ctx.r.instance
        @inline(__always) func setup() {
            for s in 0..<slotCount { order[s] = Int32(s) }
            isSetup.pointee = 1
        }
        if direction == .mixOut {
            if blend == .setup { setup() }
            return
        }
        let keys = TimelineKeys(t, rig)
        if time < keys.firstTime {
            if blend == .setup || blend == .first { setup() }
            return
        }
        let key = rig.intPool + (Int(t.values) &+ keys.search(time) &* slotCount)
        if slotCount == 0 || key[0] < 0 {
            setup()
        } else {
            order.update(from: key, count: slotCount)
            isSetup.pointee = 0
        }
    }

    /// Collects the event keys in (lastTime, time]; when the animation looped (lastTime > time),
    /// the keys after lastTime come first, then those from the start.
    @inline(__always)
    static func applyEvents(
        _ t: CompiledTimeline, _ rig: RigTables, lastTime: Float, time: Float, into fired: inout FiredKeys
    ) {
        applyEvents(t, TimelineKeys(t, rig), lastTime: lastTime, time: time, into: &fired)
    }

    /// `applyEvents(_:_:lastTime:time:into:)` on the timeline's keys. Not given the rig tables:
    /// passing them to a call that is not inlined copied them (about 1 KB) for every call
    /// (callgrind: a sixth of the apply of a crowd at 1/16).
    static func applyEvents(
        _ t: CompiledTimeline, _ keys: TimelineKeys, lastTime lastIn: Float, time: Float, into fired: inout FiredKeys
    ) {
        let frameCount = Int(t.frameCount)
        var lastTime = lastIn
        if lastTime > time {
            applyEvents(t, keys, lastTime: lastTime, time: .greatestFiniteMagnitude, into: &fired)
            lastTime = -1
        } else if lastTime >= keys.frames[frameCount &- 1] {
            return
        }
        if time < keys.firstTime { return }
        var i: Int
        if lastTime < keys.firstTime {
            i = 0
        } else {
            i = keys.search(lastTime) &+ 1
            // Past the last key only for a NaN last time (a track time that overflowed): none fires.
            guard i < frameCount else { return }
            let frameTime = keys.frames[i]
            // Several keys on one time fire together.
            while i > 0 {
                if keys.frames[i &- 1] != frameTime { break }
                i &-= 1
            }
        }
        while i < frameCount && time >= keys.frames[i] {
            fired.append(key: t.values &+ Int32(i), time: keys.frames[i])
            i &+= 1
        }
    }
}
