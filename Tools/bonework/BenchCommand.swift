import BoneworkAssets
import BoneworkFormat
import BoneworkProfiling
import BoneworkRender
import BoneworkWorld
import Foundation

/// `bonework bench`: the crowd workload (`CrowdWorkload`) over N instances for F frames, with
/// the profiler's summary, exports and heap figures.
enum BenchCommand {
    static let spec = CommandSpec(
        name: "bench", summary: "time a crowd of one skeleton frame by frame, per system",
        synopsis: [
            "bench [--skeleton PATH --atlas PATH] [--animations walk,run] [--skin NAME | --outfits K [--uniform-outfit]] "
                + "[--count N] [--frames F] [options]"
        ],
        description: """
            Runs the crowd workload (CrowdWorkload): N instances of one skeleton, instance i looping
            animation i mod k from a seeded random start time, for F measured frames after W warm-up
            frames. Prints the profiler's per-system table (median and p95 per frame, per skeleton),
            bytes per instance, allocations and peak RSS; measure with a release build.
            """,
        options: [
            .value("--skeleton", "PATH", "the skeleton to run (default: the built-in default character)"),
            .value("--atlas", "PATH", "the --skeleton's atlas"),
            .value("--animations", "A,B,...", default: "walk,run", "animations, instance i loops animation i mod k"),
            .value(
                "--skin", "NAME",
                "the skin every instance wears (default: \(DefaultCharacter.defaultSkinName) for the default character)"
            ),
            .value(
                "--outfits", "K",
                "K distinct random composed outfits, instance i wears outfit i mod K; not with --skin"),
            .flag("--uniform-outfit", "with --outfits: every instance wears the most expensive of the K outfits"),
            .value("--count", "N", default: "1000", "instances"),
            .value("--frames", "F", default: "300", "measured frames; 0: spawn, then report memory only"),
            .value("--threads", "T", default: "1", "threads per frame, 1...\(Scheduler.maxThreads) on this machine"),
            .value("--dt", "SECONDS", default: "1/60", "seconds per frame"),
            .value("--seed", "S", default: "1", "random seed of the start times and outfits"),
            .value("--warmup", "W", default: "10", "frames run before the measured ones"),
            .value(
                "--mode", "interleaved|split", default: "interleaved",
                "all systems per block of rows, or each system over all rows"),
            .value("--block", "ROWS", default: "\(Scheduler.defaultBlockRows)", "rows per block in interleaved mode"),
            .value(
                "--layout-chunk", "K", default: "\(ColumnLayout.standard.chunkSize)",
                "instances per column layout chunk, the SIMD lanes; 1: instance-major"),
            .value(
                "--min-chunk", "ROWS", default: "\(Scheduler.defaultMinimumChunkRows)",
                "fewest rows worth a thread's chunk before a frame was measured"),
            .value(
                "--min-chunk-us", "MICROSECONDS", default: "\(Scheduler.defaultMinimumChunkMicroseconds)",
                "least measured work worth a thread's chunk; 0: --min-chunk alone"),
            .flag(
                "--gpu-tables",
                "no CPU vertices: the systems write the GPU path's tables (world transforms, slot attachments) "
                    + "into mapped GL buffers, or plain memory without a GL context"),
            .flag("--json", "print the result as one JSON object instead of the table"),
            .value("--csv", "FILE", "write the measured frames per system as CSV"),
            .value("--trace", "FILE", "write a Chrome trace-event JSON of the frames (opens in Perfetto)"),
            .value("--chart", "FILE", "write a PNG chart of frame time by system"),
        ],
        examples: [
            "swift run -c release bonework bench --count 1000 --frames 300",
            "bonework bench --skeleton ../shared/spine-examples/spineboy/spineboy-pro.skel "
                + "--atlas ../shared/spine-examples/spineboy/spineboy.atlas --count 2000 --threads 2 --json",
            "bonework bench --outfits 100 --count 400 --frames 100 --chart bench.png",
        ])

    struct Options {
        var skeleton: String?
        var atlas: String?
        var animations: [String]?
        var skin: String?
        /// Distinct composed outfits (`CrowdOutfits.random`), 0: none.
        var outfits = 0
        /// Every instance wears the most expensive of the outfits instead.
        var uniformOutfit = false
        var count = 1000
        var frames = 300
        var threads = 1
        var delta: Float = 1.0 / 60.0
        var seed: UInt64 = 1
        var warmup = 10
        var mode = Scheduler.Mode.interleaved
        var block = Scheduler.defaultBlockRows
        /// Instances per layout chunk (`ColumnLayout.chunkSize`).
        var layoutChunk = ColumnLayout.standard.chunkSize
        var minimumChunk = Scheduler.defaultMinimumChunkRows
        var minimumChunkMicroseconds = Scheduler.defaultMinimumChunkMicroseconds
        var json = false
        /// The vertex system off, the shared tables in the GPU path's memory (`--gpu-tables`).
        var gpuTables = false
        var csv: String?
        var trace: String?
        var chart: String?
    }

