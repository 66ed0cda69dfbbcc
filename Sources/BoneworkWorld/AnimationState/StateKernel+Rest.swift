/// Resting rows (batches with update rates only).
///
/// On the frames a row's pose is not computed, its state update and its events-only apply
/// (`applyEventsOnly`) only advance its entries' times, unless something observable happens: an
/// event key, a completion, a track's end, a mix, a queued entry, a delay. A row whose next such
/// thing is further ahead than the coming frames' time *rests*: the frame loop skips it without
/// reading its entries, and counts the frames it skipped. Before anything reads or changes the
/// row again (its next computed pose, the budget running out, an operation, a `TrackEntry`
/// read or write, a row move), it *catches up*: the skipped frames' time steps are redone with
/// the frames' own deltas, in order, so its times are bit for bit those of a row that never
/// rested, and nothing it would have queued is lost (there was nothing).
///
/// What a row may skip is its *budget*: world seconds (frame deltas, before any time scale),
/// computed after each frame the row was processed, with margins for the rounding of the time
/// steps (`StateKernel.restBudget`).
struct RestColumns: @unchecked Sendable {
    /// Per row: world seconds the row may still skip; 0 or less (or NaN): it may not.
    var budget: UnsafeMutablePointer<Float>
    /// Per row: frames skipped since the row's state was last brought up to date.
    var skipped: UnsafeMutablePointer<UInt8>
    /// The deltas of the last `ring` frames, by frame number modulo `ring`.
    var deltas: UnsafeMutablePointer<Float>
    /// The number of the frame in progress (during a pass) or last run (between frames).
    var frame: Int
    /// Per row: its update-rate shift; rows at full rate never rest and get no budget.
    var rates: UnsafePointer<UInt8>

    /// Frames of deltas kept.
    static let ring = 16
    /// The most frames a row may skip: the ring still holds them all, the current frame's
    /// delta included (rows slower than every frame are posed at least every 16th frame).
    static let mostSkipped = ring - 1
}

extension StateKernel {
    /// `update(row:delta:)` for the rows of a block in a frame where rows may rest: a row not
    /// posed this frame (`due` 0, relative to `rows.lowerBound`) whose budget covers `delta`
    /// skips the frame; any other row first catches up the frames it skipped, then updates.
    @inline(__always)
    func update(
        rows: Range<Int>, delta: Float, due: UnsafePointer<UInt8>, rest: RestColumns, _ sink: inout StateEventSink
    ) {
        for row in rows {
            let skipped = Int(rest.skipped[row])
            if due[row &- rows.lowerBound] == 0 && skipped < RestColumns.mostSkipped && delta > 0
                && delta < rest.budget[row]
            {
                rest.budget[row] -= delta
                rest.skipped[row] = UInt8(skipped &+ 1)
                continue
            }
            if skipped > 0 {
                // The skipped frames are the ones before this.
                catchUp(row: row, skipped: skipped, lastFrame: rest.frame &- 1, deltas: rest.deltas)
                rest.skipped[row] = 0
            }
            rest.budget[row] = 0
            update(row: row, delta: delta, &sink)
        }
    }

    /// Redoes the `skipped` frames (numbered up to `lastFrame`) a resting row skipped: for
    /// each, the state update's and the events-only apply's time steps of each track's entry,
    /// as those would have made them (nothing else of theirs happens while a row rests).
    func catchUp(row: Int, skipped: Int, lastFrame: Int, deltas: UnsafePointer<Float>) {
        let scale = timeScale[row]
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 { continue }
            let entryScale = e.times[c].timeScale
            var before = e.times[c].trackTime
            var time = before
            for k in 0..<skipped {
                let frame = lastFrame &- skipped &+ 1 &+ k
                // The update's arithmetic: the row's scaled delta, then the entry's.
                let delta = deltas[frame & (RestColumns.ring &- 1)] * scale
                before = time
                time += delta * entryScale
            }
            if skipped >= 2 {
                // The last skipped frame's update read what the one before it had applied.
                e.times[c].trackLast = before
                e.times[c].animationLast = e.animationTime(c, trackTime: before)
            } else {
                e.times[c].trackLast = e.times[c].nextTrackLast
                e.times[c].animationLast = e.times[c].nextAnimationLast
            }
            e.times[c].trackTime = time
            e.times[c].nextTrackLast = time
            e.times[c].nextAnimationLast = e.animationTime(c, trackTime: time)
        }
        unkeyed[row] = unkeyed[row] &+ Int32(truncatingIfNeeded: 2 &* skipped)
    }

    /// World seconds `row` may skip from the next frame on, just after its apply: nothing
    /// observable happens in its tracks before its entries' times advance that far. 0 when it
    /// must not rest: a track mixing, queuing or delayed, mix modes to recompute, a negative or
    /// non-finite time scale or time, a zero-length looping animation.
    func restBudget(row: Int) -> Float {
        if changed[row] != 0 { return 0 }
        let scale = timeScale[row]
        guard scale > 0, scale.isFinite else { return 0 }
        var budget = Float.infinity
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 { continue }
            guard e.state[c].next < 0, e.state[c].mixingFrom < 0, !(e.times[c].delay > 0) else { return 0 }
            let entryScale = e.times[c].timeScale
            guard entryScale >= 0, entryScale.isFinite else { return 0 }
            let ahead = trackTimeAhead(c)
            guard ahead > 0 else { return 0 }
            if entryScale == 0 { continue }
            // The deltas are scaled twice, and the budget is decremented frame by frame: both
            // round, so a little is kept back.
            budget = min(budget, ahead / (scale * entryScale) * (1 - 0x1p-16))
        }
        return budget
    }

    /// Track time `entry` (current, alone on its track, applied this frame) may advance before
    /// its next event key, completion or track end; the distances are shortened by a margin
    /// far above the rounding of 15 time steps. 0 or less: something may happen next frame.
    @inline(__always)
    private func trackTimeAhead(_ c: Int) -> Float {
        let times = e.times[c]
        let time = times.trackTime
        let start = times.animationStart
        let end = times.animationEnd
        let duration = end - start
        guard time >= 0, time.isFinite, duration.isFinite, start.isFinite else { return 0 }
        @inline(__always) func shortened(_ threshold: Float, _ now: Float) -> Float {
            (threshold - now) - (abs(threshold) + abs(now) + time) * 0x1p-16
        }
        // The track ends once its time passes `trackEnd` (the apply of that frame poses it).
        var ahead = shortened(times.trackEnd, time)
        if e.state[c].loop != 0 {
            guard duration > 0 else { return 0 }
            // A loop completes when the time passes the next multiple of the duration.
            let loops = StateMath.truncatedInt(time / duration)
            ahead = min(ahead, shortened(duration * Float(1 &+ loops), time))
        } else if times.nextAnimationLast < end {
            ahead = min(ahead, shortened(end - start, time))
        }
        // The next event key after the animation time reached (keys at it have fired).
        let animation = Int(e.state[c].animation)
        if animation >= 0 && e.state[c].reverse == 0 {
            let now = times.nextAnimationLast
            guard now.isFinite else { return 0 }
            let others = rig.otherTimelines(animation)
            for k in 0..<others.count {
                let timeline = rig.timelines + Int(others.list[k])
                guard timeline.pointee.kind == .event else { continue }
                let keys = TimelineKeys(timeline.pointee, rig)
                var i = 0
                while i < keys.length && !(keys.frames[i] > now) { i &+= keys.stride }
                if i < keys.length { ahead = min(ahead, shortened(keys.frames[i], now)) }
            }
        }
        return ahead
    }
}
