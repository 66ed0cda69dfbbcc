import BoneworkTriggers
import BoneworkWorld
import Testing

@testable import bonework

/// The crowd's steering on plain values (`Tools/bonework/Crowd/CrowdSteering.swift`): the
/// neighbour grid's sort first, then a step's separation and determinism.
@Suite struct CrowdSteeringTests {
    /// Agents at the given places, resting (no arrival force) unless `rest` says otherwise.
    static func motion(_ places: [(Float, Float)], rest: Float = 10) -> AgentMotion {
        var m = AgentMotion()
        for (x, y) in places { m.append(x: x, y: y, cruise: CrowdSimulation.walkSpeed, rest: rest, wander: 0) }
        return m
    }

    /// Runs one step of `step` with trigger columns for `count` entities numbered 0..<count;
    /// returns the speed buckets and hit values written.
    static func run(_ step: inout SteeringStep, delta: Float) -> (buckets: [TriggerValue], hits: [TriggerValue]) {
        let n = step.motion.count
        let entities = (0..<n).map { Entity(index: UInt32($0), generation: 0) }
        let buckets = UnsafeMutablePointer<TriggerValue>.allocate(capacity: max(1, n))
        let hits = UnsafeMutablePointer<TriggerValue>.allocate(capacity: max(1, n))
        defer {
            buckets.deallocate()
            hits.deallocate()
        }
        buckets.initialize(repeating: .bool(false), count: max(1, n))
        hits.initialize(repeating: .bucket(7), count: max(1, n))
        step.run(delta: delta, entity: entities, bucketValues: buckets, hitValues: hits)
        return (Array(UnsafeBufferPointer(start: buckets, count: n)), Array(UnsafeBufferPointer(start: hits, count: n)))
    }

    @Test func gridSortsEveryAgentIntoItsCellOnce() {
        let half: Float = 300
        let cell = CrowdSimulation.separationRadius
        // Inside, on the edges, and outside the square (agents there fall in the border cells).
        let places: [(Float, Float)] = [(0, 0), (1, 1), (-300, -300), (300, 300), (299, -12), (-5000, 20), (40, 9000)]
        var grid = NeighbourGrid()
        grid.rebuild(Self.motion(places), count: places.count, halfExtent: half, cell: cell)
        #expect(grid.width == Int((2 * half + 2 * cell) / cell) + 1)
        #expect(grid.cellStart.count == grid.width * grid.height + 1)
        #expect(grid.cellStart.first == 0 && grid.cellStart.last == Int32(places.count))
        #expect(zip(grid.cellStart, grid.cellStart.dropFirst()).allSatisfy { $0 <= $1 }, "cell starts rise")
        #expect(Set(grid.cellAgents.prefix(places.count)) == Set((0..<Int32(places.count))), "each agent once")
        for (a, (x, y)) in places.enumerated() {
            let c = Int(grid.agentCell[a])
            let cx = min(grid.width - 1, max(0, Int((x + half + cell) / cell)))
            let cy = min(grid.height - 1, max(0, Int((y + half + cell) / cell)))
            #expect(c == cy * grid.width + cx, "agent \(a) at (\(x), \(y))")
            let members = grid.cellAgents[Int(grid.cellStart[c])..<Int(grid.cellStart[c + 1])]
            #expect(members.contains(Int32(a)), "agent \(a) listed in its cell \(c)")
        }
        #expect(grid.agentCell[0] == grid.agentCell[1], "agents one unit apart share a cell")
    }

    @Test func closeAgentsPushApartAndFarOnesDoNot() {
        // Two agents 10 units apart (inside the separation radius, across a cell border), one far off.
        var step = SteeringStep(
            motion: Self.motion([(-2, 0), (8, 0), (200, 200)]), grid: NeighbourGrid(), random: CrowdRandom(seed: 3),
            halfExtent: 500)
        _ = Self.run(&step, delta: 1.0 / 60)
        #expect(step.motion.vx[0] < 0 && step.motion.vx[1] > 0, "pushed apart along x: \(step.motion.vx)")
        #expect(step.motion.vy[0] == 0 && step.motion.vy[1] == 0)
        #expect(step.motion.vx[2] == 0 && step.motion.vy[2] == 0, "no neighbour within the radius: no push")
        #expect(step.motion.x[0] < -2 && step.motion.x[1] > 8 && step.motion.x[2] == 200)
    }

    @Test func aSeedGivesTheSameCrowdAndTheTriggerValuesFollowTheSpeed() {
        var random = CrowdRandom(seed: 11)
        var places: [(Float, Float)] = []
        for _ in 0..<400 { places.append((random.range(-400, 400), random.range(-400, 400))) }
        func runs(_ frames: Int) -> (SteeringStep, [TriggerValue], [TriggerValue]) {
            var step = SteeringStep(
                motion: Self.motion(places, rest: 0), grid: NeighbourGrid(), random: CrowdRandom(seed: 5),
                halfExtent: 400)
            var last: (buckets: [TriggerValue], hits: [TriggerValue]) = ([], [])
            for _ in 0..<frames { last = Self.run(&step, delta: 1.0 / 60) }
            return (step, last.buckets, last.hits)
        }
        let (a, bucketsA, hitsA) = runs(240)
        let (b, bucketsB, hitsB) = runs(240)
        #expect(a.motion.x == b.motion.x && a.motion.y == b.motion.y && a.motion.vx == b.motion.vx)
        // SplitMix64's output is a bijection of its state: the same next draw is the same state.
        var (randomA, randomB) = (a.random, b.random)
        #expect(bucketsA == bucketsB && hitsA == hitsB && a.hits == b.hits && randomA.next() == randomB.next())
        #expect(a.motion.x.allSatisfy { abs($0) <= 400 } && a.motion.y.allSatisfy { abs($0) <= 400 }, "inside")
        var moving = 0
        for i in 0..<places.count {
            let speed = (a.motion.vx[i] * a.motion.vx[i] + a.motion.vy[i] * a.motion.vy[i]).squareRoot()
            #expect(bucketsA[i] == .bucket(speed, bounds: CrowdSimulation.bucketBounds), "agent \(i)")
            #expect(hitsA[i] == .bool(a.motion.hitFlag[i] != 0), "agent \(i)")
            if speed > CrowdSimulation.bucketBounds[0] { moving += 1 }
        }
        #expect(moving > places.count / 2, "agents head for their goals: \(moving) of \(places.count) moving")
    }
}
