import BoneworkFormat
import BoneworkProfiling
import BoneworkTriggers
import BoneworkWorld
import Foundation

/// The crowd's seeded random numbers: `SplitMix64` one step past `seed`, with the float draws the
/// simulation uses.
struct CrowdRandom {
    private var bits: SplitMix64

    init(seed: UInt64) { bits = SplitMix64(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }

    mutating func next() -> UInt64 { bits.next() }

    /// Uniform in [0, 1).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
    mutating func range(_ lo: Float, _ hi: Float) -> Float { lo + (hi - lo) * unit() }
    mutating func below(_ n: Int) -> Int { bits.below(n) }
}

/// One kind of character in the crowd: its skeleton, the skins to vary over and the scopes
/// that drive its animations.
struct CrowdKind {
    let data: SkeletonData
    let name: String
    let skins: [String?]
    /// Composed outfits (data skin names in composition order) agents wear instead of `skins`
    /// (`--outfits`); empty: one of `skins` each.
    let outfits: [[String]]
    /// Track 0: speed bucket -> idle / walk / run.
    let locomotion: TriggerScope
    /// Track 1, additive, a barrier: hit flag -> flinch once (nil when the skeleton has no
    /// reaction animation).
    let reaction: TriggerScope?
}

/// Agents on a plane with wander, separation and arrival steering, spawning and despawning,
/// whose speed and hits drive their animations through value triggers.
///
/// Agents are columns indexed by a dense agent slot (swap-remove on despawn); `slotOf` maps an
/// entity index to its slot.
final class CrowdSimulation {
    let world: World
    let triggers: TriggerSystem
    let speedBucket: ValueColumn
    let hit: ValueColumn
    var kinds: [CrowdKind] = []
    var random: CrowdRandom

    /// Walk and run speeds in world units per second; bucket bounds for idle / walk / run.
    static let walkSpeed: Float = 60
    static let runSpeed: Float = 170
    static let bucketBounds: [Float] = [12, 110]
    static let spacing: Float = 150
    static let separationRadius: Float = 55

    // Agent columns.
    private(set) var entity: [Entity] = []
    private(set) var kind: [Int32] = []
    /// Index into the kind's `skins`.
    private(set) var skin: [Int32] = []
    /// Positions, velocities, goals (`CrowdSteering.swift`).
    private(set) var motion = AgentMotion()
    var x: [Float] { motion.x }
    var y: [Float] { motion.y }
    var vx: [Float] { motion.vx }
    var vy: [Float] { motion.vy }
    private var slotOf: [Int32] = []
    /// Agents spawned this frame, whose phase is set after their first trigger evaluation.
    private var fresh: [Entity] = []

    /// The neighbour grid, kept between frames for its buffers.
    private var grid = NeighbourGrid()

    /// Half the side of the square the agents live on.
    private(set) var halfExtent: Float = 500
    private(set) var spawned = 0
    private(set) var despawned = 0
    private var churnCarry: Float = 0
    private(set) var hitsThisFrame = 0

    var count: Int { entity.count }

    /// The crowd's own systems, timed by the world's profiler beside the engine's.
    let churnSystem: ApplicationSystem
    let steeringSystem: ApplicationSystem
    let triggerSystem: ApplicationSystem

    init(world: World, seed: UInt64) throws {
        self.world = world
        let profiler = world.scheduler.profiler
        churnSystem = try profiler.addApplicationSystem("churn")
        steeringSystem = try profiler.addApplicationSystem("steering")
        triggerSystem = try profiler.addApplicationSystem("triggers")
        triggers = TriggerSystem(world: world)
        speedBucket = triggers.addColumn("speed bucket")
        hit = triggers.addColumn("hit")
        random = CrowdRandom(seed: seed)
    }

    /// One frame: the crowd's systems (churn, steering, triggers), each timed as an application
    /// system of the world's profiler, then the engine's frame.
    func step(delta: Float, churn rate: Float) throws {
        let profiler = world.scheduler.profiler
        try profiler.measure(churnSystem) {
            try churn(rate: rate, delta: delta)
            if hasOutfits { try changeOutfits(rate: Float(count) / 100, delta: delta) }
        }
        profiler.measure(steeringSystem) {
            steer(delta: delta)
            place()
        }
        profiler.measure(triggerSystem) { triggers.update() }
        world.update(delta)
        phaseFresh()
    }

