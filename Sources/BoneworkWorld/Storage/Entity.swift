/// A handle to one instance in a `World`: a slot in the world's entity table plus the
/// generation that slot had when the instance was spawned. Despawning bumps the generation, so
/// an old handle can never reach the instance that later reuses the slot.
public struct Entity: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// The slot in the world's entity table.
    public let index: UInt32
    /// The slot's generation when the instance was spawned.
    public let generation: UInt32

    /// A handle from its parts (tests, serialisation): the world accepts it only while that index
    /// holds an instance of that generation.
    public init(index: UInt32, generation: UInt32) {
        self.index = index
        self.generation = generation
    }

    /// `Entity(3v1)`: index and generation.
    public var description: String { "Entity(\(index)v\(generation))" }
}
