import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Update rates (`UpdateRate`, `World(updateRates:)`, `UpdateBudget`): what a slower rate may
/// change (the pose between computed frames) and what it must not (events, the state, the pose
/// of instances at full rate, and the computed frames of a plain animation).
@Suite("Update rates")
struct UpdateRateTests {
    static let delta: Float = 1.0 / 60.0

    /// A world of `count` spineboys walking (track 0) with a run queued over it, so that the
    /// frames cross loops, events (spineboy's footsteps), a mix and its end.
    static func crowd(updateRates: Bool, count: Int, threads: Int = 2) throws -> (World, [Entity]) {
        let data = try ExampleSkeletons.spineboy()
        let world = World(scheduler: Scheduler(threads: threads), updateRates: updateRates)
        var entities: [Entity] = []
        for i in 0..<count {
            let e = try world.spawn(data)
            try world.place(e, x: Float(i) * 40, y: 0, scaleX: i % 2 == 0 ? 1 : -1)
            let state = try world.animationState(e)
            let walk = try state.setAnimation(0, "walk", loop: true)
            try walk.setTrackTime(Float(i) * 0.013)
            let run = try state.addAnimation(0, "run", loop: true, delay: 0.4 + Float(i % 5) * 0.05)
            try run.setMixDuration(0.3)
            entities.append(e)
        }
        return (world, entities)
    }

    static func events(_ world: World) -> [FiredEvent] { world.batches.flatMap { Array($0.firedEvents) } }

    /// Runs one frame of both worlds and expects the same events from each: their count, or nil
    /// when they differ (the caller stops there).
    static func updateBoth(_ plain: World, _ rated: World, frame: Int) -> Int? {
        plain.update(delta)
        rated.update(delta)
        let expected = events(plain)
        let actual = events(rated)
        #expect(expected == actual, "frame \(frame): events differ")
        return expected == actual ? expected.count : nil
    }

    static func worldTransforms(_ world: World, _ e: Entity) throws -> [Float] {
        let pose = try world.pose(e)
        return pose.bones.flatMap { $0 }
    }

    @Test("a world without update rates refuses a slower rate, and its batches keep no history")
    func validity() throws {
        let (world, entities) = try Self.crowd(updateRates: false, count: 1)
        try world.setUpdateRate(entities[0], .everyFrame)
        #expect(throws: WorldError.self) { try world.setUpdateRate(entities[0], UpdateRate(frames: 2)!) }
        #expect(try world.updateRate(entities[0]) == .everyFrame)
        #expect(world.batches[0].updateRateColumns() == nil)
        let (rated, _) = try Self.crowd(updateRates: true, count: 1)
        // The history costs 48 bytes per bone and 15 per instance, resting rows 5 per instance
        // (`RestColumns`), only where asked for.
        let bones = world.batches[0].rig.tables.boneCount
        #expect(rated.batches[0].bytesPerInstance - world.batches[0].bytesPerInstance == bones * 48 + 3 + 12 + 5)
        // Visibility is kept only where it changes something.
        try world.setVisible(entities[0], false)
        #expect(try world.isVisible(entities[0]))
        #expect(UpdateRate(frames: 3) == nil && UpdateRate(frames: 32) == nil && UpdateRate(frames: 16) == .slowest)
    }

    @Test("instances at full rate are posed bit for bit as in a world without update rates")
    func fullRateIsUnchanged() throws {
        let (plain, a) = try Self.crowd(updateRates: false, count: 24)
        let (rated, b) = try Self.crowd(updateRates: true, count: 24)
        // A third of the rated world's instances run slower; the others must not notice.
        for (i, e) in b.enumerated() where i % 3 == 0 { try rated.setUpdateRate(e, UpdateRate(frames: 4)!) }
        for frame in 0..<90 {
            plain.update(Self.delta)
            rated.update(Self.delta)
            for i in 0..<a.count where i % 3 != 0 {
                let expected = try Self.worldTransforms(plain, a[i])
                let actual = try Self.worldTransforms(rated, b[i])
                #expect(expected == actual, "frame \(frame), instance \(i)")
                if expected != actual { return }
            }
        }
    }

