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
            .value("--skin", "NAME", "the skin to wear first (default: the first named skin)"),
            .value("--animation", "NAME", "the animation to play first (default: the first one)"),
            .value("--size", "WxH", default: "800x600", "window or image size, both sides in 1...8192"),
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
                    ("up / down", "next / previous skin"),
                    ("space", "pause / play"),
                    ("Page Up / Page Down", "speed x1.25 / ÷1.25 (0.05x ... 8x)"),
                    ("L", "loop on / off (restarts the animation)"),
                    ("R", "restart the animation"),
                    ("B", "bones on / off"),
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
        var skinIndex = 0
        var speed: Float = 1
        var loop = true
        var debug = DebugRenderer()
        /// Smoothed per-system seconds: state, apply, world transforms, vertices.
        var systems = [0.0, 0.0, 0.0, 0.0]
        var drawSeconds = 0.0
        var lastUpdateStart = 0.0

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
        }

        func wear() throws {
            guard !skins.isEmpty else { return }
            let skeleton = try drawable.skeleton
            try skeleton.setSkin(skins[skinIndex])
            try skeleton.setSlotsToSetupPose()
        }

        var status: String {
            let data = drawable.skeletonData
            let animation = animations.isEmpty ? "-" : animations[animationIndex]
            let skin = skins.isEmpty ? "-" : skins[skinIndex]
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
        var width = 800
        var height = 600
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
                v.drawSeconds = v.drawSeconds * 0.9 + (clock() - v.lastUpdateStart) * 0.1
            })
        let viewer = Viewer(drawable: drawable, controller: controller)
        viewerBox = viewer
        // The controller's callbacks reach the viewer through this box and the viewer holds the
        // controller: empty the box on the way out so that neither outlives the command.
        defer { viewerBox = nil }
        if let skin = options.value("--skin") {
            try UnknownName.checkSkin(skin, in: data)
            guard let k = viewer.skins.firstIndex(of: skin) else { throw BoneworkError.unknownSkin(skin) }
            viewer.skinIndex = k
        } else if viewer.skins.count > 1 {
            viewer.skinIndex = 1  // the first named skin: the default one is often incomplete
        }
        if let animation = options.value("--animation") {
            try UnknownName.checkAnimation(animation, in: data)
            guard let k = viewer.animations.firstIndex(of: animation) else {
                throw BoneworkError.unknownAnimation(animation)
            }
            viewer.animationIndex = k
        }
        try viewer.wear()
        try viewer.play()
        let view = SkeletonView(
            size: Size(width: Float(width), height: Float(height)), backgroundColor: Color(0.2, 0.2, 0.22, 1))
        let bounds: any BoundsProvider =
            viewer.animations.isEmpty
            ? SetupPoseBounds() : SkinAndAnimationBounds(animations: viewer.animations, stepTime: 0.25)
        try view.add(drawable, controller: controller, boundsProvider: bounds)

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
        if !viewer.skins.isEmpty {
            if window.wasKeyPressed(WindowKey.up) {
                viewer.skinIndex = (viewer.skinIndex + 1) % viewer.skins.count
                try viewer.wear()
            }
            if window.wasKeyPressed(WindowKey.down) {
                viewer.skinIndex = (viewer.skinIndex + viewer.skins.count - 1) % viewer.skins.count
                try viewer.wear()
            }
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
}
