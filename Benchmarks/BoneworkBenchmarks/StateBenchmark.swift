import BoneworkFormat
import BoneworkWorld
import Foundation

/// Cost of the animation state systems (state update + apply: advancing tracks, mixing,
/// applying timelines to the local pose) per skeleton per frame, for N instances of one
/// skeleton, in three set-ups:
/// - `1 track`: `run` looping on track 0;
/// - `2 tracks`: `run` on track 0, `aim` on track 1 as an additive layer (alpha 0.7);
/// - `2 tracks + mixing`: as above, and every frame 1/30 of the instances switch track 0
///   between `run` and `walk` with a 0.2 s mix (so about 40% are mixing at any time);
/// - `2 tracks, all mixing`: every instance mixes track 0 from `run` to `walk` all along.
///
/// `swift run -c release BoneworkBenchmarks state [--instances N] [--frames F] [--skeleton FILE]
///  [--atlas FILE] [--track0 NAME] [--track1 NAME] [--other NAME] [--setup 1-4] [--wall]`
/// Times are the thread's CPU time (steady on a busy machine) unless `--wall` is given.
enum StateBenchmark {
    static func run(_ args: [String]) throws {
        var instances = 1000
        var frames = 300
        var skeleton = "../shared/spine-examples/spineboy/spineboy-pro.skel"
        var atlasPath: String? = "../shared/spine-examples/spineboy/spineboy.atlas"
        var base = "run"
        var layer = "aim"
        var other = "walk"
        var setups = ["1 track", "2 tracks", "2 tracks + mixing", "2 tracks, all mixing"]
        var clock = Scheduler.Clock.threadCPU
        var i = 0
        while i < args.count {
            let value = i + 1 < args.count ? args[i + 1] : ""
            switch args[i] {
            case "--instances": instances = Int(value) ?? instances
            case "--frames": frames = Int(value) ?? frames
            case "--skeleton": skeleton = value
            case "--atlas": atlasPath = value.isEmpty || value == "none" ? nil : value
            case "--track0": base = value
            case "--track1": layer = value
            case "--other": other = value
            case "--wall":
                clock = .wall
                i -= 1
            case "--setup":
                guard let n = Int(value), n >= 1, n <= 4 else {
                    print("--setup takes 1 to 4")
                    return
                }
                setups = [setups[n - 1]]
            default:
                print("unknown option \(args[i])")
                return
            }
            i += 2
        }
        let atlas = try atlasPath.map { try AtlasReader.read(file: $0) }
        let data = try SkeletonLoader.load(file: skeleton, atlas: atlas)
        print(
            "animation state systems, \(instances) x \((skeleton as NSString).lastPathComponent), \(frames) frames, "
                + (clock == .wall ? "wall clock" : "thread CPU time"))
        print("| set-up | update µs/skel | apply µs/skel | total µs/skel (median) | p95 total | instances mixing |")
        print("|---|---:|---:|---:|---:|---:|")
        for setup in setups {
            let world = World(scheduler: Scheduler(clock: clock))
            try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.2))
            world.scheduler.enabled = [.animationState, .timelineApply]
            var states: [AnimationState] = []
            var seed: UInt32 = 12345
            func random() -> Float {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                return Float(seed >> 8) / Float(1 << 24)
            }
            for _ in 0..<instances {
                let state = try world.animationState(try world.spawn(data))
                let entry = try state.setAnimation(0, base, loop: true)
                try entry.setTrackTime(random() * 2)
                if setup != "1 track" {
                    let aim = try state.setAnimation(1, layer, loop: true)
                    try aim.setMixBlend(.add)
                    try aim.setAlpha(0.7)
                }
                states.append(state)
            }
            if setup.hasSuffix("all mixing") {
                // Every instance mixes track 0 from `base` to `other` for the whole run.
                world.update(1.0 / 60)
                for state in states { try state.setAnimation(0, other, loop: true).setMixDuration(1000) }
            }
            let mixing = setup == "2 tracks + mixing"
            var toggled = [Bool](repeating: false, count: instances)
            var update: [Double] = []
            var apply: [Double] = []
            var total: [Double] = []
            var mixingSamples = 0
            var mixingCount = 0
            let warmup = 30
            for frame in 0..<(frames + warmup) {
                if mixing {
                    // Operations run between frames, as game code would call them.
                    var k = frame % 30
                    while k < instances {
                        toggled[k].toggle()
                        try states[k].setAnimation(0, toggled[k] ? other : base, loop: true)
                        k += 30
                    }
                }
                world.update(1.0 / 60)
                guard frame >= warmup else { continue }
                let u = Double(world.scheduler.nanoseconds(.animationState) ?? 0) / 1000 / Double(instances)
                let a = Double(world.scheduler.nanoseconds(.timelineApply) ?? 0) / 1000 / Double(instances)
                update.append(u)
                apply.append(a)
                total.append(u + a)
                if frame % 10 == 0 {
                    mixingSamples += instances
                    for state in states where try state.getCurrent(0)?.mixingFrom != nil { mixingCount += 1 }
                }
            }
            func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
            func p95(_ v: [Double]) -> Double { v.sorted()[min(v.count - 1, v.count * 95 / 100)] }
            let mixingShare = 100 * Double(mixingCount) / Double(max(1, mixingSamples))
            print(
                "| \(setup) | \(String(format: "%.3f", median(update))) | \(String(format: "%.3f", median(apply))) | "
                    + "\(String(format: "%.3f", median(total))) | \(String(format: "%.3f", p95(total))) | \(String(format: "%.0f", mixingShare))% |"
            )
        }
    }
}
