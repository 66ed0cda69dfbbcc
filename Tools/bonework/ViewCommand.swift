import Bonework
import BoneworkFormat
import BoneworkRender
import Foundation

/// `bonework view SKELETON --atlas ATLAS`: an interactive viewer (keys in `spec`, handled by
/// `handleKeys`). The title shows the animation, skin, speed, bone/slot counts and the update
/// and draw cost per frame. `--headless --out FILE [--frames N]` renders the last of N frames to
/// a PNG instead and prints the same status line.
enum ViewCommand {
    static let spec = CommandSpec(
        name: "view", summary: "skeleton viewer in a window, or its last frame headless to PNG",
        synopsis: [
            "view SKELETON --atlas ATLAS [--skin NAME] [--animation NAME] [--size WxH] [--frames N]",
            "view SKELETON --atlas ATLAS [options] --headless --out FILE.png [--frames N]",
        ],
        description: """
            Opens a window that plays the skeleton; the title shows the animation, skin, speed, bone and
            slot counts and the milliseconds per frame of each system and of drawing. Headless, it plays N
            frames of 1/30 s, writes the last one to a PNG and prints the same status line.
            """,
        positionals: [PositionalSpec(name: "SKELETON", meaning: "a skeleton file: .json or .skel")],
        options: [
            .value("--atlas", "ATLAS", "the skeleton's atlas (needed)"),
            .value(
                "--skin", "NAME", repeatable: true,
                "a skin to wear; several are composed into one outfit in the order given (default: the first "
                    + "skin whose name contains \"full\", else the first skin other than default whose name does not start with \"skin-\", else the first skin "
                    + "other than default)"),
            .value(
                "--animation", "NAME",
                "the animation to play first (default: the first whose name contains walk, run, idle, move, "
                    + "loop, in that order of preference, case-insensitive; else the first one)"),
            .value("--size", "WxH", default: "1280x720", "window or image size, both sides in 1...8192"),
            .flag("--headless", "no window: render the last of --frames frames to --out"),
            .value("--out", "FILE.png", "with --headless: the PNG to write"),
            .value(
                "--frames", "N", "headless: frames to play (1...100000, default 30); window: close after N frames"),
        ],
        sections: [
            HelpSection(
                title: "Window keys",
                rows: [
                    ("left / right", "previous / next animation"),
                    ("1 ... 9", "the first ... ninth animation"),
                    ("up / down", "select the previous / next skin in the list"),
                    ("Enter", "put the selected skin into the outfit, or take it out (the outfit is composed)"),
                    ("space", "pause / play"),
                    ("Page Up / Page Down", "speed x1.25 / ÷1.25 (0.05x ... 8x)"),
                    ("L", "loop on / off (restarts the animation)"),
                    ("R", "restart the animation"),
                    ("B", "bones on / off"),
                    ("H", "the on-screen text (lists, time, fps, per-system ms) on / off"),
                    ("D", "every debug overlay on / off: bones, bounding boxes, paths, clipping, mesh hulls"),
                    ("Escape", "quit"),
                ])
        ],
        examples: [
            "bonework view ../shared/spine-examples/spineboy/spineboy-pro.skel "
                + "--atlas ../shared/spine-examples/spineboy/spineboy-pma.atlas",
            "bonework view spineboy-pro.skel --atlas spineboy-pma.atlas --animation run --headless "
                + "--frames 15 --out run.png",
        ])

    final class Viewer {
        let drawable: SkeletonDrawable
        let controller: SkeletonController
        let animations: [String]
        let skins: [String]
        var animationIndex = 0
        /// The skin the up / down keys have selected in the list (index into `skins`).
        var skinIndex = 0
        /// The skins composed into the outfit worn, as indices into `skins`, in the order added.
        var outfit: [Int] = []
        /// The view the skeleton is fitted into, set once added; `refit` recomputes its bounds.
        var view: SkeletonView?

        /// The bounds the view fits: the current animation sampled over its whole duration,
        /// wearing the outfit, with an 8% margin.
        var fitBounds: any BoundsProvider {
            MarginBounds(
                inner: SkinAndAnimationBounds(
                    animations: animations.isEmpty ? [] : [animations[animationIndex]],
                    skins: outfit.map { skins[$0] }, stepTime: 1.0 / 15),
                margin: 0.08)
        }

