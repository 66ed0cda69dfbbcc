/// How a batch places one instance's elements (bones, slots, constraints) in a column.
///
/// Every per-element column of a batch is addressed as `base(instance) + element * stride`, so the
/// systems never care which layout is in use:
/// - `chunkSize == 1` (instance-major): instance i's elements are contiguous, `base = i * n`,
///   `stride = 1`. This is the default.
/// - `chunkSize == k > 1` (chunked, element-major): instances are grouped in chunks of k; inside a
///   chunk one element of all k instances is contiguous (`base = chunk * k * n + lane`,
///   `stride = k`), which lets a pass over one bone run across a chunk's instances: with k a
///   multiple of 4, the pose and vertex systems evaluate four instances at once in SIMD lanes;
///   with k a multiple of 8, the vertex system evaluates eight.
///
/// Worlds use `standard` (chunks of 8) unless told otherwise.
public struct ColumnLayout: Sendable, Equatable {
    /// Instances interleaved per chunk (1: each instance's elements contiguous).
    public let chunkSize: Int

    /// A layout of chunks of `chunkSize` instances (at least 1).
    public init(chunkSize: Int = 1) {
        self.chunkSize = max(1, chunkSize)
    }

    /// Chunks of 1: every instance's columns contiguous, no SIMD across instances.
    public static let instanceMajor = ColumnLayout(chunkSize: 1)
    /// Chunks of 8 instances: one SIMD lane per instance, 4 lanes per vector in the pose system
    /// and 8 in the vertex system (Benchmarks/CHUNKING.md and RESULTS.md compare layouts).
    public static let standard = ColumnLayout(chunkSize: 8)

    /// The first index of `instance`'s elements in a column holding `perInstance` elements per instance.
    @inline(__always)
    public func base(_ instance: Int, perInstance: Int) -> Int {
        if chunkSize == 1 { return instance &* perInstance }
        let chunk = instance / chunkSize
        let lane = instance &- chunk &* chunkSize
        return chunk &* chunkSize &* perInstance &+ lane
    }

    /// The distance between consecutive elements of one instance.
    @inline(__always)
    public var stride: Int { chunkSize }

    /// The smallest capacity >= `count` that this layout can hold (a whole number of chunks).
    public func roundUp(_ count: Int) -> Int {
        let chunks = (count + chunkSize - 1) / chunkSize
        return max(1, chunks) * chunkSize
    }
}
