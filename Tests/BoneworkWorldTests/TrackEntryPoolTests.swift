import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Where the entry pool puts new entries: the first free slot at or after the caller's hint,
/// and, through the store, near the slot that matches the row's place among the rows.
@Suite struct TrackEntryPoolTests {
    @Test func obtainTakesTheFirstFreeSlotAtOrAfterItsHintAndWrapsRound() {
        var pool = TrackEntryPool(timelineStride: 1, capacity: 8)
        defer { pool.free() }
        #expect(pool.obtain(near: 5) == 5)
        #expect(pool.obtain(near: 5) == 6)
        #expect(pool.obtain(near: 7) == 7)
        // Nothing free at or after 7: the search wraps round to the front.
        #expect(pool.obtain(near: 7) == 0)
        #expect(pool.obtain(near: 6) == 1)
        pool.release(6)
        #expect(pool.obtain(near: 3) == 3)
        #expect(pool.obtain(near: 3) == 4)
        #expect(pool.obtain(near: 3) == 6)
        #expect(pool.obtain(near: 3) == 2)
        #expect(pool.liveCount == 8)
        // A full pool doubles; the new slots follow the old ones.
        #expect(pool.obtain(near: 2) == 8)
        #expect(pool.columns.capacity == 16)
        // A hint past the end starts from the last slot.
        #expect(pool.obtain(near: 100) == 15)
        #expect(pool.highWater == 10)
    }

    @Test func aReleasedSlotIsFreeAgainAndItsHandlesAreStale() {
        var pool = TrackEntryPool(timelineStride: 1, capacity: 4)
        defer { pool.free() }
        let slot = pool.obtain(near: 1)
        let generation = pool.columns.state[slot].generation
        pool.release(slot)
        pool.release(slot)  // a second release of a free slot changes nothing
        #expect(pool.liveCount == 0)
        #expect(pool.columns.state[slot].generation == generation &+ 1)
        #expect(pool.obtain(near: 1) == slot)
    }

    /// Instances change animation in a scrambled order, round after round, with mixes: the
    /// entries each row reaches stay near the row's place in the pool (a last-in first-out free
    /// list put them a third of the pool away on average, anywhere at all).
    @Test func aRowsEntriesStayNearItsPlaceInThePool() throws {
        let (world, states) = try spineboyStates(1000) { try $0.setAnimation(0, "idle", loop: true) }
        let names = ["walk", "run", "idle", "jump"]
        var seed: UInt64 = 7
        for round in 0..<12 {
            for _ in 0..<250 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let i = Int(seed >> 33) % states.count
                try states[i].setAnimation(0, names[(round + i) % names.count], loop: true)
            }
            for _ in 0..<4 { world.update(1.0 / 30) }
        }
        let store = try world.locate(states[0].entity).batch.animationStates
        let capacity = store.pool.columns.capacity
        var distance = 0.0
        var entries = 0
        for row in 0..<store.rowCount {
            let place = row * capacity / store.rowCapacity
            for slot in store.entries(ofRow: row) {
                distance += Double(abs(slot - place))
                entries += 1
            }
        }
        #expect(entries >= 1000)
        let mean = distance / Double(entries) / Double(capacity)
        #expect(mean < 0.05, "entries lie \(mean) of the pool from their rows' places on average")
    }
}
