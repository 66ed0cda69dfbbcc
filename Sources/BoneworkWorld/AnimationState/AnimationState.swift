import BoneworkFormat

/// The animation state of one instance: tracks of queued, mixing animations and the events
/// they raise. A light handle (world + entity): copy it freely; once the entity is despawned
/// every call throws.
///
/// The API follows the reference's AnimationState (spine-cpp's `setAnimation(trackIndex, name,
/// loop)`), with one spelling per operation and one label rule:
///
/// - The track index is the first argument and has no label; the animation (a name, or an
///   index into `SkeletonData.animations`) follows it, also unlabelled; everything after is
///   labelled (`loop:`, `delay:`, `mixDuration:`):
///   `setAnimation(0, "walk", loop: true)`, `addAnimation(0, "run", loop: true, delay: 0)`,
///   `setEmptyAnimation(0, mixDuration: 0.2)`, `addEmptyAnimation(0, mixDuration: 0.2, delay: 0)`,
///   `clearTrack(0)`, `getCurrent(0)`.
/// - Where another subject comes first (an entity in ``World/setAnimation(_:track:_:loop:)`` and
///   ``World/clearTrack(_:track:)``, a row in ``AnimationStateStore``), the track is labelled
///   `track:`.
///
/// The spine-ios spellings (`setAnimationByName(trackIndex:animationName:loop:)`,
/// `addAnimationByName`, `setEmptyAnimation(trackIndex:mixDuration:)`, ...) remain as deprecated
/// forwards. Unknown names throw `AnimationStateError.unknownAnimation`; a negative track index
/// throws `AnimationStateError.trackOutOfRange`.
public struct AnimationState {
    /// The world holding the instance.
    public let world: World
    /// The instance whose tracks this state plays.
    public let entity: Entity

    /// The animation state of `entity` in `world` (a light handle: copy freely; a stale entity makes
    /// every call throw).
    public init(world: World, entity: Entity) {
        self.world = world
        self.entity = entity
    }

    private func locate() throws -> (store: AnimationStateStore, row: Int) {
        let (batch, row) = try world.locate(entity)
        return (batch.animationStates, row)
    }

    /// The mix durations this state uses.
    public var data: AnimationStateData { get throws { try locate().store.stateData } }

    // MARK: - Playing animations

    /// Plays an animation on a track now, mixing from the track's current entry.
    @discardableResult
    public func setAnimation(_ trackIndex: Int, _ animationName: String, loop: Bool) throws -> TrackEntry {
        let (store, row) = try locate()
        return try store.setAnimation(
            row: row, track: trackIndex, animation: store.animationIndex(animationName), loop: loop)
    }

    /// Plays an animation (by index into `SkeletonData.animations`) on a track now.
    @discardableResult
    public func setAnimation(_ trackIndex: Int, _ animation: Int32, loop: Bool) throws -> TrackEntry {
        let (store, row) = try locate()
        guard animation >= 0 else { throw AnimationStateError.animationOutOfRange(animation) }
        return try store.setAnimation(row: row, track: trackIndex, animation: animation, loop: loop)
    }

    /// Queues an animation after the track's last entry. A delay <= 0 counts from the end of
    /// the previous entry minus the mix duration.
    @discardableResult
    public func addAnimation(_ trackIndex: Int, _ animationName: String, loop: Bool, delay: Float) throws
        -> TrackEntry
    {
        let (store, row) = try locate()
        return try store.addAnimation(
            row: row, track: trackIndex, animation: store.animationIndex(animationName), loop: loop, delay: delay)
    }

    /// Queues an animation (by index into `SkeletonData.animations`) after the track's last entry.
    @discardableResult
    public func addAnimation(_ trackIndex: Int, _ animation: Int32, loop: Bool, delay: Float) throws -> TrackEntry {
        let (store, row) = try locate()
        guard animation >= 0 else { throw AnimationStateError.animationOutOfRange(animation) }
        return try store.addAnimation(row: row, track: trackIndex, animation: animation, loop: loop, delay: delay)
    }

    /// Mixes the track out to the setup pose over `mixDuration` seconds.
    @discardableResult
    public func setEmptyAnimation(_ trackIndex: Int, mixDuration: Float) throws -> TrackEntry {
        let (store, row) = try locate()
        return try store.setEmptyAnimation(row: row, track: trackIndex, mixDuration: mixDuration)
    }

    /// Queues a mix out to the setup pose after the track's last entry.
    @discardableResult
    public func addEmptyAnimation(_ trackIndex: Int, mixDuration: Float, delay: Float) throws -> TrackEntry {
        let (store, row) = try locate()
        return try store.addEmptyAnimation(row: row, track: trackIndex, mixDuration: mixDuration, delay: delay)
    }

    /// Mixes every track out to the setup pose.
    public func setEmptyAnimations(mixDuration: Float) throws {
        let (store, row) = try locate()
        try store.setEmptyAnimations(row: row, mixDuration: mixDuration)
    }

    /// Removes every entry of a track now; the pose keeps what was applied last.
    public func clearTrack(_ trackIndex: Int) throws {
        let (store, row) = try locate()
        try store.clearTrack(row: row, track: trackIndex)
    }

    /// Removes every entry of every track now.
    public func clearTracks() throws {
        let (store, row) = try locate()
        try store.clearTracks(row: row)
    }

    // MARK: - Inspection and settings

    /// The current entry of a track, nil when it has none.
    public func getCurrent(_ trackIndex: Int) throws -> TrackEntry? {
        let (store, row) = try locate()
        return store.current(row: row, track: trackIndex)
    }

