import BoneworkFormat
import BoneworkProfiling
import BoneworkWorld
import Dispatch
import Foundation

/// The measurements behind the scheduler's chunking defaults (`Scheduler.defaultBlockRows`,
/// `Scheduler.defaultMinimumChunkRows`), on the crowd workload:
/// 1. what waking a second thread costs (`concurrentPerform` with two empty iterations);
/// 2. µs per skeleton by interleaving block size, single thread, and split passes;
/// 3. frame time with 1 and 2 threads for small crowds (one chunk per thread, no minimum);
/// 4. µs per skeleton by column layout (instances per layout chunk), single thread.
///
/// `swift run -c release BoneworkBenchmarks chunking [--out FILE] [--skeleton FILE --atlas FILE]
///  [--animations walk,run] [--n N] [--frames F]`
enum ChunkingBenchmark {
    static let usage = """
          chunking [--out FILE] [--skeleton FILE --atlas FILE] [--animations walk,run] [--n N] [--frames F]
                defaults: Benchmarks/CHUNKING.md, spineboy-pro walk,run, N 2000, 200 frames
        """

    static func run(_ args: [String]) throws {
        var out = "Benchmarks/CHUNKING.md"
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spine-examples")
        var skeleton = examples.appendingPathComponent("spineboy/spineboy-pro.skel").path
        var atlasPath = examples.appendingPathComponent("spineboy/spineboy.atlas").path
        var animations = ["walk", "run"]
        var n = 2000
        var frames = 200
        var i = 0
        while i < args.count {
            let value = i + 1 < args.count ? args[i + 1] : ""
            switch args[i] {
            case "--out": out = value
            case "--skeleton": skeleton = value
            case "--atlas": atlasPath = value
            case "--animations": animations = value.split(separator: ",").map(String.init)
            case "--n": n = max(1, Int(value) ?? n)
            case "--frames": frames = max(1, Int(value) ?? frames)
            default: throw SuiteBenchmark.BadOption(description: "unknown option \(args[i])\n\(usage)")
            }
            i += 2
        }
        let atlas = try AtlasReader.read(file: atlasPath)
        let data = try SkeletonLoader.load(file: skeleton, atlas: atlas)
        var lines = [
            "# Chunking measurements", "",
            "`swift run -c release BoneworkBenchmarks chunking` on \(SuiteBenchmark.machine()), "
                + "\(ISO8601DateFormatter().string(from: Date())); load average \(SuiteBenchmark.loadAverage()).",
            "Workload: `bonework bench` (\((skeleton as NSString).lastPathComponent), \(animations.joined(separator: ","))).",
            "",
        ]

        // 1. Waking a second thread.
        var samples: [Double] = []
        for _ in 0..<20_000 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: 2) { _ in }
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - t0))
        }
        let wake = ProfileStats(samples)
        lines.append("## 1. A two-iteration `concurrentPerform` with no work")
        lines.append("")
        lines.append(
            String(
                format: "20,000 calls: median %.1f µs, p95 %.1f µs, max %.1f µs.", wake.median / 1000, wake.p95 / 1000,
                wake.max / 1000))
        lines.append("")

        func measure(
            count: Int, threads: Int, mode: Scheduler.Mode, block: Int, minimumChunk: Int,
            layout: ColumnLayout = .standard
        ) throws -> CrowdResult {
            let workload = CrowdWorkload(
                animations: animations, count: count, threads: threads, mode: mode, blockRows: block,
                minimumChunkRows: minimumChunk, minimumChunkMicroseconds: minimumChunk == 1 ? 0 : 80, layout: layout)
            let bench = try CrowdBenchmark(data: data, workload: workload, profiledFrames: frames)
            return bench.run(frames: frames, warmup: 10, delta: 1.0 / 60.0)
        }

        // 2. Block size. Configurations run round-robin, three rounds; each cell is the lowest
        // of the three rounds' medians (other work on a shared machine only ever adds time).
        lines.append(
            "## 2. Interleaving block size (N = \(n), 1 thread, thread CPU µs per skeleton: "
                + "lowest of 3 round-robin rounds' medians)")
        lines.append("")
        lines.append("| passes | block rows | total | state | apply | pose | slots | vertices |")
        lines.append("|---|---|---|---|---|---|---|---|")
        var runs: [(Scheduler.Mode, Int)] = [(.split, n)]
        for block in [1, 4, 8, 16, 32, 64, 128, 256, 512, n] { runs.append((.interleaved, block)) }
        var best = [[Double]](repeating: [], count: runs.count)
        for _ in 0..<3 {
            for (k, (mode, block)) in runs.enumerated() {
                let r = try measure(count: n, threads: 1, mode: mode, block: block, minimumChunk: 16)
                let us = r.summary.microsecondsPerSkeletonCPU
                if best[k].isEmpty || us[SystemID.count] < best[k][SystemID.count] { best[k] = us }
            }
        }
        for (k, (mode, block)) in runs.enumerated() {
            let us = best[k]
            let cells =
                [mode == .split ? "split" : "interleaved", mode == .split ? "-" : String(block)]
                + [String(format: "**%.3f**", us[SystemID.count])]
                + SystemID.allCases.map { String(format: "%.3f", us[$0.rawValue]) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
            print(lines.last ?? "")
        }
        lines.append("")

        // 3. Small crowds on 1 and 2 threads.
        lines.append(
            "## 3. Small crowds: elapsed frame time (median), 1 thread vs 2 threads (one chunk each; "
                + "lowest of 3 rounds)")
        lines.append("")
        lines.append("| N | 1 thread ms | 2 threads ms | ratio | 2 threads: busiest thread CPU ms |")
        lines.append("|---|---|---|---|---|")
        for count in [2, 4, 8, 16, 32, 64, 128, 256, 512] {
            var a = Double.infinity
            var b = Double.infinity
            var busiest = Double.infinity
            for _ in 0..<3 {
                let one = try measure(count: count, threads: 1, mode: .interleaved, block: 32, minimumChunk: 1)
                let two = try measure(count: count, threads: 2, mode: .interleaved, block: 32, minimumChunk: 1)
                a = min(a, one.summary.frameWall.median / 1e6)
                b = min(b, two.summary.frameWall.median / 1e6)
                busiest = min(busiest, two.summary.busiestThreadCPU.median / 1e6)
            }
            lines.append(String(format: "| %d | %.4f | %.4f | %.2f× | %.4f |", count, a, b, a / max(b, 1e-9), busiest))
            print(lines.last ?? "")
        }
        lines.append("")

        // 4. Column layout, round-robin as in 2.
        lines.append(
            "## 4. Column layout (N = \(n), 1 thread, interleaved, thread CPU µs per skeleton: lowest of 3 "
                + "round-robin rounds' medians; chunks of a multiple of 4 run the pose and vertex systems in SIMD lanes, "
                + "4 instances at once, chunks of a multiple of 8 take 8 at once)"
        )
        lines.append("")
        lines.append("| instances per layout chunk | total | state | apply | pose | slots | vertices |")
        lines.append("|---|---|---|---|---|---|---|")
        let chunkSizes = [1, 4, 8, 16]
        var bestLayout = [[Double]](repeating: [], count: chunkSizes.count)
        for _ in 0..<3 {
            for (k, size) in chunkSizes.enumerated() {
                let r = try measure(
                    count: n, threads: 1, mode: .interleaved, block: Scheduler.defaultBlockRows, minimumChunk: 16,
                    layout: ColumnLayout(chunkSize: size))
                let us = r.summary.microsecondsPerSkeletonCPU
                if bestLayout[k].isEmpty || us[SystemID.count] < bestLayout[k][SystemID.count] { bestLayout[k] = us }
            }
        }
        for (k, size) in chunkSizes.enumerated() {
            let us = bestLayout[k]
            let cells =
                [size == 1 ? "1 (instance-major)" : String(size)] + [String(format: "**%.3f**", us[SystemID.count])]
                + SystemID.allCases.map { String(format: "%.3f", us[$0.rawValue]) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
            print(lines.last ?? "")
        }
        lines.append("")
        try lines.joined(separator: "\n").write(toFile: out, atomically: true, encoding: .utf8)
        print("wrote \(out)")
    }
}
