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
    /// See `AnimationStateStore.groupsTimelines`.
    var groupsTimelines = true

    // MARK: - Events

    @inline(__always)
    func queue(_ type: TrackEventType, _ entry: Int, _ sink: inout StateEventSink) {
        sink.append(type, entry: entry, generation: e.state[entry].generation)
        if type == .start || type == .end { changed[Int(e.state[entry].owner)] = 1 }
    }

    /// Queues dispose for every entry waiting behind `entry` and unlinks them.
    func clearNext(_ entry: Int, _ sink: inout StateEventSink) {
        var next = Int(e.state[entry].next)
        while next >= 0 {
            queue(.dispose, next, &sink)
            next = Int(e.state[next].next)
        }
        e.state[entry].next = -1
    }

    /// Makes `entry` the current entry of `track`, mixing from the previous current one.
    func setCurrent(row: Int, track: Int, entry: Int, interrupt: Bool, _ sink: inout StateEventSink) {
        let cell = row &* trackWidth &+ track
        let from = Int(tracks[cell])
        tracks[cell] = Int32(entry)
        e.state[entry].previous = -1
        if from >= 0 {
            if interrupt { queue(.interrupt, from, &sink) }
            e.state[entry].mixingFrom = Int32(from)
            e.state[from].mixingTo = Int32(entry)
            e.times[entry].mixTime = 0
            // Keep how far an interrupted mix had come.
            if e.state[from].mixingFrom >= 0 && e.times[from].mixDuration > 0 {
                e.times[entry].interruptAlpha *= min(1, e.times[from].mixTime / e.times[from].mixDuration)
            }
            // The rotation memory restarts for mixing out.
            e.state[from].rotationsReady = 0
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
            e.times[c].animationLast = e.times[c].nextAnimationLast
            e.times[c].trackLast = e.times[c].nextTrackLast
            var currentDelta = delta * e.times[c].timeScale
            if e.times[c].delay > 0 {
                e.times[c].delay -= currentDelta
                if e.times[c].delay > 0 { continue }
                currentDelta = -e.times[c].delay
                e.times[c].delay = 0
            }
            var next = Int(e.state[c].next)
            if next >= 0 {
                // The queued entry starts once its delay has passed, keeping the leftover time.
                let nextTime = e.times[c].trackLast - e.times[next].delay
                if nextTime >= 0 {
                    e.times[next].delay = 0
                    let scale = e.times[c].timeScale
                    e.times[next].trackTime += scale == 0 ? 0 : (nextTime / scale + delta) * e.times[next].timeScale
                    e.times[c].trackTime += currentDelta
                    setCurrent(row: row, track: t, entry: next, interrupt: true, &sink)
                    while e.state[next].mixingFrom >= 0 {
                        e.times[next].mixTime += delta
                        next = Int(e.state[next].mixingFrom)
                    }
                    continue
                }
            } else if e.times[c].trackLast >= e.times[c].trackEnd && e.state[c].mixingFrom < 0 {
                // Past the track end with nothing queued and nothing mixing: the track empties.
                tracks[base &+ t] = -1
                queue(.end, c, &sink)
                clearNext(c, &sink)
                continue
            }
            if e.state[c].mixingFrom >= 0 && updateMixingFrom(c, delta, &sink) {
                // Every entry mixing out has finished.
                var from = Int(e.state[c].mixingFrom)
                e.state[c].mixingFrom = -1
                if from >= 0 { e.state[from].mixingTo = -1 }
                while from >= 0 {
                    queue(.end, from, &sink)
                    from = Int(e.state[from].mixingFrom)
                }
            }
            e.times[c].trackTime += currentDelta
        }
    }

    /// Advances the entries mixing out below `top`; true when the whole chain below has
    /// finished. Works from the deepest entry up (as a recursion down the chain would, but
    /// without using stack per entry: chains can grow long when entries keep interrupting).
    func updateMixingFrom(_ top: Int, _ delta: Float, _ sink: inout StateEventSink) -> Bool {
        var from = top
        while e.state[from].mixingFrom >= 0 { from = Int(e.state[from].mixingFrom) }
        var finished = true
        while from != top {
            // `mixingTo` links back up the chain (kept in step with `mixingFrom`).
            let to = Int(e.state[from].mixingTo)
            if to < 0 { break }
            finished = updateMix(to: to, from: from, finished: finished, delta, &sink)
            from = to
        }
        return finished
    }

    /// One step of `updateMixingFrom`: `from` mixes out below `to`; `finished` tells whether
    /// everything below `from` has finished.
    @inline(__always)
    private func updateMix(to: Int, from: Int, finished: Bool, _ delta: Float, _ sink: inout StateEventSink) -> Bool {
        e.times[from].animationLast = e.times[from].nextAnimationLast
        e.times[from].trackLast = e.times[from].nextTrackLast
        // mixTime > 0: the entry mixing out was applied at least once.
        if e.times[to].mixTime > 0 && e.times[to].mixTime >= e.times[to].mixDuration {
            // totalAlpha == 0: nothing of it shows any more (a zero-length mix ends at once).
            if e.times[from].totalAlpha == 0 || e.times[to].mixDuration == 0 {
                let below = e.state[from].mixingFrom
                e.state[to].mixingFrom = below
                if below >= 0 { e.state[Int(below)].mixingTo = Int32(to) }
                e.times[to].interruptAlpha = e.times[from].interruptAlpha
                queue(.end, from, &sink)
            }
            return finished
        }
        e.times[from].trackTime += delta * e.times[from].timeScale
        e.times[to].mixTime += delta
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
            while e.state[entry].mixingFrom >= 0 { entry = Int(e.state[entry].mixingFrom) }
            repeat {
                if e.state[entry].mixingTo < 0 || e.state[entry].mixBlend != UInt8(MixBlend.add.rawValue) {
                    computeHold(entry, ws)
                }
                entry = Int(e.state[entry].mixingTo)
            } while entry >= 0
        }
    }

    func computeHold(_ entry: Int, _ ws: StateWorkspace) {
        let animation = e.state[entry].animation
        guard animation >= 0 else { return }
        // One strong reference for the loops: passing the `unowned(unsafe)` property to a call
        // retained and released it once per timeline (callgrind: 5 % of the crowd's apply at 1/16).
        let tables = self.tables
        let to = Int(e.state[entry].mixingTo)
        let first = Int(rig.animTimelineStart[Int(animation)])
        let count = Int(rig.animTimelineCount[Int(animation)])
        let modes = e.timelineMode + entry &* e.timelineStride
        let holdMix = e.timelineHoldMix + entry &* e.timelineStride
        if to >= 0 && e.state[to].holdPrevious != 0 {
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
                || !tables.animation(e.state[to].animation, keysAnyOf: t)
            {
                modes[k] = TimelineMixMode.first
                continue
            }
            var mode = TimelineMixMode.holdFirst
            var next = Int(e.state[to].mixingTo)
            while next >= 0 {
                if tables.animation(e.state[next].animation, keysAnyOf: t) {
                    next = Int(e.state[next].mixingTo)
                    continue
                }
                if e.times[next].mixDuration > 0 {
                    mode = TimelineMixMode.holdMix
                    holdMix[k] = Int32(next)
                }
                break
            }
            modes[k] = mode
        }
    }
}
