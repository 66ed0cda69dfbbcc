import CGLFW

/// A window with an OpenGL 3.3 core context, through GLFW. Needs a window system (X11 or
/// Wayland); without one, creation throws `RenderError.noDisplay`. Use it on the main thread.
public final class GLFWWindowContext {
    let window: OpaquePointer

    /// Opens a window of `width` x `height` screen units and makes its context current.
    public init(width: Int, height: Int, title: String, visible: Bool = true) throws(RenderError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw .contextCreation("window size \(width) x \(height) out of range")
        }
        guard glfwInit() == GLFW_TRUE else {
            throw .noDisplay("glfwInit failed: \(Self.lastError())")
        }
        glfwDefaultWindowHints()
        glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
        glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE)
        glfwWindowHint(GLFW_SAMPLES, 0)
        guard let window = glfwCreateWindow(Int32(width), Int32(height), title, nil, nil) else {
            throw .contextCreation("glfwCreateWindow (OpenGL 3.3 core) failed: \(Self.lastError())")
        }
        self.window = window
        glfwMakeContextCurrent(window)
        glfwSwapInterval(1)
    }

    deinit {
        if glfwGetCurrentContext() == window { glfwMakeContextCurrent(nil) }
        glfwDestroyWindow(window)
    }

    /// Makes the window's GL context current on this thread.
    public func makeCurrent() { glfwMakeContextCurrent(window) }
    /// Whether the window's context is current on this thread.
    public var isCurrent: Bool { glfwGetCurrentContext() == window }

    /// The drawable size in pixels (differs from the window size on high-density screens).
    public var framebufferSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        glfwGetFramebufferSize(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// Whether the user asked to close the window (settable, to close it from code).
    public var shouldClose: Bool {
        get { glfwWindowShouldClose(window) != 0 }
        set { glfwSetWindowShouldClose(window, newValue ? GLFW_TRUE : GLFW_FALSE) }
    }

    /// Shows the frame drawn.
    public func swapBuffers() { glfwSwapBuffers(window) }
    /// Frames to wait for before a swap (1: vsync, 0: as fast as possible).
    public func setSwapInterval(_ interval: Int) { glfwSwapInterval(Int32(interval)) }
    /// Replaces the window's title.
    public func setTitle(_ title: String) { glfwSetWindowTitle(window, title) }
    /// Sets the window's title from a NUL-terminated UTF-8 string (no String is made).
    public func setTitle(cString title: UnsafePointer<CChar>) { glfwSetWindowTitle(window, title) }
    /// Whether `key` (a `WindowKey` code) is held now.
    public func isKeyPressed(_ key: Int32) -> Bool { glfwGetKey(window, key) == GLFW_PRESS }

    /// Processes pending window events (call once per frame).
    public static func pollEvents() { glfwPollEvents() }
    /// Seconds since GLFW was initialised.
    public static var time: Double { glfwGetTime() }

    static func lastError() -> String {
        var description: UnsafePointer<CChar>? = nil
        let code = glfwGetError(&description)
        guard code != GLFW_NO_ERROR else { return "no error reported" }
        let text = description.map { String(cString: $0) } ?? "unknown"
        return "\(text) (GLFW error 0x\(String(code, radix: 16)))"
    }
}