        /// Fits the view to ``fitBounds`` again (after the animation or the outfit changed).
        func refit() throws {
            guard let view else { return }
            for item in view.items { item.boundsProvider = fitBounds }
            try view.refreshBounds()
        }
        var speed: Float = 1
        var loop = true
        var debug = DebugRenderer()
        /// Smoothed per-system seconds: state, apply, world transforms, vertices.
        var systems = [0.0, 0.0, 0.0, 0.0]
        var drawSeconds = 0.0
        var lastUpdateStart = 0.0
        /// Whether the text overlay is drawn (key H).
        var showText = true
        /// Frames per second, smoothed, from the real time between paints.
        var fps = 0.0
        var lastPaint: Double?

        /// Counts a painted frame at `now` (seconds) into ``fps``.
        func painted(at now: Double) {
            if let last = lastPaint, now > last { fps = fps == 0 ? 1 / (now - last) : fps * 0.9 + 0.1 / (now - last) }
            lastPaint = now
        }

        /// The overlay, drawn in GL over the skeleton in view pixels: the file and the animations on
        /// the left (the one playing marked `>`), the skins on the right (`[x]` worn in the outfit,
        /// `>` selected), time, fps and per-system milliseconds along the bottom.
        func drawText(on canvas: SkeletonCanvas) throws {
            guard showText else { return }
            let scale: Float = 2
            let line = SkeletonCanvas.lineHeight(scale: scale)
            let size = canvas.layout.viewSize
            let text = Color(0.95, 0.95, 0.95, 1)
            let highlight = Color(1, 0.85, 0.3, 1)
            let backdrop = Color(0, 0, 0, 0.55)
            func column(_ rows: [(String, Bool)], x: Float, rightAligned: Bool) {
                let width = Float(rows.map { BitmapFont.width($0.0) }.max() ?? 0) * scale
                let left = rightAligned ? size.width - x - width : x
                canvas.fillViewRect(
                    x: left - 6, y: 4, width: width + 12, height: Float(rows.count) * line + 6, color: backdrop)
                for (k, row) in rows.enumerated() {
                    canvas.text(row.0, x: left, y: 8 + Float(k) * line, scale: scale, color: row.1 ? highlight : text)
                }
            }
            // Lists longer than the view scroll so that the current entry stays on screen.
            let room = max(3, Int((size.height - 3 * line - 16) / line) - 1)
            func window(_ count: Int, around k: Int) -> Range<Int> {
                guard count > room else { return 0..<count }
                let start = min(max(0, k - room / 2), count - room)
                return start..<(start + room)
            }
            var left: [(String, Bool)] = [((drawable.skeletonData.file as NSString).lastPathComponent, false)]
            left.append(("animations (left/right, 1-9):", false))
            for k in window(animations.count, around: animationIndex) {
                left.append(((k == animationIndex ? "> " : "  ") + animations[k], k == animationIndex))
            }
            column(left, x: 10, rightAligned: false)
            if !skins.isEmpty {
                var right: [(String, Bool)] = [("skins (up/down, Enter: wear/remove):", false)]
                for k in window(skins.count, around: skinIndex) {
                    let mark = (k == skinIndex ? "> " : "  ") + (outfit.contains(k) ? "[x] " : "[ ] ")
                    right.append((mark + skins[k], outfit.contains(k)))
                }
                column(right, x: 10, rightAligned: true)
            }
            var time = "-"
            if let entry = try drawable.animationState.getCurrent(0) {
                let duration = try entry.animationEnd
                time = String(format: "%.2f / %.2f s", try entry.animationTime, duration)
            }
            let ms = systems.map { $0 * 1000 }
            let bottom = [
                String(
                    format: "time %@  speed %.2fx%@  %.0f fps  %d bones %d slots", time, speed,
                    controller.isPlaying ? "" : " paused", fps, drawable.skeletonData.bones.count,
                    drawable.skeletonData.slots.count),
                String(
                    format: "ms: state %.3f  apply %.3f  world %.3f  vertices %.3f  draw %.3f", ms[0], ms[1], ms[2],
                    ms[3], drawSeconds * 1000),
            ]
            let width = Float(bottom.map(BitmapFont.width).max() ?? 0) * scale
            let top = size.height - Float(bottom.count) * line - 8
            canvas.fillViewRect(
                x: 4, y: top - 4, width: width + 12, height: Float(bottom.count) * line + 6, color: backdrop)
            for (k, row) in bottom.enumerated() {
                canvas.text(row, x: 10, y: top + Float(k) * line, scale: scale, color: text)
            }
        }

