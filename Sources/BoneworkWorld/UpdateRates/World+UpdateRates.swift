extension World {
    /// An instance's update rate (`UpdateRate`; `.everyFrame` in a world without update rates).
    public func updateRate(_ entity: Entity) throws -> UpdateRate {
        let (batch, row) = try locate(entity)
        guard batch.updateRates else { return .everyFrame }
        return UpdateRate(shift: Int(batch.columns().updateRate[row]))
    }

    /// Sets an instance's update rate. A world made without update rates refuses any rate but
    /// `.everyFrame` (`WorldError.noUpdateRates`); under an `updateBudget` the budget sets the
    /// rates again each frame.
    public func setUpdateRate(_ entity: Entity, _ rate: UpdateRate) throws {
        let (batch, row) = try locate(entity)
        guard batch.updateRates else {
            if rate == .everyFrame { return }
            throw WorldError.noUpdateRates
        }
        batch.columns().updateRate[row] = UInt8(rate.shift)
    }

    /// How much an instance matters to the application (0 ... 1, higher is more; 1 at spawn):
    /// what `updateBudget` orders instances by. Ignored in a world without update rates.
    public func setSignificance(_ entity: Entity, _ significance: Float) throws {
        let (batch, row) = try locate(entity)
        guard batch.updateRates else { return }
        batch.columns().significance[row] = significance
    }

    /// Tells the world whether the application draws an instance (true at spawn). An instance
    /// that is not drawn and runs slower than every frame is posed when its rate comes round and
    /// records that pose as usual, but holds it (its world transforms, where it was computed) on
    /// the other frames instead of drawing one from its last two poses, which costs per bone. Its
    /// state, events and triggers are those of full rate, as for any rate. Drawn again, it draws
    /// from the poses it recorded on that same frame (posed first while it has fewer than two).
    /// At full rate, or in a world without update rates, this changes nothing.
    public func setVisible(_ entity: Entity, _ visible: Bool) throws {
        let (batch, row) = try locate(entity)
        guard batch.updateRates else { return }
        batch.columns().hidden[row] = visible ? 0 : 1
    }

    /// Whether the application draws an instance (`setVisible`; true in a world without update rates).
    public func isVisible(_ entity: Entity) throws -> Bool {
        let (batch, row) = try locate(entity)
        guard batch.updateRates else { return true }
        return batch.columns().hidden[row] == 0
    }

    /// Chooses the rates of every instance from its significance under `updateBudget`, timed as
    /// the profiler's "update rates" row (`system`), and leaves the instances given each rate in
    /// `state.rateCounts`. Called by `update(_:)` before the frame's systems run.
    func chooseUpdateRates(_ budget: UpdateBudget, _ state: UpdateBudgetState, system: ApplicationSystem?) {
        let profiler = scheduler.profiler
        let wall = ProfilerClock.wall()
        let cpu = ProfilerClock.threadCPU()
        // What the last frame cost: every system, and this choice.
        if profiler.frames > 0 {
            var total = Double(system.flatMap { profiler.applicationCPU($0.index, framesAgo: 0) } ?? 0)
            for s in 0..<SystemID.count { total += Double(profiler.cpu(SystemID(rawValue: s)!) ?? 0) }
            let computed = Double(profiler.cpu(.timelineApply) ?? 0) + Double(profiler.cpu(.pose) ?? 0)
            state.learn(budget, totalNanoseconds: total, computedNanoseconds: computed)
        }
        for k in 0..<UpdateBudgetState.buckets { state.counts[k] = 0 }
        var rated = 0
        var fixed = 0
        for batch in batches where batch.count > 0 {
            guard batch.updateRates else {
                fixed += batch.count
                continue
            }
            let significance = batch.columns().significance
            for row in 0..<batch.count { state.counts[UpdateBudgetState.bucket(significance[row])] += 1 }
            rated += batch.count
        }
        state.choose(budget, rated: rated, fixed: fixed)
        for batch in batches where batch.count > 0 && batch.updateRates {
            let cols = batch.columns()
            state.shifts.withUnsafeBufferPointer { shifts in
                for row in 0..<batch.count {
                    cols.updateRate[row] = UInt8(shifts[UpdateBudgetState.bucket(cols.significance[row])])
                }
            }
        }
        for r in 0..<UpdateRate.count { state.rateCounts[r] = 0 }
        state.rateCounts[0] = fixed
        for k in 0..<UpdateBudgetState.buckets { state.rateCounts[state.shifts[k]] += state.counts[k] }
        if let system {
            profiler.record(
                system, in: .nextFrame, start: wall, wall: ProfilerClock.wall() &- wall,
                cpu: ProfilerClock.threadCPU() &- cpu)
        }
    }

    /// Adds every batch's instances per update rate to the last frame's profile (`counted`: the
    /// budget's choice already counted them).
    func countUpdateRates(counted: [Int]? = nil) {
        let profiler = scheduler.profiler
        if let counted {
            for (r, n) in counted.enumerated() { profiler.countUpdateRate(r, instances: n) }
            return
        }
        for batch in batches where batch.count > 0 {
            guard batch.updateRates else {
                profiler.countUpdateRate(0, instances: batch.count)
                continue
            }
            let rates = batch.columns().updateRate
            var counts: (Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0)
            for row in 0..<batch.count {
                switch rates[row] {
                case 0: counts.0 &+= 1
                case 1: counts.1 &+= 1
                case 2: counts.2 &+= 1
                case 3: counts.3 &+= 1
                default: counts.4 &+= 1
                }
            }
            profiler.countUpdateRate(0, instances: counts.0)
            profiler.countUpdateRate(1, instances: counts.1)
            profiler.countUpdateRate(2, instances: counts.2)
            profiler.countUpdateRate(3, instances: counts.3)
            profiler.countUpdateRate(4, instances: counts.4)
        }
    }
}

