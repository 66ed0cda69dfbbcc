/// Where every entity of a world lives, read-only, for locating many entities at once on several
/// threads (`World.withEntityLocations`). `@unchecked Sendable`: it holds pointers to the world's
/// entity table, which nothing changes while the view is in use (the contract of
/// `withEntityLocations`); readers only load from it.
public struct EntityLocations: @unchecked Sendable {
    let generations: UnsafeBufferPointer<UInt32>
    let locations: UnsafeBufferPointer<(batch: Int32, row: Int32)>

    /// `batch << 32 | row` of a live entity (`batch` its index in `World.batches`), nil for a stale
    /// or unknown handle.
    @inline(__always)
    public func locate(_ entity: Entity) -> UInt64? {
        let i = Int(entity.index)
        guard i < generations.count, generations[i] == entity.generation else { return nil }
        let location = locations[i]
        guard location.batch >= 0 else { return nil }
        return UInt64(UInt32(bitPattern: location.batch)) << 32 | UInt64(UInt32(bitPattern: location.row))
    }
}
