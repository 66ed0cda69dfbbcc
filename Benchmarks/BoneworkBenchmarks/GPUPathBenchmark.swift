import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Foundation

/// CPU cost of one frame of the GPU path (`GPURenderer`, headless EGL) for N characters of K
/// kinds, all in view, animated, drawn the way the crowd draws them
/// (`GPURenderer.draw(_:entities:kinds:order:viewport:)`): culling and back-to-front ordering
/// (`BackToFront`, on the worker threads, merged on the GL thread), then locating, classifying,
/// copying the batches' columns and writing each character's record and command on T threads,
/// then the GL thread's layout and submission. CPU time is counted on every thread that works
/// (thread CPU clocks), so the total does not depend on how busy the machine is otherwise.
/// The GL thread's figure is its serial work outside the draw call: a software driver
/// (llvmpipe) runs the whole vertex stage inside the draw call, which a hardware driver hands to
/// the GPU; that time is shown apart. Medians over F frames after W warm-up frames; the GPU is
/// waited for (a pixel read) outside the timed span.
enum GPUPathBenchmark {
    static let usage = """
          gpu [--n N] [--kinds 1|4] [--threads T] [--frames F] [--warmup W] [--assets DIR] [--size S] [--copy-world]
               defaults: N 1, 1000 and 10000; kinds 1 and 4 (spineboy-pro, then tank, owl, raptor);
               T 2; F 20, W 3; a 256x256 target; the world transforms read in place
               (World.columnMemory = GPURenderer.columnMemory), copied each frame with --copy-world
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
        var inPlace = true
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
            case "--copy-world": inPlace = false
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
                + "\(size)x\(size) target; world transforms "
                + (inPlace && gpu.columnMemory != nil ? "read in place" : "copied")
                + "; CPU ms per frame (medians of \(frames))")
        print(
            "kinds  characters  draw calls  commands  columns  bytes/char  in place/char    cull(all)  pack(all)  (classify)  (rows)  (copy)  "
                + "GL serial  GL thread  total CPU   in draw call   pose(all)")
        for kindCount in kindCounts {
            for n in counts {
                let world = World(trackCount: 1)
                if inPlace { world.columnMemory = gpu.columnMemory }
                var entities: [Entity] = []
                var agentKinds: [Int32] = []
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
                    agentKinds.append(kind.index)
                    xs.append(x)
                    ys.append(y)
                }
                world.scheduler.enabled.remove(.vertices)
                let extent = Float(side) * 20 + 200
                let viewport = WorldViewport(x: -extent, y: -extent, width: extent * 2, height: extent * 2)
                var cull: [UInt64] = []
                var merge: [UInt64] = []
                var pack: [UInt64] = []
                var copy: [UInt64] = []
                var classify: [UInt64] = []
                var rowFlags: [UInt64] = []
                var serial: [UInt64] = []
                var inDraw: [UInt64] = []
                var totals: [UInt64] = []
                var pose: [UInt64] = []
                var last = RenderFrameStats()
                for frame in 0..<(warmup + frames) {
                    world.update(1.0 / 60)
                    target.bind()
                    let visible = xs.withUnsafeBufferPointer { x in
                        ys.withUnsafeBufferPointer { y in culling.run(x: x, y: y, viewport: viewport, threads: threads)
                        }
                    }
                    let stats = try entities.withUnsafeBufferPointer { e throws(RenderError) in
                        try agentKinds.withUnsafeBufferPointer { k throws(RenderError) in
                            try gpu.draw(world, entities: e, kinds: k, order: visible, viewport: viewport)
                        }
                    }
                    _ = target.readImage()  // waits for the GPU outside the timed span
                    guard frame >= warmup else { continue }
                    let glSerial = stats.submitNanoseconds &- stats.drawCallNanoseconds
                    cull.append(culling.lastCPUNanoseconds)
                    merge.append(culling.lastMergeNanoseconds)
                    pack.append(stats.packNanoseconds)
                    copy.append(stats.columnCopyNanoseconds)
                    classify.append(stats.classifyNanoseconds)
                    rowFlags.append(stats.rowFlagNanoseconds)
                    serial.append(glSerial)
                    inDraw.append(stats.drawCallNanoseconds)
                    totals.append(culling.lastCPUNanoseconds &+ stats.packNanoseconds &+ glSerial)
                    pose.append(world.scheduler.nanoseconds(.pose) ?? 0)
                    last = stats
                }
                var glThread: [UInt64] = []
                for (m, s) in zip(merge, serial) { glThread.append(m &+ s) }
                func f(_ v: Double, _ width: Int) -> String {
                    let text = String(format: "%.3f", v)
                    return String(repeating: " ", count: max(0, width - text.count)) + text
                }
                func d(_ v: Int, _ width: Int) -> String {
                    let text = String(v)
                    return String(repeating: " ", count: max(0, width - text.count)) + text
                }
                print(
                    d(kindCount, 5) + d(n, 12) + d(last.drawCalls, 12) + d(last.commands, 10) + d(last.fromColumns, 9)
                        + d(last.uploadBytes / max(1, last.instances), 12)
                        + d(last.inPlaceBytes / max(1, last.instances), 15) + f(median(cull), 13)
                        + f(median(pack), 11) + f(median(classify), 12) + f(median(rowFlags), 8) + f(median(copy), 8)
                        + f(median(serial), 11) + f(median(glThread), 11)
                        + f(median(totals), 11) + f(median(inDraw), 15) + f(median(pose), 12))
                withExtendedLifetime(world) {}
            }
        }
        print(
            "ms per frame, medians. cull(all): culling, sorting and merging on every thread; pack(all): locating, "
                + "classifying, copying columns and writing records on every thread ((classify): the first pass, locating and classifying the characters; (rows): of it, flagging every row of the batches; (copy): the bulk copy of the columns, one thread); GL serial: the GL thread's "
                + "layout, mapping and submission outside the draw call; GL thread = GL serial + the merge of the "
                + "sorted runs; total CPU = cull(all) + pack(all) + GL serial. in draw call: CPU inside the draw "
                + "call (llvmpipe's vertex stage; a hardware driver only records it). columns: characters drawn "
                + "from their batch's columns (the others are packed slot by slot). in place/char: bytes of world "
                + "transforms and slot attachments the GPU read where the systems wrote them (not copied, not in "
                + "bytes/char). "
                + "pose(all): the World's pose system on every thread (writing the world transforms).")
    }
}
