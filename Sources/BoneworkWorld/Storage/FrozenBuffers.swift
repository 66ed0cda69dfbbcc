/// Owns immutable raw copies of arrays for the lifetime of its owner, so that systems can read
/// them through plain pointers (no array bounds checks, no reference counting in inner loops).
final class FrozenBuffers {
    private var allocations: [UnsafeMutableRawPointer] = []

    /// A pointer to a copy of `values` (never null, valid until `self` is deallocated).
    func freeze<T: BitwiseCopyable>(_ values: [T]) -> UnsafePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
        values.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { p.initialize(from: base, count: buffer.count) }
        }
        allocations.append(UnsafeMutableRawPointer(p))
        return UnsafePointer(p)
    }

    /// A pointer to room for `capacity` values (at least `values.count`), the first ones a copy
    /// of `values`, the rest uninitialized: the owner initializes each element before reading it.
    func reserve<T: BitwiseCopyable>(_ values: [T], capacity: Int) -> UnsafeMutablePointer<T> {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count, capacity))
        values.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { p.initialize(from: base, count: buffer.count) }
        }
        allocations.append(UnsafeMutableRawPointer(p))
        return p
    }

    deinit {
        for p in allocations { p.deallocate() }
    }
}