    /// Adds a kind of character; its animations are chosen by name with fallbacks (idle, walk,
    /// run, flinch/hit), so any skeleton can join the crowd.
    func addKind(_ data: SkeletonData, name: String, outfits: [[String]] = []) {
        let names = Set(data.animations.map(\.name))
        let first = data.animations.first?.name
        let idle = names.contains("idle") ? "idle" : first
        let walk = names.contains("walk") ? "walk" : idle
        let run = names.contains("run") ? "run" : walk
        let reactionName = ["flinch", "hit", "hurt"].first { names.contains($0) }
        var cases: [(value: TriggerValue, action: TriggerAction)] = []
        for (b, n) in [idle, walk, run].enumerated() {
            if let n { cases.append((.bucket(b), .play(n, loop: true))) }
        }
        let locomotion = triggers.addScope(
            "Locomotion(\(name))", track: 0,
            triggers: [AnimationTrigger("speed bucket", column: speedBucket, cases: cases, mix: 0.25)])
        var reaction: TriggerScope? = nil
        if let reactionName {
            reaction = triggers.addScope(
                "Reaction(\(name))", track: 1,
                triggers: [
                    AnimationTrigger(
                        "hit", column: hit, cases: [(.bool(true), .playOnce(reactionName, fadeOut: 0.2))], mix: 0.05)
                ], barrier: true, blend: .add)
        }
        let skinNames = data.skins.map(\.name).filter { $0 != "default" }
        let skins: [String?] = skinNames.isEmpty ? [nil] : skinNames
        kinds.append(
            CrowdKind(
                data: data, name: name, skins: skins, outfits: outfits, locomotion: locomotion, reaction: reaction))
    }

    /// Whether some kind wears composed outfits (1% of the agents then change outfit per second).
    var hasOutfits: Bool { kinds.contains { !$0.outfits.isEmpty } }

    /// Sizes the plane for `population` agents.
    func setPopulation(_ population: Int) {
        halfExtent = max(300, (Float(population).squareRoot() * Self.spacing) / 2)
    }

    // MARK: - Spawning

    /// Spawns `n` agents of random kinds and skins. Refused before the first spawn
    /// (`WorldError.memoryLimit`) when `n` of the heaviest kind would not fit the world's memory
    /// limit; `progress` hears the count spawned so far every 4,096 agents.
    func spawn(_ n: Int, progress: ((Int) -> Void)? = nil) throws {
        guard !kinds.isEmpty, n > 0 else { return }
        let heaviest = kinds.max { world.bytesPerInstance(of: $0.data) < world.bytesPerInstance(of: $1.data) }
        if let heaviest { try world.checkRoom(for: n, of: heaviest.data) }
        for done in 0..<n {
            if let progress, done & 4095 == 0, done > 0 { progress(done) }
            let k = random.below(kinds.count)
            let kindInfo = kinds[k]
            let e: Entity
            let skinChoice: Int
            if kindInfo.outfits.isEmpty {
                skinChoice = random.below(kindInfo.skins.count)
                e = try world.spawn(kindInfo.data, skin: kindInfo.skins[skinChoice])
            } else {
                skinChoice = random.below(kindInfo.outfits.count)
                e = try world.spawn(kindInfo.data)
                try world.setSkin(e, parts: kindInfo.outfits[skinChoice])
            }
            let i = Int(e.index)
            if slotOf.count <= i { slotOf.append(contentsOf: repeatElement(-1, count: i + 1 - slotOf.count)) }
            slotOf[i] = Int32(entity.count)
            entity.append(e)
            kind.append(Int32(k))
            skin.append(Int32(skinChoice))
            let px = random.range(-halfExtent, halfExtent)
            let py = random.range(-halfExtent, halfExtent)
            motion.append(
                x: px, y: py, cruise: Self.walkSpeed, rest: random.range(0, 2), wander: random.range(0, 2 * .pi))
            triggers.set(speedBucket, e, .bucket(0))
            triggers.set(hit, e, .bool(false))
            try triggers.join(kindInfo.locomotion, e)
            if let r = kindInfo.reaction { try triggers.join(r, e) }
            try world.animationState(e).setTimeScale(random.range(0.85, 1.15))
            fresh.append(e)
            spawned += 1
        }
    }

