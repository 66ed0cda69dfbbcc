import BoneworkAssets
import BoneworkFormat
import BoneworkImage
import BoneworkProfiling
import BoneworkRender
import BoneworkTriggers
import BoneworkWorld
import Foundation

/// `bonework crowd`: a crowd of characters walking over a plane, their animations driven by
/// value triggers (speed bucket -> idle/walk/run on track 0; a hit -> flinch on an additive,
/// barrier-protected track 1), with spawning and despawning. With a display it opens a window
/// (`CrowdWindow`: HUD, camera presets, keys). Headless (`--headless`, or automatically when no
/// window can be opened): runs the frames with a progress bar, then prints the per-system
/// table and writes the profiler's exports and a screenshot when asked.
enum CrowdCommand {
    static let spec = CommandSpec(
        name: "crowd", summary: "a steered crowd with value-driven animations, in a window or headless",
        synopsis: [
            "crowd [--count N] [--frames N] [--churn RATE] [--skeleton PATH [--atlas PATH]]... [--headless] [options]"
        ],
        description: """
            A crowd of characters walking over a plane, their animations driven by value triggers (speed
            bucket: idle, walk or run on track 0; a hit: flinch on an additive track 1), with characters
            replaced at the churn rate. With a display it opens a window (HUD in the title, keys below).
            Headless, or when no window can be opened, it runs the frames with a progress bar, then prints
            the per-system table and writes the exports and the screenshot asked for.
            """,
        options: [
            .value("--count", "N", default: "2000", "characters at the start"),
            .value("--frames", "N", default: "300", "frames to run headless; with a window, close it after N frames"),
            .value(
                "--churn", "RATE", default: "0",
                "characters replaced per second (at most 1000000): as many despawned as spawned"),
            .value(
                "--skeleton", "PATH", repeatable: true,
                "another kind of character besides the default one; drawn only with an --atlas"),
            .value(
                "--atlas", "PATH", repeatable: true,
                "a --skeleton's atlas: the first --atlas goes with the first --skeleton, and so on"),
            .value(
                "--outfits", "N",
                "agents of each --skeleton with skin groups (skin-base, group/item) wear N (at most 256) distinct composed outfits; outfits change at run time (1% of the crowd's count per second)"
            ),
            .flag("--headless", "no window: run the frames, then print the table"),
            .value("--threads", "T", default: "every core, \(Scheduler.maxThreads) here", "threads per frame"),
            .value("--dt", "SECONDS", default: "1/60", "simulated seconds per frame, at most 1"),
            .value("--seed", "S", default: "1", "random seed: kinds, skins, places, goals, speeds, churn"),
            .value("--seconds", "S", "headless: stop after S seconds even if frames remain (soak runs)"),
            .value("--csv", "FILE", "write the kept frames per system as CSV"),
            .value("--trace", "FILE", "write a Chrome trace-event JSON of the kept frames (opens in Perfetto)"),
            .value("--chart", "FILE", "write a PNG chart of frame time by system"),
            .value(
                "--screenshot", "FILE",
                "write the last frame (window: with its HUD; headless: drawn offscreen) to a PNG "
                    + "(needs an --atlas for every --skeleton)"),
            .flag(
                "--render",
                "headless: draw every frame offscreen through the GPU path, its cost in the table, CSV, trace, chart"),
            .value("--size", "WxH", default: "1280x720", "with --render: the offscreen frame's size"),
            .value(
                "--budget-ms", "B",
                "update-rate level of detail: keep the engine's CPU per frame (all threads) under B ms by posing the less significant characters (off screen, far from the view's centre) every 2nd to 16th frame; the table then counts characters per rate"
            ),
            .value(
                "--lod-slowest", "FRAMES", default: "16",
                "with --budget-ms: the slowest update rate the budget may give, a pose every 2, 4, 8 or 16 frames"),
            .value(
                "--lod-blend", "MODE", default: "extrapolate",
                "with --budget-ms: how frames between computed poses are drawn: extrapolate (on from the last two) or interpolate (between them, one interval late)"
            ),
            .value(
                "--lod-offscreen", "MODE", default: "hold",
                "with --budget-ms: characters outside the view between their computed frames: hold (keep the last computed pose, no per-bone work) or draw (from their history, as on screen)"
            ),
            .flag(
                "--compare-full-rate",
                "headless, with --budget-ms: run the same crowd at full rate beside it; report the slowed characters' pose error and whether events match"
            ),
            .flag("--diagnostics", "print up to 20 trigger diagnostic reports (debug builds)"),
        ],
        sections: [
            HelpSection(
                title: "Window keys",
                rows: [
                    ("1 / 2 / 3", "camera: overview / close-up / follow one character (one-second transition)"),
                    ("left drag", "pan the camera"),
                    ("mouse wheel", "zoom around the cursor"),
                    ("P", "pause / resume the simulation"),
                    ("+ / -", "add / remove 1,000 characters"),
                    ("O", "overlay: per-system times and trigger diagnostics in the HUD, every character drawn"),
                    ("Escape", "quit: prints the frames shown, the per-system table and the entity check"),
                ])
        ],
        examples: [
            "bonework crowd",
            "bonework crowd --headless --count 10000 --frames 600 --churn 200 --chart crowd.png",
            "bonework crowd --count 500 --skeleton ../shared/spine-examples/spineboy/spineboy-pro.skel "
                + "--atlas ../shared/spine-examples/spineboy/spineboy.atlas",
            "bonework crowd --headless --count 2000 --churn 100 --seconds 60 --frames 100000000",
            "bonework crowd --headless --count 100000 --budget-ms 12 --frames 600",
        ])

