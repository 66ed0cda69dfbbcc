import BoneworkFormat

/// Delivering the events a frame queued: listeners (per entry, per row, per store) and the
/// batch's event log, on the calling thread, in row order.
extension AnimationStateStore {
    // MARK: - Delivery

    /// Delivers queued events to the entry's, the row's and the store's listeners, in order.
    /// Listeners may call operations; the events those raise are delivered in the same drain.
    /// Ended and disposed entries return to the pool after their listeners ran.
    public func drain() {
        if drainDisabled { return }
        drainDisabled = true
        defer {
            queue.removeAll()
            drainDisabled = false
        }
        var i = 0
        while i < queue.count {
            let ev = queue[i]
            i += 1
            let slot = Int(ev.entry)
            let e = pool.columns
            guard slot >= 0, slot < e.capacity, e.state[slot].live != 0, e.state[slot].generation == ev.generation
            else { continue }
            let entry = TrackEntry(store: self, slot: ev.entry, generation: ev.generation)
            log(ev, slot)
            switch ev.type {
            case .end:
                notify(.end, entry, slot, nil)
                notify(.dispose, entry, slot, nil)
                releaseEntry(slot)
            case .dispose:
                notify(.dispose, entry, slot, nil)
                releaseEntry(slot)
            case .event:
                notify(.event, entry, slot, userEvent(ev.key))
            default:
                notify(ev.type, entry, slot, nil)
            }
        }
    }

    /// Appends a delivered event to the batch's polling log.
    fileprivate func log(_ ev: QueuedStateEvent, _ slot: Int) {
        guard let batch else { return }
        let e = pool.columns
        let owner = Int(e.state[slot].owner)
        guard owner >= 0, owner < batch.count else { return }
        let entity = batch.entity(atRow: owner)
        let track = e.state[slot].track
        let animation = e.state[slot].animation
        batch.events.append(FiredEvent(entity: entity, track: track, type: ev.type, animation: animation, key: ev.key))
        if ev.type == .end {
            batch.events.append(FiredEvent(entity: entity, track: track, type: .dispose, animation: animation, key: -1))
        }
    }

    fileprivate func notify(_ type: TrackEventType, _ entry: TrackEntry, _ slot: Int, _ event: AnimationEvent?) {
        if slot < entryListeners.count, let l = entryListeners[slot] { l(type, entry, event) }
        // The entry may have been released by a listener's operation; its owner row is re-read.
        let owner = Int(pool.columns.state[slot].owner)
        if owner >= 0, let l = rowListeners[owner] { l(type, entry, event) }
        if let l = listener { l(type, entry, event) }
    }

    /// The user event of a global event key index.
    func userEvent(_ key: Int32) -> AnimationEvent? {
        let data = compiled.data
        guard key >= 0, Int(key) < compiled.eventKeys.count else { return nil }
        let (a, k) = compiled.eventKeys[Int(key)]
        let eventKey = data.animations[Int(a)].events[Int(k)]
        let eventData = data.events.indices.contains(Int(eventKey.event)) ? data.events[Int(eventKey.event)] : nil
        return AnimationEvent(
            data: eventKey.event, name: eventData?.name ?? "", intValue: eventKey.intValue,
            floatValue: eventKey.floatValue, stringValue: eventKey.stringValue, audioPath: eventData?.audioPath ?? "",
            volume: eventKey.volume, balance: eventKey.balance, time: eventKey.time)
    }
}
