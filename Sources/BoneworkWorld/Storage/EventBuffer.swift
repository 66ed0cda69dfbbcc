/// What happened on a track during a frame (the reference's AnimationState event types).
public enum TrackEventType: UInt8, Sendable, BitwiseCopyable {
    /// The entry became current.
    case start
    /// Another entry replaced it (it mixes out from now).
    case interrupt
    /// It is no longer current and will not be applied again.
    case end
    /// It reached the end of its animation (each loop, for a looping one).
    case complete
    /// It is about to be reused: handles to it go stale.
    case dispose
    /// A user event key was passed.
    case event
}

/// One event raised while a frame ran.
public struct FiredEvent: Sendable, Equatable, BitwiseCopyable {
    /// The instance whose track raised it.
    public var entity: Entity
    /// The track index.
    public var track: Int32
    /// What happened.
    public var type: TrackEventType
    /// The entry's animation (index into `SkeletonData.animations`, -1 for the empty animation).
    public var animation: Int32
    /// `.event` only: global event key index (see `Batch.eventKey(_:)`); -1 otherwise.
    public var key: Int32
}

/// The list of events a batch delivered during a frame (filled on the calling thread, when the
/// animation states deliver their events). It keeps its capacity between frames and doubles it
/// when a frame raises more events than any before, so steady frames do not allocate and
/// nothing is sized per instance up front. `dropped` stays for callers that check it (always 0).
struct EventBuffer {
    private(set) var storage: UnsafeMutablePointer<FiredEvent>
    private(set) var capacity: Int
    var count = 0
    var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ event: FiredEvent) {
        if count == capacity { reserve(capacity * 2) }
        storage[count] = event
        count &+= 1
    }

    mutating func clear() {
        count = 0
        dropped = 0
    }

    /// Grows to at least `newCapacity`.
    mutating func reserve(_ newCapacity: Int) {
        guard newCapacity > capacity else { return }
        let fresh = UnsafeMutablePointer<FiredEvent>.allocate(capacity: newCapacity)
        fresh.update(from: storage, count: count)
        storage.deallocate()
        storage = fresh
        capacity = newCapacity
    }

    var events: UnsafeBufferPointer<FiredEvent> { UnsafeBufferPointer(start: storage, count: count) }

    func free() { storage.deallocate() }
}
