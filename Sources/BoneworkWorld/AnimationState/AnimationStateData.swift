import BoneworkFormat
import Synchronization

/// Mix durations between animations of one skeleton: a default, and durations for particular
/// (from, to) pairs. Shared by every state of the skeleton; it can be configured until a state
/// starts using it, and is immutable from then on.
public final class AnimationStateData: Sendable {
    /// The skeleton whose animations the durations are between.
    public let skeletonData: SkeletonData

    private struct Settings {
        var defaultMix: Float
        var pairs: [Int64: Float] = [:]
        var frozen = false
    }

    private let settings: Mutex<Settings>

    /// Mix durations for `skeletonData`, `defaultMix` seconds between any two animations.
    public init(skeletonData: SkeletonData, defaultMix: Float = 0) {
        self.skeletonData = skeletonData
        settings = Mutex(Settings(defaultMix: defaultMix))
    }

    /// The mix duration used for pairs without their own.
    public var defaultMix: Float { settings.withLock { $0.defaultMix } }

    /// Whether a state uses this data (it can no longer change).
    public var isFrozen: Bool { settings.withLock { $0.frozen } }

    /// Sets the mix duration, in seconds, of pairs without their own.
    /// - Throws: `AnimationStateError.dataFrozen` once a state uses the data.
    public func setDefaultMix(_ duration: Float) throws {
        try settings.withLock {
            guard !$0.frozen else { throw AnimationStateError.dataFrozen }
            $0.defaultMix = duration
        }
    }

    /// Sets the mix duration from one animation to another, by name.
    public func setMix(from: String, to: String, duration: Float) throws {
        try setMix(from: index(from), to: index(to), duration: duration)
    }

    /// `setMix(from:to:duration:)` under the name the iOS guide uses.
    public func setMixByName(fromName: String, toName: String, duration: Float) throws {
        try setMix(from: fromName, to: toName, duration: duration)
    }

    /// Sets the mix duration from one animation to another, by index.
    public func setMix(from: Int32, to: Int32, duration: Float) throws {
        try check(from)
        try check(to)
        try settings.withLock {
            guard !$0.frozen else { throw AnimationStateError.dataFrozen }
            $0.pairs[Self.pair(from, to)] = duration
        }
    }

    /// The mix duration from one animation to another (the default when the pair has none).
    public func mix(from: String, to: String) throws -> Float {
        let pair = Self.pair(try index(from), try index(to))
        return settings.withLock { $0.pairs[pair] ?? $0.defaultMix }
    }

    /// Freezes the data and returns the table a state reads.
    func freeze() -> MixTable {
        let (defaultMix, pairs) = settings.withLock { s -> (Float, [Int64: Float]) in
            s.frozen = true
            return (s.defaultMix, s.pairs)
        }
        // Pairs compare animations by name: an animation named like the empty one stands for it.
        let empty = skeletonData.findAnimation(MixTable.emptyName) ?? -1
        return MixTable(defaultMix: defaultMix, pairs: pairs, emptyAlias: empty)
    }

    private func index(_ name: String) throws -> Int32 {
        guard let i = skeletonData.findAnimation(name) else { throw AnimationStateError.unknownAnimation(name) }
        return i
    }

    private func check(_ i: Int32) throws {
        guard i >= 0, Int(i) < skeletonData.animations.count else { throw AnimationStateError.animationOutOfRange(i) }
    }

    static func pair(_ from: Int32, _ to: Int32) -> Int64 { Int64(from) << 32 | Int64(UInt32(bitPattern: to)) }
}

/// The frozen mix durations a state reads when it queues an entry (never per frame).
struct MixTable: Sendable {
    static let emptyName = "<empty>"

    let defaultMix: Float
    let pairs: [Int64: Float]
    /// The animation index that stands for the empty animation in pairs, -1 when none.
    let emptyAlias: Int32

    /// The mix duration from `from` to `to` (-1 = the empty animation).
    func mix(from: Int32, to: Int32) -> Float {
        let f = from < 0 ? emptyAlias : from
        let t = to < 0 ? emptyAlias : to
        guard f >= 0, t >= 0, !pairs.isEmpty else { return defaultMix }
        return pairs[AnimationStateData.pair(f, t)] ?? defaultMix
    }
}
