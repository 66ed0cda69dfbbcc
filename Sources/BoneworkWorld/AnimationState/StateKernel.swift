import BoneworkFormat

/// How one timeline of an entry mixing out blends (computed when the tracks change).
enum TimelineMixMode {
    /// Another entry below already keys the property: blend with the entry's blend.
    static let subsequent: UInt8 = 0
    /// The first entry to key the property: blend from the setup pose.
    static let first: UInt8 = 1
    /// Like `subsequent`, but held at full weight (the entry mixing in asked to hold it).
    static let holdSubsequent: UInt8 = 2
    /// Like `first`, but held at full weight: the entry mixing in keys the property too.
    static let holdFirst: UInt8 = 3
    /// Held, fading out as a later entry (which does not key it) mixes in.
    static let holdMix: UInt8 = 4
}

/// Raw views of a batch's animation states that the per-row update and apply read and write.
/// A plain struct of pointers: workers copy it once per run. Each row's tracks and the entries
/// they reach belong to that row only, so rows can be processed on different threads.
struct StateKernel: @unchecked Sendable {
    var e: EntryColumns
    /// `trackWidth` entry slots per row (-1 = no entry).
    var tracks: UnsafeMutablePointer<Int32>
    var trackWidth: Int
    /// Per row: how many tracks are in use (the highest track index set + 1).
    var trackCount: UnsafeMutablePointer<Int32>
    var timeScale: UnsafeMutablePointer<Float>
    /// Per row: set when an entry starts or ends (mix modes must be recomputed before applying).
    var changed: UnsafeMutablePointer<UInt8>
    /// Per row: the base of this apply's attachment states (see `applyAttachment`).
    var unkeyed: UnsafeMutablePointer<Int32>
    var rig: RigTables
    unowned(unsafe) var tables: MixingTables

    // MARK: - Events

    @inline(__always)
    func queue(_ type: TrackEventType, _ entry: Int, _ sink: inout StateEventSink) {
        sink.append(type, entry: entry, generation: e.generation[entry])
        if type == .start || type == .end { changed[Int(e.owner[entry])] = 1 }
    }

    /// Queues dispose for every entry waiting behind `entry` and unlinks them.
    func clearNext(_ entry: Int, _ sink: inout StateEventSink) {
        var next = Int(e.next[entry])
        while next >= 0 {
            queue(.dispose, next, &sink)
            next = Int(e.next[next])
        }
        e.next[entry] = -1
    }

    /// Makes `entry` the current entry of `track`, mixing from the previous current one.
    func setCurrent(row: Int, track: Int, entry: Int, interrupt: Bool, _ sink: inout StateEventSink) {
        let cell = row &* trackWidth &+ track
        let from = Int(tracks[cell])
        tracks[cell] = Int32(entry)
        e.previous[entry] = -1
        if from >= 0 {
            if interrupt { queue(.interrupt, from, &sink) }
            e.mixingFrom[entry] = Int32(from)
            e.mixingTo[from] = Int32(entry)
            e.mixTime[entry] = 0
            // Keep how far an interrupted mix had come.
            if e.mixingFrom[from] >= 0 && e.mixDuration[from] > 0 {
                e.interruptAlpha[entry] *= min(1, e.mixTime[from] / e.mixDuration[from])
            }
            // The rotation memory restarts for mixing out.
            e.rotationsReady[from] = 0
        }
        queue(.start, entry, &sink)
    }

    // MARK: - Update