    func despawn(slot s: Int) throws {
        let e = entity[s]
        triggers.forget(e)
        try world.despawn(e)
        slotOf[Int(e.index)] = -1
        let last = entity.count - 1
        if s != last {
            entity[s] = entity[last]
            kind[s] = kind[last]
            skin[s] = skin[last]
            slotOf[Int(entity[s].index)] = Int32(s)
        }
        entity.removeLast()
        kind.removeLast()
        skin.removeLast()
        motion.swapRemove(s)
        despawned += 1
    }

    /// Removes `n` random agents.
    func remove(_ n: Int) throws {
        for _ in 0..<min(n, count) { try despawn(slot: random.below(count)) }
    }

    /// Agents whose outfit changed at run time (`changeOutfits`).
    private(set) var outfitChanges = 0
    private var outfitCarry: Float = 0

    /// Dresses `rate` random agents per second (of the kinds with outfits) in another of their
    /// kind's outfits: the skin changes between frames, as a dress-up does.
    func changeOutfits(rate: Float, delta: Float) throws {
        outfitCarry += rate * delta
        let n = Int(outfitCarry)
        outfitCarry -= Float(n)
        guard n > 0, count > 0 else { return }
        for _ in 0..<n {
            let a = random.below(count)
            let outfits = kinds[Int(kind[a])].outfits
            guard outfits.count > 1 else { continue }
            let choice = random.below(outfits.count)
            try world.setSkin(entity[a], parts: outfits[choice])
            skin[a] = Int32(choice)
            outfitChanges += 1
        }
    }

    /// Replaces `rate` agents per second: as many despawn as spawn, at random.
    func churn(rate: Float, delta: Float) throws {
        churnCarry += rate * delta
        let n = Int(churnCarry)
        churnCarry -= Float(n)
        guard n > 0 else { return }
        try remove(n)
        try spawn(n)
    }

    // MARK: - Steering

    /// Moves every agent (`SteeringStep.run`) and writes the speed bucket and hit values. The
    /// columns move out of this object for the loop and back after it: see `AgentMotion`.
    func steer(delta: Float) {
        var step = SteeringStep(motion: motion, grid: grid, random: random, halfExtent: halfExtent)
        motion = AgentMotion()
        grid = NeighbourGrid()
        step.run(
            delta: delta, entity: entity, bucketValues: triggers.values(speedBucket), hitValues: triggers.values(hit))
        motion = step.motion
        grid = step.grid
        random = step.random
        hitsThisFrame = step.hits
    }

    /// Places every skeleton at its agent (facing its direction of travel), over batch rows.
    func place() {
        // Locals, read once: element reads of the object's arrays would each be checked for
        // exclusive access (see `AgentMotion`).
        let motion = self.motion
        let slotOf = self.slotOf
        let focus = self.focus
        let holdOffscreen = self.holdOffscreen
        for batch in world.batches where batch.count > 0 {
            let p = batch.placementColumns()
            let rates = focus == nil ? nil : batch.updateRateColumns()
            for row in 0..<batch.count {
                let i = Int(p.entity[row].index)
                guard i < slotOf.count else { continue }
                let a = Int(slotOf[i])
                guard a >= 0 else { continue }
                let ax = motion.x[a]
                let ay = motion.y[a]
                p.x[row] = ax
                p.y[row] = ay
                let vx = motion.vx[a]
                if vx < -1 { p.scaleX[row] = -1 } else if vx > 1 { p.scaleX[row] = 1 }
                if let rates, let focus {
                    rates.significance[row] = significance(ax, ay, focus)
                    rates.hidden[row] = holdOffscreen && !drawn(ax, ay, focus) ? 1 : 0
                }
            }
        }
    }

    /// The part of the plane the camera shows (centre and half sizes, world units): what the
    /// agents' significance is measured from (`--budget-ms`). Nil: no significance is set.
    var focus: (x: Float, y: Float, halfWidth: Float, halfHeight: Float)?

