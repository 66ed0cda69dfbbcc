/// Budget mode for update rates: each frame, before the systems run, `World` picks every
/// instance's `UpdateRate` from the significance the application gave it
/// (`World.setSignificance`, or `Batch.updateRateColumns()` for a whole frame), so that the
/// engine's CPU time per frame (every system on every thread, and this choice) stays under
/// `milliseconds`. The most significant instances run at full rate, the least at the slowest
/// rate the budget needs; an instance never runs faster than one more significant.
///
/// The cost model is measured, not assumed: after each frame the budget reads the profiler's CPU
/// time of the systems that run for every instance (animation state, slots, vertices) and of
/// those that run only for computed poses (timeline apply, constraints and world transforms),
/// averages them over a few frames, and asks the next frame for as many computed poses as the
/// rest of the budget pays for. Instances of batches without update rates count as computed
/// every frame.
public struct UpdateBudget: Sendable {
    /// The engine's CPU time per frame to stay under, in milliseconds (summed over threads).
    public var milliseconds: Double
    /// The slowest rate the budget may give (`UpdateRate.slowest` by default).
    public var slowest: UpdateRate
    /// The share of the budget the choice aims at, leaving room for frame-to-frame noise.
    public var target: Double = 0.92

    /// A budget of `milliseconds` of engine CPU per frame.
    public init(milliseconds: Double, slowest: UpdateRate = .slowest) {
        self.milliseconds = milliseconds
        self.slowest = slowest
    }
}

/// What the budget learned from the frames so far, and its buffers (allocated once).
///
/// A controller on the number of poses computed per frame: after each frame it moves the target
/// by the budget left over (or overrun) divided by what one computed pose costs (the apply and
/// pose systems' CPU time over the poses computed, which also carries the cheaper work of the
/// rows drawn from history, so the estimate errs high and the steps stay small). It starts from
/// every instance at the slowest rate and climbs.
final class UpdateBudgetState {
    /// Significance buckets: bucket k holds significance in [k / n, (k + 1) / n).
    static let buckets = 64
    /// Poses to compute per frame (all batches; nil until the first choice).
    var computedTarget: Double?
    /// Nanoseconds per computed pose (smoothed).
    var perComputed: Double = 0
    /// Instances per bucket, and the rate shift each bucket gets.
    var counts = [Int](repeating: 0, count: buckets)
    var shifts = [Int](repeating: 0, count: buckets)
    /// Instances given each rate in the last choice.
    var rateCounts = [Int](repeating: 0, count: UpdateRate.count)
    /// Computed poses the last choice expected per frame.
    var expectedComputed: Double = 0
    /// How much of each new cost measurement the average takes, and how much of the budget's
    /// error one frame corrects.
    static let smoothing = 0.25
    static let gain = 0.5

    @inline(__always)
    static func bucket(_ significance: Float) -> Int {
        // NaN and negative significance land in bucket 0, above 1 in the last.
        guard significance > 0 else { return 0 }
        return min(buckets - 1, Int(significance * Float(buckets)))
    }

    /// Moves the target by what the last frame cost (`totalNanoseconds`: every system and the
    /// choice) against the budget; `computedNanoseconds`: the apply and pose systems' part.
    func learn(_ budget: UpdateBudget, totalNanoseconds: Double, computedNanoseconds: Double) {
        guard var target = computedTarget, expectedComputed >= 1 else { return }
        let each = computedNanoseconds / expectedComputed
        guard each.isFinite, each > 0 else { return }
        perComputed = perComputed == 0 ? each : perComputed + Self.smoothing * (each - perComputed)
        let goal = budget.milliseconds * 1e6 * budget.target
        target += Self.gain * (goal - totalNanoseconds) / perComputed
        // An infinite budget allows every pose, a NaN one none beyond the slowest rate (`choose`
        // clamps the target between them).
        computedTarget = target.isFinite ? target : (goal > 0 ? .greatestFiniteMagnitude : 0)
    }

    /// Chooses a rate shift per bucket for `rated` instances (bucket counts in `counts`) beside
    /// `fixed` instances computed every frame, so that about `computedTarget` poses are computed
    /// per frame, the most significant first.
    func choose(_ budget: UpdateBudget, rated: Int, fixed: Int) {
        let slowest = budget.slowest.shift
        let least = Double(fixed) + Double(rated) / Double(1 << slowest)
        let target = min(Double(fixed + rated), max(least, computedTarget ?? least))
        computedTarget = target
        var capacity = target - Double(fixed)
        var rest = Double(rated)
        var shift = 0
        var expected = Double(fixed)
        for k in stride(from: Self.buckets - 1, through: 0, by: -1) {
            let n = Double(counts[k])
            rest -= n
            let reserve = rest / Double(1 << slowest)
            while shift < slowest && n / Double(1 << shift) + reserve > capacity + 0.5 { shift += 1 }
            shifts[k] = shift
            capacity -= n / Double(1 << shift)
            expected += n / Double(1 << shift)
        }
        expectedComputed = expected
    }
}