    /// The current entries of every track in use (nil for empty tracks).
    public var tracks: [TrackEntry?] {
        get throws {
            let (store, row) = try locate()
            return (0..<store.trackCount(row: row)).map { store.current(row: row, track: $0) }
        }
    }

    /// Speed of every track of this state (1 = normal).
    public var timeScale: Float {
        get throws {
            let (store, row) = try locate()
            return store.timeScale(row: row)
        }
    }

    /// Sets the time scale every track of this instance advances by (1: real time, 0: paused).
    public func setTimeScale(_ value: Float) throws {
        let (store, row) = try locate()
        store.setTimeScale(row: row, value)
    }

    /// Receives every event of this state's entries (after the entry's own listener).
    public func setListener(_ listener: AnimationStateListener?) throws {
        let (store, row) = try locate()
        store.setListener(row: row, listener)
    }

    /// Receives one entry's events (before this state's listener); `entry.setListener` does the same.
    public func setTrackEntryListener(entry: TrackEntry, _ listener: AnimationStateListener?) throws {
        try entry.setListener(listener)
    }

    // MARK: - Driving one instance by hand

    /// Advances this state's tracks (what a world frame does for every instance) and delivers
    /// the events it raised.
    public func update(_ delta: Float) throws {
        let (store, row) = try locate()
        store.update(row: row, delta: delta)
    }

    /// Poses this instance from its tracks (local pose, slots, draw order) and delivers the
    /// events; world transforms follow with the next frame or `World.updateWorldTransforms`.
    @discardableResult
    public func apply() throws -> Bool {
        let (batch, row) = try world.locate(entity)
        return batch.animationStates.apply(row: row, columns: batch.columns())
    }
}

extension World {
    /// The animation state of an instance.
    public func animationState(_ entity: Entity) throws -> AnimationState {
        _ = try locate(entity)
        return AnimationState(world: self, entity: entity)
    }

    /// Uses `data` (default mix and per-pair mixes) for the animation states of `data`'s
    /// skeleton. Call before the first animation plays on any of its instances; the data is
    /// frozen from then on.
    public func setAnimationStateData(_ data: AnimationStateData) throws {
        let batch = self.batch(for: data.skeletonData)
        try batch.replaceAnimationStateData(data)
    }
}

extension Batch {
    /// A store with a default mix of 0 for this batch's skeleton.
    static func makeAnimationStates(_ rig: CompiledSkeleton, capacity: Int) -> AnimationStateStore {
        AnimationStateStore(checked: rig, data: AnimationStateData(skeletonData: rig.data), capacity: capacity)
    }

    /// Replaces the state data (allowed while no entry exists yet).
    func replaceAnimationStateData(_ data: AnimationStateData) throws {
        guard data.skeletonData === rig.data else { throw AnimationStateError.skeletonMismatch }
        guard animationStates.stateData !== data else { return }
        guard animationStates.pool.liveCount == 0 else { throw AnimationStateError.dataFrozen }
        let store = AnimationStateStore(checked: rig, data: data, capacity: capacity)
        if updateRates { store.enableRests() }
        for _ in 0..<count { store.addRow() }
        store.batch = self
        animationStates = store
    }
}

// MARK: - Deprecated spellings

extension AnimationState {
    /// The spine-ios spelling of `setAnimation(_:_:loop:)` by name.
    @available(*, deprecated, renamed: "setAnimation(_:_:loop:)")
    @discardableResult
    public func setAnimationByName(trackIndex: Int, animationName: String, loop: Bool) throws -> TrackEntry {
        try setAnimation(trackIndex, animationName, loop: loop)
    }

    /// The earlier labelled spelling of `setAnimation(_:_:loop:)` by index.
    @available(*, deprecated, renamed: "setAnimation(_:_:loop:)")
    @discardableResult
    public func setAnimation(trackIndex: Int, animation: Int32, loop: Bool) throws -> TrackEntry {
        try setAnimation(trackIndex, animation, loop: loop)
    }

    /// The spine-ios spelling of `addAnimation(_:_:loop:delay:)` by name.
    @available(*, deprecated, renamed: "addAnimation(_:_:loop:delay:)")
    @discardableResult
    public func addAnimationByName(trackIndex: Int, animationName: String, loop: Bool, delay: Float) throws
        -> TrackEntry
    {
        try addAnimation(trackIndex, animationName, loop: loop, delay: delay)
    }

    /// The earlier labelled spelling of `addAnimation(_:_:loop:delay:)` by index.
    @available(*, deprecated, renamed: "addAnimation(_:_:loop:delay:)")
    @discardableResult
    public func addAnimation(trackIndex: Int, animation: Int32, loop: Bool, delay: Float) throws -> TrackEntry {
        try addAnimation(trackIndex, animation, loop: loop, delay: delay)
    }

    /// The earlier labelled spelling of `setEmptyAnimation(_:mixDuration:)`.
    @available(*, deprecated, renamed: "setEmptyAnimation(_:mixDuration:)")
    @discardableResult
    public func setEmptyAnimation(trackIndex: Int, mixDuration: Float) throws -> TrackEntry {
        try setEmptyAnimation(trackIndex, mixDuration: mixDuration)
    }

    /// The earlier labelled spelling of `addEmptyAnimation(_:mixDuration:delay:)`.
    @available(*, deprecated, renamed: "addEmptyAnimation(_:mixDuration:delay:)")
    @discardableResult
    public func addEmptyAnimation(trackIndex: Int, mixDuration: Float, delay: Float) throws -> TrackEntry {
        try addEmptyAnimation(trackIndex, mixDuration: mixDuration, delay: delay)
    }
}