        init(drawable: SkeletonDrawable, controller: SkeletonController) {
            self.drawable = drawable
            self.controller = controller
            animations = drawable.skeletonData.animations.map(\.name)
            skins = drawable.skeletonData.skins.map(\.name)
            debug.drawBones = false
            debug.drawBoundingBoxes = false
            debug.drawPaths = false
            debug.drawClipping = false
            debug.drawMeshHulls = false
        }

        func play() throws {
            guard !animations.isEmpty else { return }
            let state = try drawable.animationState
            try state.setTimeScale(speed)
            try state.setAnimation(0, animations[animationIndex], loop: loop)
            try refit()
        }

        func wear() throws {
            guard !skins.isEmpty else { return }
            let skeleton = try drawable.skeleton
            let skin = try ViewCommand.composedSkin(outfit.map { skins[$0] }, of: drawable.skeletonData)
            try skeleton.setSkin(skin)
            try skeleton.setSlotsToSetupPose()
            try refit()
        }

        /// Puts the selected skin into the outfit or takes it out, then wears the result.
        func toggleSelectedSkin() throws {
            guard !skins.isEmpty else { return }
            if let k = outfit.firstIndex(of: skinIndex) { outfit.remove(at: k) } else { outfit.append(skinIndex) }
            try wear()
        }

        var status: String {
            let data = drawable.skeletonData
            let animation = animations.isEmpty ? "-" : animations[animationIndex]
            let skin = outfit.isEmpty ? "-" : outfit.map { skins[$0] }.joined(separator: "+")
            let ms = systems.map { $0 * 1000 }
            return String(
                format:
                    "%@ | anim %@%@ | skin %@ | speed %.2fx%@ | %d bones %d slots | ms: state %.3f apply %.3f world %.3f vertices %.3f draw %.3f",
                (data.file as NSString).lastPathComponent, animation, loop ? " (loop)" : "", skin, speed,
                controller.isPlaying ? "" : " paused", data.bones.count, data.slots.count, ms[0], ms[1], ms[2], ms[3],
                drawSeconds * 1000)
        }
    }

