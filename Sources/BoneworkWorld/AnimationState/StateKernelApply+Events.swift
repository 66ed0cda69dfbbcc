import BoneworkFormat

/// The events and completions an apply queues for delivery.
extension StateKernel {
    /// Queues the user events an apply fired and the entry's completion, in the reference's
    /// order: events of the loop that ended, then complete, then events of the new loop.
    /// Most applies queue nothing: that case is decided here, inline.
    @inline(__always)
    func queueEvents(_ entry: Int, _ animationTime: Float, _ fired: FiredKeys, _ sink: inout StateEventSink) {
        if fired.count == 0 && !completes(entry, animationTime) { return }
        queueFiredAndComplete(entry, animationTime, fired, &sink)
    }

    /// Whether this apply completes a loop of `entry` (or, not looping, reaches its end).
    @inline(__always)
    func completes(_ entry: Int, _ animationTime: Float) -> Bool {
        let animationEnd = e.times[entry].animationEnd
        if e.state[entry].loop != 0 {
            let duration = animationEnd - e.times[entry].animationStart
            if duration == 0 { return true }
            let cycles = StateMath.truncatedInt(e.times[entry].trackTime / duration)
            return cycles > 0 && cycles > StateMath.truncatedInt(e.times[entry].trackLast / duration)
        }
        return animationTime >= animationEnd && e.times[entry].animationLast < animationEnd
    }

    private func queueFiredAndComplete(
        _ entry: Int, _ animationTime: Float, _ fired: FiredKeys, _ sink: inout StateEventSink
    ) {
        let animationStart = e.times[entry].animationStart
        let animationEnd = e.times[entry].animationEnd
        let duration = animationEnd - animationStart
        let generation = e.state[entry].generation

        var i = 0
        let n = fired.count
        // Only needed when keys fired (a remainder is not free, and most applies fire none).
        let trackLastWrapped =
            n == 0 || duration == 0 ? .nan : e.times[entry].trackLast.truncatingRemainder(dividingBy: duration)
        while i < n {
            let time = fired.times[i]
            if time < trackLastWrapped { break }
            if time <= animationEnd {  // Keys past the animation's end are dropped.
                sink.append(.event, entry: entry, generation: generation, key: fired.keys[i])
            }
            i &+= 1
        }

        if completes(entry, animationTime) { sink.append(.complete, entry: entry, generation: generation) }

        while i < n {
            if fired.times[i] >= animationStart {  // Keys before the animation's start are dropped.
                sink.append(.event, entry: entry, generation: generation, key: fired.keys[i])
            }
            i &+= 1
        }
    }
}
