import BoneworkTriggers
import BoneworkWorld
import Foundation

/// The agents' motion: one column per quantity, indexed by agent slot (swap-remove on despawn).
///
/// A value type on purpose: `CrowdSimulation.steer` moves it out of the simulation object into a
/// local for the frame's loop, and puts it back after. Element accesses to a class's stored
/// arrays each go through Swift's dynamic exclusivity check; with the columns in a local they are
/// checked at compile time. Measured with callgrind (5,000 agents, 80 frames): the checks were
/// about half of the steering's instructions (`Docs/Profiling.md`, "Hot loops in application code").
struct AgentMotion {
    var x: [Float] = []
    var y: [Float] = []
    var vx: [Float] = []
    var vy: [Float] = []
    var goalX: [Float] = []
    var goalY: [Float] = []
    /// Speed towards the goal: walk or run.
    var cruise: [Float] = []
    /// Seconds left resting at the goal (0: moving).
    var rest: [Float] = []
    /// Phase of the sideways wander.
    var wander: [Float] = []
    /// Whether the agent was hit last frame (a hit lasts one frame).
    var hitFlag: [UInt8] = []

    var count: Int { x.count }

    /// Adds an agent standing at (`px`, `py`), its goal where it stands.
    mutating func append(x px: Float, y py: Float, cruise speed: Float, rest seconds: Float, wander phase: Float) {
        x.append(px)
        y.append(py)
        vx.append(0)
        vy.append(0)
        goalX.append(px)
        goalY.append(py)
        cruise.append(speed)
        rest.append(seconds)
        wander.append(phase)
        hitFlag.append(0)
    }

    /// Removes agent `s`, moving the last agent into its slot.
    mutating func swapRemove(_ s: Int) {
        let last = count - 1
        if s != last {
            x[s] = x[last]
            y[s] = y[last]
            vx[s] = vx[last]
            vy[s] = vy[last]
            goalX[s] = goalX[last]
            goalY[s] = goalY[last]
            cruise[s] = cruise[last]
            rest[s] = rest[last]
            wander[s] = wander[last]
            hitFlag[s] = hitFlag[last]
        }
        x.removeLast()
        y.removeLast()
        vx.removeLast()
        vy.removeLast()
        goalX.removeLast()
        goalY.removeLast()
        cruise.removeLast()
        rest.removeLast()
        wander.removeLast()
        hitFlag.removeLast()
    }
}

/// The agents sorted by grid cell (a counting sort, rebuilt every frame), so that an agent's
/// neighbours are the agents of its cell and the eight around it.
struct NeighbourGrid {
    /// Per cell: where its agents start in `cellAgents`; one more entry than cells.
    var cellStart: [Int32] = []
    /// Scratch of the sort: the next free place per cell.
    var cellFill: [Int32] = []
    /// Agent slots, grouped by cell.
    var cellAgents: [Int32] = []
    /// Per agent: its cell.
    var agentCell: [Int32] = []
    var width = 1
    var height = 1

    /// Sorts the first `count` agents of `motion` into cells of side `cell` over the square of
    /// half side `halfExtent` (one cell of margin around it; agents outside fall in the border cells).
    mutating func rebuild(_ motion: AgentMotion, count n: Int, halfExtent: Float, cell: Float) {
        width = max(1, Int((2 * halfExtent + 2 * cell) / cell) + 1)
        height = width
        let cells = width * height
        if cellStart.count != cells + 1 {
            cellStart = [Int32](repeating: 0, count: cells + 1)
            cellFill = cellStart
        }
        for c in 0...cells { cellStart[c] = 0 }
        if agentCell.count < n { agentCell = [Int32](repeating: 0, count: n) }
        if cellAgents.count < n { cellAgents = [Int32](repeating: 0, count: n) }
        for a in 0..<n {
            let cx = min(width - 1, max(0, Int((motion.x[a] + halfExtent + cell) / cell)))
            let cy = min(height - 1, max(0, Int((motion.y[a] + halfExtent + cell) / cell)))
            let c = cy * width + cx
            agentCell[a] = Int32(c)
            cellStart[c + 1] += 1
        }
        for c in 0..<cells { cellStart[c + 1] += cellStart[c] }
        for c in 0...cells { cellFill[c] = cellStart[c] }
        for a in 0..<n {
            let c = Int(agentCell[a])
            cellAgents[Int(cellFill[c])] = Int32(a)
            cellFill[c] += 1
        }
    }
}

/// One frame of steering over plain values: what `CrowdSimulation.steer` runs on the columns it
/// moved out of the simulation object.
struct SteeringStep {
    var motion: AgentMotion
    var grid: NeighbourGrid
    var random: CrowdRandom
    let halfExtent: Float
    /// Agents hit this frame.
    var hits = 0

