/// How often an instance's animation is applied and its pose computed: every frame, or every
/// 2nd, 4th, 8th or 16th frame (update-rate level of detail).
///
/// Only worlds made with `World(updateRates: true)` keep the history that slower rates need.
/// Whatever the rate, an instance's animation state advances every frame and fires its events,
/// completions and mix endings on the same frames as at full rate; on frames its pose is not
/// computed it draws a pose extrapolated from its last two computed poses (`UpdateRateBlend`),
/// placed where the instance is now. An instance at `.everyFrame` is posed exactly as in a world
/// without update rates, bit for bit.
public struct UpdateRate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Frames between computed poses, as a power of two (0 ... 4).
    public let shift: Int

    /// The pose is computed every `2^shift` frames (`shift` clamped to 0 ... 4).
    public init(shift: Int) { self.shift = min(max(shift, 0), Self.count - 1) }

    /// The rate computing every `frames` frames: 1, 2, 4, 8 or 16 (nil for any other count).
    public init?(frames: Int) {
        guard frames > 0, frames.nonzeroBitCount == 1, frames.trailingZeroBitCount < Self.count else { return nil }
        shift = frames.trailingZeroBitCount
    }

    /// Frames between computed poses (1, 2, 4, 8 or 16).
    public var frames: Int { 1 << shift }

    /// Every frame: the pose is computed each frame (the default).
    public static let everyFrame = UpdateRate(shift: 0)
    /// The slowest rate: every 16th frame.
    public static let slowest = UpdateRate(shift: count - 1)
    /// Every rate, fastest first.
    public static let all = (0..<count).map { UpdateRate(shift: $0) }
    /// How many rates there are.
    static let count = 5

    /// Whether `a` computes more often than `b` (faster rates order first).
    public static func < (a: UpdateRate, b: UpdateRate) -> Bool { a.shift < b.shift }

    /// "1/1", "1/2", ... "1/16".
    public var description: String { "1/\(frames)" }
}

/// How an instance draws the frames between its computed poses.
public enum UpdateRateBlend: Sendable {
    /// Straight on from the last computed pose, at the pace of the last two (the last pose plus
    /// their difference times the time since, over the time between them, at most one interval):
    /// as current as the last computed pose, but it overshoots where a motion turns.
    case extrapolate
    /// Between the last two computed poses, one interval late: it never overshoots, but the
    /// drawn pose lags the animation by the interval.
    case interpolate
}
