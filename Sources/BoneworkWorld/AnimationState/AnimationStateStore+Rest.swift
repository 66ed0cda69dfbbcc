/// Resting rows (`RestColumns`): the store's side. Rows rest only in the frames the scheduler
/// runs all systems over a block of rows at once (interleaved, no listener), where no code of
/// the application runs between a row's update and its apply. Everything else that reads or
/// changes a row's state wakes it first: operations, `TrackEntry` reads and writes, time
/// scales, single-row updates, row moves, and the other kinds of frame (`wakeAll`).
extension AnimationStateStore {
    /// Lets rows rest (a batch with update rates): allocates the per-row budget and count.
    func enableRests() {
        guard restBudget == nil else { return }
        let budget = UnsafeMutablePointer<Float>.allocate(capacity: rowCapacity)
        budget.initialize(repeating: 0, count: rowCapacity)
        let skipped = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity)
        skipped.initialize(repeating: 0, count: rowCapacity)
        let deltas = UnsafeMutablePointer<Float>.allocate(capacity: RestColumns.ring)
        deltas.initialize(repeating: 0, count: RestColumns.ring)
        restBudget = budget
        restSkipped = skipped
        restDeltas = deltas
    }

    /// Starts a frame in which rows may rest, advancing by `delta`: the views its passes read,
    /// with `rates` the batch's update-rate shifts. Nil when rows never rest here.
    func beginRestFrame(delta: Float, rates: UnsafePointer<UInt8>) -> RestColumns? {
        guard let restBudget, let restSkipped, let restDeltas else { return nil }
        restFrame &+= 1
        restDeltas[restFrame & (RestColumns.ring - 1)] = delta
        mayRest = true
        return RestColumns(budget: restBudget, skipped: restSkipped, deltas: restDeltas, frame: restFrame, rates: rates)
    }

    /// Brings `row`'s times up to date if it rested, and keeps it from resting until a frame
    /// has processed it again.
    @inline(__always)
    func wake(row: Int) {
        guard mayRest, let restSkipped, let restBudget, let restDeltas, row >= 0, row < rowCount else { return }
        let skipped = Int(restSkipped[row])
        if skipped > 0 {
            kernel.catchUp(row: row, skipped: skipped, lastFrame: restFrame, deltas: restDeltas)
            restSkipped[row] = 0
        }
        restBudget[row] = 0
    }

    /// `wake(row:)` for the row owning the entry in pool slot `slot`.
    @inline(__always)
    func wake(slot: Int) {
        guard mayRest else { return }
        wake(row: Int(pool.columns.state[slot].owner))
    }

    /// Wakes every row (a frame of another kind, or rows reordered).
    func wakeAll() {
        guard mayRest else { return }
        for row in 0..<rowCount { wake(row: row) }
        mayRest = false
    }
}
