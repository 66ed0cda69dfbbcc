import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Foundation

/// CPU cost of one frame of N instances through the instanced path (headless EGL), in its three
/// steps: `beginFrame` (GL thread: map this frame's region of the per-instance tables), packing
/// (rows written straight into the mapped tables from the batch's columns, `PoseView`, on 1..T
/// threads) and `submit` (GL thread: unmap when not persistent, state, draw calls, fence).
/// "Submission" is the GL thread's CPU time in begin + submit; "pack" is CPU time summed over the
/// packing threads. The GPU's work is not waited for, except once per frame after timing (a pixel
/// read) so frames do not pile up.
enum RenderBenchmark {
    static let usage = """
          render [--n N] [--threads T] [--frames F] [--warmup W] [--streaming persistent|ranges]
                 [--skeleton FILE --atlas FILE] [--assets DIR] [--size WxH]
               defaults: N 1, 1000 and 10000; T 1 and 2; F 30, W 3; spineboy-pro.skel with
               spineboy-pma.atlas; 256x256; persistent mapping when the context has ARB_buffer_storage
        """

    struct BadOption: Error, CustomStringConvertible {
        var description: String
    }

    struct Row {
        var n: Int
        var threads: Int
        var submit: Double
        var submitWall: Double
        var inDraws: Double
        var outsideDraws: Double
        var pack: Double
        var packWall: Double
        var packPerInstance: Double
        var map: Double
        var bytes: Int
        var drawCalls: Int
        var chunks: Int
    }

    static func run(_ args: [String]) throws {
        var counts = [1, 1000, 10_000]
        var threadCounts = [1, 2]
        var frames = 30
        var warmup = 3
        var size = 256
        var streaming = InstancedStreaming.automatic
        var glthread = false
        var assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spine-examples")
            .path
        var skeleton = "spineboy/spineboy-pro.skel"
        var atlas = "spineboy/spineboy-pma.atlas"
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
            case "--threads": threadCounts = [try number(try value())]
            case "--frames": frames = try number(try value())
            case "--warmup": warmup = Int(try value()) ?? warmup
            case "--size": size = try number(try value())
            case "--assets": assets = try value()
            case "--skeleton": skeleton = try value()
            case "--atlas": atlas = try value()
            case "--glthread": glthread = true
            case "--streaming":
                switch try value() {
                case "persistent": streaming = .persistent
                case "ranges": streaming = .mappedRanges
                default: throw BadOption(description: "--streaming takes persistent or ranges")
                }
            default: throw BadOption(description: "unknown option \(args[i])\n\(usage)")
            }
            i += 1
        }

        // Mesa's threaded GL dispatch: GL calls are queued to a driver thread, as a hardware
        // driver queues commands for the GPU (read when the first context is made).
        if glthread { setenv("mesa_glthread", "true", 1) }
        let renderer = try RequestRenderer(baseDirectory: assets)
        let (data, drawData) = try renderer.skeleton(skeleton, atlas: atlas)
        let pages = try renderer.textures(atlas: atlas).bindings
        let instanced = try InstancedRenderer(context: renderer.context, streaming: streaming)
        let target = try OffscreenTarget(width: size, height: size, context: renderer.context)
        let viewport = WorldViewport(x: -2000, y: -500, width: 4000, height: 4000)
        let animation = data.animations.first?.name
        let geometry = InstancedGeometry(drawData)

        func median(_ values: [UInt64]) -> Double {
            let sorted = values.sorted()
            return Double(sorted[sorted.count / 2]) / 1e6
        }
        var rows: [Row] = []
        for n in counts {
            let world = World(trackCount: 1)
            let batch = world.batch(for: data)
            batch.reserve(n)
            for k in 0..<n {
                let e = try world.spawn(data)
                if let animation {
                    try world.setAnimation(e, animation, loop: true)
                    try world.setTrackTime(e, Float(k % 60) / 60)
                }
            }
            world.update(1.0 / 60)
            for threads in threadCounts {
                instanced.packThreads = threads
                // Fresh buffers per run: the first frames grow and fault in the tables.
                let buffers = try instanced.prepare(geometry)
                var submit: [UInt64] = []
                var submitWall: [UInt64] = []
                var pack: [UInt64] = []
                var packWall: [UInt64] = []
                var map: [UInt64] = []
                var inDraws: [UInt64] = []
                var outsideDraws: [UInt64] = []
                var last = RenderFrameStats()
                for frame in 0..<(warmup + frames) {
                    target.bind()
                    let stats = instanced.draw(batch: batch, with: buffers, pages: pages, viewport: viewport)
                    if let error = instanced.lastError { throw error }
                    _ = target.readImage()  // waits for the GPU outside the timed span
                    guard frame >= warmup else { continue }
                    submit.append(stats.submitNanoseconds)
                    submitWall.append(stats.wallNanoseconds &- stats.fillNanoseconds)
                    pack.append(stats.packNanoseconds)
                    packWall.append(stats.fillNanoseconds)
                    map.append(stats.uploadNanoseconds)
                    inDraws.append(stats.drawCallNanoseconds)
                    outsideDraws.append(stats.submitNanoseconds &- stats.drawCallNanoseconds)
                    last = stats
                }
                rows.append(
                    Row(
                        n: n, threads: instanced.packThreads, submit: median(submit), submitWall: median(submitWall),
                        inDraws: median(inDraws), outsideDraws: median(outsideDraws),
                        pack: median(pack), packWall: median(packWall),
                        packPerInstance: median(pack) * 1000 / Double(n), map: median(map), bytes: last.uploadBytes,
                        drawCalls: last.drawCalls, chunks: last.packChunks))
            }
        }

        print("renderer: \(renderer.context.rendererDescription)")
        print("streaming: \(instanced.streaming == .persistent ? "persistent coherent mapping" : "mapped ranges")")
        print(
            "skeleton \(skeleton): \(drawData.boneCount) bones, \(drawData.slotCount) slots, "
                + "\(geometry.vertices.count) static vertices, \(geometry.bytesPerInstance) bytes per instance")
        print("threaded GL dispatch (mesa_glthread): \(glthread ? "requested" : "off")")
        print("medians over \(frames) frames (after \(warmup) warm-up), milliseconds per frame")
        print(
            "       N  thr  submit cpu  in draws  excl draws  submit wall  map+unmap  pack cpu  pack wall  "
                + "µs/inst     bytes  draws  chunks")
        for r in rows {
            print(
                String(
                    format: "%8d  %3d  %10.3f  %8.3f  %10.3f  %11.3f  %9.3f  %8.3f  %9.3f  %7.3f  %8d  %5d  %6d",
                    r.n, r.threads, r.submit, r.inDraws, r.outsideDraws, r.submitWall, r.map, r.pack, r.packWall,
                    r.packPerInstance, r.bytes, r.drawCalls, r.chunks))
        }
        print("submit cpu: GL thread CPU in beginFrame + submit (map, unmap, state, draw calls, fence);")
        print("  in draws: of that, inside glDrawElementsInstanced (a software driver's vertex stage runs there);")
        print(
            "  excl draws: the rest. submit wall: elapsed in beginFrame + submit. map+unmap: elapsed, fence waits included"
        )
        print("pack cpu: CPU time summed over packing threads; pack wall: elapsed between begin and submit;")
        print("  µs/inst: pack cpu per instance. bytes: per-instance tables written per frame")
    }
}
