import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Foundation

/// CPU cost of one frame of the GPU path (`GPURenderer`, headless EGL) for N characters of K
/// kinds, all in view, animated: culling and back-to-front ordering (`BackToFront`, on the worker
/// threads, merged on the GL thread), gathering each character's batch row (GL thread),
/// `beginFrame` (GL thread), packing (rows written straight into mapped memory on T threads) and
/// `submit` (GL thread). The GL thread's figure is given with and without the time spent inside
/// the draw call itself: a software driver (llvmpipe) runs the whole vertex stage there, which a
/// hardware driver hands to the GPU. Medians over F frames after W warm-up frames; the GPU is
/// waited for (a pixel read) outside the timed span.
enum GPUPathBenchmark {
    static let usage = """
          gpu [--n N] [--kinds 1|4] [--threads T] [--frames F] [--warmup W] [--assets DIR] [--size S]
               defaults: N 1, 1000 and 10000; kinds 1 and 4 (spineboy-pro, then tank, owl, raptor);
               T 2; F 20, W 3; a 256x256 target
        """

    struct BadOption: Error, CustomStringConvertible {
        var description: String
    }

    static let kindFiles = [
        ("spineboy/spineboy-pro.skel", "spineboy/spineboy-pma.atlas"), ("tank/tank-pro.json", "tank/tank-pma.atlas"),
        ("owl/owl-pro.json", "owl/owl-pma.atlas"), ("raptor/raptor-pro.json", "raptor/raptor-pma.atlas"),
    ]