    /// Advances one row's tracks by `delta` seconds: delays, queued entries starting, mixes
    /// finishing and track ends.
    func update(row: Int, delta deltaIn: Float, _ sink: inout StateEventSink) {
        let delta = deltaIn * timeScale[row]
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 { continue }
            e.animationLast[c] = e.nextAnimationLast[c]
            e.trackLast[c] = e.nextTrackLast[c]
            var currentDelta = delta * e.timeScale[c]
            if e.delay[c] > 0 {
                e.delay[c] -= currentDelta
                if e.delay[c] > 0 { continue }
                currentDelta = -e.delay[c]
                e.delay[c] = 0
            }
            var next = Int(e.next[c])
            if next >= 0 {
                // The queued entry starts once its delay has passed, keeping the leftover time.
                let nextTime = e.trackLast[c] - e.delay[next]
                if nextTime >= 0 {
                    e.delay[next] = 0
                    let scale = e.timeScale[c]
                    e.trackTime[next] += scale == 0 ? 0 : (nextTime / scale + delta) * e.timeScale[next]
                    e.trackTime[c] += currentDelta
                    setCurrent(row: row, track: t, entry: next, interrupt: true, &sink)
                    while e.mixingFrom[next] >= 0 {
                        e.mixTime[next] += delta
                        next = Int(e.mixingFrom[next])
                    }
                    continue
                }
            } else if e.trackLast[c] >= e.trackEnd[c] && e.mixingFrom[c] < 0 {
                // Past the track end with nothing queued and nothing mixing: the track empties.
                tracks[base &+ t] = -1
                queue(.end, c, &sink)
                clearNext(c, &sink)
                continue
            }
            if e.mixingFrom[c] >= 0 && updateMixingFrom(c, delta, &sink) {
                // Every entry mixing out has finished.
                var from = Int(e.mixingFrom[c])
                e.mixingFrom[c] = -1
                if from >= 0 { e.mixingTo[from] = -1 }
                while from >= 0 {
                    queue(.end, from, &sink)
                    from = Int(e.mixingFrom[from])
                }
            }
            e.trackTime[c] += currentDelta
        }
    }

    /// Advances the entries mixing out below `to`; true when the whole chain below has finished.
    func updateMixingFrom(_ to: Int, _ delta: Float, _ sink: inout StateEventSink) -> Bool {
        let from = Int(e.mixingFrom[to])
        if from < 0 { return true }
        let finished = updateMixingFrom(from, delta, &sink)
        e.animationLast[from] = e.nextAnimationLast[from]
        e.trackLast[from] = e.nextTrackLast[from]
        // mixTime > 0: the entry mixing out was applied at least once.
        if e.mixTime[to] > 0 && e.mixTime[to] >= e.mixDuration[to] {
            // totalAlpha == 0: nothing of it shows any more (a zero-length mix ends at once).
            if e.totalAlpha[from] == 0 || e.mixDuration[to] == 0 {
                let below = e.mixingFrom[from]
                e.mixingFrom[to] = below
                if below >= 0 { e.mixingTo[Int(below)] = Int32(to) }
                e.interruptAlpha[to] = e.interruptAlpha[from]
                queue(.end, from, &sink)
            }
            return finished
        }
        e.trackTime[from] += delta * e.timeScale[from]
        e.mixTime[to] += delta
        return false
    }

    // MARK: - Mix modes

    /// Recomputes how every entry of a row blends each timeline (after entries started or ended).
    func animationsChanged(row: Int, _ ws: StateWorkspace) {
        changed[row] = 0
        ws.clearProperties()
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            var entry = Int(tracks[base &+ t])
            if entry < 0 { continue }
            while e.mixingFrom[entry] >= 0 { entry = Int(e.mixingFrom[entry]) }
            repeat {
                if e.mixingTo[entry] < 0 || e.mixBlend[entry] != UInt8(MixBlend.add.rawValue) {
                    computeHold(entry, ws)
                }
                entry = Int(e.mixingTo[entry])
            } while entry >= 0
        }
    }

    func computeHold(_ entry: Int, _ ws: StateWorkspace) {
        let animation = e.animation[entry]
        guard animation >= 0 else { return }
        let to = Int(e.mixingTo[entry])
        let first = Int(rig.animTimelineStart[Int(animation)])
        let count = Int(rig.animTimelineCount[Int(animation)])
        let modes = e.timelineMode + entry &* e.timelineStride
        let holdMix = e.timelineHoldMix + entry &* e.timelineStride
        if to >= 0 && e.holdPrevious[to] != 0 {
            for k in 0..<count {
                modes[k] =
                    ws.addProperties(tables, timeline: first &+ k)
                    ? TimelineMixMode.holdFirst : TimelineMixMode.holdSubsequent
            }
            return
        }
        for k in 0..<count {
            let t = first &+ k
            holdMix[k] = -1
            if !ws.addProperties(tables, timeline: t) {
                modes[k] = TimelineMixMode.subsequent
                continue
            }
            let role = tables.roles[t]
            if to < 0 || role == .attachment || role == .drawOrder || role == .event
                || !tables.animation(e.animation[to], keysAnyOf: t)
            {
                modes[k] = TimelineMixMode.first
                continue
            }
            var mode = TimelineMixMode.holdFirst
            var next = Int(e.mixingTo[to])
            while next >= 0 {
                if tables.animation(e.animation[next], keysAnyOf: t) {
                    next = Int(e.mixingTo[next])
                    continue
                }
                if e.mixDuration[next] > 0 {
                    mode = TimelineMixMode.holdMix
                    holdMix[k] = Int32(next)
                }
                break
            }
            modes[k] = mode
        }
    }
}
