import BoneworkFormat

/// A handle to one track entry of an animation state: the entry's slot in its store's pool and
/// the generation the slot had. Entries are reused after they are disposed; every access
/// through a handle whose entry was disposed throws `AnimationStateError.staleTrackEntry`
/// instead of reaching the entry that reuses the slot.
///
/// Settable properties have `setX(_:)` methods (they can fail on a stale handle).
public struct TrackEntry: Hashable, CustomStringConvertible {
    let store: AnimationStateStore
    let slot: Int32
    let generation: UInt32

    public static func == (a: TrackEntry, b: TrackEntry) -> Bool {
        a.store === b.store && a.slot == b.slot && a.generation == b.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(store))
        hasher.combine(slot)
        hasher.combine(generation)
    }

    public var description: String {
        guard let name = try? animationName else { return "TrackEntry(disposed)" }
        return "TrackEntry(\(name), track \((try? trackIndex) ?? -1))"
    }

    /// Whether the entry is still live (not yet disposed).
    public var isValid: Bool { (try? store.resolve(self)) != nil }

    private func get<T>(_ read: (EntryColumns, Int) -> T) throws -> T {
        let slot = try store.resolve(self)
        return read(store.pool.columns, slot)
    }

    private func set(_ write: (EntryColumns, Int) -> Void) throws {
        let slot = try store.resolve(self)
        write(store.pool.columns, slot)
    }

    private func entry(_ slot: Int32) -> TrackEntry? { slot >= 0 ? store.handle(Int(slot)) : nil }

    // MARK: - Identity and links

    public var trackIndex: Int { get throws { try get { Int($0.track[$1]) } } }
    /// The animation index, -1 for the empty animation.
    public var animation: Int32 { get throws { try get { $0.animation[$1] } } }
    /// The animation's name (`<empty>` for the empty animation).
    public var animationName: String {
        get throws {
            let a = try animation
            return a >= 0 ? store.compiled.data.animations[Int(a)].name : MixTable.emptyName
        }
    }
    /// The entry this one replaced and is mixing from (nil when not mixing).
    public var mixingFrom: TrackEntry? { get throws { try entry(get { $0.mixingFrom[$1] }) } }
    /// The entry that replaced this one while it mixes out (nil when current).
    public var mixingTo: TrackEntry? { get throws { try entry(get { $0.mixingTo[$1] }) } }
    /// The entry queued after this one.
    public var next: TrackEntry? { get throws { try entry(get { $0.next[$1] }) } }
    /// The entry this one is queued after (nil once it is current).
    public var previous: TrackEntry? { get throws { try entry(get { $0.previous[$1] }) } }

    // MARK: - Playback

    public var loop: Bool { get throws { try get { $0.loop[$1] != 0 } } }
    public func setLoop(_ v: Bool) throws { try set { $0.loop[$1] = v ? 1 : 0 } }
    public var reverse: Bool { get throws { try get { $0.reverse[$1] != 0 } } }
    public func setReverse(_ v: Bool) throws { try set { $0.reverse[$1] = v ? 1 : 0 } }
    public var holdPrevious: Bool { get throws { try get { $0.holdPrevious[$1] != 0 } } }
    public func setHoldPrevious(_ v: Bool) throws { try set { $0.holdPrevious[$1] = v ? 1 : 0 } }
    public var shortestRotation: Bool { get throws { try get { $0.shortestRotation[$1] != 0 } } }
    public func setShortestRotation(_ v: Bool) throws { try set { $0.shortestRotation[$1] = v ? 1 : 0 } }
    public var delay: Float { get throws { try get { $0.delay[$1] } } }
    public func setDelay(_ v: Float) throws { try set { $0.delay[$1] = v } }
    public var trackTime: Float { get throws { try get { $0.trackTime[$1] } } }
    public func setTrackTime(_ v: Float) throws { try set { $0.trackTime[$1] = v } }
    public var trackEnd: Float { get throws { try get { $0.trackEnd[$1] } } }
    public func setTrackEnd(_ v: Float) throws { try set { $0.trackEnd[$1] = v } }
    public var animationStart: Float { get throws { try get { $0.animationStart[$1] } } }
    public func setAnimationStart(_ v: Float) throws { try set { $0.animationStart[$1] = v } }
    public var animationEnd: Float { get throws { try get { $0.animationEnd[$1] } } }
    public func setAnimationEnd(_ v: Float) throws { try set { $0.animationEnd[$1] = v } }
    public var animationLast: Float { get throws { try get { $0.animationLast[$1] } } }
    public func setAnimationLast(_ v: Float) throws {
        try set {
            $0.animationLast[$1] = v
            $0.nextAnimationLast[$1] = v
        }
    }
    public var timeScale: Float { get throws { try get { $0.timeScale[$1] } } }
    public func setTimeScale(_ v: Float) throws { try set { $0.timeScale[$1] = v } }
    /// The time in the animation the entry poses (wrapped when looping, clamped otherwise).
    public var animationTime: Float { get throws { try get { $0.animationTime($1) } } }
    /// The track time at which the entry next completes.
    public var trackComplete: Float { get throws { try get { $0.trackComplete($1) } } }
    /// Whether the track time reached the animation's duration at least once.
    public var isComplete: Bool {
        get throws { try get { $0.trackTime[$1] >= $0.animationEnd[$1] - $0.animationStart[$1] } }
    }
    /// Whether the entry was applied at least once.
    public var wasApplied: Bool { get throws { try get { $0.nextTrackLast[$1] != -1 } } }

    // MARK: - Mixing

    public var alpha: Float { get throws { try get { $0.alpha[$1] } } }
    public func setAlpha(_ v: Float) throws { try set { $0.alpha[$1] = v } }
    public var mixBlend: MixBlend {
        get throws { try get { MixBlend(rawValue: Int32($0.mixBlend[$1])) ?? .replace } }
    }
    public func setMixBlend(_ v: MixBlend) throws { try set { $0.mixBlend[$1] = UInt8(v.rawValue) } }
    public var mixTime: Float { get throws { try get { $0.mixTime[$1] } } }
    public func setMixTime(_ v: Float) throws { try set { $0.mixTime[$1] = v } }
    public var mixDuration: Float { get throws { try get { $0.mixDuration[$1] } } }
    /// Sets the mix duration. (A delay given to `addAnimation` was resolved when the entry was
    /// queued; use `setMixDuration(_:delay:)` to recompute it.)
    public func setMixDuration(_ v: Float) throws { try set { $0.mixDuration[$1] = v } }
    /// Sets the mix duration and the delay; a delay <= 0 counts from the previous entry's end
    /// minus the mix duration.
    public func setMixDuration(_ duration: Float, delay: Float) throws {
        try set { e, s in
            e.mixDuration[s] = duration
            var d = delay
            let previous = Int(e.previous[s])
            if previous >= 0 && d <= 0 { d += e.trackComplete(previous) - duration }
            e.delay[s] = d
        }
    }
    public var eventThreshold: Float { get throws { try get { $0.eventThreshold[$1] } } }
    public func setEventThreshold(_ v: Float) throws { try set { $0.eventThreshold[$1] = v } }
    /// Below this mix percentage, the attachment timelines of the entry mixing out still choose attachments.
    public var mixAttachmentThreshold: Float { get throws { try get { $0.mixAttachmentThreshold[$1] } } }
    public func setMixAttachmentThreshold(_ v: Float) throws { try set { $0.mixAttachmentThreshold[$1] = v } }
    /// Attachment timelines choose attachments only when the entry's alpha reaches this.
    public var alphaAttachmentThreshold: Float { get throws { try get { $0.alphaAttachmentThreshold[$1] } } }
    public func setAlphaAttachmentThreshold(_ v: Float) throws { try set { $0.alphaAttachmentThreshold[$1] = v } }
    /// Below this mix percentage, the draw order timeline of the entry mixing out still applies.
    public var mixDrawOrderThreshold: Float { get throws { try get { $0.mixDrawOrderThreshold[$1] } } }
    public func setMixDrawOrderThreshold(_ v: Float) throws { try set { $0.mixDrawOrderThreshold[$1] = v } }

    /// Forgets the rotation memory, so that the next mixed apply takes the shortest way again.
    public func resetRotationDirections() throws { try set { $0.rotationsReady[$1] = 0 } }

    /// Receives this entry's events (before the state's listeners).
    public func setListener(_ listener: AnimationStateListener?) throws {
        let slot = try store.resolve(self)
        store.setEntryListener(slot, listener)
    }
}
