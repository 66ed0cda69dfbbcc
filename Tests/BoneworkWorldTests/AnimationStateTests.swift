import BoneworkConformance
import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Records the events a state delivers, with the number of the update they belong to.
private final class StateEventLog {
    var update = 1
    var lines: [String] = []

    func listener() -> AnimationStateListener {
        { [unowned self] type, entry, event in
            let name = entry.name ?? "?"
            var line = "\(self.update) \(ScenarioTrace.typeName(type)) \((try? entry.trackIndex) ?? -1) \(name)"
            if let event { line += " \(event.name)@\(event.time)" }
            self.lines.append(line)
        }
    }
}

@Suite struct AnimationStateTests {
    @Test func unknownNamesAreTypedErrors() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let state = try world.animationState(try world.spawn(data))
        #expect(throws: AnimationStateError.unknownAnimation("moonwalk")) {
            try state.setAnimation(0, "moonwalk", loop: true)
        }
        #expect(throws: AnimationStateError.unknownAnimation("moonwalk")) {
            try state.addAnimation(0, "moonwalk", loop: true, delay: 0)
        }
        let mixes = AnimationStateData(skeletonData: data)
        #expect(throws: AnimationStateError.unknownAnimation("nope")) {
            try mixes.setMix(from: "walk", to: "nope", duration: 1)
        }
        #expect(throws: AnimationStateError.trackOutOfRange(-1)) { try state.setAnimation(-1, "walk", loop: true) }
        // Clearing a track that was never used is allowed and does nothing.
        try state.clearTrack(5)
        #expect(try state.tracks.isEmpty)
    }

    @Test func disposedEntryHandlesAreRefused() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let state = try world.animationState(try world.spawn(data))
        let walk = try state.setAnimation(0, "walk", loop: true)
        #expect(walk.name == "walk")
        // Replacing an entry that was never applied disposes it at once.
        let run = try state.setAnimation(0, "run", loop: true)
        #expect(!walk.isValid)
        #expect(throws: AnimationStateError.staleTrackEntry) { _ = try walk.trackTime }
        #expect(throws: AnimationStateError.staleTrackEntry) { try walk.setAlpha(0.5) }
        // The slot is reused by a new entry; the old handle still refers to nothing.
        let jump = try state.addAnimation(0, "jump", loop: false, delay: 0)
        #expect(jump != walk)
        #expect(throws: AnimationStateError.staleTrackEntry) { _ = try walk.animation }
        #expect(try run.next == jump)
        #expect(try jump.previous == run)
        try world.despawn(state.entity)
        #expect(throws: (any Error).self) { try state.setAnimation(0, "walk", loop: true) }
    }

    @Test func queuedEntryStartsOneUpdateLate() throws {
        // The switch compares the previous update's track time with the delay. walk, then jump
        // with delay 2 (mix walk -> jump 0.1):
        // - dt 0.0311: the delay passes during update 65, jump starts at 66, walk ends at 70;
        // - dt 1/32: the track time is exactly 2 after update 64, so jump starts at 65.
        let data = try ExampleSkeletons.spineboy()
        func run(_ dt: Float) throws -> ([String], AnimationState) {
            let world = World()
            let mixes = AnimationStateData(skeletonData: data, defaultMix: 0.2)
            try mixes.setMix(from: "walk", to: "jump", duration: 0.1)
            try world.setAnimationStateData(mixes)
            let state = try world.animationState(try world.spawn(data))
            let log = StateEventLog()
            try state.setListener(log.listener())
            try state.setAnimation(0, "walk", loop: true)
            try state.addAnimation(0, "jump", loop: false, delay: 2)
            for _ in 0..<70 {
                world.update(dt)
                log.update += 1
            }
            return (log.lines.filter { !$0.contains("event") && !$0.contains("complete") }, state)
        }
        let (late, state) = try run(0.0311)
        #expect(
            late == ["1 start 0 walk", "66 interrupt 0 walk", "66 start 0 jump", "70 end 0 walk", "70 dispose 0 walk"])
        let jump = try #require(try state.getCurrent(0))
        #expect(jump.name == "jump")
        #expect(try jump.mixingFrom == nil)  // walk ended with update 70
        #expect(try jump.mixDuration == 0.1)
        let (exact, _) = try run(1.0 / 32)
        #expect(
            exact == ["1 start 0 walk", "65 interrupt 0 walk", "65 start 0 jump", "69 end 0 walk", "69 dispose 0 walk"])
    }

    @Test func listenersRunInOrderAndMayCallBack() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let entity = try world.spawn(data)
        let state = try world.animationState(entity)
        var order: [String] = []
        var replaced = false
        try state.setListener { type, entry, _ in
            order.append("state \(ScenarioTrace.typeName(type)) \(entry.name ?? "?")")
            // Calling back into the state from a listener: queue the next animation on completion.
            if type == .complete, !replaced {
                replaced = true
                _ = try? state.setAnimation(0, "idle", loop: true)
            }
        }
        // The listener holds the state, which holds the world: let go of it when done.
        defer { try? state.setListener(nil) }
        let jump = try state.setAnimation(0, "jump", loop: false)
        try jump.setListener { type, _, _ in order.append("entry \(ScenarioTrace.typeName(type))") }
        #expect(order == ["state start jump"])  // the start was delivered by setAnimation itself
        for _ in 0..<60 { world.update(1.0 / 30) }
        #expect(replaced)
        let current = try #require(try state.getCurrent(0))
        #expect(current.name == "idle")
        // The entry's own listener hears its events before the state's listener does.
        let complete = try #require(order.firstIndex(of: "entry complete"))
        #expect(order[complete + 1] == "state complete jump")
        #expect(order[complete + 2] == "entry interrupt")
        #expect(order[complete + 3] == "state interrupt jump")
        #expect(order[complete + 4] == "state start idle")
        #expect(order.suffix(4) == ["entry end", "state end jump", "entry dispose", "state dispose jump"])
        #expect(!jump.isValid)
    }

    @Test func stateDataIsFrozenOnceUsed() throws {
        let data = try ExampleSkeletons.spineboy()
        let mixes = AnimationStateData(skeletonData: data, defaultMix: 0.2)
        try mixes.setMix(from: "walk", to: "jump", duration: 0.1)
        #expect(try mixes.mix(from: "walk", to: "jump") == 0.1)
        #expect(try mixes.mix(from: "jump", to: "walk") == 0.2)
        let world = World()
        try world.setAnimationStateData(mixes)
        #expect(mixes.isFrozen)
        #expect(throws: AnimationStateError.dataFrozen) { try mixes.setMix(from: "walk", to: "run", duration: 1) }
        #expect(throws: AnimationStateError.dataFrozen) { try mixes.setDefaultMix(1) }
        let state = try world.animationState(try world.spawn(data))
        try state.setAnimation(0, "walk", loop: true)
        world.update(0.1)
        let jump = try state.setAnimation(0, "jump", loop: false)
        #expect(try jump.mixDuration == 0.1)
        // Another skeleton's data is refused.
        let raptor = try ExampleSkeletons.load("raptor/raptor-pro.skel", atlas: "raptor/raptor.atlas")
        #expect(throws: AnimationStateError.skeletonMismatch) {
            _ = try AnimationStateStore(
                compiled: CompiledSkeleton(raptor), data: AnimationStateData(skeletonData: data))
        }
    }

    @Test func zeroDurationLoopCompletesEveryUpdate() throws {
        let data = try ExampleSkeletons.spineboy()
        let index = try #require(data.findAnimation("aim"))
        #expect(data.animations[Int(index)].duration == 0)
        let world = World()
        let state = try world.animationState(try world.spawn(data))
        let log = StateEventLog()
        try state.setListener(log.listener())
        try state.setAnimation(0, "aim", loop: true)
        for _ in 0..<5 {
            world.update(0.0311)
            log.update += 1
        }
        #expect(log.lines.filter { $0.contains("complete") }.count == 5)
    }

    @Test func firstApplyFiresEventsFromTheStart() throws {
        // An explicitly set track time: the first apply fires every event from -1 up to it.
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let state = try world.animationState(try world.spawn(data))
        let log = StateEventLog()
        try state.setListener(log.listener())
        let run = try state.setAnimation(0, "run", loop: true)
        try run.setTrackTime(0.6)
        world.update(0)
        #expect(log.lines.filter { $0.contains("footstep") }.count == 2)
    }

    /// Many instances with different phases and queued changes: the events delivered and the
    /// pose applied are the same whether chunks of rows run on one thread or several.
    @Test func eventsAndPosesAreDeterministicAcrossThreadCounts() throws {
        let data = try ExampleSkeletons.spineboy()
        func simulate(threads: Int) throws -> ([String], [Float]) {
            // The scheduler's own frame path, split into chunks of at least 16 rows whatever their cost.
            let scheduler = Scheduler(threads: threads)
            scheduler.minimumChunkMicroseconds = 0
            let world = World(scheduler: scheduler)
            try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.2))
            var entities: [Entity] = []
            for i in 0..<400 {
                let e = try world.spawn(data)
                entities.append(e)
                let state = try world.animationState(e)
                let entry = try state.setAnimation(0, i % 3 == 0 ? "walk" : "run", loop: true)
                try entry.setTrackTime(Float(i) * 0.013)
                if i % 4 == 0 { try state.addAnimation(0, "jump", loop: false, delay: Float(i % 7) * 0.1) }
                if i % 5 == 0 {
                    let aim = try state.setAnimation(1, "aim", loop: true)
                    try aim.setMixBlend(.add)
                    try aim.setAlpha(0.5)
                }
            }
            let batch = try world.locate(entities[0]).batch
            var log: [String] = []
            batch.animationStates.listener = { type, entry, event in
                log.append("\(ScenarioTrace.typeName(type)) \(entry.name ?? "?") \(event?.time ?? -1)")
            }
            for _ in 0..<90 { world.update(1.0 / 30) }
            let cols = batch.columns()
            var pose: [Float] = []
            for row in 0..<batch.count {
                let r = cols.rows(row)
                for b in 0..<batch.rig.boneCount { pose.append(cols.rotation[r.bone(b)]) }
            }
            return (log, pose)
        }
        let (serialLog, serialPose) = try simulate(threads: 1)
        let (parallelLog, parallelPose) = try simulate(threads: 4)
        #expect(serialLog.count > 400)
        #expect(serialLog == parallelLog)
        #expect(serialPose == parallelPose)
    }

    /// Thousands of instances: once the pool has the entries the workload needs, frames and
    /// re-queued animations reuse them; the pool does not grow.
    @Test func entryPoolStopsGrowingAtTheWorkloadsHighWater() throws {
        let (world, states) = try spineboyStates(1000, start: runAndAim)
        let store = try world.locate(states[0].entity).batch.animationStates
        func cycle() throws {
            for (i, state) in states.enumerated() where i % 10 == 0 {
                try state.setAnimation(0, "walk", loop: true)
                try state.addAnimation(0, "run", loop: true, delay: 0.3)
            }
            for _ in 0..<30 { world.update(1.0 / 30) }
        }
        try cycle()
        try cycle()
        let capacity = store.pool.columns.capacity
        let highWater = store.pool.highWater
        for _ in 0..<5 { try cycle() }
        #expect(store.pool.columns.capacity == capacity)
        #expect(store.pool.highWater == highWater)
        // Two tracks per instance, plus the entries mixing and queued on the instances changed.
        #expect(highWater <= 2000 + 3 * 100)
        #expect(store.pool.liveCount >= 2000)
    }

    /// Frames with two tracks, mixing, events and listeners, and operations that queue new
    /// animations, allocate nothing once the pool and queues have grown to the workload.
    @Test func framesAndRequeuingDoNotAllocate() throws {
        let (world, states) = try spineboyStates(150, start: runAndAim)
        var heard = 0
        let store = try world.locate(states[0].entity).batch.animationStates
        store.listener = { _, _, event in if event != nil { heard += 1 } }
        var frame = 0
        func play(_ frames: Int) {
            for _ in 0..<frames {
                // Every frame a tenth of the instances switch animation and queue the next one.
                var k = frame % 10
                while k < states.count {
                    _ = try? states[k].setAnimation(0, frame % 20 < 10 ? "walk" : "run", loop: true)
                    _ = try? states[k].addAnimation(0, "jump", loop: false, delay: 0.5)
                    k += 10
                }
                world.update(1.0 / 60)
                frame += 1
            }
        }
        play(120)  // warm-up: pools and queues reach the workload's high water
        let delta = try MallocProbe.isolatedAllocationDelta { play(60) }
        MallocProbe.expectNoFrameAllocations(delta)
        #expect(heard > 0)
        #expect(store.pool.liveCount > 300)
    }

    /// Entries that keep interrupting each other before any mix progresses (dt 0) build a long
    /// chain; updating and applying it needs no stack per entry, and once the mix time passes
    /// the whole chain ends in one update.
    @Test func deepInterruptChainsEndTogether() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.25))
        let state = try world.animationState(try world.spawn(data))
        var ends = 0
        try state.setListener { type, _, _ in if type == .end { ends += 1 } }
        try state.setAnimation(0, "walk", loop: true)
        world.update(0.1)
        let depth = 5000
        for _ in 0..<depth {
            try state.setEmptyAnimation(0, mixDuration: 0.25)
            world.update(0)
        }
        var chain = 0
        var entry = try state.getCurrent(0)
        while let e = entry {
            chain += 1
            entry = try e.mixingFrom
        }
        #expect(chain == depth + 1)
        #expect(ends == 0)
        world.update(0.3)  // the mix time passes
        world.update(0.1)  // every entry below the current one ends in this update
        #expect(ends == depth)
        let current = try #require(try state.getCurrent(0))
        #expect(try current.mixingFrom == nil)
        #expect(try world.locate(state.entity).batch.animationStates.pool.liveCount == 1)
    }

    /// Listeners run between the state systems of a frame; they may spawn and despawn
    /// instances (of the same skeleton) and the frame carries on with the rows as they are.
    @Test func listenersMaySpawnAndDespawn() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        var spawned: [Entity] = []
        var despawned = 0
        func arm(_ entity: Entity) throws {
            let state = try world.animationState(entity)
            // Unowned: the world keeps the listener, so a strong reference would keep the world.
            try state.setListener { [unowned world] type, _, _ in
                guard type == .complete else { return }
                // Replace this instance with a new one that plays the jump again.
                if let e = try? world.spawn(data), let s = try? world.animationState(e) {
                    _ = try? s.setAnimation(0, "jump", loop: false)
                    spawned.append(e)
                }
                if (try? world.despawn(entity)) != nil { despawned += 1 }
            }
        }
        var first: [Entity] = []
        for i in 0..<40 {
            let e = try world.spawn(data)
            let entry = try world.animationState(e).setAnimation(0, "jump", loop: false)
            try entry.setTrackTime(Float(i) * 0.03)
            try arm(e)
            first.append(e)
        }
        for _ in 0..<60 {
            let before = spawned.count
            world.update(1.0 / 30)
            for e in spawned[before...] { try arm(e) }
        }
        #expect(despawned >= 40)
        #expect(world.count == 40)
        for e in first { #expect(!world.isAlive(e)) }
        // Every live instance still plays a jump entry of its own.
        let batch = try world.locate(try #require(spawned.last)).batch
        #expect(batch.animationStates.rowCount == batch.count)
        for e in spawned where world.isAlive(e) {
            #expect(try world.animationState(e).getCurrent(0)?.name == "jump")
        }
    }
}

/// A world of `count` spineboys whose animation states mix by 0.2 s by default, each state handed
/// to `start` once spawned.
func spineboyStates(_ count: Int, start: (AnimationState) throws -> Void) throws -> (World, [AnimationState]) {
    let data = try ExampleSkeletons.spineboy()
    let world = World()
    try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.2))
    var states: [AnimationState] = []
    for _ in 0..<count {
        let state = try world.animationState(try world.spawn(data))
        try start(state)
        states.append(state)
    }
    return (world, states)
}

/// Spineboy running on track 0 and aiming on track 1, added.
private func runAndAim(_ state: AnimationState) throws {
    try state.setAnimation(0, "run", loop: true)
    let aim = try state.setAnimation(1, "aim", loop: true)
    try aim.setMixBlend(.add)
}
