import BoneworkWorld

/// The characters of a GPU-path frame as (batch, row) pairs for
/// `GPURenderer.pack(_:batches:rows:)`: the entities are located in bulk, and each batch's column
/// views are fetched once per frame, not once per character. Keeps its arrays: once warm,
/// gathering a frame allocates nothing.
public final class BatchRows {
    /// The column views of every batch of the world gathered from.
    public private(set) var batches: [BatchPoseViews] = []
    /// Per character in order: `batch << 32 | row` (`batch` an index into ``batches``).
    public private(set) var rows: [UInt64] = []

    /// An empty gathering.
    public init() {}

    /// Forgets the last frame's characters (keeping the storage).
    public func removeAll() {
        batches.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
    }

    /// Replaces the gathering with `count` characters, `entity(k)` the k-th, located in bulk
    /// (`World.locate(_:entity:into:)`): every batch of `world` is listed, each character costs a
    /// few loads and no reference counting. Allocates only while it grows.
    /// - Throws: `WorldError.staleEntity` when an entity is not alive in `world` (the gathering is
    ///   then empty).
    public func gather(_ count: Int, entity: (Int) -> Entity, in world: World) throws {
        removeAll()
        for batch in world.batches { batches.append(batch.poseViews()) }
        do {
            rows.append(contentsOf: repeatElement(0, count: count))
            try rows.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                try world.locate(count, entity: entity, into: base)
            }
        } catch {
            removeAll()
            throw error
        }
    }

    /// Packs every gathered character into `frame` through `renderer` (see
    /// `GPURenderer.pack(_:batches:rows:)`); the batches must be unchanged since gathering.
    public func pack(_ frame: GPUFrame, with renderer: GPURenderer) {
        batches.withUnsafeBufferPointer { b in
            rows.withUnsafeBufferPointer { renderer.pack(frame, batches: b, rows: $0) }
        }
    }
}
