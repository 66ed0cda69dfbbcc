import Bonework
import BoneworkAssets
import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Foundation

/// The examples (each also an executable in Tools/Examples): open a window, or with `--headless
/// --out DIR` run a script and write PNGs.
public enum Examples {
    static let frameDelta: Float = 1.0 / 30

    /// The default character wearing its default colour skin.
    @discardableResult
    static func defaultCharacter(_ view: SkeletonView, controller: SkeletonController, mode: ContentMode = .fit)
        async throws -> ViewItem
    {
        try await view.add(
            .defaultCharacter, controller: controller, mode: mode, skin: DefaultCharacter.defaultSkinName)
    }

    // MARK: SimpleAnimation

    /// One skeleton playing one looping animation, fitted and centred.
    public static func simpleAnimation(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let view = SkeletonView(size: Size(width: 200, height: 200))
        let controller = SkeletonController(onInitialized: { controller in
            try controller.animationState.setAnimation(0, "walk", loop: true)
        })
        try await defaultCharacter(view, controller: controller)
        guard options.headless else {
            try ExampleMain.window("SimpleAnimation", view)
            return report
        }
        for k in 0..<(options.frames ?? 3) {
            guard let image = try view.renderFrame(delta: k == 0 ? 0 : 0.2) else { continue }
            report.files.append(try options.write(image, "simple-animation-\(k).png"))
        }
        return report
    }

    // MARK: PlayPauseAnimation

    /// Space pauses and resumes; headless: frames 0-1 play, 2-3 paused, 4 playing again.
    public static func playPauseAnimation(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let view = SkeletonView(size: Size(width: 200, height: 200))
        let controller = SkeletonController(onInitialized: { controller in
            try controller.animationState.setAnimation(0, "run", loop: true)
        })
        try await defaultCharacter(view, controller: controller)
        guard options.headless else {
            try ExampleMain.window("PlayPauseAnimation (space: play/pause)", view) { window, _ in
                if window.wasKeyPressed(WindowKey.space) {
                    controller.isPlaying ? controller.pause() : controller.resume()
                }
                return true
            }
            return report
        }
        for k in 0..<5 {
            if k == 2 { controller.pause() }
            if k == 4 { controller.resume() }
            guard let image = try view.renderFrame(delta: 0.15) else { continue }
            report.log.append("frame \(k) playing=\(controller.isPlaying)")
            report.files.append(try options.write(image, "play-pause-\(k).png"))
        }
        return report
    }

    // MARK: AnimationStateEvents

    /// A tinted slot, queued animations and a listener logging every state event.
    public static func animationStateEvents(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let log = EventLog()
        let view = SkeletonView(size: Size(width: 200, height: 200))
        let controller = SkeletonController(onInitialized: { controller in
            let skeleton = try controller.skeleton
            // Tint the whole body: every slot red-ish.
            for slot in skeleton.slots { try slot.setColor(Color(1, 0.3, 0.3, 1)) }
            try controller.animationStateData.setDefaultMix(0.2)
            let state = try controller.animationState
            try state.setListener { type, entry, event in
                let name = entry.name ?? "?"
                if let event {
                    log.lines.append("\(type) \(name) \(event.name) int=\(event.intValue) string=\(event.stringValue)")
                } else {
                    log.lines.append("\(type) \(name)")
                }
            }
            try state.setAnimation(0, "walk", loop: false)
            try state.addAnimation(0, "flinch", loop: false, delay: 0)
            try state.addAnimation(0, "run", loop: true, delay: 0)
        })
        try await defaultCharacter(view, controller: controller)
        guard options.headless else {
            try ExampleMain.window("AnimationStateEvents", view) { _, _ in
                for line in log.lines { print(line) }
                log.lines.removeAll()
                return true
            }
            return report
        }
        let frames = options.frames ?? 60
        for k in 0..<frames {
            guard let image = try view.renderFrame(delta: 0.1) else { continue }
            if k % 20 == 0 || k == frames - 1 { report.files.append(try options.write(image, "events-\(k).png")) }
        }
        report.log = log.lines
        try options.writeText(log.lines.joined(separator: "\n") + "\n", "events.log")
        return report
    }

    final class EventLog: @unchecked Sendable {
        var lines: [String] = []
    }

    // MARK: DebugRendering