    /// Moves every agent: arrival at its goal (resting a while there, then a new goal), wander,
    /// separation from neighbours; writes each agent's speed bucket and hit flag into the trigger
    /// columns at its entity's index. The random draws come in the same order as ever, so a seed
    /// gives the same crowd.
    mutating func run(
        delta: Float, entity: [Entity], bucketValues: UnsafeMutablePointer<TriggerValue>,
        hitValues: UnsafeMutablePointer<TriggerValue>
    ) {
        let n = motion.count
        let r = CrowdSimulation.separationRadius
        grid.rebuild(motion, count: n, halfExtent: halfExtent, cell: r)
        let r2 = r * r
        let maxAccel: Float = 400
        let bounds = CrowdSimulation.bucketBounds
        let runBound = bounds[1]
        let walkSpeed = CrowdSimulation.walkSpeed
        let runSpeed = CrowdSimulation.runSpeed
        hits = 0
        for a in 0..<n {
            // Arrival.
            var dx = motion.goalX[a] - motion.x[a]
            var dy = motion.goalY[a] - motion.y[a]
            let dist = (dx * dx + dy * dy).squareRoot()
            var desiredX: Float = 0
            var desiredY: Float = 0
            if motion.rest[a] > 0 {
                motion.rest[a] -= delta
                if motion.rest[a] <= 0 {
                    motion.goalX[a] = random.range(-halfExtent, halfExtent)
                    motion.goalY[a] = random.range(-halfExtent, halfExtent)
                    motion.cruise[a] = random.unit() < 0.35 ? runSpeed : walkSpeed
                }
            } else if dist < 8 {
                motion.rest[a] = random.range(0.5, 3)
            } else {
                let slow: Float = 80
                let s = motion.cruise[a] * min(1, dist / slow)
                dx /= dist
                dy /= dist
                // Wander: a slowly turning sideways offset.
                motion.wander[a] += random.range(-2, 2) * delta
                let w = sin(motion.wander[a]) * 0.3
                desiredX = (dx - dy * w) * s
                desiredY = (dy + dx * w) * s
            }
            // Separation.
            let (sx, sy, crowded) = separation(a, radius: r, radiusSquared: r2)
            desiredX += sx * 120
            desiredY += sy * 120
            // Steering force, clamped.
            var ax = (desiredX - motion.vx[a]) * 4
            var ay = (desiredY - motion.vy[a]) * 4
            let al = (ax * ax + ay * ay).squareRoot()
            if al > maxAccel {
                ax *= maxAccel / al
                ay *= maxAccel / al
            }
            motion.vx[a] += ax * delta
            motion.vy[a] += ay * delta
            motion.x[a] = min(halfExtent, max(-halfExtent, motion.x[a] + motion.vx[a] * delta))
            motion.y[a] = min(halfExtent, max(-halfExtent, motion.y[a] + motion.vy[a] * delta))
            let speed = (motion.vx[a] * motion.vx[a] + motion.vy[a] * motion.vy[a]).squareRoot()
            let i = Int(entity[a].index)
            bucketValues[i] = TriggerValue.bucket(speed, bounds: bounds)
            // A hit: a hard bump while running, or a rare random one; the flag stays up for a frame.
            let wasHit = motion.hitFlag[a] != 0
            let isHit = !wasHit && ((crowded > 1.2 && speed > runBound) || random.unit() < 0.0005)
            motion.hitFlag[a] = isHit ? 1 : 0
            hitValues[i] = .bool(isHit)
            if isHit { hits += 1 }
        }
    }

    /// The push away from the neighbours of agent `a` closer than `radius` (each weighted by how
    /// much closer), and the sum of those weights (how crowded the agent is). Agents moved earlier
    /// in the frame push from their new places, as they always have.
    private func separation(_ a: Int, radius r: Float, radiusSquared r2: Float) -> (Float, Float, Float) {
        var sx: Float = 0
        var sy: Float = 0
        var crowded: Float = 0
        let c = Int(grid.agentCell[a])
        let cx = c % grid.width
        let cy = c / grid.width
        let ax = motion.x[a]
        let ay = motion.y[a]
        for gy in max(0, cy - 1)...min(grid.height - 1, cy + 1) {
            for gx in max(0, cx - 1)...min(grid.width - 1, cx + 1) {
                let g = gy * grid.width + gx
                for k in Int(grid.cellStart[g])..<Int(grid.cellStart[g + 1]) {
                    let b = Int(grid.cellAgents[k])
                    if b == a { continue }
                    let ox = ax - motion.x[b]
                    let oy = ay - motion.y[b]
                    let d2 = ox * ox + oy * oy
                    if d2 < r2 && d2 > 1e-6 {
                        let d = d2.squareRoot()
                        let push = (r - d) / r
                        sx += ox / d * push
                        sy += oy / d * push
                        crowded += push
                    }
                }
            }
        }
        return (sx, sy, crowded)
    }
}
