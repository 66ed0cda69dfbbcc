import BoneworkFormat
import BoneworkRender
import Foundation

/// A desktop window (GLFW, OpenGL 3.3) showing a `SkeletonView`. Without a window system,
/// `init` throws `RenderError.noDisplay` (never crashes).
///
/// `run` follows the view lifecycle: `make` once (GL resources), `update` every frame from the
/// current state, `dismantle` when the window closes.
public final class SkeletonWindow {
    /// The view shown.
    public let view: SkeletonView
    /// The window and its GL context.
    public let context: GLFWWindowContext
    /// Called every frame before the view updates (input handling); return false to close.
    public var onFrame: ((SkeletonWindow, Float) throws -> Bool)?
    private var previousKeys: Set<Int32> = []
    private var currentKeys: Set<Int32> = []
    private var watchedKeys: Set<Int32> = []

    /// Opens a window the view's size.
    /// - Throws: `RenderError.noDisplay` without a window system.
    public init(title: String, view: SkeletonView) throws {
        self.view = view
        context = try GLFWWindowContext(
            width: max(1, Int(view.size.width.rounded())), height: max(1, Int(view.size.height.rounded())), title: title
        )
    }

    /// The cursor in view pixels (y down).
    public var cursor: Point {
        let c = context.cursorPosition
        return Point(x: Float(c.x), y: Float(c.y))
    }
    /// Whether the left mouse button is held.
    public var isMouseDown: Bool { context.isMouseButtonPressed(0) }
    /// Whether `key` (a GLFW key code, see `WindowKey`) is held now.
    public func isKeyDown(_ key: Int32) -> Bool { context.isKeyPressed(key) }
    /// Whether `key` went down since the last frame.
    public func wasKeyPressed(_ key: Int32) -> Bool {
        watchedKeys.insert(key)
        return currentKeys.contains(key) && !previousKeys.contains(key)
    }
    /// Replaces the window's title.
    public func setTitle(_ title: String) { context.setTitle(title) }

    /// Shows frames until the window is closed, `onFrame` returns false, or `maxFrames` have run.
    public func run(maxFrames: Int? = nil) throws {
        try view.make(context: .window(context))
        defer { view.dismantle() }
        var last = GLFWWindowContext.time
        var frames = 0
        while !context.shouldClose {
            GLFWWindowContext.pollEvents()
            previousKeys = currentKeys
            currentKeys = Set(watchedKeys.filter { context.isKeyPressed($0) })
            let now = GLFWWindowContext.time
            let delta = Float(min(0.1, max(0, now - last)))
            last = now
            if let onFrame, try !onFrame(self, delta) { break }
            let window = context.windowSize
            view.size = Size(width: Float(max(1, window.width)), height: Float(max(1, window.height)))
            let fb = context.framebufferSize
            if view.isRendering {
                let bg = view.backgroundColor
                context.beginFrame(clearRed: bg.r * bg.a, green: bg.g * bg.a, blue: bg.b * bg.a, alpha: bg.a)
                try view.update(delta: delta, targetSize: Size(width: Float(fb.width), height: Float(fb.height)))
                context.swapBuffers()
            } else {
                Thread.sleep(forTimeInterval: 1.0 / 60)
            }
            frames += 1
            if let maxFrames, frames >= maxFrames { break }
        }
    }
}