    /// The skeleton with bones, bounding boxes, paths, clipping polygons and mesh hulls drawn over
    /// it in `onAfterPaint`.
    public static func debugRendering(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let debug = DebugRenderer()
        let counts = CountsBox()
        let view = SkeletonView(size: Size(width: 240, height: 240))
        let controller = SkeletonController(
            onInitialized: { controller in
                try controller.animationState.setAnimation(0, "walk", loop: true)
                // Show the bounding box the export keeps hidden in the setup pose.
                if let slot = (try? controller.skeleton)?.findSlot("head-bb") { try slot.setAttachment("head") }
            },
            onAfterPaint: { controller, canvas in
                counts.value = try debug.draw(try controller.loaded(), on: canvas)
            })
        if let spineboy = options.example("spineboy", atlas: "spineboy-pma.atlas", skeleton: "spineboy-pro.skel") {
            report.usedExampleExport = true
            try await view.add(spineboy, controller: controller)
        } else {
            try await defaultCharacter(view, controller: controller)
        }
        guard options.headless else {
            try ExampleMain.window("DebugRendering", view)
            return report
        }
        for k in 0..<(options.frames ?? 2) {
            guard let image = try view.renderFrame(delta: k == 0 ? 0 : 0.25) else { continue }
            report.files.append(try options.write(image, "debug-\(k).png"))
        }
        let c = counts.value
        report.log.append(
            "bones \(c.bones) bounding boxes \(c.boundingBoxes) paths \(c.paths) clipping \(c.clippingPolygons) hulls \(c.meshHulls)"
        )
        report.measurements["bones"] = Double(c.bones)
        report.measurements["meshHulls"] = Double(c.meshHulls)
        report.measurements["boundingBoxes"] = Double(c.boundingBoxes)
        return report
    }

    final class CountsBox {
        var value = DebugRenderer.Counts()
    }

    // MARK: DressUp

    /// Custom skins assembled from parts, with a thumbnail of each skin rendered through
    /// `renderToImage`; headless writes the thumbnails and the dressed character.
    public static func dressUp(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let drawable: SkeletonDrawable
        var skinNames: [String]
        var outfit: [String]
        if let mix = options.example(
            "mix-and-match", atlas: "mix-and-match-pma.atlas", skeleton: "mix-and-match-pro.skel")
        {
            report.usedExampleExport = true
            drawable = try await SkeletonDrawable.load(mix)
            skinNames = try drawable.skeleton.skinNames.filter { $0.hasPrefix("full-skins/") }
            outfit = [
                "skin-base", "nose/short", "eyelids/girly", "eyes/violet", "hair/brown", "clothes/hoodie-orange",
                "legs/pants-jeans", "accessories/bag", "accessories/hat-red-yellow",
            ]
        } else {
            drawable = try await SkeletonDrawable.load(.defaultCharacter)
            skinNames = DefaultCharacter.skinNames
            outfit = ["blue"]
        }
        let skeleton = try drawable.skeleton
        // Thumbnails: one per skin, each rendered from the same drawable.
        var thumbnails: [(String, RenderedImage)] = []
        for name in skinNames {
            try skeleton.setSkin(name)
            try skeleton.setSlotsToSetupPose()
            try drawable.update(delta: 0)
            thumbnails.append((name, try drawable.renderToImage(size: Size(width: 64, height: 64))))
        }
        // The custom outfit: mix and match.
        let custom = Skin(name: "custom-outfit", for: drawable.skeletonData)
        for part in outfit { try custom.addSkin(part) }
        try skeleton.setSkin(custom)
        try skeleton.setSlotsToSetupPose()
        try drawable.update(delta: 0)
        report.log.append("skins \(skinNames.joined(separator: ", ")); outfit \(outfit.joined(separator: " + "))")
        guard options.headless else {
            let view = SkeletonView(size: Size(width: 300, height: 300))
            let controller = SkeletonController(onInitialized: { controller in
                try controller.animationState.setAnimation(0, report.usedExampleExport ? "dance" : "idle", loop: true)
            })
            try view.add(drawable, controller: controller)
            var selected = -1
            try ExampleMain.window("DressUp (1-9: skins, 0: custom outfit)", view) { window, _ in
                for d in 0...9 where window.wasKeyPressed(WindowKey.digit(d)) {
                    selected = d == 0 ? -1 : d - 1
                    if selected >= 0 && selected < skinNames.count {
                        try skeleton.setSkin(skinNames[selected])
                    } else {
                        try skeleton.setSkin(custom)
                    }
                    try skeleton.setSlotsToSetupPose()
                }
                return true
            }
            return report
        }
        for (k, (name, image)) in thumbnails.enumerated() {
            report.files.append(try options.write(image, "thumbnail-\(k).png"))
            report.log.append("thumbnail-\(k).png: \(name)")
        }
        report.files.append(
            try options.write(try drawable.renderToImage(size: Size(width: 128, height: 128)), "custom-outfit.png"))
        return report
    }

    // MARK: IKFollowing

