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
        guard let name else { return "TrackEntry(disposed)" }
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

    public var loop: Bool { get throws { try get { $0.state[$1].loop != 0 } } }
    public func setLoop(_ v: Bool) throws { try set { $0.state[$1].loop = v ? 1 : 0 } }
    public var reverse: Bool { get throws { try get { $0.state[$1].reverse != 0 } } }
    public func setReverse(_ v: Bool) throws { try set { $0.state[$1].reverse = v ? 1 : 0 } }
    public var holdPrevious: Bool { get throws { try get { $0.state[$1].holdPrevious != 0 } } }
    public func setHoldPrevious(_ v: Bool) throws { try set { $0.state[$1].holdPrevious = v ? 1 : 0 } }
    public var shortestRotation: Bool { get throws { try get { $0.state[$1].shortestRotation != 0 } } }
    public func setShortestRotation(_ v: Bool) throws { try set { $0.state[$1].shortestRotation = v ? 1 : 0 } }
    public var delay: Float { get throws { try get { $0.times[$1].delay } } }
    public func setDelay(_ v: Float) throws { try set { $0.times[$1].delay = v } }
    public var trackTime: Float { get throws { try get { $0.times[$1].trackTime } } }
    public func setTrackTime(_ v: Float) throws { try set { $0.times[$1].trackTime = v } }
    public var trackEnd: Float { get throws { try get { $0.times[$1].trackEnd } } }
    public func setTrackEnd(_ v: Float) throws { try set { $0.times[$1].trackEnd = v } }
    public var animationStart: Float { get throws { try get { $0.times[$1].animationStart } } }
    public func setAnimationStart(_ v: Float) throws { try set { $0.times[$1].animationStart = v } }
    public var animationEnd: Float { get throws { try get { $0.times[$1].animationEnd } } }
    public func setAnimationEnd(_ v: Float) throws { try set { $0.times[$1].animationEnd = v } }
    public var animationLast: Float { get throws { try get { $0.times[$1].animationLast } } }
    public func setAnimationLast(_ v: Float) throws {
        try set {
            $0.times[$1].animationLast = v
            $0.times[$1].nextAnimationLast = v
        }
    }
    public var timeScale: Float { get throws { try get { $0.times[$1].timeScale } } }
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

    public var alpha: Float { get throws { try get { $0.times[$1].alpha } } }
    public func setAlpha(_ v: Float) throws { try set { $0.times[$1].alpha = v } }
    public var mixBlend: MixBlend {
        get throws { try get { MixBlend(rawValue: Int32($0.state[$1].mixBlend)) ?? .replace } }
    }
    public func setMixBlend(_ v: MixBlend) throws { try set { $0.state[$1].mixBlend = UInt8(v.rawValue) } }
    public var mixTime: Float { get throws { try get { $0.times[$1].mixTime } } }
    public func setMixTime(_ v: Float) throws { try set { $0.times[$1].mixTime = v } }
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
    public var eventThreshold: Float { get throws { try get { $0.times[$1].eventThreshold } } }
    public func setEventThreshold(_ v: Float) throws { try set { $0.times[$1].eventThreshold = v } }
    /// Below this mix percentage, the attachment timelines of the entry mixing out still choose attachments.
    public var mixAttachmentThreshold: Float { get throws { try get { $0.state[$1].mixAttachmentThreshold } } }
    public func setMixAttachmentThreshold(_ v: Float) throws { try set { $0.state[$1].mixAttachmentThreshold = v } }
    /// Attachment timelines choose attachments only when the entry's alpha reaches this.
    public var alphaAttachmentThreshold: Float { get throws { try get { $0.state[$1].alphaAttachmentThreshold } } }
    public func setAlphaAttachmentThreshold(_ v: Float) throws { try set { $0.state[$1].alphaAttachmentThreshold = v } }
    /// Below this mix percentage, the draw order timeline of the entry mixing out still applies.
    public var mixDrawOrderThreshold: Float { get throws { try get { $0.state[$1].mixDrawOrderThreshold } } }
    public func setMixDrawOrderThreshold(_ v: Float) throws { try set { $0.state[$1].mixDrawOrderThreshold = v } }

    /// Forgets the rotation memory, so that the next mixed apply takes the shortest way again.
    public func resetRotationDirections() throws { try set { $0.state[$1].rotationsReady = 0 } }

    /// Receives this entry's events (before the state's listeners).
    public func setListener(_ listener: AnimationStateListener?) throws {
        let slot = try store.resolve(self)
        store.setEntryListener(slot, listener)
    }
}