    /// Frames the profiler keeps for the table and the exports.
    static let keptFrames = 3600
    /// The longest frame (`--dt`): what one update integrates of physics (`World`'s catch-up
    /// bound); a longer step would only move agents past the plane's edge in one frame.
    static let maxDelta: Float = 1
    /// The highest `--churn`: characters replaced per second (a frame replaces at most this many).
    static let maxChurn: Float = 1_000_000
    /// The most composed outfits `--outfits` asks per kind (a skeleton holds 256 composed skins).
    static let maxOutfits = 256

    struct Options {
        var count = 2000
        var frames = 300
        /// Headless: stop after this many seconds even if frames remain.
        var seconds: Double?
        /// Whether --frames was given (a window then closes after that many frames).
        var framesGiven = false
        var churn: Float = 0
        var skeletons: [(String, String?)] = []
        var headless = false
        var threads = Scheduler.maxThreads
        var delta: Float = 1.0 / 60.0
        var seed: UInt64 = 1
        var csv: String?
        var trace: String?
        var chart: String?
        var screenshot: String?
        /// Headless: draw every frame through the GPU path.
        var render = false
        var size = (width: 1280, height: 720)
        var diagnostics = false
        /// Composed outfits per extra kind (0: one data skin each).
        var outfits = 0
        /// Update-rate budget, milliseconds of engine CPU per frame.
        var budget: Double?
        var compareFullRate = false
        var blend = UpdateRateBlend.extrapolate
        var slowest = UpdateRate.slowest
        /// Characters outside the view hold their last computed pose (`World.setVisible`).
        var holdOffscreen = true
    }

