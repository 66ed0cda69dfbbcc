import BoneworkWorld

/// What the trigger system refuses.
public enum TriggerError: Error, Equatable, CustomStringConvertible {
    /// A change on a barrier track from outside the barrier's scope.
    case refusedByBarrier(entity: Entity, track: Int, barrier: String, source: String)
    /// Another scope already owns this track of this entity.
    case trackAlreadyScoped(entity: Entity, track: Int, scope: String)
    /// A trigger names an animation the skeleton does not have.
    case unknownAnimation(String)

    /// The error on one line, naming what was refused.
    public var description: String {
        switch self {
        case .refusedByBarrier(let e, let t, let b, let s):
            return "barrier '\(b)' refuses animation changes on \(e) track \(t) from \(s)"
        case .trackAlreadyScoped(let e, let t, let s):
            return "track \(t) of \(e) is already owned by scope '\(s)'"
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        }
    }
}
