import BoneworkFormat

/// What an apply needs for rows whose pose is not computed this frame (`UpdateRate`): which rows
/// must be posed anyway, and the apply of the others: their event timelines, and the total alpha
/// of an entry mixing out, derived from the mix modes without applying a timeline.
extension StateKernel {
    /// Whether this frame's apply of `row` completes a mix (an entry mixing out reaches its
    /// duration) or ends an entry (its last apply, at alpha 0).
    @inline(__always)
    func endsSomething(_ row: Int) -> Bool {
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 { continue }
            if e.state[c].mixingFrom >= 0 && e.times[c].mixTime >= e.times[c].mixDuration { return true }
            if e.times[c].trackTime >= e.times[c].trackEnd && e.state[c].next < 0 { return true }
        }
        return false
    }

    /// What an apply does for a row whose pose is not computed this frame: each track's events
    /// (and those of the entries mixing out below it) fire and are queued with the completions,
    /// the entries mixing out total the alphas their timelines would have had (the state ends a
    /// mix from that total), and the entries' last times advance, as `applyRow` would; no
    /// timeline but the event timelines is read, and the row's columns are not touched.
    /// Its own function rather than `applyRow` with its pose skipped, which still built the
    /// instance's column offsets and copied the rig tables (1 KB, callgrind) for every row.
    @inline(__always)
    func applyEventsOnly(_ row: Int, _ ws: StateWorkspace) {
        if changed[row] != 0 { animationsChanged(row: row, ws) }
        var fired = FiredKeys(keys: ws.firedKeys, times: ws.firedTimes, capacity: ws.firedCapacity)
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 || e.times[c].delay > 0 { continue }
            if e.state[c].mixingFrom >= 0 {
                let blend: MixBlend = t == 0 ? .first : (MixBlend(rawValue: Int32(e.state[c].mixBlend)) ?? .replace)
                var from = deepestMixingFrom(c)
                while true {
                    let to = Int(e.state[from].mixingTo)
                    if to < 0 { break }
                    _ = mixOutEventsOnly(to: to, from: from, blend, &fired, ws)
                    if to == c { break }
                    from = to
                }
            }
            let animationTime = e.animationTime(c)
            let animation = Int(e.state[c].animation)
            fired.count = 0
            // A reversed entry fires no events.
            if animation >= 0 && e.state[c].reverse == 0 {
                applyEventTimelines(animation, lastTime: e.times[c].animationLast, time: animationTime, &fired)
            }
            queueEvents(c, animationTime, fired, &ws.events)
            e.times[c].nextAnimationLast = animationTime
            e.times[c].nextTrackLast = e.times[c].trackTime
        }
        unkeyed[row] = unkeyed[row] &+ 2
    }

    /// `applyMix` without a pose: `from`'s events, and the total alpha the state reads to end the
    /// mix, from the mix modes alone. Returns `to`'s mix percentage.
    @inline(__always)
    func mixOutEventsOnly(
        to: Int, from: Int, _ blendIn: MixBlend, _ fired: inout FiredKeys, _ ws: StateWorkspace
    ) -> Float {
        let step = mixStep(to: to, from: from, blendIn)
        fired.count = 0
        if step.animation >= 0 {
            if step.fireEvents {
                applyEventTimelines(step.animation, lastTime: step.animationLast, time: step.applyTime, &fired)
            }
            if step.blend != .add {
                let first = Int(rig.animTimelineStart[step.animation])
                let count = Int(rig.animTimelineCount[step.animation])
                e.times[from].totalAlpha = mixedOutAlpha(
                    from, first, count, step.alphaMix, step.alphaHold, step.drawOrder)
            }
        } else if step.blend != .add {
            e.times[from].totalAlpha = 0
        }
        finishMixStep(to: to, from: from, step.animationTime, &fired, ws)
        return step.mix
    }

    /// The alphas an apply of `from` mixing out would total over its `count` timelines from
    /// `first` (`applyMix`'s per-mode alphas), without applying them.
    @inline(__always)
    func mixedOutAlpha(
        _ from: Int, _ first: Int, _ count: Int, _ alphaMix: Float, _ alphaHold: Float, _ drawOrder: Bool
    )
        -> Float
    {
        let modes = e.timelineMode + from &* e.timelineStride
        let holdMix = e.timelineHoldMix + from &* e.timelineStride
        var total: Float = 0
        for k in 0..<count {
            switch modes[k] {
            case TimelineMixMode.subsequent:
                if !drawOrder && tables.roles[first &+ k] == .drawOrder { continue }
                total += alphaMix
            case TimelineMixMode.first:
                total += alphaMix
            case TimelineMixMode.holdSubsequent, TimelineMixMode.holdFirst:
                total += alphaHold
            default:
                let hold = Int(holdMix[k])
                total +=
                    hold >= 0 ? alphaHold * max(0, 1 - e.times[hold].mixTime / e.times[hold].mixDuration) : alphaHold
            }
        }
        return total
    }

    /// The event timelines of `animation` (never applied in groups, so among its other
    /// timelines), fired between `lastTime` and `time`: what an apply without pose does.
    @inline(__always)
    func applyEventTimelines(_ animation: Int, lastTime: Float, time: Float, _ fired: inout FiredKeys) {
        let others = rig.otherTimelines(animation)
        for k in 0..<others.count {
            let timeline = rig.timelines + Int(others.list[k])
            if timeline.pointee.kind == .event {
                TimelineApply.applyEvents(timeline.pointee, rig, lastTime: lastTime, time: time, into: &fired)
            }
        }
    }
}
