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
