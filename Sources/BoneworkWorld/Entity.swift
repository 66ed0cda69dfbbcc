/// A handle to one instance in a `World`: a slot in the world's entity table plus the
/// generation that slot had when the instance was spawned. Despawning bumps the generation, so
/// an old handle can never reach the instance that later reuses the slot.
public struct Entity: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let index: UInt32
    public let generation: UInt32

    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }

    public var description: String { "Entity(\(index)v\(generation))" }
}

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
