import BoneworkFormat

/// Operations on tracks: playing, queuing and clearing animations (the entries they make and
/// the checks before them).
extension AnimationStateStore {
    // MARK: - Checks and new entries

    /// The animation index of a name, or the unknown-animation error.
    public func animationIndex(_ name: String) throws -> Int32 {
        guard let i = compiled.data.findAnimation(name) else { throw AnimationStateError.unknownAnimation(name) }
        return i
    }

    private func checkAnimation(_ animation: Int32) throws {
        guard animation == -1 || (animation >= 0 && Int(animation) < compiled.data.animations.count) else {
            throw AnimationStateError.animationOutOfRange(animation)
        }
    }

    private func checkRow(_ row: Int) throws {
        guard row >= 0, row < rowCount else { throw AnimationStateError.staleState }
        wake(row: row)
    }

    /// The current entry of `track` (-1 = none), first making room for the track.
    private func expand(row: Int, track: Int) throws -> Int {
        guard track >= 0, track < Self.maxTracks else { throw AnimationStateError.trackOutOfRange(track) }
        if track < Int(trackCount[row]) { return Int(tracks[row * trackWidth + track]) }
        if track >= trackWidth { relayout(rows: rowCapacity, width: max(track + 1, trackWidth * 2)) }
        for t in Int(trackCount[row])...track { tracks[row * trackWidth + t] = -1 }
        trackCount[row] = Int32(track + 1)
        return -1
    }

    /// A fresh entry for `animation` (-1 = empty) on `track`, mixing from `last` (-1 = none).
    private func newEntry(row: Int, track: Int, animation: Int32, loop: Bool, last: Int) -> Int {
        // The slot at the row's place in the pool, or the first free one after it (see
        // `TrackEntryPool`): neighbouring rows' entries stay near each other.
        let slot = pool.obtain(near: row * pool.columns.capacity / max(rowCapacity, 1))
        // A listener of the slot's previous entry does not carry over.
        setEntryListener(slot, nil)
        let e = pool.columns
        // Fresh records (see `EntryTimes` and `EntryState` for the defaults); the generation stays.
        var state = EntryState()
        state.generation = e.state[slot].generation
        state.live = 1
        state.owner = Int32(row)
        state.track = Int32(track)
        state.animation = animation
        state.loop = loop ? 1 : 0
        var times = EntryTimes()
        times.animationEnd = animation >= 0 ? compiled.tables.animDuration[Int(animation)] : 0
        times.mixDuration = last < 0 ? 0 : mixes.mix(from: e.state[last].animation, to: animation)
        e.state[slot] = state
        e.times[slot] = times
        return slot
    }

    // MARK: - Playing, queuing and clearing

    /// Plays `animation` (-1 = the empty animation) on a track now, mixing from what it played.
    @discardableResult
    public func setAnimation(row: Int, track: Int, animation: Int32, loop: Bool) throws -> TrackEntry {
        try checkRow(row)
        try checkAnimation(animation)
        var current = try expand(row: row, track: track)
        var interrupt = true
        let k = kernel
        if current >= 0 {
            if pool.columns.times[current].nextTrackLast == -1 {
                // Never applied: replaced without a mix.
                tracks[row * trackWidth + track] = pool.columns.state[current].mixingFrom
                k.queue(.interrupt, current, &queue)
                k.queue(.end, current, &queue)
                k.clearNext(current, &queue)
                current = Int(pool.columns.state[current].mixingFrom)
                interrupt = false
            } else {
                k.clearNext(current, &queue)
            }
        }
        let entry = newEntry(row: row, track: track, animation: animation, loop: loop, last: current)
        kernel.setCurrent(row: row, track: track, entry: entry, interrupt: interrupt, &queue)
        let result = handle(entry)
        drain()
        return result
    }

    /// Queues `animation` (-1 = empty) after the track's last entry. `delay` <= 0 counts from
    /// the end of the previous entry minus the mix duration.
    @discardableResult
    public func addAnimation(row: Int, track: Int, animation: Int32, loop: Bool, delay delayIn: Float) throws
        -> TrackEntry
    {
        try checkRow(row)
        try checkAnimation(animation)
        var last = try expand(row: row, track: track)
        if last >= 0 {
            while pool.columns.state[last].next >= 0 { last = Int(pool.columns.state[last].next) }
        }
        let entry = newEntry(row: row, track: track, animation: animation, loop: loop, last: last)
        let e = pool.columns
        var delay = delayIn
        if last < 0 {
            kernel.setCurrent(row: row, track: track, entry: entry, interrupt: true, &queue)
            e.times[entry].delay = delay
            let result = handle(entry)
            drain()
            return result
        }
        e.state[last].next = Int32(entry)
        e.state[entry].previous = Int32(last)
        if delay <= 0 { delay += e.trackComplete(last) - e.times[entry].mixDuration }
        e.times[entry].delay = delay
        return handle(entry)
    }

    /// Mixes a track out to the setup pose over `mixDuration` seconds.
    @discardableResult
    public func setEmptyAnimation(row: Int, track: Int, mixDuration: Float) throws -> TrackEntry {
        let entry = try setAnimation(row: row, track: track, animation: -1, loop: false)
        if let slot = try? resolve(entry) {
            pool.columns.times[slot].mixDuration = mixDuration
            pool.columns.times[slot].trackEnd = mixDuration
        }
        return entry
    }

    /// Queues a mix out to the setup pose after the track's last entry.
    @discardableResult
    public func addEmptyAnimation(row: Int, track: Int, mixDuration: Float, delay: Float) throws -> TrackEntry {
        let entry = try addAnimation(row: row, track: track, animation: -1, loop: false, delay: delay)
        if let slot = try? resolve(entry) {
            let e = pool.columns
            if delay <= 0 { e.times[slot].delay += e.times[slot].mixDuration - mixDuration }
            e.times[slot].mixDuration = mixDuration
            e.times[slot].trackEnd = mixDuration
        }
        return entry
    }

    /// Mixes every track with an entry out to the setup pose.
    public func setEmptyAnimations(row: Int, mixDuration: Float) throws {
        try checkRow(row)
        let wasDisabled = drainDisabled
        drainDisabled = true
        defer {
            drainDisabled = wasDisabled
            drain()
        }
        for t in 0..<Int(trackCount[row]) where tracks[row * trackWidth + t] >= 0 {
            try setEmptyAnimation(row: row, track: t, mixDuration: mixDuration)
        }
    }

    /// Removes every entry of a track at once (the pose keeps what was applied last).
    public func clearTrack(row: Int, track: Int) throws {
        try checkRow(row)
        guard track >= 0, track < Int(trackCount[row]) else { return }
        let current = Int(tracks[row * trackWidth + track])
        guard current >= 0 else { return }
        let k = kernel
        let e = pool.columns
        k.queue(.end, current, &queue)
        k.clearNext(current, &queue)
        var entry = current
        while true {
            let from = Int(e.state[entry].mixingFrom)
            if from < 0 { break }
            k.queue(.end, from, &queue)
            e.state[entry].mixingFrom = -1
            e.state[entry].mixingTo = -1
            entry = from
        }
        tracks[row * trackWidth + Int(e.state[current].track)] = -1
        drain()
    }

    /// Removes every entry of every track of a row.
    public func clearTracks(row: Int) throws {
        try checkRow(row)
        let wasDisabled = drainDisabled
        drainDisabled = true
        for t in 0..<Int(trackCount[row]) { try clearTrack(row: row, track: t) }
        trackCount[row] = 0
        drainDisabled = wasDisabled
        drain()
    }
}
