/// What a `World` refuses, and why.
public enum WorldError: Error, Equatable, CustomStringConvertible {
    /// The entity was despawned (or never belonged to this world).
    case staleEntity(Entity)
    /// A skin name the skeleton does not have.
    case unknownSkin(String)
    /// A skin name (or index) the skeleton does not have, with the skeleton's file.
    case noSuchSkin(String, skeleton: String)
    /// An attachment name neither the worn skin nor the default skin has for the slot.
    case noSuchAttachment(String, slot: String, skeleton: String)
    /// A bone, slot or constraint name the skeleton does not have (`kind`: "bone", "slot",
    /// "ik constraint", ...).
    case noSuchName(String, kind: String, skeleton: String)
    /// The skeleton's room for composed skins (`ComposedSkins.limit` distinct outfits) is used up.
    case tooManyComposedSkins(skeleton: String, limit: Int)
    /// An animation name the skeleton does not have.
    case unknownAnimation(String)
    /// An animation index outside the skeleton's animations.
    case animationOutOfRange(Int32)
    /// A track index the instance does not have (or an empty track where an entry is needed).
    case trackOutOfRange(Int)
    /// Room for `instances` instances of the skeleton (`bytesEach` bytes of instance storage
    /// each, beside `held` bytes other skeletons hold) would pass the world's `memoryLimit`.
    case memoryLimit(skeleton: String, instances: Int, bytesEach: Int, limit: Int, held: Int)
    /// `FrameProfiler.addApplicationSystem` was asked for more than its fixed number of systems.
    case tooManyApplicationSystems(String, limit: Int)
    /// An update rate below every frame in a world made without update rates.
    case noUpdateRates

    /// The error in one line: what was refused, and the skeleton file where it is known.
    public var description: String {
        switch self {
        case .staleEntity(let e): return "stale entity handle \(e): it was despawned or never spawned here"
        case .unknownSkin(let name): return "no skin named '\(name)'"
        case .noSuchSkin(let name, let skeleton): return "no skin named '\(name)' in \(skeleton)"
        case .noSuchAttachment(let name, let slot, let skeleton):
            return
                "no attachment named '\(name)' for slot '\(slot)' in the worn skin or the default skin of \(skeleton)"
        case .noSuchName(let name, let kind, let skeleton): return "no \(kind) named '\(name)' in \(skeleton)"
        case .tooManyComposedSkins(let skeleton, let limit):
            return
                "\(skeleton): cannot compose another skin, \(limit) composed skins are in use (the most one skeleton keeps)"
        case .unknownAnimation(let name): return "no animation named '\(name)'"
        case .animationOutOfRange(let i): return "animation index \(i) out of range"
        case .trackOutOfRange(let t): return "track \(t) out of range"
        case .memoryLimit(let skeleton, let instances, let each, let limit, let held):
            let need = MemoryBudget.bytes(instances, each: each).map(MemoryBudget.describe) ?? "more than a 64-bit size"
            let besides = held > 0 ? " beside the \(MemoryBudget.describe(held)) other skeletons hold" : ""
            return
                "\(skeleton): \(instances) instances need \(need) of instance storage (\(each) bytes each)\(besides), "
                + "more than the world's memory limit of \(MemoryBudget.describe(limit)) "
                + "(World.memoryLimit; by default three quarters of the memory available)"
        case .tooManyApplicationSystems(let name, let limit):
            return "cannot profile application system '\(name)': at most \(limit) are kept"
        case .noUpdateRates:
            return "this world keeps no pose history for slower update rates: make it with World(updateRates: true)"
        }
    }
}