    static func run(_ options: ParsedArguments) throws {
        guard let skeletonPath = options.positional.first, let atlasPath = options.value("--atlas") else {
            throw UsageError("needs SKELETON and --atlas ATLAS")
        }
        var width = 1280
        var height = 720
        if let size = options.value("--size") {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, (1...8192).contains(parts[0]), (1...8192).contains(parts[1]) else {
                throw UsageError("--size must be WxH with both in 1...8192, e.g. 800x600")
            }
            width = parts[0]
            height = parts[1]
        }
        let headless = options.flag("--headless")
        let out = options.value("--out")
        let frames = Int(options.value("--frames") ?? "30") ?? 30
        if headless {
            guard out != nil else { throw UsageError("--headless needs --out FILE.png") }
            guard frames > 0, frames <= 100_000 else { throw UsageError("--frames must be an integer in 1...100000") }
        }
        try FileRoles.check(skeleton: skeletonPath, atlas: atlasPath)
        if let out { try FileRoles.checkPNG(out, option: "--out") }
        try UserFiles.checkReadable(skeletonPath)
        try UserFiles.checkReadable(atlasPath)
        if headless, let out { try UserFiles.checkWritable(out) }
        let data = try SkeletonDataPool.shared.load(skeleton: skeletonPath, atlas: atlasPath)
        let drawable = try SkeletonDrawable(assets: SkeletonAssets.shared(data))
        let clock = { ProcessInfo.processInfo.systemUptime }
        var viewerBox: Viewer?
        let controller = SkeletonController(
            onBeforePaint: { controller, _ in
                guard let v = viewerBox else { return }
                let t = try controller.loaded().lastTimings
                let now = [t.animationState, t.apply, t.worldTransforms, t.vertices]
                for k in 0..<4 { v.systems[k] = v.systems[k] * 0.9 + now[k] * 0.1 }
                v.lastUpdateStart = clock()
            },
            onAfterPaint: { controller, canvas in
                guard let v = viewerBox else { return }
                try v.debug.draw(try controller.loaded(), on: canvas)
                v.painted(at: clock())
                try v.drawText(on: canvas)
                v.drawSeconds = v.drawSeconds * 0.9 + (clock() - v.lastUpdateStart) * 0.1
            })
        let viewer = Viewer(drawable: drawable, controller: controller)
        viewerBox = viewer
        // The controller's callbacks reach the viewer through this box and the viewer holds the
        // controller: empty the box on the way out so that neither outlives the command.
        defer { viewerBox = nil }
        let chosenSkins = options.all("--skin")
        if !chosenSkins.isEmpty {
            for skin in chosenSkins {
                try UnknownName.checkSkin(skin, in: data)
                guard let k = viewer.skins.firstIndex(of: skin) else { throw BoneworkError.unknownSkin(skin) }
                if !viewer.outfit.contains(k) { viewer.outfit.append(k) }
            }
        } else if let k = defaultSkinIndex(viewer.skins) {
            viewer.outfit = [k]
        }
        viewer.skinIndex = viewer.outfit.first ?? 0
        if let animation = options.value("--animation") {
            try UnknownName.checkAnimation(animation, in: data)
            guard let k = viewer.animations.firstIndex(of: animation) else {
                throw BoneworkError.unknownAnimation(animation)
            }
            viewer.animationIndex = k
        } else {
            viewer.animationIndex = openingAnimationIndex(viewer.animations) ?? 0
        }
        try viewer.wear()
        try viewer.play()
        let view = SkeletonView(
            size: Size(width: Float(width), height: Float(height)), backgroundColor: Color(0.2, 0.2, 0.22, 1))
        try view.add(drawable, controller: controller, boundsProvider: viewer.fitBounds)
        viewer.view = view

        if headless, let out {
            var last: RenderedImage?
            for _ in 0..<frames { last = try view.renderFrame(delta: 1.0 / 30) ?? last }
            if let last { try last.writePNG(to: out) }
            print(viewer.status)
            return
        }
        let window = try SkeletonWindow(title: viewer.status, view: view)
        var lastTitle = 0.0
        window.onFrame = { window, _ in try handleKeys(window, viewer, &lastTitle) }
        try window.run(maxFrames: options.value("--frames").flatMap { Int($0) })
    }