    /// The options, checked.
    static func options(from p: ParsedArguments) throws -> Options {
        var o = Options()
        func integer(_ name: String, minimum: Int) throws -> Int? {
            guard let text = p.value(name) else { return nil }
            guard let v = Int(text), v >= minimum else {
                throw UsageError("\(name) needs an integer >= \(minimum), not '\(text)'")
            }
            return v
        }
        o.skeleton = p.value("--skeleton")
        o.atlas = p.value("--atlas")
        if let list = p.value("--animations") {
            let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, !names.contains("") else { throw UsageError("--animations needs names: walk,run") }
            o.animations = names
        }
        o.skin = p.value("--skin")
        o.outfits = try integer("--outfits", minimum: 1) ?? 0
        o.uniformOutfit = p.flag("--uniform-outfit")
        if o.uniformOutfit && o.outfits == 0 { throw UsageError("--uniform-outfit needs --outfits K") }
        if o.outfits > 0 && o.skin != nil { throw UsageError("--outfits and --skin exclude each other") }
        o.count = try integer("--count", minimum: 1) ?? o.count
        o.frames = try integer("--frames", minimum: 0) ?? o.frames
        let maxThreads = Scheduler.maxThreads
        if let t = try integer("--threads", minimum: 1) {
            guard t <= maxThreads else { throw UsageError("--threads must be 1...\(maxThreads) on this machine") }
            o.threads = t
        }
        if let text = p.value("--dt") {
            guard let v = Float(text), v > 0, v.isFinite else { throw UsageError("--dt needs seconds > 0") }
            o.delta = v
        }
        if let text = p.value("--seed") {
            guard let v = UInt64(text) else { throw UsageError("--seed needs a non-negative integer") }
            o.seed = v
        }
        o.warmup = try integer("--warmup", minimum: 0) ?? o.warmup
        switch p.value("--mode") {
        case nil, "interleaved": o.mode = .interleaved
        case "split": o.mode = .split
        case let other?: throw UsageError("--mode is interleaved or split, not '\(other)'")
        }
        o.block = try integer("--block", minimum: 1) ?? o.block
        o.layoutChunk = try integer("--layout-chunk", minimum: 1) ?? o.layoutChunk
        o.minimumChunk = try integer("--min-chunk", minimum: 1) ?? o.minimumChunk
        if let text = p.value("--min-chunk-us") {
            guard let v = Double(text), v >= 0, v.isFinite else {
                throw UsageError("--min-chunk-us needs microseconds >= 0")
            }
            o.minimumChunkMicroseconds = v
        }
        o.json = p.flag("--json")
        o.gpuTables = p.flag("--gpu-tables")
        o.csv = p.value("--csv")
        o.trace = p.value("--trace")
        o.chart = p.value("--chart")
        if let chart = o.chart { try FileRoles.checkPNG(chart, option: "--chart") }
        if let skeleton = o.skeleton { try FileRoles.check(skeleton: skeleton, as: "--skeleton", atlas: o.atlas) }
        for file in [o.csv, o.trace, o.chart].compactMap({ $0 }) { try UserFiles.checkWritable(file) }
        for file in [o.skeleton, o.atlas].compactMap({ $0 }) { try UserFiles.checkReadable(file) }
        return o
    }

