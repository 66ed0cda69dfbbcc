/// What happened on a track during a frame (the reference's AnimationState event types).
public enum TrackEventType: UInt8, Sendable, BitwiseCopyable {
    case start, interrupt, end, complete, dispose, event
}

/// One event raised while a frame ran.
public struct FiredEvent: Sendable, Equatable, BitwiseCopyable {
    public var entity: Entity
    public var track: Int32
    public var type: TrackEventType
    public var animation: Int32
    /// `.event` only: global event key index (see `Batch.eventKey(_:)`); -1 otherwise.
    public var key: Int32
}

/// A fixed-capacity list of fired events, filled by systems without allocating. When full,
/// further events are counted in `dropped` instead of stored; the batch sizes it so that a
/// frame's events fit (`Batch.reserveEvents`).
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
        if count < capacity {
            storage[count] = event
            count &+= 1
        } else {
            dropped &+= 1
        }
    }

    mutating func clear() {
        count = 0
        dropped = 0
    }

    /// Grows to at least `newCapacity` (outside frames only).
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
