import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Foundation

/// CPU cost of submitting one frame of N instances through the instanced path (headless EGL):
/// filling the per-instance tables from the batch's columns (`PoseView`), uploading them (one
/// buffer update per table), and the draw calls. The GPU's work is not waited for, except once
/// per frame after timing so frames do not pile up.
enum RenderBenchmark {
    static let usage = """
          render [--n N] [--frames F] [--warmup W] [--skeleton FILE --atlas FILE] [--assets DIR] [--size WxH]
               defaults: N 10000, F 60, W 5, spineboy-pro.skel with spineboy-pma.atlas, 256x256
        """

    struct BadOption: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ args: [String]) throws {
        var n = 10_000
        var frames = 60
        var warmup = 5
        var size = 256
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
        while i < args.count {
            switch args[i] {
            case "--n": n = Int(try value()) ?? n
            case "--frames": frames = Int(try value()) ?? frames
            case "--warmup": warmup = Int(try value()) ?? warmup
            case "--size": size = Int(try value()) ?? size
            case "--assets": assets = try value()
            case "--skeleton": skeleton = try value()
            case "--atlas": atlas = try value()
            default: throw BadOption(description: "unknown option \(args[i])\n\(usage)")
            }
            i += 1
        }
        guard n > 0, frames > 0 else { throw BadOption(description: "--n and --frames must be > 0") }

        let renderer = try RequestRenderer(baseDirectory: assets)
        let (data, drawData) = try renderer.skeleton(skeleton, atlas: atlas)
        let pages = try renderer.textures(atlas: atlas).bindings
        let instanced = try InstancedRenderer(context: renderer.context)
        let buffers = try instanced.prepare(InstancedGeometry(drawData))
        let target = try OffscreenTarget(width: size, height: size, context: renderer.context)
        let world = World(trackCount: 1)
        let batch = world.batch(for: data)
        batch.reserve(n)
        let animation = data.animations.first?.name
        for k in 0..<n {
            let e = try world.spawn(data)
            if let animation {
                try world.setAnimation(e, animation, loop: true)
                try world.setTrackTime(e, Float(k % 60) / 60)
            }
        }
        world.update(1.0 / 60)
        let viewport = WorldViewport(x: -2000, y: -500, width: 4000, height: 4000)

        func median(_ values: [UInt64]) -> Double {
            let sorted = values.sorted()
            return Double(sorted[sorted.count / 2]) / 1e6
        }
        var fill: [UInt64] = []
        var wall: [UInt64] = []
        var cpu: [UInt64] = []
        var upload: [UInt64] = []
        var drawCalls = 0
        var bytes = 0
        for frame in 0..<(warmup + frames) {
            target.bind()
            let stats = instanced.draw(batch: batch, with: buffers, pages: pages, viewport: viewport)
            _ = target.readImage()  // waits for the GPU outside the timed span
            guard frame >= warmup else { continue }
            fill.append(stats.fillNanoseconds)
            wall.append(stats.wallNanoseconds)
            cpu.append(stats.cpuNanoseconds)
            upload.append(stats.uploadNanoseconds)
            drawCalls = stats.drawCalls
            bytes = stats.uploadBytes
        }
        // One instance for comparison.
        let single = World(trackCount: 1)
        _ = try single.spawn(data)
        target.bind()
        let one = instanced.draw(batch: single.batch(for: data), with: buffers, pages: pages, viewport: viewport)

        print("renderer: \(renderer.context.rendererDescription)")
        print(
            "skeleton \(skeleton): \(drawData.boneCount) bones, \(drawData.slotCount) slots, "
                + "\(buffers.geometry.vertices.count) static vertices")
        print("instances \(n), frames \(frames) (medians, ms per frame)")
        print(String(format: "  fill per-instance tables   %8.3f", median(fill)))
        print(String(format: "  submission total (wall)    %8.3f", median(wall)))
        print(String(format: "  submission total (CPU)     %8.3f", median(cpu)))
        print(String(format: "  upload (2 buffer updates)  %8.3f", median(upload)))
        print(
            String(
                format: "  state + draw calls (wall)  %8.3f",
                median(zip(wall, zip(fill, upload)).map { $0 &- $1.0 &- $1.1 })))
        print("  uploaded per frame         \(bytes) bytes in 2 buffer updates")
        print("  draw calls                 \(drawCalls) (1 instance: \(one.drawCalls))")
    }
}
