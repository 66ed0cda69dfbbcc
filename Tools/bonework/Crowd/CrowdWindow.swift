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
        // The crowd's application systems' last times (ms) and the HUD's text: storage made once.
        let crowdMilliseconds = UnsafeMutableBufferPointer<Double>.allocate(capacity: 3)
        crowdMilliseconds.initialize(repeating: 0)
        defer { crowdMilliseconds.deallocate() }
        let text = HUDText()
        let title = WindowTitle(prefix: "bonework crowd | ")
        var allocations = FrameAllocations(warmup: 60)
        var shown = 0
        var steps = 0
        let started = GLFWWindowContext.time
        var last = started
        var accumulated = 0.0
        let delta = Double(options.delta)
        while !window.shouldClose {
            if let maxFrames = options.maxFrames, shown >= maxFrames { break }
            allocations.begin()
            inDriver { GLFWWindowContext.pollEvents() }
            // The key callback appends only while events are polled.
            defer { pressedKeys.removeAll(keepingCapacity: true) }
            for key in pressedKeys {
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
                let held = inDriver {
                    glfwGetCursorPos(handle, &cx, &cy)
                    return glfwGetMouseButton(handle, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS
                }
                if held {
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
            size = inDriver { window.framebufferSize }
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
                if ran > 0 {
                    for k in 0..<3 {
                        crowdMilliseconds[k] = Double(sim.world.scheduler.profiler.applicationWall(k) ?? 0) / 1e6
                    }
                }
            }
            camera.update(delta: Float(elapsed), halfExtent: sim.halfExtent, followed: sim.position(of: 0))
            let v = camera.view
            let viewport = WorldViewport(
                x: v.x - camera.screenWidth / 2 / v.zoom, y: v.y - camera.screenHeight / 2 / v.zoom,
                width: camera.screenWidth / v.zoom, height: camera.screenHeight / v.zoom)
            if sim.world.updateBudget != nil {
                sim.focus = (v.x, v.y, camera.screenWidth / 2 / v.zoom, camera.screenHeight / 2 / v.zoom)
            }
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glClearColor(0.16, 0.18, 0.2, 1)
            inDriver { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
            let drawn = try drawing.draw(sim, viewport: viewport, everyone: overlay)
            sim.world.scheduler.profiler.record(drawing.renderer.lastFrame)
            hudLines(
                into: text, sim: sim, drawn: drawn, crowd: UnsafeBufferPointer(crowdMilliseconds), drawing: drawing,
                fps: fps, paused: paused, overlay: overlay, camera: camera)
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
            hud.text(text, x: 12, y: 12, color: Color(1, 1, 1, 1))
            inDriver { hud.draw() }
            shown += 1
            let closing =
                window.shouldClose || options.maxFrames.map { shown >= $0 } == true
                || options.seconds.map { GLFWWindowContext.time - started >= $0 } == true
            if closing, let file = options.screenshot {
                try PNG.write(readFramebuffer(width: size.width, height: size.height), to: file)
                print("wrote \(file) (\(size.width)x\(size.height), \(drawn) characters drawn)")
            }
            inDriver { window.swapBuffers() }
            if closing { window.shouldClose = true }
            fpsFrames += 1
            let t = GLFWWindowContext.time
            if t - fpsStart >= 0.5 {
                fps = Double(fpsFrames) / (t - fpsStart)
                fpsFrames = 0
                fpsStart = t
            }
            // The window system's title changes only when the summary line does.
            if title.update(text.line(0)) { inDriver { title.apply(to: window) } }
            allocations.end(frame: shown - 1)
        }
        print("window: \(shown) frames drawn, \(steps) simulation steps of \(options.delta) s")
        print(allocations.line)
        return (0..<text.count).map { string(text, line: $0) }.joined(separator: " | ")
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

    /// Writes the HUD's text into `text`: a summary line, the GPU path's and the engine's costs,
    /// and with the overlay the per-system table and the trigger diagnostics. Allocates nothing.
    static func hudLines(
        into text: HUDText, sim: CrowdSimulation, drawn: Int, crowd: UnsafeBufferPointer<Double>,
        drawing: CrowdDrawing, fps: Double, paused: Bool, overlay: Bool, camera: CrowdCamera
    ) {
        let profiler = sim.world.scheduler.profiler
        let frame = drawing.renderer.lastFrame
        let calls = frame.drawCalls
        text.clear()
        text.append(sim.count)
        text.append(" characters, ")
        text.append(drawn)
        text.append(" drawn  ")
        text.append(calls)
        text.append(calls == 1 ? " draw call  " : " draw calls  ")
        text.append(fps, decimals: 0)
        text.append(" FPS")
        if paused { text.append("  PAUSED") }
        var engine = 0.0
        for system in systems { engine += Double(profiler.wall(system) ?? 0) / 1e6 }
        text.newLine()
        text.append("GPU path CPU ")
        text.append(Double(frame.cpuNanoseconds + drawing.cullNanoseconds) / 1e6, decimals: 2)
        text.append(" ms (cull ")
        text.append(Double(drawing.cullNanoseconds) / 1e6, decimals: 2)
        text.append(", pack ")
        text.append(Double(frame.packNanoseconds) / 1e6, decimals: 2)
        text.append(", submit ")
        text.append(Double(frame.submitNanoseconds) / 1e6, decimals: 2)
        text.append(")  engine ")
        text.append(engine, decimals: 2)
        text.append(" ms")
        text.newLine()
        text.append("steer ")
        text.append(crowd[1], decimals: 2)
        text.append(" ms  triggers ")
        text.append(crowd[2], decimals: 2)
        text.append(" ms  camera ")
        switch camera.preset {
        case .overview: text.append("overview")
        case .closeUp: text.append("closeUp")
        case .follow: text.append("follow")
        case nil: text.append("free")
        }
        text.append("  ")
        text.append(drawing.renderer.submission.rawValue)
        text.newLine()
        if overlay {
            text.append("system            ms")
            for system in systems {
                text.newLine()
                text.append(system.name)
                text.pad(to: 16)
                let ms = Double(profiler.wall(system) ?? 0) / 1e6
                if ms < 10 { text.append(byte: 0x20) }
                text.append(ms, decimals: 2)
            }
            text.newLine()
            #if DEBUG
                let d = sim.triggers.diagnostics
                text.append("trigger diagnostics: ")
                text.append(d.conflicts)
                text.append(" conflicts, ")
                text.append(d.leaks)
                text.append(" leaks, ")
                text.append(d.refusals)
                text.append(" refusals")
            #else
                text.append("trigger diagnostics: not compiled into release builds")
            #endif
        } else {
            text.append("1-3 camera  P pause  O overlay  +/- characters  Esc quit")
        }
    }

    /// The systems in table order (`allCases` would build an array per use).
    private static let systems = SystemID.allCases

    /// Line `i` of `text` as a String (for the log and the tests).
    static func string(_ text: HUDText, line i: Int) -> String { String(decoding: text.line(i), as: UTF8.self) }
}

/// The window's title as a C string kept between frames: a prefix and the HUD's summary line,
/// handed to the window system only when the line changed.
final class WindowTitle {
    private let prefix: [UInt8]
    private let bytes: UnsafeMutablePointer<CChar>
    private let capacity: Int
    private var length = -1

    init(prefix: String) {
        self.prefix = Array(prefix.utf8)
        capacity = self.prefix.count + HUDText.lineBytes + 1
        bytes = .allocate(capacity: capacity)
        bytes.initialize(repeating: 0, count: capacity)
        for (i, b) in self.prefix.enumerated() { bytes[i] = CChar(bitPattern: b) }
    }

    deinit { bytes.deallocate() }

    /// Takes `line` as the new summary; true when it differs from the last one.
    func update(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = prefix.count
        let n = min(line.count, capacity - start - 1)
        var same = n == length
        for i in 0..<n where bytes[start + i] != CChar(bitPattern: line[i]) {
            same = false
            bytes[start + i] = CChar(bitPattern: line[i])
        }
        bytes[start + n] = 0
        length = n
        return !same
    }

    func apply(to window: GLFWWindowContext) { window.setTitle(cString: bytes) }
}