extension Batch {
    /// Raw views of the update-rate columns for setting every row of a frame at once (valid until
    /// the batch grows): each row's rate shift (`UpdateRate.shift`, 0 ... 4), significance
    /// (0 ... 1) and whether it is hidden (1: not drawn, `World.setVisible`; 0: drawn), and the
    /// entity living in it. Nil in a batch without update rates.
    ///
    /// # Safety
    /// Rows `0 ..< count` only, outside `World.update`; a shift above 4 is read as 4, any
    /// non-zero `hidden` byte as hidden.
    public func updateRateColumns() -> (
        shift: UnsafeMutablePointer<UInt8>, significance: UnsafeMutablePointer<Float>,
        hidden: UnsafeMutablePointer<UInt8>, entity: UnsafeMutablePointer<Entity>
    )? {
        guard updateRates else { return nil }
        let cols = columns()
        return (cols.updateRate, cols.significance, cols.hidden, cols.entity)
    }
}

extension FrameProfiler {
    /// Instances at each update rate (`UpdateRate.all` order: every frame first) in the frame
    /// `back` frames ago; nil when that frame is not kept. Allocates the array.
    public func updateRateCounts(framesAgo back: Int = 0) -> [Int]? {
        guard let f = ringIndex(back) else { return nil }
        return (0..<UpdateRate.count).map { rateCounts[f &* UpdateRate.count &+ $0] }
    }
}

extension Batch {
    /// Whether the instance at `row` drew its pose from its history in the last frame (its pose
    /// was not computed: a rate below every frame that did not come round; and it is drawn).
    public func drewFromHistory(row: Int) -> Bool {
        guard updateRates, row >= 0, row < count else { return false }
        let cols = columns()
        return cols.sinceUpdate[row] != 0 && cols.hidden[row] == 0
    }

    /// Whether the instance at `row` held its last computed pose in the last frame: it is not
    /// drawn (`World.setVisible`) and its pose was not computed.
    public func heldLastPose(row: Int) -> Bool {
        guard updateRates, row >= 0, row < count else { return false }
        let cols = columns()
        return cols.sinceUpdate[row] != 0 && cols.hidden[row] != 0
    }
}
