import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The pose system's SIMD lanes (`PoseLanes`, chunked layouts) give every instance exactly the
/// pose the one-instance-at-a-time path gives.
@Suite("Pose lanes")
struct PoseLaneTests {
    @Test("LaneTrig.sinCosPair is Trig.sinCosPair in every lane, bit for bit (fallback lanes included)")
    func laneTrigMatchesScalar() {
        var state: UInt64 = 99
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let shears: [Float] = [0, -0.0, 1.5, -12.25, 45, 90, -3.1e-3]
        var mismatches = 0
        var firstMismatch = ""
        var fallbacks = 0
        for n in 0..<400_000 {
            var x = SIMD4<Float>()
            var y = SIMD4<Float>()
            for lane in 0..<4 {
                let rotation = Float((next() * 2 - 1) * 3600)
                let shearX = shears[(n + lane) % shears.count]
                let shearY = (n / 3) % 2 == 0 ? shearX : shears[(n / 7 + lane) % shears.count]
                x[lane] = (rotation + shearX) * SpineMath.degRad
                y[lane] = (rotation + 90 + shearY) * SpineMath.degRad
            }
            // Some groups with a lane the fast path does not take.
            if n % 1000 == 1 {
                x[n % 4] = 3.0e6
                fallbacks += 1
            }
            if n % 1000 == 2 { x[(n / 1000) % 4] = .nan }
            let t = LaneTrig.sinCosPair(x, y)
            for lane in 0..<4 {
                let s = Trig.sinCosPair(x[lane], y[lane])
                let same =
                    t.sinX[lane].bitPattern == s.sinX.bitPattern && t.cosX[lane].bitPattern == s.cosX.bitPattern
                    && t.sinY[lane].bitPattern == s.sinY.bitPattern && t.cosY[lane].bitPattern == s.cosY.bitPattern
                if !same {
                    if mismatches == 0 { firstMismatch = "x \(x[lane]) y \(y[lane]): \(t) vs \(s)" }
                    mismatches += 1
                }
            }
        }
        #expect(fallbacks > 0)
        #expect(mismatches == 0, "\(mismatches) lanes differ, first: \(firstMismatch)")
    }

