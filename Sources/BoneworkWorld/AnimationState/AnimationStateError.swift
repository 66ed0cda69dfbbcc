/// What an animation state refuses, and why.
public enum AnimationStateError: Error, Equatable, CustomStringConvertible {
    /// No animation of the skeleton has this name.
    case unknownAnimation(String)
    /// An animation index outside the skeleton's animations.
    case animationOutOfRange(Int32)
    /// The track entry was disposed (its slot may now hold another entry).
    case staleTrackEntry
    /// A negative track index, or one past the supported number of tracks.
    case trackOutOfRange(Int)
    /// Mix times cannot change once a state uses the data.
    case dataFrozen
    /// The state was removed (its instance despawned).
    case staleState
    /// The data belongs to another skeleton than the batch.
    case skeletonMismatch

    /// The error in one line, naming what was refused.
    public var description: String {
        switch self {
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        case .animationOutOfRange(let i): return "animation index \(i) out of range"
        case .staleTrackEntry: return "stale track entry handle: the entry was disposed"
        case .trackOutOfRange(let t): return "track \(t) out of range"
        case .dataFrozen: return "animation state data is in use by a state and can no longer change"
        case .staleState: return "the animation state was removed"
        case .skeletonMismatch: return "animation state data belongs to another skeleton"
        }
    }
}
