import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import CGL
import CGLFW
import Foundation

/// Scroll wheel movement since the last frame (GLFW reports it through a C callback).
nonisolated(unsafe) private var scrollAccumulated: Double = 0

/// The crowd in a GLFW window: the HUD (per-system milliseconds, instances, draw calls, FPS)
/// is the window title; keys 1-3 switch camera presets with a one-second transition, the mouse
/// pans (left drag) and zooms (wheel); P pauses, + / - add or remove 1,000 characters, O
/// toggles the debug overlay (per-system breakdown and trigger diagnostics in the HUD, goal
/// markers: agents drawn without culling so the whole crowd shows), Escape quits.
enum CrowdWindow {
    static func run(
        sim: CrowdSimulation, atlases: [Atlas], delta: Float, churn: Float, window: GLFWWindowContext,
        maxFrames: Int?
    ) throws -> String {
        let context = GLContext.window(window)
        let renderer = try BatchRenderer(context: context)
        var textures: [AtlasTextures] = []
        var drawData: [SkeletonDrawData] = []
        for (k, kind) in sim.kinds.enumerated() {
            textures.append(try AtlasTextures(atlas: atlases[k], context: context))
            drawData.append(SkeletonDrawData(kind.data))
        }
        var size = window.framebufferSize
        var camera = CrowdCamera(
            screenWidth: Float(size.width), screenHeight: Float(size.height), halfExtent: sim.halfExtent)
        if let handle = glfwGetCurrentContext() {
            glfwSetScrollCallback(handle) { _, _, dy in scrollAccumulated += dy }
        }
        var paused = false
        var overlay = false
        var previousKeys = Set<Int32>()
        var lastCursor: (Double, Double)? = nil
        var list = DrawList()
        var builder = FrameBuilder()
        var fpsFrames = 0
        var fpsStart = GLFWWindowContext.time
        var fps = 0.0
        var crowdMilliseconds = [Double](repeating: 0, count: 3)
        var title = ""
        var shown = 0
        while !window.shouldClose {
            if let maxFrames, shown >= maxFrames { break }
            shown += 1
            GLFWWindowContext.pollEvents()
            var pressed = Set<Int32>()
            for key in [
                GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_P, GLFW_KEY_O, GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD,
                GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT, GLFW_KEY_ESCAPE,
            ] where window.isKeyPressed(key) {
                pressed.insert(key)
            }
            let down = pressed.subtracting(previousKeys)
            previousKeys = pressed
            if down.contains(GLFW_KEY_ESCAPE) { window.shouldClose = true }
            if down.contains(GLFW_KEY_1) { camera.select(.overview) }
            if down.contains(GLFW_KEY_2) { camera.select(.closeUp) }
            if down.contains(GLFW_KEY_3) { camera.select(.follow) }
            if down.contains(GLFW_KEY_P) { paused.toggle() }
            if down.contains(GLFW_KEY_O) { overlay.toggle() }
            if !down.isDisjoint(with: [GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD]) { try sim.spawn(1000) }
            if !down.isDisjoint(with: [GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT]) { try sim.remove(1000) }
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
            if !paused {
                try sim.step(delta: delta, churn: churn)
                if let last = sim.world.scheduler.profiler.frame() {
                    crowdMilliseconds = last.applicationWall.map { Double($0) / 1e6 }
                }
            }
            camera.update(delta: delta, halfExtent: sim.halfExtent, followed: sim.position(of: 0))
            // Draw the agents in view, back to front.
            let v = camera.view
            let viewport = WorldViewport(
                x: v.x - camera.screenWidth / 2 / v.zoom, y: v.y - camera.screenHeight / 2 / v.zoom,
                width: camera.screenWidth / v.zoom, height: camera.screenHeight / v.zoom)
            list.removeAll()
            var order: [Int] = []
            let margin: Float = 150
            for a in 0..<sim.count {
                let x = sim.x[a]
                let y = sim.y[a]
                if overlay
                    || (x > viewport.x - margin && x < viewport.x + viewport.width + margin
                        && y > viewport.y - margin && y < viewport.y + viewport.height + margin)
                {
                    order.append(a)
                }
            }
            order.sort { sim.y[$0] > sim.y[$1] }
            for a in order {
                let k = Int(sim.kind[a])
                // Straight from the instance's columns: its attachments as its (possibly
                // composed) skin resolved them, no copy of the pose.
                let pose = try sim.world.poseView(sim.entity[a])
                builder.build(pose, drawData: drawData[k], pages: textures[k].bindings, into: &list)
            }
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glClearColor(0.16, 0.18, 0.2, 1)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            renderer.draw(list, viewport: viewport)
            sim.world.scheduler.profiler.record(renderer.lastFrame)
            window.swapBuffers()
            fpsFrames += 1
            let now = GLFWWindowContext.time
            if now - fpsStart >= 0.5 {
                fps = Double(fpsFrames) / (now - fpsStart)
                fpsFrames = 0
                fpsStart = now
            }
            title = hud(
                sim: sim, crowd: crowdMilliseconds, drawCalls: renderer.lastDrawCalls, fps: fps, paused: paused,
                overlay: overlay, camera: camera)
            window.setTitle(title)
        }
        withExtendedLifetime(textures) {}
        return title
    }

    static func hud(
        sim: CrowdSimulation, crowd: [Double], drawCalls: Int, fps: Double, paused: Bool, overlay: Bool,
        camera: CrowdCamera
    ) -> String {
        let profiler = sim.world.scheduler.profiler
        var parts = ["\(sim.count) characters", "\(drawCalls) draw calls", String(format: "%.0f FPS", fps)]
        let engine = SystemID.allCases.reduce(0.0) { $0 + Double(profiler.wall($1) ?? 0) / 1e6 }
        parts.append(
            String(format: "steer %.2f  triggers %.2f  engine %.2f ms", crowd[1], crowd[2], engine))
        if overlay {
            for system in SystemID.allCases {
                parts.append(String(format: "%@ %.2f", system.name, Double(profiler.wall(system) ?? 0) / 1e6))
            }
            #if DEBUG
                let d = sim.triggers.diagnostics
                parts.append("diagnostics: \(d.conflicts) conflicts, \(d.leaks) leaks, \(d.refusals) refusals")
            #endif
        }
        if paused { parts.append("paused") }
        parts.append("camera \(camera.preset.map { "\($0)" } ?? "free")")
        return "bonework crowd | " + parts.joined(separator: " | ")
    }
}
