import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld
import CGL
import CGLFW
import Foundation

/// Scroll wheel movement since the last frame (GLFW reports it through a C callback).
nonisolated(unsafe) private var scrollAccumulated: Double = 0
/// Keys pressed since the last frame, in order. GLFW's key callback queues every press, so a tap
/// shorter than a frame is not lost however slow the frame is.
nonisolated(unsafe) private var pressedKeys: [Int32] = []

/// The crowd in a GLFW window, drawn through the GPU path, with a HUD drawn in GL: characters,
/// draw calls, FPS, the GPU path's CPU milliseconds and the engine's; O adds the per-system table,
/// the trigger diagnostics and goal markers (and draws every agent, unculled). Keys 1-3 switch
/// camera presets with a one-second transition, the mouse pans (left drag) and zooms (wheel), P
/// pauses, + / - add or remove 1,000 characters, Escape quits; each key press is printed as it
/// acts. The simulation runs on a fixed timestep against real time: several steps in a slow frame
/// (at most `maxStepsPerFrame`), so a slow window does not play in slow motion.
enum CrowdWindow {
    /// How the window runs.
    struct Options {
        /// Simulated seconds per step.
        var delta: Float
        /// Spawns and despawns per second.
        var churn: Float
        /// Close after this many drawn frames.
        var maxFrames: Int?
        /// Close after this many seconds.
        var seconds: Double?
        /// Write the last drawn frame (crowd and HUD) to this PNG.
        var screenshot: String?
    }

    /// The most simulation steps one drawn frame runs; real time beyond them is dropped.
    static let maxStepsPerFrame = 4

