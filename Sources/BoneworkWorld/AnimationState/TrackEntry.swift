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

    /// Two handles are equal when they name the same entry of the same store in the same generation
    /// (a reused pool slot makes a different entry).
    public static func == (a: TrackEntry, b: TrackEntry) -> Bool {
        a.store === b.store && a.slot == b.slot && a.generation == b.generation
    }

    /// Hashes the store, the pool slot and the generation, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(store))
        hasher.combine(slot)
        hasher.combine(generation)
    }

    /// `TrackEntry(walk, track 0)`, or `TrackEntry(disposed)` for a stale handle.
    public var description: String {
        guard let name else { return "TrackEntry(disposed)" }
        return "TrackEntry(\(name), track \((try? trackIndex) ?? -1))"
    }

    /// Whether the entry is still live (not yet disposed).
    public var isValid: Bool { (try? store.resolve(self)) != nil }

    private func get<T>(_ read: (EntryColumns, Int) -> T) throws -> T {
        let slot = try store.resolve(self)
        store.wake(slot: slot)
        return read(store.pool.columns, slot)
    }

    private func set(_ write: (EntryColumns, Int) -> Void) throws {
        let slot = try store.resolve(self)
        store.wake(slot: slot)
        write(store.pool.columns, slot)
    }

    private func entry(_ slot: Int32) -> TrackEntry? { slot >= 0 ? store.handle(Int(slot)) : nil }

    // MARK: - Identity and links

    /// The track the entry plays on (0 is applied first).
    public var trackIndex: Int { get throws { try get { Int($0.state[$1].track) } } }
    /// The animation index, -1 for the empty animation.
    public var animation: Int32 { get throws { try get { $0.state[$1].animation } } }
    /// The name of the animation this entry plays (`<empty>` for the empty animation), or nil
    /// once the entry is disposed. Does not throw, so listeners can read it directly; the
    /// `dispose` event still sees the name, since entries return to the pool only after their
    /// listeners ran. As in the reference runtime, where a disposed entry's animation is reset to
    /// null, a stale handle has no animation: it never reports the entry that reuses its slot.
    public var name: String? {
        guard let a = try? animation else { return nil }
        return a >= 0 ? store.compiled.data.animations[Int(a)].name : MixTable.emptyName
    }
    /// The animation's name (`<empty>` for the empty animation).
    /// - Throws: `AnimationStateError.staleTrackEntry` once the entry is disposed.
    @available(*, deprecated, renamed: "name", message: "name does not throw; it is nil once the entry is disposed")
    public var animationName: String {
        get throws {
            guard let name else { throw AnimationStateError.staleTrackEntry }
            return name
        }
    }
    /// The entry this one replaced and is mixing from (nil when not mixing).
    public var mixingFrom: TrackEntry? { get throws { try entry(get { $0.state[$1].mixingFrom }) } }
    /// The entry that replaced this one while it mixes out (nil when current).
    public var mixingTo: TrackEntry? { get throws { try entry(get { $0.state[$1].mixingTo }) } }
    /// The entry queued after this one.
    public var next: TrackEntry? { get throws { try entry(get { $0.state[$1].next }) } }
    /// The entry this one is queued after (nil once it is current).
    public var previous: TrackEntry? { get throws { try entry(get { $0.state[$1].previous }) } }

    // MARK: - Playback

    /// Whether the animation repeats; when false it holds its last frame after its duration.
    public var loop: Bool { get throws { try get { $0.state[$1].loop != 0 } } }
    /// Sets ``loop``.
    /// - Throws: `AnimationStateError.staleTrackEntry` after the entry was disposed (as every setter).
    public func setLoop(_ v: Bool) throws { try set { $0.state[$1].loop = v ? 1 : 0 } }
    /// Whether the animation plays backwards (from its end to its start).
    public var reverse: Bool { get throws { try get { $0.state[$1].reverse != 0 } } }
    /// Sets ``reverse``.
    public func setReverse(_ v: Bool) throws { try set { $0.state[$1].reverse = v ? 1 : 0 } }
    /// Whether the entry mixing out keeps its full pose under this one while the mix runs (for an
    /// animation keyed on top of the previous one).
    public var holdPrevious: Bool { get throws { try get { $0.state[$1].holdPrevious != 0 } } }
    /// Sets ``holdPrevious``.
    public func setHoldPrevious(_ v: Bool) throws { try set { $0.state[$1].holdPrevious = v ? 1 : 0 } }
    /// Whether rotation mixes take the shortest way each frame, instead of remembering the direction
    /// they started in.
    public var shortestRotation: Bool { get throws { try get { $0.state[$1].shortestRotation != 0 } } }
    /// Sets ``shortestRotation``.
    public func setShortestRotation(_ v: Bool) throws { try set { $0.state[$1].shortestRotation = v ? 1 : 0 } }
    /// Seconds the entry waits on its track before it starts (for queued entries: counted from when the
    /// previous entry started).
    public var delay: Float { get throws { try get { $0.times[$1].delay } } }
    /// Sets ``delay``.
    public func setDelay(_ v: Float) throws { try set { $0.times[$1].delay = v } }
    /// Seconds the entry has played, scaled by its ``timeScale`` (not wrapped at the duration).
    public var trackTime: Float { get throws { try get { $0.times[$1].trackTime } } }
    /// Sets ``trackTime`` (to start the animation at another time without changing how it loops).
    public func setTrackTime(_ v: Float) throws { try set { $0.times[$1].trackTime = v } }
    /// The track time at which the entry ends and the next queued one takes over (infinity: never).
    public var trackEnd: Float { get throws { try get { $0.times[$1].trackEnd } } }
    /// Sets ``trackEnd``.
    public func setTrackEnd(_ v: Float) throws { try set { $0.times[$1].trackEnd = v } }
    /// The animation time the entry starts at, in seconds.
    public var animationStart: Float { get throws { try get { $0.times[$1].animationStart } } }
    /// Sets ``animationStart``.
    public func setAnimationStart(_ v: Float) throws { try set { $0.times[$1].animationStart = v } }
    /// The animation time the entry loops or stops at, in seconds (the animation's duration by default).
    public var animationEnd: Float { get throws { try get { $0.times[$1].animationEnd } } }
    /// Sets ``animationEnd``.
    public func setAnimationEnd(_ v: Float) throws { try set { $0.times[$1].animationEnd = v } }
    /// The animation time of the previous apply (events and attachment keys between it and the
    /// current time fire); -1 before the first apply.
    public var animationLast: Float { get throws { try get { $0.times[$1].animationLast } } }
    /// Sets ``animationLast`` (and the value the next apply starts from).
    public func setAnimationLast(_ v: Float) throws {
        try set {
            $0.times[$1].animationLast = v
            $0.times[$1].nextAnimationLast = v
        }
    }
    /// Multiplies the time this entry advances by (0 pauses it, negative is not supported), on top of
    /// the state's own time scale.
    public var timeScale: Float { get throws { try get { $0.times[$1].timeScale } } }
    /// Sets ``timeScale``.
    public func setTimeScale(_ v: Float) throws { try set { $0.times[$1].timeScale = v } }
    /// The time in the animation the entry poses (wrapped when looping, clamped otherwise).
    public var animationTime: Float { get throws { try get { $0.animationTime($1) } } }
    /// The track time at which the entry next completes.
    public var trackComplete: Float { get throws { try get { $0.trackComplete($1) } } }
    /// Whether the track time reached the animation's duration at least once.
    public var isComplete: Bool {
        get throws { try get { $0.times[$1].trackTime >= $0.times[$1].animationEnd - $0.times[$1].animationStart } }
    }
    /// Whether the entry was applied at least once.
    public var wasApplied: Bool { get throws { try get { $0.times[$1].nextTrackLast != -1 } } }

    // MARK: - Mixing

    /// How much of the entry's pose is applied, 0...1, over the tracks below it.
    public var alpha: Float { get throws { try get { $0.times[$1].alpha } } }
    /// Sets ``alpha``.
    public func setAlpha(_ v: Float) throws { try set { $0.times[$1].alpha = v } }
    /// How the entry's pose combines with the tracks below (replace, add, first, setup).
    public var mixBlend: MixBlend {
        get throws { try get { MixBlend(rawValue: Int32($0.state[$1].mixBlend)) ?? .replace } }
    }
    /// Sets ``mixBlend``.
    public func setMixBlend(_ v: MixBlend) throws { try set { $0.state[$1].mixBlend = UInt8(v.rawValue) } }
    /// Seconds the mix from the previous entry has run (reaches ``mixDuration`` when done).
    public var mixTime: Float { get throws { try get { $0.times[$1].mixTime } } }
    /// Sets ``mixTime``.
    public func setMixTime(_ v: Float) throws { try set { $0.times[$1].mixTime = v } }
    /// Seconds the mix from the previous entry takes (from `AnimationStateData` unless set).
    public var mixDuration: Float { get throws { try get { $0.times[$1].mixDuration } } }
    /// Sets the mix duration. (A delay given to `addAnimation` was resolved when the entry was
    /// queued; use `setMixDuration(_:delay:)` to recompute it.)
    public func setMixDuration(_ v: Float) throws { try set { $0.times[$1].mixDuration = v } }
    /// Sets the mix duration and the delay; a delay <= 0 counts from the previous entry's end
    /// minus the mix duration.
    public func setMixDuration(_ duration: Float, delay: Float) throws {
        try set { e, s in
            e.times[s].mixDuration = duration
            var d = delay
            let previous = Int(e.state[s].previous)
            if previous >= 0 && d <= 0 { d += e.trackComplete(previous) - duration }
            e.times[s].delay = d
        }
    }
    /// While mixing out, the entry's events fire only while the mix is below this percentage (0...1).
    public var eventThreshold: Float { get throws { try get { $0.times[$1].eventThreshold } } }
    /// Sets ``eventThreshold``.
    public func setEventThreshold(_ v: Float) throws { try set { $0.times[$1].eventThreshold = v } }
    /// Below this mix percentage, the attachment timelines of the entry mixing out still choose attachments.
    public var mixAttachmentThreshold: Float { get throws { try get { $0.state[$1].mixAttachmentThreshold } } }
    /// Sets ``mixAttachmentThreshold``.
    public func setMixAttachmentThreshold(_ v: Float) throws { try set { $0.state[$1].mixAttachmentThreshold = v } }
    /// Attachment timelines choose attachments only when the entry's alpha reaches this.
    public var alphaAttachmentThreshold: Float { get throws { try get { $0.state[$1].alphaAttachmentThreshold } } }
    /// Sets ``alphaAttachmentThreshold``.
    public func setAlphaAttachmentThreshold(_ v: Float) throws { try set { $0.state[$1].alphaAttachmentThreshold = v } }
    /// Below this mix percentage, the draw order timeline of the entry mixing out still applies.
    public var mixDrawOrderThreshold: Float { get throws { try get { $0.state[$1].mixDrawOrderThreshold } } }
    /// Sets ``mixDrawOrderThreshold``.
    public func setMixDrawOrderThreshold(_ v: Float) throws { try set { $0.state[$1].mixDrawOrderThreshold = v } }

    /// Forgets the rotation memory, so that the next mixed apply takes the shortest way again.
    public func resetRotationDirections() throws { try set { $0.state[$1].rotationsReady = 0 } }

    /// Receives this entry's events (before the state's listeners).
    public func setListener(_ listener: AnimationStateListener?) throws {
        let slot = try store.resolve(self)
        store.setEntryListener(slot, listener)
    }
}
