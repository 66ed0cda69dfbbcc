/// What a `World` refuses, and why.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// The entity was despawned (or never belonged to this world).
    case staleEntity(Entity)
    case unknownSkin(String)
    case unknownAnimation(String)
    case animationOutOfRange(Int32)
    case trackOutOfRange(Int)
    /// `FrameProfiler.addApplicationSystem` was asked for more than its fixed number of systems.
    case tooManyApplicationSystems(String, limit: Int)

    public var description: String {
        switch self {
        case .staleEntity(let e): return "stale entity handle \(e): it was despawned or never spawned here"
        case .unknownSkin(let name): return "no skin named '\(name)'"
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        case .animationOutOfRange(let i): return "animation index \(i) out of range"
        case .trackOutOfRange(let t): return "track \(t) out of range"
        case .tooManyApplicationSystems(let name, let limit):
            return "cannot profile application system '\(name)': at most \(limit) are kept"
        }
    }
}