    static func run(_ arguments: ParsedArguments) throws {
        let o = try options(from: arguments)
        let data: SkeletonData
        let skin: String?
        let animations: [String]
        let name: String
        if let skeleton = o.skeleton {
            let atlas = try o.atlas.map { try AtlasReader.read(file: $0) }
            data = try SkeletonLoader.load(file: skeleton, atlas: atlas)
            skin = o.skin
            animations = o.animations ?? ["walk", "run"]
            name = skeleton
            if let skin { try UnknownName.checkSkin(skin, in: data) }
            for animation in animations { try UnknownName.checkAnimation(animation, in: data) }
        } else {
            let atlas = try AtlasReader.read(file: DefaultCharacter.atlasPath)
            data = try SkeletonLoader.load(file: DefaultCharacter.skeletonPath, atlas: atlas)
            skin = o.skin ?? DefaultCharacter.defaultSkinName
            animations = o.animations ?? ["walk", "run"]
            name = "default character (\(DefaultCharacter.skeletonPath))"
        }
        var workload = CrowdWorkload(
            animations: animations, skin: o.outfits > 0 ? nil : skin, count: o.count, seed: o.seed,
            threads: o.threads, mode: o.mode, blockRows: o.block, minimumChunkRows: o.minimumChunk,
            minimumChunkMicroseconds: o.minimumChunkMicroseconds, layout: ColumnLayout(chunkSize: o.layoutChunk))
        workload.cpuVertices = !o.gpuTables
        var outfitLine: String?
        if o.outfits > 0 {
            let outfits = try CrowdOutfits.random(data, count: o.outfits, seed: o.seed)
            if o.uniformOutfit {
                let costly = CrowdOutfits.mostExpensive(data, outfits)
                workload.outfits = [costly]
                outfitLine =
                    "outfit: every instance wears the most expensive of \(o.outfits): \(costly.joined(separator: " + "))"
            } else {
                workload.outfits = outfits
                outfitLine = "outfits: \(o.outfits) distinct, instance i wears outfit i mod \(o.outfits)"
            }
        }
        let bench = try CrowdBenchmark(data: data, workload: workload, profiledFrames: max(1, o.frames))
        // The GPU path's renderer keeps the shared tables in persistently mapped GL buffers; the
        // pose and slot systems write them there, as in the crowd window. The World gives them back
        // before the renderer (and its context) goes.
        let tables = o.gpuTables ? GPUTables.make() : nil
        if let memory = tables?.memory { bench.world.columnMemory = memory }
        defer {
            bench.world.columnMemory = nil
            withExtendedLifetime(tables) {}
        }
        let result = bench.run(frames: o.frames, warmup: o.frames > 0 ? o.warmup : 0, delta: o.delta)
        let profiler = bench.world.scheduler.profiler
        if o.frames > 0 {
            if let csv = o.csv { try UserFiles.write(profiler.csv(), to: csv) }
            if let trace = o.trace { try UserFiles.write(profiler.chromeTrace(), to: trace) }
            if let chart = o.chart { try profiler.writeChart(to: chart) }
        }
        if o.json {
            print(result.json)
            return
        }
        #if DEBUG
            print("warning: debug build; measure with `swift build -c release`")
        #endif
        print(
            "\(name): \(data.bones.count) bones, \(data.slots.count) slots; \(o.count) instances "
                + "(\(animations.joined(separator: ","))\(skin.map { ", skin \($0)" } ?? "")), "
                + "\(o.frames) frames of \(o.delta) s after \(result.warmup) warm-up, \(result.threads) thread"
                + (result.threads == 1 ? "" : "s") + ", \(o.mode == .interleaved ? "interleaved" : "split")")
        if let outfitLine { print(outfitLine + "; composed plans compiled: \(bench.composedPlans)") }
        if let tables { print(tables.line) }
        if o.frames > 0 { print(result.summary.table) }
        print(
            "instance storage: \(result.storageBytesPerInstance) bytes per instance (every column's row and the "
                + "animation state's, from the batch's layout)")
        if let bytes = result.bytesPerInstance {
            print(
                "heap per instance: \(bytes) bytes (heap growth of \(o.count) instances minus that of \(o.count / 2), "
                    + "over \(o.count - o.count / 2))")
        } else {
            print(
                "heap per instance: not measured below \(CrowdBenchmark.minimumMeasuredCount) instances (what a world "
                    + "costs once dominates); use --count \(CrowdBenchmark.minimumMeasuredCount) or more")
        }
        if let bytes = result.allocatedBytes {
            print(bytes == 0 ? "allocations per frame: 0" : "measured frames allocated \(bytes) bytes")
        }
        print("peak RSS: \(result.peakResidentBytes) bytes")
    }
}

/// The memory `bench --gpu-tables` has the systems write the GPU path's tables into: the GPU
/// renderer's `columnMemory` on a headless GL context, or the heap when none can be made.
struct GPUTables {
    /// Holds the context and the buffers while the World uses its memory (nil: the heap).
    var renderer: GPURenderer?
    var line: String
    var memory: GPUColumnMemory? { renderer?.columnMemory }

    static func make() -> GPUTables {
        do {
            let renderer = try GPURenderer(context: .headless(HeadlessGLContext()))
            guard renderer.columnMemory != nil else {
                return GPUTables(
                    line: "GPU tables: on the heap (this GL context has no persistently mapped buffers); "
                        + "no CPU vertices")
            }
            return GPUTables(
                renderer: renderer,
                line: "GPU tables: bone world transforms and slot attachments written by the systems into "
                    + "persistently mapped GL buffers, as the GPU path reads them; no CPU vertices")
        } catch {
            return GPUTables(line: "GPU tables: on the heap (no GL context: \(error)); no CPU vertices")
        }
    }
}