    static func handleKeys(_ window: SkeletonWindow, _ viewer: Viewer, _ lastTitle: inout Double) throws -> Bool {
        let controller = viewer.controller
        let drawable = viewer.drawable
        if window.wasKeyPressed(WindowKey.escape) { return false }
        if window.wasKeyPressed(WindowKey.space) {
            controller.isPlaying ? controller.pause() : controller.resume()
        }
        if !viewer.animations.isEmpty {
            if window.wasKeyPressed(WindowKey.right) {
                viewer.animationIndex = (viewer.animationIndex + 1) % viewer.animations.count
                try viewer.play()
            }
            if window.wasKeyPressed(WindowKey.left) {
                viewer.animationIndex = (viewer.animationIndex + viewer.animations.count - 1) % viewer.animations.count
                try viewer.play()
            }
        }
        for d in 1...9 where d <= viewer.animations.count && window.wasKeyPressed(WindowKey.digit(d)) {
            viewer.animationIndex = d - 1
            try viewer.play()
        }
        if !viewer.skins.isEmpty {
            if window.wasKeyPressed(WindowKey.down) {
                viewer.skinIndex = (viewer.skinIndex + 1) % viewer.skins.count
            }
            if window.wasKeyPressed(WindowKey.up) {
                viewer.skinIndex = (viewer.skinIndex + viewer.skins.count - 1) % viewer.skins.count
            }
            if window.wasKeyPressed(WindowKey.enter) { try viewer.toggleSelectedSkin() }
        }
        if window.wasKeyPressed(WindowKey.pageUp) {
            viewer.speed = min(8, viewer.speed * 1.25)
            try drawable.animationState.setTimeScale(viewer.speed)
        }
        if window.wasKeyPressed(WindowKey.pageDown) {
            viewer.speed = max(0.05, viewer.speed / 1.25)
            try drawable.animationState.setTimeScale(viewer.speed)
        }
        if window.wasKeyPressed(WindowKey.letter("l")) {
            viewer.loop.toggle()
            try viewer.play()
        }
        if window.wasKeyPressed(WindowKey.letter("r")) { try viewer.play() }
        if window.wasKeyPressed(WindowKey.letter("h")) { viewer.showText.toggle() }
        if window.wasKeyPressed(WindowKey.letter("b")) { viewer.debug.drawBones.toggle() }
        if window.wasKeyPressed(WindowKey.letter("d")) {
            let on = !viewer.debug.drawMeshHulls
            viewer.debug.drawBones = on
            viewer.debug.drawBoundingBoxes = on
            viewer.debug.drawPaths = on
            viewer.debug.drawClipping = on
            viewer.debug.drawMeshHulls = on
        }
        let now = GLFWWindowContext.time
        if now - lastTitle > 0.25 {
            window.setTitle(viewer.status)
            lastTitle = now
        }
        return true
    }

    /// Keywords of a looping movement animation, most preferred first, matched case-insensitively
    /// anywhere in an animation's name.
    static let openingKeywords = ["walk", "run", "idle", "move", "loop"]

    /// The animation the viewer opens on when `--animation` is not given: the first animation whose
    /// name contains the earliest keyword of ``openingKeywords`` that any name contains; else the
    /// first animation. Returns nil for an empty list.
    static func openingAnimationIndex(_ names: [String]) -> Int? {
        guard !names.isEmpty else { return nil }
        let lower = names.map { $0.lowercased() }
        for keyword in openingKeywords {
            if let k = lower.firstIndex(where: { $0.contains(keyword) }) { return k }
        }
        return 0
    }

    /// The skin worn when no `--skin` is given: the first skin whose name contains `full` (a complete
    /// character, as mix-and-match's `full-skins/boy`); else the first skin other than `default` whose name does
    /// not start with `skin-` (in mix-and-match those are bare bodies, the rest complete
    /// outfits); else the first skin other than `default`; else `default` itself. Returns nil for an
    /// empty list.
    static func defaultSkinIndex(_ names: [String]) -> Int? {
        guard !names.isEmpty else { return nil }
        if let k = names.firstIndex(where: { $0.lowercased().contains("full") }) { return k }
        if let k = names.firstIndex(where: { $0 != "default" && !$0.hasPrefix("skin-") }) { return k }
        if let k = names.firstIndex(where: { $0 != "default" }) { return k }
        return 0
    }

    /// One skin holding every named skin of `data`, added in order (later parts replace earlier ones
    /// on the same slot and name).
    /// - Throws: `WorldError.noSuchSkin` for a name the skeleton does not have.
    static func composedSkin(_ names: [String], of data: SkeletonData) throws -> Skin {
        let skin = Skin(name: names.isEmpty ? "none" : names.joined(separator: "+"), for: data)
        for name in names { try skin.addSkin(name) }
        return skin
    }

    /// Another provider's bounds grown by `margin` of their width and height on every side (0.08:
    /// 8% each side), keeping the centre.
    struct MarginBounds: BoundsProvider {
        let inner: any BoundsProvider
        let margin: Float

        func computeBounds(_ drawable: SkeletonDrawable) throws -> Rect {
            let r = try inner.computeBounds(drawable)
            let dx = r.width * margin
            let dy = r.height * margin
            return Rect(x: r.x - dx, y: r.y - dy, width: r.width + 2 * dx, height: r.height + 2 * dy)
        }
    }
}