    @Test("LaneTrig.sinCos is Trig.sinCos in every lane, bit for bit (fallback lanes included)")
    func laneSinCosMatchesScalar() {
        var state: UInt64 = 7
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var mismatches = 0
        var firstMismatch = ""
        for n in 0..<400_000 {
            var x = SIMD4<Float>()
            // Path chain angles: within ±2π mostly, some whole turns, a few zeros.
            for lane in 0..<4 { x[lane] = Float((next() * 2 - 1) * (n % 5 == 0 ? 400 : 6.3)) }
            if n % 997 == 0 { x[n % 4] = 0 }
            if n % 1000 == 1 { x[n % 4] = 3.0e6 }
            if n % 1000 == 2 { x[(n / 1000) % 4] = .nan }
            let t = LaneTrig.sinCos(x)
            for lane in 0..<4 {
                let s = Trig.sinCos(x[lane])
                let same = t.sin[lane].bitPattern == s.sin.bitPattern && t.cos[lane].bitPattern == s.cos.bitPattern
                if !same {
                    if mismatches == 0 { firstMismatch = "x \(x[lane]): \(t) vs \(s)" }
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) lanes differ, first: \(firstMismatch)")
    }

    @Test(
        "LaneArcTangent.atan2 is ArcTangent.atan2 in every lane, bit for bit (every reduction interval, fallback lanes)"
    )
    func laneArcTangentMatchesScalar() {
        var state: UInt64 = 123
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        // Quotients around the interval boundaries of the reduction, and directions on circles.
        let boundaries: [Double] = [0.4375, 0.6875, 1.1875, 2.4375]
        var mismatches = 0
        var firstMismatch = ""
        var fallbacks = 0
        for n in 0..<400_000 {
            var y = SIMD4<Float>()
            var x = SIMD4<Float>()
            for lane in 0..<4 {
                let u = next() * 2 - 1
                let v = next() * 2 - 1
                if (n + lane) % 2 == 0 {
                    let t = boundaries[(n + lane) % 4] * (1 + u * 1e-3)
                    x[lane] = Float(v * 100 + (v < 0 ? -0.01 : 0.01))
                    y[lane] = Float(t * Double(x[lane])) * (u < 0 ? -1 : 1)
                } else {
                    let radius = Foundation.exp(v * 12)
                    y[lane] = Float(Foundation.sin(u * Double.pi) * radius)
                    x[lane] = Float(Foundation.cos(u * Double.pi) * radius)
                }
            }
            // Some groups with a lane the fast path does not take.
            let specials: [Float] = [0, -0.0, .infinity, .nan]
            if n % 1000 == 1 {
                y[n % 4] = specials[(n / 1000) % 4]
                fallbacks += 1
            }
            if n % 1000 == 2 { x[(n / 1000) % 4] = specials[(n / 1000) % 4] }
            // Zeros in some lanes, the others regular (taken in lanes): every sign of each.
            if n % 10 == 3 {
                let zeros: [Float] = [0, -0.0]
                y[n % 4] = zeros[(n / 10) % 2]
                if (n / 20) % 3 == 0 { x[n % 4] = zeros[(n / 60) % 2] }
                if (n / 20) % 3 == 1 { x[(n + 1) % 4] = zeros[(n / 60) % 2] }
            }
            let t = LaneArcTangent.atan2(y, x)
            let degrees = LaneArcTangent.atan2Deg(y, x)
            for lane in 0..<4 {
                let e = ArcTangent.atan2(y[lane], x[lane])
                let same =
                    FloatBits.same(t[lane], e)
                    && (degrees[lane].bitPattern == ArcTangent.atan2Deg(y[lane], x[lane]).bitPattern
                        || degrees[lane].isNaN && e.isNaN)
                if !same {
                    if mismatches == 0 { firstMismatch = "atan2(\(y[lane]), \(x[lane])): \(t[lane]) vs \(e)" }
                    mismatches += 1
                }
            }
        }
        #expect(fallbacks > 0)
        #expect(mismatches == 0, "\(mismatches) lanes differ, first: \(firstMismatch)")
    }

    /// Every reference pose trace replayed by 6 instances in a layout of 4-instance chunks (one
    /// group of 4 in lanes, 2 one by one), by 8 on two threads (a group per thread), and by 8 in a
    /// layout of 8 (two groups): each instance matches the reference and, bit for bit, the
    /// one-instance replay.
    @Test("Each trace in lanes matches the reference and the one-by-one replay", arguments: PoseGoldens.compared)
    func tracesInLanes(_ file: PoseGoldens.File) throws {
        let trace = try ReplayedPoseTrace(file)
        for (chunk, count, threads) in [(4, 6, 1), (4, 8, 2), (8, 8, 1)] {
            // Two threads: one lane group each.
            let scheduler = Scheduler(capacity: 2, threads: threads)
            scheduler.minimumChunkRows = 1
            scheduler.minimumChunkMicroseconds = 0
            let world = World(layout: ColumnLayout(chunkSize: chunk), trackCount: 1, scheduler: scheduler)
            try trace.replay(in: world, count: count, label: "chunk \(chunk) threads \(threads)")
            if threads > 1 && trace.steps > 0 && Scheduler.maxThreads > 1 {
                #expect(world.scheduler.profiler.frame()?.chunks ?? 0 >= 2, "\(file.path): one chunk per thread")
            }
        }
    }

    /// Path chains placed four at once (`PathLanes`) whatever each lane's values: rotation mixed
    /// in some lanes and not others (0, negative), translation alone, a lane whose constraint
    /// does nothing (all four then one by one), other positions and spacings; bit for bit the
    /// one-by-one solve, on every path constraint of mix-and-match (chain-scale rotation, bone
    /// lists not in parent order).
    @Test("Path chains in lanes equal the one-by-one solve, whatever each lane's mixes, position and spacing")
    func pathChainsInLanes() throws {
        let data = try ExampleSkeletons.load(
            "mix-and-match/mix-and-match-pro.skel", atlas: "mix-and-match/mix-and-match.atlas")
        #expect(data.pathConstraints.count >= 2)
        func run(_ layout: ColumnLayout) throws -> [[UInt32]] {
            try girlsPosed(data, layout) { world, e, n in
                for k in data.pathConstraints.indices {
                    var pose = try world.pathConstraint(e, k)
                    switch (n + k) % 8 {
                    case 1: pose.mixRotate = 0
                    case 2: pose.mixRotate = -0.5
                    case 3: pose.mixRotate = 0.3
                    case 4: pose.spacing *= 1.7
                    case 5: pose.position += 0.2
                    case 6 where n >= 8: (pose.mixRotate, pose.mixX, pose.mixY) = (0, 0, 0)
                    case 7: (pose.mixX, pose.mixY) = (0.25, 0)
                    default: break
                    }
                    try world.setPathConstraint(e, k, pose)
                }
            }
        }
        try expectLanesMatchOneByOne(run)
    }

    /// Absolute world transform constraints in lanes (`TransformLanes`) whatever each lane's
    /// mixes: rotation alone, translation alone, both, negative, one axis, scale or shear mixed in
    /// a lane (all four then one by one), a lane that does nothing; bit for bit the one-by-one
    /// solve, on every transform constraint of mix-and-match.
    @Test("Transform constraints in lanes equal the one-by-one solve, whatever each lane's mixes")
    func transformConstraintsInLanes() throws {
        let data = try ExampleSkeletons.load(
            "mix-and-match/mix-and-match-pro.skel", atlas: "mix-and-match/mix-and-match.atlas")
        #expect(data.transformConstraints.count >= 8)
        func run(_ layout: ColumnLayout) throws -> [[UInt32]] {
            try girlsPosed(data, layout) { world, e, n in
                for k in data.transformConstraints.indices {
                    var mix = try world.transformConstraint(e, k)
                    switch (n + k) % 9 {
                    case 1: (mix.mixRotate, mix.mixX, mix.mixY) = (0.7, 0, 0)
                    case 2: (mix.mixRotate, mix.mixX, mix.mixY) = (0, 0.4, 0.6)
                    case 3: (mix.mixRotate, mix.mixX, mix.mixY) = (-0.5, 0, 1)
                    case 4: (mix.mixRotate, mix.mixX, mix.mixY) = (1, 1, 1)
                    case 5 where n >= 8: mix.mixScaleX = 0.5
                    case 6 where n >= 8: mix.mixShearY = 0.5
                    case 7 where n >= 12: (mix.mixRotate, mix.mixX, mix.mixY) = (0, 0, 0)
                    case 8: mix.mixScaleY = -1
                    default: break
                    }
                    try world.setTransformConstraint(e, k, mix)
                }
            }
        }
        try expectLanesMatchOneByOne(run)
    }

    /// Physics simulations in lanes (`PhysicsLanes`) whatever each lane's state: instances
    /// spawned on different frames (other carried time, so other step counts; in a group of 8,
    /// one half stepping while the other does not), a physics push on
    /// some, other parameters (a damping other than the setup one, so `pow`), a lane that mixes
    /// nothing (all four then one by one), frames of 0, tiny and long steps; bit for bit the
    /// one-by-one solve, on every physics constraint of celestial-circus.
    @Test("Physics in lanes equals the one-by-one solve, whatever each lane's steps and parameters")
    func physicsInLanes() throws {
        let data = try ExampleSkeletons.load(
            "celestial-circus/celestial-circus-pro.skel", atlas: "celestial-circus/celestial-circus.atlas")
        #expect(data.physicsConstraints.count >= 4)
        func run(_ layout: ColumnLayout) throws -> [[UInt32]] {
            let world = World(layout: layout, trackCount: 1)
            var entities: [Entity] = []
            // Half steps first: the 8-lane groups' halves (spawned a frame apart) then step on
            // alternate frames, one half only.
            let deltas: [Float] = [
                1 / 120, 1 / 120, 1 / 120, 1 / 120, 1 / 60, 0, 1 / 240, 0.05, 1 / 60, 0.4, 1 / 30, 0.001,
            ]
            for (frame, delta) in deltas.enumerated() {
                // Four spawns per frame for the first frames: lanes with other carried time.
                for n in 0..<(frame < 4 ? 4 : 0) {
                    let e = try world.spawn(data)
                    try world.setAnimation(e, track: 0, (frame + n) % 3 == 0 ? "swing" : "wind-idle", loop: true)
                    let index = entities.count
                    for k in data.physicsConstraints.indices {
                        var p = try world.physicsConstraint(e, k)
                        switch (index + k) % 7 {
                        case 1: p.damping = 0.5
                        case 2: p.inertia *= 0.5
                        case 3: p.wind = 3
                        case 4 where index >= 8: p.mix = 0
                        case 5: (p.strength, p.gravity) = (p.strength * 2, -2)
                        default: break
                        }
                        try world.setPhysicsConstraint(e, k, p)
                    }
                    entities.append(e)
                }
                if frame == 5 { try world.physicsTranslate(entities[3], x: 40, y: -10) }
                world.update(delta)
            }
            return try entities.map { ParallelTraceTests.bits(try world.pose($0)) }
        }
        try expectLanesMatchOneByOne(run)
    }

    @Test("Instances of different skins in one lane group are posed correctly (together when their programs agree)")
    func mixedPlans() throws {
        let data = try ExampleSkeletons.load(
            "mix-and-match/mix-and-match-pro.skel", atlas: "mix-and-match/mix-and-match.atlas")
        let skins = data.skins.map(\.name).filter { $0 != "default" }.prefix(3)
        #expect(skins.count == 3)
        // Skins without bones or constraints of their own share one update program.
        let plain = data.skins.filter { $0.name != "default" && $0.bones.isEmpty && $0.constraints.isEmpty }.map(\.name)
        #expect(plain.count >= 2)
        func run(_ layout: ColumnLayout) throws -> [[UInt32]] {
            let world = World(layout: layout, trackCount: 1)
            var entities: [Entity] = []
            for n in 0..<14 {
                // Rows 0-3 share a skin (lanes); row 6's skin has other bones than rows 4, 5, 7
                // (one by one); rows 8-11 alternate two skins with the same program (lanes).
                let skin =
                    n >= 8 ? plain[n % 2] : n == 6 ? skins[2] : skins[(n / 4) % 2]
                let e = try world.spawn(data, skin: skin)
                try world.setAnimation(e, track: 0, n % 2 == 0 ? "walk" : "dance", loop: true)
                entities.append(e)
            }
            for _ in 0..<20 { world.update(1 / 60) }
            return try entities.map { ParallelTraceTests.bits(try world.pose($0)) }
        }
        // The two plain skins' plans (skin index + 1) share their steps.
        let probe = World(trackCount: 1)
        let tables = try probe.locate(try probe.spawn(data)).batch.rig.tables
        let first = try #require(data.skins.firstIndex { $0.name == plain[0] }) + 1
        let second = try #require(data.skins.firstIndex { $0.name == plain[1] }) + 1
        #expect(tables.planOpStart[first] == tables.planOpStart[second])
        #expect(tables.planOpCount[first] == tables.planOpCount[second])
        let oneByOne = try run(.instanceMajor)
        let lanes = try run(ColumnLayout(chunkSize: 4))
        for n in oneByOne.indices { #expect(oneByOne[n] == lanes[n], "instance \(n) differs") }
    }
}

/// Runs `run` one instance at a time (`.instanceMajor`) and in lanes of 4 and 8 (chunked
/// layouts), and expects each instance's pose bits to be the same in all three.
private func expectLanesMatchOneByOne(_ run: (ColumnLayout) throws -> [[UInt32]]) throws {
    let oneByOne = try run(.instanceMajor)
    for chunk in [4, 8] {
        let lanes = try run(ColumnLayout(chunkSize: chunk))
        for n in oneByOne.indices { #expect(oneByOne[n] == lanes[n], "chunk \(chunk): instance \(n) differs") }
    }
}

/// Sixteen instances of `data` in skin `full-skins/girl` in a world of `layout`, every third
/// dancing and the others walking, each handed to `configure` with its index once spawned; then
/// twelve frames (the sixth of 0.4 s, the others 1/60 s). Returns each instance's pose bits.
private func girlsPosed(
    _ data: SkeletonData, _ layout: ColumnLayout, configure: (World, Entity, Int) throws -> Void
) throws -> [[UInt32]] {
    let world = World(layout: layout, trackCount: 1)
    var entities: [Entity] = []
    for n in 0..<16 {
        let e = try world.spawn(data, skin: "full-skins/girl")
        try world.setAnimation(e, track: 0, n % 3 == 0 ? "dance" : "walk", loop: true)
        try configure(world, e, n)
        entities.append(e)
    }
    for n in 0..<12 { world.update(n == 5 ? 0.4 : 1 / 60) }
    return try entities.map { ParallelTraceTests.bits(try world.pose($0)) }
}
