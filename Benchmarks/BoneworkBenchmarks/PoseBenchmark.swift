import BoneworkFormat
import BoneworkWorld
import Foundation

/// µs per skeleton per frame, by system, for N instances of one skeleton playing one animation
/// (phases spread over the animation), single thread. Medians over the measured frames.
enum PoseBenchmark {
    static let usage = """
          pose [--n N] [--frames F] [--warmup W] [--animations walk,run] [--chunk K] [--wall] [--detail]
               [--skeleton FILE --atlas FILE] [--skin NAME] [--assets DIR]
               defaults: N 1000, F 300, W 30, spineboy-pro.skel, instance-major layout (chunk 1),
               thread CPU time (--wall: elapsed time)
        """

    struct Options {
        var n = 1000
        var frames = 300
        var warmup = 30
        var animations = ["walk", "run"]
        var chunk = 1
        /// Wall time instead of the thread's CPU time.
        var wall = false
        /// Also print min / p50 / p90 / mean per system.
        var detail = false
        var assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spine-examples")
            .path
        var skeleton = "spineboy/spineboy-pro.skel"
        var atlas = "spineboy/spineboy.atlas"
        var skin: String?
    }

    struct BadOption: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ args: [String]) throws -> Options {
        var o = Options()
        var i = 0
        func value() throws -> String {
            guard i + 1 < args.count else { throw BadOption(description: "\(args[i]) needs a value\n\(usage)") }
            i += 1
            return args[i]
        }
        func int() throws -> Int {
            let text = try value()
            guard let v = Int(text), v > 0 else { throw BadOption(description: "not a positive integer: \(text)") }
            return v
        }
        while i < args.count {
            switch args[i] {
            case "--n": o.n = try int()
            case "--frames": o.frames = try int()
            case "--warmup": o.warmup = try int()
            case "--chunk": o.chunk = try int()
            case "--wall": o.wall = true
            case "--detail": o.detail = true
            case "--animations": o.animations = try value().split(separator: ",").map(String.init)
            case "--assets": o.assets = try value()
            case "--skeleton": o.skeleton = try value()
            case "--atlas": o.atlas = try value()
            case "--skin": o.skin = try value()
            default: throw BadOption(description: "unknown option \(args[i])\n\(usage)")
            }
            i += 1
        }
        return o
    }

    static func run(_ args: [String]) throws {
        let o = try parse(args)
        let base = URL(fileURLWithPath: o.assets)
        let atlas = try AtlasReader.read(file: base.appendingPathComponent(o.atlas).path)
        let data = try SkeletonLoader.load(file: base.appendingPathComponent(o.skeleton).path, atlas: atlas)
        #if DEBUG
            print("warning: debug build; use `swift run -c release BoneworkBenchmarks pose`")
        #endif
        print(
            "\(o.skeleton): \(data.bones.count) bones, \(data.slots.count) slots, N = \(o.n), "
                + "\(o.frames) frames after \(o.warmup) warm-up, chunk \(o.chunk), single thread, "
                + (o.wall ? "elapsed time" : "thread CPU time"))
        print("µs per skeleton per frame (median over frames):")
        let header = ["animation", "state", "apply", "state+apply", "world", "slots", "vertices", "total"]
        print(header.map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
        for animation in o.animations {
            let row = try measure(data: data, animation: animation, options: o)
            let cells = [animation] + row.map { String(format: "%.3f", $0) }
            print(cells.map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
        }
    }

    /// Medians, in µs per skeleton: state, apply, state+apply, world, slots, vertices, total.
    static func measure(data: SkeletonData, animation: String, options o: Options) throws -> [Double] {
        guard let index = data.findAnimation(animation) else {
            throw BadOption(description: "no animation '\(animation)' in \(o.skeleton)")
        }
        let duration = data.animations[Int(index)].duration
        let scheduler = Scheduler(capacity: o.frames, clock: o.wall ? .wall : .threadCPU)
        let world = World(layout: ColumnLayout(chunkSize: o.chunk), trackCount: 1, scheduler: scheduler)
        world.batch(for: data).reserve(o.n)
        for i in 0..<o.n {
            let e = try world.spawn(data, skin: o.skin)
            try world.setAnimation(e, animation, loop: true)
            try world.setTrackTime(e, duration * Float(i) / Float(o.n))
        }
        let delta: Float = 1.0 / 60.0
        for _ in 0..<o.warmup { world.update(delta) }
        for _ in 0..<o.frames { world.update(delta) }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted[sorted.count / 2]
        }
        var perSystem: [[Double]] = Array(repeating: [], count: SystemID.count)
        var totals: [Double] = []
        var stateApply: [Double] = []
        let n = Double(o.n)
        for back in 0..<o.frames {
            var total = 0.0
            for system in SystemID.allCases {
                let us = Double(scheduler.nanoseconds(system, framesAgo: back) ?? 0) / 1000 / n
                perSystem[system.rawValue].append(us)
                total += us
            }
            totals.append(total)
            stateApply.append(perSystem[0].last! + perSystem[1].last!)
        }
        if o.detail {
            for system in SystemID.allCases {
                let v = perSystem[system.rawValue].sorted()
                let mean = v.reduce(0, +) / Double(v.count)
                print(
                    "  \(animation) \(system.name): min \(String(format: "%.3f", v[0]))"
                        + " p50 \(String(format: "%.3f", v[v.count / 2]))"
                        + " p90 \(String(format: "%.3f", v[v.count * 9 / 10]))"
                        + " mean \(String(format: "%.3f", mean))")
            }
        }
        return [
            median(perSystem[SystemID.animationState.rawValue]), median(perSystem[SystemID.timelineApply.rawValue]),
            median(stateApply), median(perSystem[SystemID.pose.rawValue]), median(perSystem[SystemID.slots.rawValue]),
            median(perSystem[SystemID.vertices.rawValue]), median(totals),
        ]
    }
}
