import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld
import Foundation

/// `bonework render`: draws skeletons headless (EGL surfaceless, CPU vertex path) into PNGs.
/// `spec` holds its command line and help: the forms, the options, how frames are named and framed.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render", summary: "render frames headless to PNG (numbered, or one contact sheet)",
        synopsis: [
            "render SKELETON --atlas ATLAS [--skin S] [--animation A] [--time T | --frames N [--fps F] [--sheet]] "
                + "[--size WxH] [--background RRGGBBAA] [--fit MODE] --out FILE.png",
            "render --request REQUEST.json --assets DIR --out FILE.png",
        ],
        description: """
            Draws a skeleton headless (EGL surfaceless) into PNGs. One frame goes to FILE.png; N frames go
            to FILE-0000.png, FILE-0001.png, ... or, with --sheet, to one contact sheet (frames left to
            right, top to bottom, ceil(sqrt(N)) columns). The camera frames the union of the setup pose's
            and every rendered frame's drawn bounds with a 10 % margin per side. With --request it renders
            a render request (golden/renders/*.request.json) exactly.
            """,
        positionals: [PositionalSpec(name: "SKELETON", meaning: "a skeleton file: .json or .skel")],
        options: [
            .value("--atlas", "ATLAS", "the skeleton's atlas (needed with SKELETON)"),
            .value("--skin", "S", "the skin to wear (default: the skeleton's default skin)"),
            .value("--animation", "A", "the animation to play, looping (default: none, the setup pose)"),
            .value("--time", "T", default: "0", "seconds into the animation of the one frame"),
            .value("--frames", "N", "render N frames (1...100000), 1/F s apart, instead of one"),
            .value("--fps", "F", default: "30", "frames per second with --frames"),
            .flag("--sheet", "with --frames: one contact sheet instead of numbered PNGs"),
            .value("--size", "WxH", default: "512x512", "the size of each frame, both sides in 1...16384"),
            .value(
                "--background", "RRGGBBAA", default: "00000000",
                "background colour in hexadecimal, straight alpha; RRGGBB is opaque"),
            .value(
                "--fit", "MODE", default: "fit",
                "how the bounds fill the frame: \(Fit.allCases.map(\.rawValue).joined(separator: ", "))"),
            .value("--out", "FILE.png", "the PNG to write, always needed; N frames go to FILE-0000.png ..."),
            .value("--request", "REQUEST.json", "render this render request instead of SKELETON"),
            .value("--assets", "DIR", default: ".", "with --request: the folder its paths are relative to"),
            .value(
                "--renderer", "PATH", default: "gpu",
                "gpu (skinned on the GPU, one draw call) or cpu (triangles built on the CPU); same picture"),
            .flag("--progress", "show a progress bar on stderr (default: on a terminal, from 10 frames)"),
        ],
        examples: [
            "bonework render ../shared/spine-examples/spineboy/spineboy-pro.skel "
                + "--atlas ../shared/spine-examples/spineboy/spineboy-pma.atlas --animation walk --time 0.5 --out walk.png",
            "bonework render spineboy-pro.skel --atlas spineboy-pma.atlas --animation run --frames 16 --fps 30 "
                + "--sheet --size 256x256 --out run-sheet.png",
            "bonework render --request ../shared/golden/renders/spineboy-pro__portal__45.request.json "
                + "--assets ../shared/spine-examples --out portal.png",
        ])

    enum Fit: String, CaseIterable {
        case fit, contain, fill, width, height, cover, none
    }

    static func renderPath(_ options: ParsedArguments) throws -> RenderPath {
        let name = options.value("--renderer") ?? "gpu"
        guard let path = RenderPath(rawValue: name) else {
            throw UsageError("--renderer must be gpu or cpu, not `\(name)`")
        }
        return path
    }

    static func run(_ options: ParsedArguments) throws {
        let path = try renderPath(options)
        guard let out = options.value("--out") else { throw UsageError("needs --out FILE.png") }
        try FileRoles.checkPNG(out, option: "--out")
        if let request = options.value("--request") {
            guard options.positional.isEmpty, options.value("--atlas") == nil else {
                throw UsageError("--request takes no SKELETON or --atlas: its paths are in the request")
            }
            try UserFiles.checkReadable(request)
            try UserFiles.checkWritable(out)
            // Checked before a GL context is made: a bad request fails the same with or without one.
            let parsed = try RenderRequest(file: request)
            let renderer = try RequestRenderer(baseDirectory: options.value("--assets") ?? ".")
            let image = try renderer.render(parsed, path: try renderPath(options))
            try PNG.write(image, to: out)
            print("wrote \(out) (\(image.width)x\(image.height))")
            return
        }
        guard let skeletonPath = options.positional.first, let atlasPath = options.value("--atlas") else {
            throw UsageError("needs SKELETON and --atlas ATLAS, or --request REQUEST.json")
        }

        let (width, height) = try parseSize(options.value("--size") ?? "512x512")
        let background = try parseColor(options.value("--background") ?? "00000000")
        guard let fit = Fit(rawValue: options.value("--fit") ?? "fit") else {
            throw UsageError("--fit must be one of \(Fit.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // Which times to render.
        var times: [Float]
        if let frames = options.value("--frames") {
            guard options.value("--time") == nil else {
                throw UsageError("--time and --frames exclude each other")
            }
            guard let n = Int(frames), (1...100_000).contains(n) else {
                throw UsageError("--frames must be an integer in 1...100000")
            }
            let fps = try number(options.value("--fps") ?? "30", "--fps")
            guard fps > 0 else { throw UsageError("--fps must be > 0") }
            times = (0..<n).map { Float($0) / fps }
        } else {
            guard options.value("--fps") == nil, !options.flag("--sheet") else {
                throw UsageError("--fps and --sheet need --frames")
            }
            let t = try number(options.value("--time") ?? "0", "--time")
            guard t >= 0, t <= maxTime else { throw UsageError("--time must be in 0...\(Int(maxTime)) seconds") }
            times = [t]
        }
        // The world is advanced in steps of 1/30 s up to the last frame's time.
        guard let last = times.last, last <= maxTime else {
            throw UsageError("--frames at this --fps reach past \(Int(maxTime)) seconds")
        }
        // A contact sheet is one PNG: it must fit one (checked before anything is posed).
        if options.flag("--sheet") {
            let columns = Int(Double(times.count).squareRoot().rounded(.up))
            let rows = (times.count + columns - 1) / columns
            guard width * columns <= PNG.maximumDimension, height * rows <= PNG.maximumDimension else {
                throw UsageError(
                    "--sheet of \(times.count) frames of \(width)x\(height) would be \(width * columns)x\(height * rows) "
                        + "pixels; a PNG holds at most \(PNG.maximumDimension) per side")
            }
        }
        let animation = options.value("--animation")
        let skin = options.value("--skin")
        try FileRoles.check(skeleton: skeletonPath, atlas: atlasPath)
        try UserFiles.checkReadable(skeletonPath)
        try UserFiles.checkReadable(atlasPath)
        try UserFiles.checkWritable(out)

        let renderer = try RequestRenderer(baseDirectory: "")
        let (data, drawData) = try renderer.skeleton(skeletonPath, atlas: atlasPath)
        let pages = try renderer.textures(atlas: atlasPath).bindings
        if let skin { try UnknownName.checkSkin(skin, in: data) }
        if let animation { try UnknownName.checkAnimation(animation, in: data) }

        // Pose once per frame: bounds first (setup pose + every frame), then draw.
        let world = World(trackCount: 1)
        let entity = try world.spawn(data, skin: skin)
        var builder = FrameBuilder()
        var list = DrawList()
        var bounds = Bounds()
        builder.build(try world.poseView(entity), drawData: drawData, pages: pages, into: &list)
        bounds.add(list)
        if let animation { try world.setAnimation(entity, track: 0, animation, loop: true) }
        var lists: [DrawList] = []
        var now: Float = 0
        for t in times {
            advance(world, from: now, to: t, first: lists.isEmpty && animation != nil)
            now = t
            list = DrawList()
            builder.build(try world.poseView(entity), drawData: drawData, pages: pages, into: &list)
            bounds.add(list)
            lists.append(list)
        }
        let viewport = bounds.viewport(fit: fit, width: width, height: height)

        let target = try OffscreenTarget(width: width, height: height, context: renderer.context)
        let sheet = options.flag("--sheet")
        let columns = sheet ? Int(Double(lists.count).squareRoot().rounded(.up)) : 1
        let rows = sheet ? (lists.count + columns - 1) / columns : 1
        var sheetImage = sheet ? Image(width: width * columns, height: height * rows) : Image(width: 0, height: 0)
        let progress = Progress(
            total: lists.count, shown: options.flag("--progress") || (lists.count >= 10 && isatty(2) != 0))
        var image = Image(width: width, height: height)
        // The GPU path draws the same poses again from a fresh instance (the simulation is
        // deterministic), straight from its columns.
        let replay = World(trackCount: 1)
        let replayed = try replay.spawn(data, skin: skin)
        if let animation { try replay.setAnimation(replayed, track: 0, animation, loop: true) }
        let textures = try renderer.textures(atlas: atlasPath)
        now = 0
        for (k, frame) in lists.enumerated() {
            target.clear(background.0, background.1, background.2, background.3)
            if path == .gpu {
                advance(replay, from: now, to: times[k], first: k == 0 && animation != nil)
                now = times[k]
                try renderer.drawGPU(
                    try replay.poseView(replayed), drawData: drawData, textures: textures, viewport: viewport)
            } else {
                renderer.renderer.draw(frame, viewport: viewport, into: target)
            }
            target.readImage(into: &image)
            if sheet {
                blit(image, into: &sheetImage, x: (k % columns) * width, y: (k / columns) * height)
            } else {
                try PNG.write(image, to: lists.count == 1 ? out : numbered(out, k))
            }
            progress.step(k + 1)
        }
        if sheet { try PNG.write(sheetImage, to: out) }
        progress.finish()
        print(written(out, frames: lists.count, sheet: sheet ? (columns, rows) : nil, width: width, height: height))
    }

    /// What a successful render says on stdout: the file or files it wrote and their size, so that
    /// numbered frames are never a surprise.
    static func written(_ out: String, frames: Int, sheet: (columns: Int, rows: Int)?, width: Int, height: Int)
        -> String
    {
        if let sheet {
            return "wrote \(out) (\(width * sheet.columns)x\(height * sheet.rows)): a contact sheet of \(frames) "
                + "frames, \(sheet.columns) columns x \(sheet.rows) rows of \(width)x\(height)"
        }
        if frames == 1 { return "wrote \(out) (\(width)x\(height))" }
        return "wrote \(frames) frames (\(width)x\(height)): \(numbered(out, 0)) ... \(numbered(out, frames - 1))"
    }

    /// Advances the world to time `to` in steps of at most 1/30 s (physics wants small steps);
    /// the first call applies the animation at time 0.
    static func advance(_ world: World, from: Float, to: Float, first: Bool) {
        if first { world.update(0) }
        let span = to - from
        guard span > 0 else { return }
        let steps = max(1, Int((span * 30).rounded(.up)))
        let delta = span / Float(steps)
        for _ in 0..<steps { world.update(delta) }
    }

    static func numbered(_ path: String, _ k: Int) -> String {
        let index = String(format: "%04d", k)
        if path.hasSuffix(".png") { return String(path.dropLast(4)) + "-\(index).png" }
        return path + "-\(index).png"
    }

    static func blit(_ source: Image, into sheet: inout Image, x: Int, y: Int) {
        let row = source.width * 4
        for j in 0..<source.height {
            let from = j * row
            let to = ((y + j) * sheet.width + x) * 4
            sheet.pixels.replaceSubrange(to..<(to + row), with: source.pixels[from..<(from + row)])
        }
    }

    /// The latest time rendered: the world is advanced in 1/30 s steps up to it (108,000 updates).
    static let maxTime: Float = 3600

    static func number(_ text: String, _ name: String) throws -> Float {
        guard let value = Float(text), value.isFinite else { throw UsageError("\(name) must be a number") }
        return value
    }

    static func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16384).contains(w),
            (1...16384).contains(h)
        else { throw UsageError("--size must be WxH with both in 1...16384, e.g. 512x512") }
        return (w, h)
    }

    /// `RRGGBBAA` (or `RRGGBB`, opaque) straight colour, returned premultiplied in 0...1.
    static func parseColor(_ text: String) throws -> (Float, Float, Float, Float) {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else {
            throw UsageError("--background must be RRGGBBAA in hexadecimal, e.g. 00000000")
        }
        let rgba = hex.count == 6 ? value << 8 | 0xff : value
        let a = Float(rgba & 0xff) / 255
        func channel(_ shift: UInt32) -> Float { Float((rgba >> shift) & 0xff) / 255 * a }
        return (channel(24), channel(16), channel(8), a)
    }

    /// Axis-aligned bounds of drawn vertices.
    struct Bounds {
        var minX = Float.infinity
        var minY = Float.infinity
        var maxX = -Float.infinity
        var maxY = -Float.infinity

        mutating func add(_ list: DrawList) {
            for v in list.vertices where v.x.isFinite && v.y.isFinite {
                minX = min(minX, v.x)
                minY = min(minY, v.y)
                maxX = max(maxX, v.x)
                maxY = max(maxY, v.y)
            }
        }

        /// The world rectangle mapped onto a `width` x `height` image.
        func viewport(fit: Fit, width: Int, height: Int) -> WorldViewport {
            var (x0, y0, x1, y1) = (minX, minY, maxX, maxY)
            if !(x0 <= x1 && y0 <= y1) { (x0, y0, x1, y1) = (-100, -100, 100, 100) }
            let w = max(x1 - x0, 1)
            let h = max(y1 - y0, 1)
            let cx = (x0 + x1) / 2
            let cy = (y0 + y1) / 2
            let W = Float(width)
            let H = Float(height)
            let margin: Float = 1.2
            func centred(_ unitsPerPixel: Float) -> WorldViewport {
                WorldViewport(
                    x: cx - W * unitsPerPixel / 2, y: cy - H * unitsPerPixel / 2, width: W * unitsPerPixel,
                    height: H * unitsPerPixel)
            }
            switch fit {
            case .fit, .contain: return centred(max(w / W, h / H) * margin)
            case .cover: return centred(min(w / W, h / H) * margin)
            case .width: return centred(w / W * margin)
            case .height: return centred(h / H * margin)
            case .none: return centred(1)
            case .fill:
                return WorldViewport(
                    x: cx - w * margin / 2, y: cy - h * margin / 2, width: w * margin, height: h * margin)
            }
        }
    }

    /// A progress bar on stderr (`\r`-redrawn), only when asked or on a terminal.
    final class Progress {
        let total: Int
        let shown: Bool
        init(total: Int, shown: Bool) {
            self.total = total
            self.shown = shown
        }
        func step(_ done: Int) {
            guard shown, total > 0 else { return }
            let width = 30
            let filled = done * width / total
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
        }
        func finish() {
            if shown { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