    static func run(sim: CrowdSimulation, atlases: [Atlas], options: Options, window: GLFWWindowContext) throws
        -> String
    {
        let context = GLContext.window(window)
        let drawing = try CrowdDrawing(
            sim: sim, atlases: atlases, context: context, threads: sim.world.scheduler.threads)
        let hud = try CrowdHUD(context: context)
        var size = window.framebufferSize
        var camera = CrowdCamera(
            screenWidth: Float(size.width), screenHeight: Float(size.height), halfExtent: sim.halfExtent)
        if let handle = glfwGetCurrentContext() {
            glfwSetScrollCallback(handle) { _, _, dy in scrollAccumulated += dy }
            glfwSetKeyCallback(handle) { _, key, _, action, _ in
                if action == GLFW_PRESS { pressedKeys.append(key) }
            }
        }
        var paused = false
        var overlay = false
        var lastCursor: (Double, Double)? = nil
        var fpsFrames = 0
        var fpsStart = GLFWWindowContext.time
        var fps = 0.0
        var crowdMilliseconds = [Double](repeating: 0, count: 3)
        var lines: [String] = []
        var shown = 0
        var steps = 0
        let started = GLFWWindowContext.time
        var last = started
        var accumulated = 0.0
        let delta = Double(options.delta)
        while !window.shouldClose {
            if let maxFrames = options.maxFrames, shown >= maxFrames { break }
            GLFWWindowContext.pollEvents()
            let keys = pressedKeys
            pressedKeys.removeAll(keepingCapacity: true)
            for key in keys {
                switch key {
                case GLFW_KEY_ESCAPE:
                    window.shouldClose = true
                    print("key Escape: quit")
                case GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3:
                    let preset: CrowdCamera.Preset =
                        key == GLFW_KEY_1 ? .overview : key == GLFW_KEY_2 ? .closeUp : .follow
                    camera.select(preset)
                    print("key \(preset.rawValue): camera \(preset)")
                case GLFW_KEY_P:
                    paused.toggle()
                    print("key P: \(paused ? "paused" : "running")")
                case GLFW_KEY_O:
                    overlay.toggle()
                    print("key O: overlay \(overlay ? "on" : "off")")
                case GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD:
                    try sim.spawn(1000)
                    print("key +: \(sim.count) characters")
                case GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT:
                    try sim.remove(1000)
                    print("key -: \(sim.count) characters")
                default: break
                }
            }
            // Mouse: drag to pan, wheel to zoom around the cursor.
            if let handle = glfwGetCurrentContext() {
                var cx = 0.0
                var cy = 0.0
                glfwGetCursorPos(handle, &cx, &cy)
                if glfwGetMouseButton(handle, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS {
                    if let (lx, ly) = lastCursor { camera.pan(dx: Float(cx - lx), dy: Float(cy - ly)) }
                    lastCursor = (cx, cy)
                } else {
                    lastCursor = nil
                }
                if scrollAccumulated != 0 {
                    camera.zoom(by: Float(pow(1.15, scrollAccumulated)), atX: Float(cx), y: Float(cy))
                    scrollAccumulated = 0
                }
            }
            size = window.framebufferSize
            camera.screenWidth = Float(max(1, size.width))
            camera.screenHeight = Float(max(1, size.height))
            // Fixed timestep against real time.
            let now = GLFWWindowContext.time
            let elapsed = min(now - last, 0.25)
            last = now
            if paused {
                accumulated = 0
            } else {
                accumulated += elapsed
                var ran = 0
                while accumulated >= delta && ran < Self.maxStepsPerFrame {
                    try sim.step(delta: options.delta, churn: options.churn)
                    accumulated -= delta
                    ran += 1
                }
                if ran == Self.maxStepsPerFrame { accumulated = min(accumulated, delta) }
                steps += ran
                if ran > 0, let frame = sim.world.scheduler.profiler.frame() {
                    crowdMilliseconds = frame.applicationWall.map { Double($0) / 1e6 }
                }
            }
            camera.update(delta: Float(elapsed), halfExtent: sim.halfExtent, followed: sim.position(of: 0))
            let v = camera.view
            let viewport = WorldViewport(
                x: v.x - camera.screenWidth / 2 / v.zoom, y: v.y - camera.screenHeight / 2 / v.zoom,
                width: camera.screenWidth / v.zoom, height: camera.screenHeight / v.zoom)
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glClearColor(0.16, 0.18, 0.2, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            let drawn = try drawing.draw(sim, viewport: viewport, everyone: overlay)
            sim.world.scheduler.profiler.record(drawing.renderer.lastFrame)
            lines = hudLines(
                sim: sim, drawn: drawn, crowd: crowdMilliseconds, drawing: drawing, fps: fps, paused: paused,
                overlay: overlay, camera: camera)
            hud.begin(width: size.width, height: size.height)
            if overlay {
                // Goal markers: a small square where each agent is heading.
                let sx = Float(size.width) / viewport.width
                let sy = Float(size.height) / viewport.height
                for a in 0..<sim.count {
                    let (gx, gy) = sim.goal(of: a)
                    let px = (gx - viewport.x) * sx
                    let py = Float(size.height) - (gy - viewport.y) * sy
                    guard px > -4 && px < Float(size.width) + 4 && py > -4 && py < Float(size.height) + 4 else {
                        continue
                    }
                    hud.rect(x: px - 3, y: py - 3, width: 6, height: 6, color: Color(1, 0.85, 0.2, 0.9))
                }
            }
            hud.text(lines, x: 12, y: 12, color: Color(1, 1, 1, 1))
            hud.draw()
            shown += 1
            let closing =
                window.shouldClose || options.maxFrames.map { shown >= $0 } == true
                || options.seconds.map { GLFWWindowContext.time - started >= $0 } == true
            if closing, let file = options.screenshot {
                try PNG.write(readFramebuffer(width: size.width, height: size.height), to: file)
                print("wrote \(file) (\(size.width)x\(size.height), \(drawn) characters drawn)")
            }
            window.swapBuffers()
            if closing { window.shouldClose = true }
            fpsFrames += 1
            let t = GLFWWindowContext.time
            if t - fpsStart >= 0.5 {
                fps = Double(fpsFrames) / (t - fpsStart)
                fpsFrames = 0
                fpsStart = t
            }
            window.setTitle("bonework crowd | " + (lines.first ?? ""))
        }
        print("window: \(shown) frames drawn, \(steps) simulation steps of \(options.delta) s")
        return lines.joined(separator: " | ")
    }

    /// The window's back buffer as an image (rows top-down).
    static func readFramebuffer(width: Int, height: Int) -> Image {
        var image = Image(width: width, height: height)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        let rowBytes = width * 4
        var rows = [UInt8](repeating: 0, count: rowBytes * height)
        rows.withUnsafeMutableBytes {
            glReadPixels(
                0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        for y in 0..<height {
            let source = (height - 1 - y) * rowBytes
            image.pixels.replaceSubrange(
                (y * rowBytes)..<((y + 1) * rowBytes), with: rows[source..<(source + rowBytes)])
        }
        return image
    }

    /// The HUD's text: a summary line, the GPU path's and the engine's costs, and with the overlay
    /// the per-system table and the trigger diagnostics.
    static func hudLines(
        sim: CrowdSimulation, drawn: Int, crowd: [Double], drawing: CrowdDrawing, fps: Double, paused: Bool,
        overlay: Bool, camera: CrowdCamera
    ) -> [String] {
        let profiler = sim.world.scheduler.profiler
        let frame = drawing.renderer.lastFrame
        let calls = frame.drawCalls
        var lines = [
            "\(sim.count) characters, \(drawn) drawn  \(calls) draw call\(calls == 1 ? "" : "s")  "
                + String(format: "%.0f FPS", fps) + (paused ? "  PAUSED" : "")
        ]
        let engine = SystemID.allCases.reduce(0.0) { $0 + Double(profiler.wall($1) ?? 0) / 1e6 }
        lines.append(
            String(
                format: "GPU path CPU %.2f ms (cull %.2f, pack %.2f, submit %.2f)  engine %.2f ms",
                Double(frame.cpuNanoseconds + drawing.cullNanoseconds) / 1e6, Double(drawing.cullNanoseconds) / 1e6,
                Double(frame.packNanoseconds) / 1e6, Double(frame.submitNanoseconds) / 1e6, engine))
        lines.append(
            String(format: "steer %.2f ms  triggers %.2f ms  ", crowd[1], crowd[2])
                + "camera \(camera.preset.map { "\($0)" } ?? "free")  \(drawing.renderer.submission.rawValue)")
        if overlay {
            lines.append("system            ms")
            for system in SystemID.allCases {
                let name = system.name.padding(toLength: 16, withPad: " ", startingAt: 0)
                lines.append(name + String(format: "%6.2f", Double(profiler.wall(system) ?? 0) / 1e6))
            }
            #if DEBUG
                let d = sim.triggers.diagnostics
                lines.append("trigger diagnostics: \(d.conflicts) conflicts, \(d.leaks) leaks, \(d.refusals) refusals")
            #else
                lines.append("trigger diagnostics: not compiled into release builds")
            #endif
        } else {
            lines.append("1-3 camera  P pause  O overlay  +/- characters  Esc quit")
        }
        return lines
    }
}