    @Test("slower rates fire the same events on the same frames, and keep computed frames exact")
    func eventsAndComputedFrames() throws {
        let (plain, a) = try Self.crowd(updateRates: false, count: 16)
        let (rated, b) = try Self.crowd(updateRates: true, count: 16)
        for (i, e) in b.enumerated() { try rated.setUpdateRate(e, UpdateRate(shift: i % 5)) }
        var fired = 0
        var computedChecked = 0
        var drawnFromHistory = 0
        for frame in 0..<150 {
            guard let count = Self.updateBoth(plain, rated, frame: frame) else { return }
            fired += count
            for i in 0..<b.count {
                let (batch, row) = try rated.locate(b[i])
                let reference = try Self.worldTransforms(plain, a[i])
                let drawn = try Self.worldTransforms(rated, b[i])
                if batch.drewFromHistory(row: row) {
                    drawnFromHistory += 1
                    let finite = drawn.allSatisfy { $0.isFinite }
                    #expect(finite, "frame \(frame), instance \(i)")
                } else if frame < 20 || frame > 60 {
                    // Outside the mix (frames 24 to 60), a computed frame is the full-rate pose, to
                    // the rounding that tells the pose system's SIMD lanes from its one-by-one path
                    // (a row computed apart from its chunk's other rows is posed one by one).
                    computedChecked += 1
                    let rate = "\(UpdateRate(shift: i % 5))"
                    let close = zip(drawn, reference).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }
                    #expect(close, "frame \(frame), instance \(i) at rate \(rate)")
                    if !close { return }
                }
            }
        }
        #expect(fired > 20)
        #expect(computedChecked > 500)
        #expect(drawnFromHistory > 1000)
    }

    @Test("entries mixing out fire their events on frames that are not posed, as at full rate")
    func mixingOutEntriesFireEventsBetweenComputedFrames() throws {
        // Walk mixes into run over a second, and keeps firing its footsteps while it mixes out
        // (event threshold 1); a reversed jump is layered on track 1 and mixed into an idle.
        func world(updateRates: Bool) throws -> (World, [Entity]) {
            let data = try ExampleSkeletons.spineboy()
            let world = World(scheduler: Scheduler(threads: 2), updateRates: updateRates)
            var entities: [Entity] = []
            for i in 0..<12 {
                let e = try world.spawn(data)
                let state = try world.animationState(e)
                let walk = try state.setAnimation(0, "walk", loop: true)
                try walk.setTrackTime(Float(i) * 0.07)
                try walk.setEventThreshold(1)
                let run = try state.addAnimation(0, "run", loop: true, delay: 0.3 + Float(i % 4) * 0.1)
                try run.setMixDuration(1)
                if i % 3 == 0 {
                    let jump = try state.setAnimation(1, "jump", loop: true)
                    try jump.setReverse(true)
                    try jump.setAlpha(0.5)
                    try jump.setEventThreshold(1)
                    let walkLayer = try state.addAnimation(1, "walk", loop: true, delay: 0.5)
                    try walkLayer.setMixDuration(0.8)
                }
                if updateRates { try world.setUpdateRate(e, UpdateRate(shift: 1 + i % 4)) }
                entities.append(e)
            }
            return (world, entities)
        }
        let (plain, _) = try world(updateRates: false)
        let (rated, _) = try world(updateRates: true)
        var fired = 0
        for frame in 0..<150 {
            guard let count = Self.updateBoth(plain, rated, frame: frame) else { return }
            fired += count
        }
        #expect(fired > 20)
    }

    @Test("instances not drawn hold their last computed pose between computed frames, with full-rate events")
    func hiddenInstancesHoldTheirPose() throws {
        let (plain, a) = try Self.crowd(updateRates: false, count: 24)
        let (rated, b) = try Self.crowd(updateRates: true, count: 24)
        // Rows 0-7: a whole hidden layout chunk; 8-15: every other one hidden; 16-19 hidden at
        // full rate; 20-23 drawn at 1/4.
        func hidden(_ i: Int) -> Bool { i < 8 || (i < 16 && i % 2 == 0) || (16..<20).contains(i) }
        for (i, e) in b.enumerated() {
            try rated.setUpdateRate(e, i < 16 ? UpdateRate(frames: 4)! : i < 20 ? .everyFrame : UpdateRate(frames: 4)!)
            try rated.setVisible(e, !hidden(i))
        }
        var last = [[Float]](repeating: [], count: b.count)
        var held = 0
        var drawnFromHistory = 0
        for frame in 0..<120 {
            if frame == 80 { for i in 0..<8 { try rated.setVisible(b[i], true) } }
            plain.update(Self.delta)
            rated.update(Self.delta)
            #expect(Self.events(plain) == Self.events(rated), "frame \(frame): events differ")
            for i in 0..<b.count {
                let (batch, row) = try rated.locate(b[i])
                let pose = try Self.worldTransforms(rated, b[i])
                let reference = try Self.worldTransforms(plain, a[i])
                if (16..<20).contains(i) {
                    // Hidden at full rate: nothing changes, bit for bit.
                    #expect(pose == reference, "frame \(frame), instance \(i)")
                    continue
                }
                if batch.heldLastPose(row: row) {
                    held += 1
                    #expect(hidden(i) && !(frame >= 80 && i < 8), "frame \(frame), instance \(i) held but drawn")
                    #expect(pose == last[i], "frame \(frame), instance \(i) moved between computed frames")
                } else if batch.drewFromHistory(row: row) {
                    drawnFromHistory += 1
                    // Drawn again, an instance draws from the poses it recorded while hidden.
                    #expect(!hidden(i) || (i < 8 && frame >= 80), "frame \(frame), instance \(i) drew from history")
                } else {
                    last[i] = pose
                    if frame < 20 || frame > 60 {
                        // To the rounding of the pose system's lanes against its one-by-one path:
                        // positions are sums of terms of hundreds of units, so a few of their ulps.
                        let close = pose.indices.allSatisfy { k in
                            abs(pose[k] - reference[k]) <= 1e-5 * max(k % 6 >= 4 ? 512 : 1, abs(reference[k]))
                        }
                        let worst = zip(pose, reference).map { abs($0 - $1) }.max() ?? 0
                        #expect(close, "frame \(frame), instance \(i): a computed frame differs by \(worst)")
                    }
                }
            }
        }
        // At 1/4, three frames in four are held or drawn from history.
        #expect(held > 12 * 80 / 2)
        #expect(drawnFromHistory > 4 * 120 / 2)
    }

    @Test("between computed frames a walking instance stays near the full-rate pose")
    func extrapolatedPoseStaysClose() throws {
        let (plain, a) = try Self.crowd(updateRates: false, count: 8)
        let (rated, b) = try Self.crowd(updateRates: true, count: 8)
        for e in b { try rated.setUpdateRate(e, UpdateRate(frames: 2)!) }
        let height = rated.batches[0].data.height
        var worst: Float = 0
        for _ in 0..<20 {
            plain.update(Self.delta)
            rated.update(Self.delta)
        }
        for _ in 0..<10 {
            plain.update(Self.delta)
            rated.update(Self.delta)
            for i in 0..<b.count {
                let p = try Self.worldTransforms(plain, a[i])
                let q = try Self.worldTransforms(rated, b[i])
                for k in stride(from: 0, to: p.count, by: 6) {
                    let dx = p[k + 4] - q[k + 4]
                    let dy = p[k + 5] - q[k + 5]
                    worst = max(worst, (dx * dx + dy * dy).squareRoot() / height)
                }
            }
        }
        // Half a step of walking at 60 frames per second: a few percent of the height at most.
        #expect(worst > 0)
        #expect(worst < 0.05, "worst bone error \(worst * 100)% of the height")
    }

    @Test("a budget gives the most significant instances the fastest rates and counts them")
    func budgetOrdersBySignificance() throws {
        let (world, entities) = try Self.crowd(updateRates: true, count: 64)
        for (i, e) in entities.enumerated() { try world.setSignificance(e, i < 16 ? 1 : Float(i % 4) * 0.1) }
        // A budget no frame can meet: the least significant must go to the slowest rate.
        world.updateBudget = UpdateBudget(milliseconds: 0.001)
        for _ in 0..<30 { world.update(Self.delta) }
        let rates = try entities.map { try world.updateRate($0) }
        for i in 16..<64 { #expect(rates[i] >= rates[0], "instance \(i) faster than a more significant one") }
        #expect(rates[63] == .slowest)
        let counts = try #require(world.scheduler.profiler.updateRateCounts())
        #expect(counts.reduce(0, +) == 64)
        #expect(counts[UpdateRate.count - 1] == rates.filter { $0 == .slowest }.count)
        // A generous budget brings everyone back to full rate.
        world.updateBudget = UpdateBudget(milliseconds: 1000)
        for _ in 0..<60 { world.update(Self.delta) }
        #expect(try entities.allSatisfy { try world.updateRate($0) == .everyFrame })
        // Budgets no editor of settings would type: NaN gives the slowest rate, infinity full rate.
        world.updateBudget = UpdateBudget(milliseconds: .nan)
        for _ in 0..<5 { world.update(Self.delta) }
        #expect(try entities.allSatisfy { try world.updateRate($0) == .slowest })
        world.updateBudget = UpdateBudget(milliseconds: .infinity)
        for _ in 0..<5 { world.update(Self.delta) }
        #expect(try entities.allSatisfy { try world.updateRate($0) == .everyFrame })
    }
}
