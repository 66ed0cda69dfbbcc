import BoneworkFormat

/// What an apply needs for rows whose pose is not computed this frame (`UpdateRate`): which rows
/// must be posed anyway, their event timelines, and the total alpha of an entry mixing out,
/// derived from the mix modes without applying a timeline.
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