    /// The aim (or a foot) follows the pointer: the pointer is turned into skeleton coordinates and
    /// the IK target bone is moved there before world transforms. Headless: a scripted path.
    public static func ikFollowing(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let pointer = PointerBox()
        let view = SkeletonView(size: Size(width: 240, height: 240))
        let source: SkeletonSource
        let targetBone: String
        let animation: String
        if let spineboy = options.example("spineboy", atlas: "spineboy-pma.atlas", skeleton: "spineboy-pro.skel") {
            report.usedExampleExport = true
            source = spineboy
            targetBone = "crosshair"
            animation = "aim"
        } else {
            source = .defaultCharacter
            targetBone = "front-foot-target"
            animation = "idle"
        }
        let controller = SkeletonController(
            onInitialized: { controller in
                let state = try controller.animationState
                if report.usedExampleExport {
                    try state.setAnimation(0, "walk", loop: true)
                    try state.setAnimation(1, animation, loop: true)
                } else {
                    try state.setAnimation(0, animation, loop: true)
                }
            },
            onBeforeUpdateWorldTransforms: { controller in
                guard let p = pointer.position, let world = controller.toSkeletonCoordinates(p) else { return }
                guard let bone = try controller.skeleton.findBone(targetBone) else {
                    throw BoneworkError.unknownBone(targetBone)
                }
                try bone.setPosition(try bone.worldToParent(world))
            },
            onAfterPaint: { controller, canvas in
                guard let p = pointer.position, let world = controller.toSkeletonCoordinates(p) else { return }
                let arm = 12 * canvas.pixel
                canvas.line(
                    Point(x: world.x - arm, y: world.y), Point(x: world.x + arm, y: world.y), color: Color(1, 0, 0, 1))
                canvas.line(
                    Point(x: world.x, y: world.y - arm), Point(x: world.x, y: world.y + arm), color: Color(1, 0, 0, 1))
            })
        let item = try await view.add(
            source, controller: controller, skin: report.usedExampleExport ? nil : DefaultCharacter.defaultSkinName)
        guard options.headless else {
            try ExampleMain.window("IKFollowing (drag the crosshair)", view) { window, _ in
                if window.isMouseDown { pointer.position = window.cursor }
                return true
            }
            return report
        }
        // Scripted pointer path in view pixels; the first frame lays the view out.
        _ = try view.renderFrame(delta: 0)
        let path: [Point] =
            report.usedExampleExport
            ? [Point(x: 220, y: 40), Point(x: 230, y: 120), Point(x: 200, y: 200)]
            : [Point(x: 150, y: 200), Point(x: 170, y: 210), Point(x: 130, y: 215)]
        var worst: Double = 0
        for (k, p) in path.enumerated() {
            pointer.position = p
            guard let image = try view.renderFrame(delta: frameDelta) else { continue }
            report.files.append(try options.write(image, "ik-\(k).png"))
            guard let target = controller.toSkeletonCoordinates(p) else { continue }
            let skeleton = try controller.skeleton
            let error: Double
            if report.usedExampleExport {
                // The aim constraint turns the rear upper arm towards the crosshair.
                guard let arm = skeleton.findBone("rear-upper-arm") else {
                    throw BoneworkError.unknownBone("rear-upper-arm")
                }
                let origin = try arm.worldPosition
                let want = atan2(Double(target.y - origin.y), Double(target.x - origin.x)) * 180 / .pi
                var diff = want - Double(try arm.worldRotationX)
                diff = (diff + 540).truncatingRemainder(dividingBy: 360) - 180
                error = abs(diff)
                report.log.append("frame \(k): target \(target) arm angle error \(error) degrees")
            } else {
                guard let footBone = skeleton.findBone("front-foot"), let targetHandle = skeleton.findBone(targetBone)
                else { throw BoneworkError.unknownBone("front-foot or \(targetBone)") }
                let foot = try footBone.worldPosition
                let t = try targetHandle.worldPosition
                error = Double(((foot.x - t.x) * (foot.x - t.x) + (foot.y - t.y) * (foot.y - t.y)).squareRoot())
                report.log.append("frame \(k): target \(target) foot distance \(error)")
            }
            worst = max(worst, error)
        }
        report.measurements["worstError"] = worst
        report.measurements["scale"] = Double(item.layout(viewSize: view.size).scaleX)
        return report
    }

    final class PointerBox {
        var position: Point?
    }

    // MARK: DisableRendering

    /// `isRendering` off stops updates and drawing (e.g. while the view is hidden); on resumes.
    public static func disableRendering(_ options: ExampleOptions) async throws -> ExampleReport {
        var report = ExampleReport()
        let view = SkeletonView(size: Size(width: 160, height: 160))
        let controller = SkeletonController(onInitialized: { controller in
            try controller.animationState.setAnimation(0, "walk", loop: true)
        })
        try await defaultCharacter(view, controller: controller)
        guard options.headless else {
            try ExampleMain.window("DisableRendering (space: toggle rendering)", view) { window, _ in
                if window.wasKeyPressed(WindowKey.space) {
                    view.isRendering.toggle()
                    print("isRendering = \(view.isRendering)")
                }
                return true
            }
            return report
        }
        for k in 0..<6 {
            view.isRendering = !(2...3).contains(k)
            let image = try view.renderFrame(delta: 0.1)
            let time = try controller.animationState.getCurrent(0)?.trackTime ?? -1
            report.log.append("frame \(k) isRendering=\(view.isRendering) drawn=\(image != nil) trackTime=\(time)")
            report.measurements["trackTime\(k)"] = Double(time)
            if let image { report.files.append(try options.write(image, "disable-rendering-\(k).png")) }
        }
        return report
    }
}
