import Foundation
import Synchronization

/// Loads each (skeleton file, atlas file) pair once, however many threads ask for it, and shares
/// the immutable result. A failed load is not cached: a corrected file can be loaded again.
public final class SkeletonDataPool: Sendable {
    /// What identifies a load: the skeleton file and the atlas file as given.
    public struct Key: Hashable, Sendable {
        /// The skeleton file's path.
        public var skeleton: String
        /// The atlas file's path, nil for a skeleton loaded without one.
        public var atlas: String?
    }

    private let entries = Mutex<[Key: SkeletonData]>([:])
    private let loads = Atomic<Int>(0)
    // One lock per key being loaded, so different files load concurrently but one file once.
    private let loading = Mutex<[Key: LoadGate]>([:])

    /// An empty pool (most code uses ``shared``).
    public init() {}

    /// A process-wide pool.
    public static let shared = SkeletonDataPool()

    /// The number of distinct skeletons held.
    public var count: Int { entries.withLock { $0.count } }

    /// How many times a file was actually read and parsed (not served from the cache).
    public var loadCount: Int { loads.load(ordering: .relaxed) }

    /// Returns the shared data for this file pair, loading it on first use.
    public func load(skeleton: String, atlas: String?) throws -> SkeletonData {
        let key = Key(
            skeleton: URL(fileURLWithPath: skeleton).standardizedFileURL.path,
            atlas: atlas.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        if let data = entries.withLock({ $0[key] }) { return data }
        let gate = loading.withLock { gates -> LoadGate in
            if let gate = gates[key] { return gate }
            let gate = LoadGate()
            gates[key] = gate
            return gate
        }
        return try gate.mutex.withLock { _ in
            if let data = entries.withLock({ $0[key] }) { return data }
            let atlasData = try key.atlas.map { try AtlasReader.read(file: $0) }
            let data = try SkeletonLoader.load(file: key.skeleton, atlas: atlasData)
            loads.add(1, ordering: .relaxed)
            entries.withLock { $0[key] = data }
            return data
        }
    }

    /// Drops every cached entry (instances keep the data they hold).
    public func removeAll() { entries.withLock { $0.removeAll() } }
}

final class LoadGate: Sendable {
    let mutex = Mutex<Void>(())
}
