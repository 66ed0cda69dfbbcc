/// What a `World` refuses, and why.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// The entity was despawned (or never belonged to this world).
    case staleEntity(Entity)
    case unknownSkin(String)
    /// A skin name (or index) the skeleton does not have, with the skeleton's file.
    case noSuchSkin(String, skeleton: String)
    /// The skeleton's room for composed skins (`ComposedSkins.limit` distinct outfits) is used up.
    case tooManyComposedSkins(skeleton: String, limit: Int)
    case unknownAnimation(String)
    case animationOutOfRange(Int32)
    case trackOutOfRange(Int)
    /// `FrameProfiler.addApplicationSystem` was asked for more than its fixed number of systems.
    case tooManyApplicationSystems(String, limit: Int)

    public var description: String {
        switch self {
        case .staleEntity(let e): return "stale entity handle \(e): it was despawned or never spawned here"
        case .unknownSkin(let name): return "no skin named '\(name)'"
        case .noSuchSkin(let name, let skeleton): return "no skin named '\(name)' in \(skeleton)"
        case .tooManyComposedSkins(let skeleton, let limit):
            return
                "\(skeleton): cannot compose another skin, \(limit) composed skins are in use (the most one skeleton keeps)"
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        case .animationOutOfRange(let i): return "animation index \(i) out of range"
        case .trackOutOfRange(let t): return "track \(t) out of range"
        case .tooManyApplicationSystems(let name, let limit):
            return "cannot profile application system '\(name)': at most \(limit) are kept"
        }
    }
}
