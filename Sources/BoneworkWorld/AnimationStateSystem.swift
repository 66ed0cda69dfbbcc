import BoneworkFormat

/// System 1: advances every track's times by the frame's delta (the reference's
/// AnimationState::update for tracks without queued entries or mixing, which come later).
enum AnimationStateSystem {
    static func update(
        _ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, delta: Float, events: inout EventBuffer
    ) {
        let tr = cols.tracks
        for instance in range {
            let delta = delta * cols.stateTimeScale[instance]
            let base = instance &* cols.trackCount
            for track in 0..<cols.trackCount {
                let i = base &+ track
                let animation = tr.animation[i]
                if animation < 0 { continue }
                tr.animationLast[i] = tr.nextAnimationLast[i]
                tr.trackLast[i] = tr.nextTrackLast[i]
                var currentDelta = delta * tr.timeScale[i]
                if tr.delay[i] > 0 {
                    tr.delay[i] -= currentDelta
                    if tr.delay[i] > 0 { continue }
                    currentDelta = -tr.delay[i]
                    tr.delay[i] = 0
                }
                if tr.trackLast[i] >= tr.trackEnd[i] && tr.mixingFrom[i] < 0 {
                    // Past its end with nothing queued: the track empties.
                    tr.animation[i] = -1
                    events.append(
                        FiredEvent(
                            entity: cols.entity[instance], track: Int32(track), type: .end, animation: animation,
                            key: -1))
                    continue
                }
                tr.trackTime[i] += currentDelta
            }
        }
    }
}