    static func run(_ args: [String]) throws {
        var counts = [1, 1000, 10_000]
        var kindCounts = [1, 4]
        var threads = 2
        var frames = 20
        var warmup = 3
        var size = 256
        var assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spine-examples")
            .path
        var i = 0
        func value() throws -> String {
            guard i + 1 < args.count else { throw BadOption(description: "\(args[i]) needs a value") }
            i += 1
            return args[i]
        }
        func number(_ text: String) throws -> Int {
            guard let n = Int(text), n > 0 else {
                throw BadOption(description: "\(args[i - 1]) needs a positive number")
            }
            return n
        }
        while i < args.count {
            switch args[i] {
            case "--n": counts = [try number(try value())]
            case "--kinds":
                let k = try number(try value())
                guard k == 1 || k == 4 else { throw BadOption(description: "--kinds takes 1 or 4") }
                kindCounts = [k]
            case "--threads": threads = try number(try value())
            case "--frames": frames = try number(try value())
            case "--warmup": warmup = Int(try value()) ?? warmup
            case "--size": size = try number(try value())
            case "--assets": assets = try value()
            default: throw BadOption(description: "unknown option \(args[i])\n\(usage)")
            }
            i += 1
        }

        let renderer = try RequestRenderer(baseDirectory: assets)
        let gpu = try renderer.gpuRenderer()
        gpu.packThreads = threads
        var kinds: [(data: SkeletonData, index: Int32)] = []
        for (skeleton, atlas) in kindFiles {
            let (data, draw) = try renderer.skeleton(skeleton, atlas: atlas)
            kinds.append((data, Int32(try renderer.gpuKind(draw, textures: try renderer.textures(atlas: atlas)))))
        }
        let target = try OffscreenTarget(width: size, height: size, context: renderer.context)
        let culling = BackToFront(margin: 150)
        func median(_ values: [UInt64]) -> Double { Double(values.sorted()[values.count / 2]) / 1e6 }
        print(
            "GPU path, \(gpu.submission.rawValue), \(threads) packing thread\(threads == 1 ? "" : "s"), "
                + "\(size)x\(size) target; CPU ms per frame (medians of \(frames))")
        print(
            "kinds  characters  draw calls  commands  bytes/char  cull+order  gather  begin   pack(all)  pack(wall)  "
                + "submit  submit-draw  GL thread  total CPU")
        for kindCount in kindCounts {
            for n in counts {
                let world = World(trackCount: 1)
                var entities: [Entity] = []
                var xs: [Float] = []
                var ys: [Float] = []
                let side = Int(Double(n).squareRoot().rounded(.up))
                for k in 0..<n {
                    let kind = kinds[k % kindCount]
                    let e = try world.spawn(kind.data)
                    if let animation = kind.data.animations.first?.name {
                        try world.setAnimation(e, track: 0, animation, loop: true)
                        try world.setTrackTime(e, Float(k % 60) / 60)
                    }
                    let x = Float(k % side) * 40 - Float(side) * 20
                    let y = Float(k / side) * 40 - Float(side) * 20
                    try world.place(e, x: x, y: y, scaleX: 0.2, scaleY: 0.2)
                    entities.append(e)
                    xs.append(x)
                    ys.append(y)
                }
                world.scheduler.enabled.remove(.vertices)
                let extent = Float(side) * 20 + 200
                let viewport = WorldViewport(x: -extent, y: -extent, width: extent * 2, height: extent * 2)
                var cull: [UInt64] = []
                var gather: [UInt64] = []
                var begin: [UInt64] = []
                var pack: [UInt64] = []
                var packWall: [UInt64] = []
                var submit: [UInt64] = []
                var outsideDraw: [UInt64] = []
                var last = RenderFrameStats()
                var characterKinds: [Int32] = []
                let rows = BatchRows()
                for frame in 0..<(warmup + frames) {
                    world.update(1.0 / 60)
                    target.bind()
                    let c0 = RenderClock.threadCPU()
                    let visible = xs.withUnsafeBufferPointer { x in
                        ys.withUnsafeBufferPointer { y in culling.run(x: x, y: y, viewport: viewport, threads: threads)
                        }
                    }
                    let c1 = RenderClock.threadCPU()
                    characterKinds.removeAll(keepingCapacity: true)
                    for agent in visible { characterKinds.append(kinds[Int(agent) % kindCount].index) }
                    try entities.withUnsafeBufferPointer { e in
                        try rows.gather(visible.count, entity: { e[Int(visible[$0])] }, in: world)
                    }
                    let c2 = RenderClock.threadCPU()
                    let opened = try characterKinds.withUnsafeBufferPointer { k throws(RenderError) in
                        try gpu.beginFrame(kinds: k, chunks: gpu.chunks(for: k.count))
                    }
                    let c3 = RenderClock.threadCPU()
                    let w0 = RenderClock.wall()
                    rows.pack(opened, with: gpu)
                    let w1 = RenderClock.wall()
                    let stats = gpu.submit(opened, viewport: viewport)
                    _ = target.readImage()  // waits for the GPU outside the timed span
                    guard frame >= warmup else { continue }
                    cull.append(c1 &- c0)
                    gather.append(c2 &- c1)
                    begin.append(c3 &- c2)
                    pack.append(stats.packNanoseconds)
                    packWall.append(w1 &- w0)
                    // submitNanoseconds includes beginFrame: take it out, it has its own column.
                    let submitOnly = stats.submitNanoseconds &- min(stats.submitNanoseconds, c3 &- c2)
                    submit.append(submitOnly)
                    outsideDraw.append(submitOnly &- min(submitOnly, stats.drawCallNanoseconds))
                    last = stats
                }
                let glThread = median(cull) + median(gather) + median(begin) + median(outsideDraw)
                let total = glThread + median(pack)
                func f(_ v: Double, _ width: Int) -> String {
                    let text = String(format: "%.3f", v)
                    return String(repeating: " ", count: max(0, width - text.count)) + text
                }
                func d(_ v: Int, _ width: Int) -> String {
                    let text = String(v)
                    return String(repeating: " ", count: max(0, width - text.count)) + text
                }
                print(
                    d(kindCount, 5) + d(n, 12) + d(last.drawCalls, 12) + d(last.commands, 10)
                        + d(last.uploadBytes / max(1, last.instances), 12) + f(median(cull), 12) + f(median(gather), 8)
                        + f(median(begin), 7) + f(median(pack), 11) + f(median(packWall), 12) + f(median(submit), 8)
                        + f(median(submit) - median(outsideDraw), 13) + f(glThread, 11) + f(total, 11))
                withExtendedLifetime(world) {}
            }
        }
        print(
            "GL thread = cull+order (merge; culling itself on the workers) + gather + begin + submit outside "
                + "the draw call; total CPU = GL thread + pack(all threads). submit-draw: CPU inside the draw call "
                + "(llvmpipe's vertex stage; a hardware driver only records it).")
    }
}