    /// The headless camera: a close look at the middle of a large crowd, the whole plane when it
    /// is small.
    static func crowdCamera(_ sim: CrowdSimulation, count: Int, width: Int, height: Int) -> CrowdCamera {
        var camera = CrowdCamera(screenWidth: Float(width), screenHeight: Float(height), halfExtent: sim.halfExtent)
        if count > 400 {
            camera.select(.closeUp)
            camera.update(delta: CrowdCamera.transitionSeconds, halfExtent: sim.halfExtent, followed: nil)
        }
        return camera
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
        o.count = try integer("--count", minimum: 0) ?? o.count
        o.outfits = try integer("--outfits", minimum: 1) ?? 0
        guard o.outfits <= maxOutfits else {
            throw UsageError("--outfits needs an integer in 1...\(maxOutfits), not '\(o.outfits)'")
        }
        o.frames = try integer("--frames", minimum: 1) ?? o.frames
        o.framesGiven = p.value("--frames") != nil
        if let text = p.value("--seconds") {
            guard let v = Double(text), v > 0, v.isFinite else {
                throw UsageError("--seconds needs a finite time > 0, not '\(text)'")
            }
            o.seconds = v
        }
        if let text = p.value("--churn") {
            guard let v = Float(text), v >= 0, v <= maxChurn else {
                throw UsageError("--churn needs a rate in 0...\(Int(maxChurn)) per second, not '\(text)'")
            }
            o.churn = v
        }
        let skeletons = p.all("--skeleton")
        let atlases = p.all("--atlas")
        guard atlases.count <= skeletons.count else { throw UsageError("--atlas without --skeleton") }
        for (i, s) in skeletons.enumerated() { o.skeletons.append((s, i < atlases.count ? atlases[i] : nil)) }
        if let t = try integer("--threads", minimum: 1) {
            guard t <= Scheduler.maxThreads else { throw UsageError("--threads must be 1...\(Scheduler.maxThreads)") }
            o.threads = t
        }
        if let text = p.value("--dt") {
            guard let v = Float(text), v > 0, v <= maxDelta else {
                throw UsageError("--dt needs seconds in (0, \(Int(maxDelta))], not '\(text)'")
            }
            o.delta = v
        }
        if let text = p.value("--seed") {
            guard let v = UInt64(text) else { throw UsageError("--seed needs a non-negative integer") }
            o.seed = v
        }
        if let text = p.value("--budget-ms") {
            guard let v = Double(text), v > 0, v.isFinite, v <= 1e6 else {
                throw UsageError("--budget-ms needs milliseconds in (0, 1000000], not '\(text)'")
            }
            o.budget = v
        }
        o.compareFullRate = p.flag("--compare-full-rate")
        if let text = p.value("--lod-slowest") {
            guard let frames = Int(text), frames > 1, let rate = UpdateRate(frames: frames) else {
                throw UsageError("--lod-slowest needs 2, 4, 8 or 16 frames, not '\(text)'")
            }
            o.slowest = rate
        }
        if let text = p.value("--lod-blend") {
            switch text {
            case "extrapolate": o.blend = .extrapolate
            case "interpolate": o.blend = .interpolate
            default: throw UsageError("--lod-blend needs extrapolate or interpolate, not '\(text)'")
            }
        }
        if let text = p.value("--lod-offscreen") {
            switch text {
            case "hold": o.holdOffscreen = true
            case "draw": o.holdOffscreen = false
            default: throw UsageError("--lod-offscreen needs hold or draw, not '\(text)'")
            }
        }
        if o.compareFullRate && o.budget == nil { throw UsageError("--compare-full-rate needs --budget-ms") }
        o.headless = p.flag("--headless")
        o.diagnostics = p.flag("--diagnostics")
        o.csv = p.value("--csv")
        o.trace = p.value("--trace")
        o.chart = p.value("--chart")
        o.screenshot = p.value("--screenshot")
        o.render = p.flag("--render")
        if let text = p.value("--size") {
            let parts = text.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (1...16384).contains(parts[0]), (1...16384).contains(parts[1]) else {
                throw UsageError("--size needs WxH, both sides in 1...16384, not '\(text)'")
            }
            o.size = (parts[0], parts[1])
        }
        if o.render && !o.headless { throw UsageError("--render draws headless frames: add --headless") }
        if let chart = o.chart { try FileRoles.checkPNG(chart, option: "--chart") }
        if let screenshot = o.screenshot { try FileRoles.checkPNG(screenshot, option: "--screenshot") }
        for (skeleton, atlas) in o.skeletons { try FileRoles.check(skeleton: skeleton, as: "--skeleton", atlas: atlas) }
        for file in [o.csv, o.trace, o.chart, o.screenshot].compactMap({ $0 }) { try UserFiles.checkWritable(file) }
        for file in skeletons + atlases { try UserFiles.checkReadable(file) }
        return o
    }

