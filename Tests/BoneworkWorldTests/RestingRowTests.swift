import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Resting rows (`RestColumns`): rows slower than every frame skip the frames in which nothing
/// observable happens to their tracks and catch up later. Nothing of it may show: the same
/// events on the same frames, the same poses, the same entry times read at any moment, as in a
/// world whose rows never rest.
@Suite("Resting rows")
struct RestingRowTests {
    /// A crowd of spineboys at every rate, some hidden, playing loops and one-shots on two
    /// tracks from scattered times: frames cross footstep events, completions, mixes, queued
    /// entries and track ends.
    static func crowd(rests: Bool, threads: Int, count: Int) throws -> (World, [Entity]) {
        let data = try ExampleSkeletons.spineboy()
        let world = World(scheduler: Scheduler(threads: threads), updateRates: true)
        world.scheduler.letsRowsRest = rests
        var entities: [Entity] = []
        for i in 0..<count { entities.append(try spawn(world, data, i)) }
        return (world, entities)
    }

    static let animations = ["walk", "run", "idle", "jump", "shoot", "aim", "death"]

    static func spawn(_ world: World, _ data: SkeletonData, _ i: Int) throws -> Entity {
        let e = try world.spawn(data)
        try world.setUpdateRate(e, UpdateRate(shift: i % 5))
        try world.setVisible(e, i % 7 != 3)
        let state = try world.animationState(e)
        let first = try state.setAnimation(0, animations[i % 3], loop: true)
        try first.setTrackTime(Float(i) * 0.037)
        if i % 4 == 1 { _ = try state.setAnimation(1, "aim", loop: i % 8 == 1) }
        if i % 6 == 2 { try first.setTrackEnd(1.5 + Float(i % 5) * 0.4) }
        return e
    }

    /// What one world's entity's tracks hold, field by field (reading wakes the row).
    static func tracks(_ world: World, _ e: Entity) throws -> [String] {
        let state = try world.animationState(e)
        var lines: [String] = []
        for track in 0..<2 {
            guard let entry = try state.getCurrent(track) else {
                lines.append("\(track): none")
                continue
            }
            let values: [Float] = [
                try entry.trackTime, try entry.animationTime, try entry.animationLast, try entry.trackEnd,
                try entry.mixTime, try entry.delay, try entry.trackComplete,
            ]
            lines.append("\(track): \(entry.name ?? "?") \(values.map(\.bitPattern)) \(try entry.isComplete)")
        }
        return lines
    }

    /// Frame deltas, in turn: mostly 1/60 s, and a long, a zero and a tiny one.
    static let deltas: [Float] = [1.0 / 60, 1.0 / 60, 1.0 / 60, 1.0 / 30, 0, 0.25, 1e-4, 1.0 / 60]

    static func events(_ world: World) -> [FiredEvent] { world.batches.flatMap { Array($0.firedEvents) } }

    static func bits(_ world: World, _ e: Entity) throws -> [UInt32] {
        try world.pose(e).bones.flatMap { $0.map(\.bitPattern) }
    }

    @Test("rows that rest keep the events, poses and entry times of rows that never rest, whatever happens to them")
    func restingShowsNothing() throws {
        let count = 40
        let (plain, a) = try Self.crowd(rests: false, threads: 1, count: count)
        let (resting, b) = try Self.crowd(rests: true, threads: 2, count: count)
        var ea = a
        var eb = b
        let data = try ExampleSkeletons.spineboy()
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var restedRowFrames = 0
        var caughtUpByReads = 0
        for frame in 0..<420 {
            // The same operations on both worlds, now and then.
            if frame % 3 == 0 {
                let i = next(count)
                let op = next(9)
                for (world, entities) in [(plain, ea), (resting, eb)] {
                    let state = try world.animationState(entities[i])
                    switch op {
                    case 0: _ = try state.setAnimation(0, Self.animations[i % Self.animations.count], loop: i % 2 == 0)
                    case 1: _ = try state.addAnimation(0, "run", loop: true, delay: Float(i % 4) * 0.1)
                    case 2: _ = try state.setEmptyAnimation(1, mixDuration: 0.2)
                    case 3: try state.getCurrent(0)?.setTimeScale(0.5 + Float(i % 4) * 0.5)
                    case 4: try state.setTimeScale(i % 3 == 0 ? 0 : 1.5)
                    case 5: try world.setUpdateRate(entities[i], UpdateRate(shift: (i + frame) % 5))
                    case 6: try world.setVisible(entities[i], frame % 2 == 0)
                    case 7: _ = try state.setAnimation(1, "shoot", loop: false)
                    default: break
                    }
                }
            }
            if frame % 50 == 49 {
                // A despawn moves the last row; a spawn takes a fresh one.
                let i = next(count)
                try plain.despawn(ea[i])
                try resting.despawn(eb[i])
                ea[i] = try Self.spawn(plain, data, i + frame)
                eb[i] = try Self.spawn(resting, data, i + frame)
            }
            let delta = Self.deltas[frame % Self.deltas.count]
            plain.update(delta)
            resting.update(delta)
            let expected = Self.events(plain)
            #expect(expected == Self.events(resting), "frame \(frame): events differ")
            for i in 0..<count {
                let same = try Self.bits(plain, ea[i]) == Self.bits(resting, eb[i])
                #expect(same, "frame \(frame), instance \(i): poses differ")
                if !same { return }
            }
            let store = resting.batches[0].animationStates
            for row in 0..<store.rowCount where store.restSkipped![row] > 0 { restedRowFrames += 1 }
            // Reads at any moment see the times of the row that never rested.
            if frame % 5 == 2 {
                let i = next(count)
                let (_, row) = try resting.locate(eb[i])
                if store.restSkipped![row] > 0 { caughtUpByReads += 1 }
                let read = try Self.tracks(resting, eb[i])
                #expect(try Self.tracks(plain, ea[i]) == read, "frame \(frame), instance \(i)")
            }
        }
        for i in 0..<count { #expect(try Self.tracks(plain, ea[i]) == Self.tracks(resting, eb[i]), "instance \(i)") }
        // The test means something only if rows rested, and were read while resting.
        #expect(restedRowFrames > 2000, "\(restedRowFrames) row-frames rested")
        #expect(caughtUpByReads > 5, "\(caughtUpByReads) reads of resting rows")
    }

    @Test("rows at full rate, and worlds without update rates, never rest and keep no budget")
    func fullRateRowsNeverRest() throws {
        let (world, entities) = try Self.crowd(rests: true, threads: 2, count: 10)
        for e in entities { try world.setUpdateRate(e, .everyFrame) }
        let store = world.batches[0].animationStates
        for _ in 0..<60 {
            world.update(1 / 60)
            for row in 0..<store.rowCount {
                #expect(store.restSkipped![row] == 0 && store.restBudget![row] == 0, "row \(row)")
            }
        }
        let plain = World()
        _ = try plain.spawn(try ExampleSkeletons.spineboy())
        #expect(plain.batches[0].animationStates.restBudget == nil)
    }
}