    /// Whether agents outside the view hold their last computed pose between computed frames
    /// (`World.setVisible`): set with `focus` (`crowd --lod-offscreen`).
    var holdOffscreen = false

    /// Whether an agent at (`ax`, `ay`) may be drawn in the view `f`: inside it grown by twice
    /// the culling margin (`CrowdDrawing.margin`), since the view a frame is drawn with is known
    /// only after the frame's systems ran: an agent the camera reaches one frame late is posed
    /// already.
    func drawn(_ ax: Float, _ ay: Float, _ f: (x: Float, y: Float, halfWidth: Float, halfHeight: Float)) -> Bool {
        let margin = 2 * CrowdDrawing.margin
        return abs(ax - f.x) <= f.halfWidth + margin && abs(ay - f.y) <= f.halfHeight + margin
    }

    /// How much an agent at (`ax`, `ay`) matters to the picture: on screen 0.5 to 1, nearer the
    /// centre more; off screen below 0.5, less the farther it is from the screen.
    func significance(_ ax: Float, _ ay: Float, _ f: (x: Float, y: Float, halfWidth: Float, halfHeight: Float))
        -> Float
    {
        // A margin of a character's size: one walking in from the edge is already drawn.
        let margin: Float = 120
        let dx = abs(ax - f.x)
        let dy = abs(ay - f.y)
        if dx <= f.halfWidth + margin && dy <= f.halfHeight + margin {
            let d = max(dx / max(1, f.halfWidth + margin), dy / max(1, f.halfHeight + margin))
            return 1 - 0.5 * d
        }
        let outside = max(dx - f.halfWidth - margin, dy - f.halfHeight - margin)
        return 0.5 * max(0, 1 - outside / max(1, 2 * halfExtent))
    }

    /// Gives the agents spawned since the last call a random phase (after their first animation).
    func phaseFresh() {
        for e in fresh {
            guard let entry = try? world.animationState(e).getCurrent(0), let end = try? entry.animationEnd, end > 0
            else { continue }
            try? entry.setTrackTime(random.range(0, end))
        }
        fresh.removeAll(keepingCapacity: true)
    }

    /// Whether no entity was lost: spawned - despawned = alive = the world's count, every
    /// agent's handle valid, and every agent's slot found again through its entity.
    func checkIntegrity() -> (ok: Bool, message: String) {
        var invalid = 0
        for (s, e) in entity.enumerated() {
            if !world.isAlive(e) || slotOf[Int(e.index)] != Int32(s) { invalid += 1 }
        }
        let alive = count
        let ok = spawned - despawned == alive && world.count == alive && invalid == 0
        return (
            ok,
            "spawned \(spawned) - despawned \(despawned) = \(spawned - despawned); alive \(alive) (world \(world.count)); invalid handles \(invalid)"
        )
    }

    /// Bone world values (a, b, c, d, worldX, worldY of every bone of every live instance) that
    /// are not finite, and the instances holding them: what a soak checks after its run.
    func nonFiniteBones() -> (values: Int, instances: Int) {
        var values = 0
        var instances = 0
        for batch in world.batches where batch.count > 0 {
            let views = batch.poseViews()
            for row in 0..<views.count {
                let pose = views[row]
                var bad = 0
                for k in 0..<pose.boneCount {
                    let t = pose.boneTransform(k)
                    if !t.a.isFinite { bad += 1 }
                    if !t.b.isFinite { bad += 1 }
                    if !t.c.isFinite { bad += 1 }
                    if !t.d.isFinite { bad += 1 }
                    if !t.worldX.isFinite { bad += 1 }
                    if !t.worldY.isFinite { bad += 1 }
                }
                values += bad
                if bad > 0 { instances += 1 }
            }
        }
        return (values, instances)
    }

    /// The first agent (for the follow camera).
    func position(of slot: Int) -> (Float, Float)? { slot < count ? (x[slot], y[slot]) : nil }

    /// Where agent `slot` is heading (for the overlay's goal markers).
    func goal(of slot: Int) -> (Float, Float) { (motion.goalX[slot], motion.goalY[slot]) }
}