    static func run(_ arguments: ParsedArguments) throws {
        let o = try options(from: arguments)
        // The profiler keeps the last `keptFrames` frames: the table
        // and the exports cover them, and long runs stay within fixed memory.
        let world = World(
            scheduler: Scheduler(capacity: min(o.frames, Self.keptFrames), threads: o.threads),
            updateRates: o.budget != nil)
        if let budget = o.budget { world.updateBudget = UpdateBudget(milliseconds: budget, slowest: o.slowest) }
        world.scheduler.updateRateBlend = o.blend
        let sim = try CrowdSimulation(world: world, seed: o.seed)
        // The same crowd at full rate, for --compare-full-rate.
        let full =
            o.compareFullRate
            ? try CrowdSimulation(
                world: World(scheduler: Scheduler(capacity: min(o.frames, Self.keptFrames), threads: o.threads)),
                seed: o.seed)
            : nil
        let atlas = try AtlasReader.read(file: DefaultCharacter.atlasPath)
        var atlases = [atlas]
        let bonebot = try SkeletonLoader.load(file: DefaultCharacter.skeletonPath, atlas: atlas)
        sim.addKind(bonebot, name: "bonebot")
        full?.addKind(bonebot, name: "bonebot")
        for (skeleton, atlasPath) in o.skeletons {
            let a = try atlasPath.map { try AtlasReader.read(file: $0) }
            if let a { atlases.append(a) }
            guard o.screenshot == nil || a != nil else {
                throw UsageError("--screenshot needs an --atlas for every --skeleton")
            }
            let data = try SkeletonLoader.load(file: skeleton, atlas: a)
            var outfits: [[String]] = []
            if o.outfits > 0, !CrowdOutfits.groups(data).isEmpty {
                do {
                    outfits = try CrowdOutfits.random(data, count: o.outfits, seed: o.seed)
                } catch {
                    throw UsageError("--outfits: \(error)")
                }
            }
            let name = URL(fileURLWithPath: skeleton).deletingPathExtension().lastPathComponent
            sim.addKind(data, name: name, outfits: outfits)
            full?.addKind(data, name: name, outfits: outfits)
        }
        sim.setPopulation(o.count)
        try sim.spawn(o.count, progress: SpawnProgress(total: o.count).report)
        if let full {
            full.setPopulation(o.count)
            try full.spawn(o.count)
        }
        if o.budget != nil {
            // A crowd this large is drawn through the GPU path, which skins on the GPU: the budget
            // covers the systems that path needs (the window and --render run the same).
            world.scheduler.enabled.remove(.vertices)
            full?.world.scheduler.enabled.remove(.vertices)
            // Significance from the view: the window's camera sets it each frame, headless the
            // camera of --screenshot (a close-up of the middle of a large crowd).
            let v = crowdCamera(sim, count: o.count, width: 1280, height: 720).view
            sim.focus = (v.x, v.y, 640 / v.zoom, 360 / v.zoom)
            sim.holdOffscreen = o.holdOffscreen
        }
        var comparison = CrowdFullRateComparison(warmup: min(120, o.frames / 4))
        // What runs: a window runs until Escape (or --frames N), headless runs the frames.
        let windowed = !o.headless && atlases.count == sim.kinds.count
        let length =
            windowed
            ? "in a window until Escape" + (o.framesGiven ? " or \(o.frames) frames" : "") + ", \(o.delta) s per frame"
            : "headless, \(o.frames) frames of \(o.delta) s"
        print(
            "crowd: \(o.count) characters of \(sim.kinds.count) kind\(sim.kinds.count == 1 ? "" : "s") "
                + "(\(sim.kinds.map(\.name).joined(separator: ", "))), churn \(o.churn)/s, \(length), "
                + "\(o.threads) thread\(o.threads == 1 ? "" : "s")"
                + (TriggerDiagnosticsBuild.enabled ? " (debug build: trigger diagnostics on)" : ""))
        if !o.headless {
            if windowed {
                do {
                    let window = try GLFWWindowContext(width: 1280, height: 720, title: "bonework crowd")
                    // The GPU path skins on the GPU: no CPU vertices needed.
                    world.scheduler.enabled.remove(.vertices)
                    let title = try CrowdWindow.run(
                        sim: sim, atlases: atlases,
                        options: CrowdWindow.Options(
                            delta: o.delta, churn: o.churn, maxFrames: o.framesGiven ? o.frames : nil,
                            seconds: o.seconds, screenshot: o.screenshot),
                        window: window)
                    print("window closed after \(world.scheduler.frames) frames; last HUD: \(title)")
                    // The same table as a headless run's, over the frames the profiler kept.
                    let report = CrowdReport(profiler: world.scheduler.profiler)
                    print(report.table)
                    print("median CPU frame time: \(String(format: "%.3f", report.frameCPU.median)) ms")
                    print("entities: \(sim.checkIntegrity().message)")
                    if let line = outfitReport(sim) { print(line) }
                    return
                } catch let error as RenderError {
                    FileHandle.standardError.write(
                        Data("bonework crowd: no window (\(error)): running headless\n".utf8))
                }
            } else {
                FileHandle.standardError.write(
                    Data("bonework crowd: a --skeleton without --atlas cannot be drawn: running headless\n".utf8))
            }
        }
        // Headless rendering: every frame drawn offscreen through the GPU path (no CPU vertices).
        var offscreen: (drawing: CrowdDrawing, target: OffscreenTarget, viewport: WorldViewport)? = nil
        if o.render {
            guard atlases.count == sim.kinds.count else {
                throw UsageError("--render needs an --atlas for every --skeleton")
            }
            let context = GLContext.headless(try HeadlessGLContext())
            let drawing = try CrowdDrawing(sim: sim, atlases: atlases, context: context, threads: o.threads)
            let target = try OffscreenTarget(width: o.size.width, height: o.size.height, context: context)
            // The whole plane: every character is drawn every frame.
            let camera = CrowdCamera(
                screenWidth: Float(o.size.width), screenHeight: Float(o.size.height), halfExtent: sim.halfExtent)
            offscreen = (drawing, target, camera.viewport)
            world.scheduler.enabled.remove(.vertices)
            print(
                "rendering every frame offscreen through the GPU path (\(drawing.renderer.submission.rawValue)), "
                    + "\(o.size.width)x\(o.size.height)")
        }
        var progress = ProgressBar(total: o.frames)
        var changes = 0
        var hits = 0
        let clock = ContinuousClock()
        let started = clock.now
        var ran = 0
        var allocations = FrameAllocations(warmup: min(60, o.frames / 2))
        for f in 0..<o.frames {
            if let limit = o.seconds, clock.now - started >= .seconds(limit) { break }
            allocations.begin()
            try sim.step(delta: o.delta, churn: o.churn)
            if let full {
                // The comparison's own work is not the crowd's: the frame's count ends here.
                allocations.end(frame: f)
                try full.step(delta: o.delta, churn: o.churn)
                comparison.compare(frame: f, slowed: sim, full: full)
            }
            if let (drawing, target, viewport) = offscreen {
                inDriver { target.clear(0.16, 0.18, 0.2, 1) }
                try drawing.draw(sim, viewport: viewport)
                world.scheduler.profiler.record(drawing.renderer.lastFrame)
            }
            if full == nil { allocations.end(frame: f) }
            ran += 1
            changes += sim.triggers.changesLastFrame
            hits += sim.hitsThisFrame
            let ms = Double(world.scheduler.profiler.frame()?.wall ?? 0) / 1e6
            progress.show(f + 1, detail: "\(sim.count) characters  \(String(format: "%.1f", ms)) ms engine")
        }
        let profiler = world.scheduler.profiler
        let report = CrowdReport(profiler: profiler)
        print(report.table)
        if ran < o.frames { print("stopped after \(ran) frames (--seconds \(o.seconds ?? 0))") }
        print(
            "median CPU frame time: \(String(format: "%.3f", report.frameCPU.median)) ms; animation changes by triggers: \(changes); hits: \(hits)"
        )
        print(allocations.line)
        if o.budget != nil { print(report.updateRateLine(profiler)) }
        if let full {
            print("the full-rate run beside it: " + report.updateRateLine(full.world.scheduler.profiler))
            print(comparison.report)
        }
        let integrity = sim.checkIntegrity()
        print("entities: \(integrity.message) -> \(integrity.ok ? "none lost" : "LOST ENTITIES")")
        let nonFinite = sim.nonFiniteBones()
        print("non-finite bone values: \(nonFinite.values) in \(nonFinite.instances) instances")
        if let line = outfitReport(sim) { print(line) }
        #if DEBUG
            let d = sim.triggers.diagnostics
            print("trigger diagnostics: \(d.conflicts) conflicts, \(d.leaks) leaks, \(d.refusals) refusals")
            if o.diagnostics { for r in d.reports.prefix(20) { print("  \(r)") } }
        #else
            if o.diagnostics { print("trigger diagnostics: not compiled into release builds") }
        #endif
        if let csv = o.csv {
            try UserFiles.write(profiler.csv(), to: csv)
            print("wrote \(csv)")
        }
        if let trace = o.trace {
            try UserFiles.write(profiler.chromeTrace(), to: trace)
            print("wrote \(trace)")
        }
        if let chart = o.chart {
            try profiler.writeChart(to: chart)
            print("wrote \(chart)")
        }
        if let (drawing, _, _) = offscreen {
            let f = drawing.renderer.lastFrame
            print(
                "GPU path, last frame: \(f.instances) characters, \(f.drawCalls) draw call\(f.drawCalls == 1 ? "" : "s"), "
                    + "\(f.commands) commands, \(f.uploadBytes / max(1, f.instances)) bytes written per character")
            print(report.renderLine)
        }
        if let shot = o.screenshot, let (drawing, target, _) = offscreen {
            try PNG.write(target.readImage(), to: shot)
            print("wrote \(shot) (\(drawing.renderer.lastFrame.instances) characters in view)")
        } else if let shot = o.screenshot {
            let camera = crowdCamera(sim, count: o.count, width: 1280, height: 720)
            let r = try CrowdScreenshot.write(
                sim, atlases: atlases, camera: camera, to: shot, width: 1280, height: 720, threads: o.threads)
            print("wrote \(shot) (\(r.drawn) characters in view, \(r.drawCalls) draw calls)")
        }
        if !integrity.ok { throw CrowdError.lostEntities(integrity.message) }
        if nonFinite.values > 0 {
            throw CrowdError.nonFiniteBones("\(nonFinite.values) values in \(nonFinite.instances) instances")
        }
    }
}

enum CrowdError: Error, CustomStringConvertible {
    case lostEntities(String)
    case nonFiniteBones(String)

    var description: String {
        switch self {
        case .lostEntities(let m): return "entity bookkeeping failed: \(m)"
        case .nonFiniteBones(let m): return "bones with non-finite world values after the run: \(m)"
        }
    }
}

/// "outfits: ..." when some kind wears composed outfits: the plans compiled for them (one per
/// distinct outfit worn, shared by every agent wearing it) and the changes made at run time.
func outfitReport(_ sim: CrowdSimulation) -> String? {
    let kinds = sim.kinds.filter { !$0.outfits.isEmpty }
    guard !kinds.isEmpty else { return nil }
    let plans = kinds.map { k in
        "\(k.name) \(sim.world.batch(for: k.data).rig.planCount - (k.data.skins.count + 1)) of \(k.outfits.count)"
    }
    return "outfits: composed plans compiled \(plans.joined(separator: ", ")); \(sim.outfitChanges) outfit changes"
}
