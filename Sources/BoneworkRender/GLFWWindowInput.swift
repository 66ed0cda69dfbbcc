import CGL
import CGLFW

/// Pointer, keys and the window's own framebuffer, for interactive views.
extension GLFWWindowContext {
    /// The cursor position in window units (origin top-left, y down).
    public var cursorPosition: (x: Double, y: Double) {
        var x: Double = 0
        var y: Double = 0
        glfwGetCursorPos(window, &x, &y)
        return (x, y)
    }

    /// The window size in screen units.
    public var windowSize: (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        glfwGetWindowSize(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// Whether a mouse button (0 left, 1 right, 2 middle) is held.
    public func isMouseButtonPressed(_ button: Int32) -> Bool { glfwGetMouseButton(window, button) == GLFW_PRESS }

    /// Binds the window's framebuffer with a viewport over all of it and clears it to a
    /// premultiplied colour.
    public func beginFrame(clearRed r: Float, green g: Float, blue b: Float, alpha a: Float) {
        makeCurrent()
        let size = framebufferSize
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
        glClearColor(r, g, b, a)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    }
}

/// GLFW key codes used by the viewers.
public enum WindowKey {
    /// The space bar.
    public static let space = GLFW_KEY_SPACE
    /// Escape.
    public static let escape = GLFW_KEY_ESCAPE
    /// The left arrow.
    public static let left = GLFW_KEY_LEFT
    /// The right arrow.
    public static let right = GLFW_KEY_RIGHT
    /// The up arrow.
    public static let up = GLFW_KEY_UP
    /// The down arrow.
    public static let down = GLFW_KEY_DOWN
    /// Page Up.
    public static let pageUp = GLFW_KEY_PAGE_UP
    /// Page Down.
    public static let pageDown = GLFW_KEY_PAGE_DOWN
    /// The main Return key (not the keypad's Enter).
    public static let enter = GLFW_KEY_ENTER
    /// Letter keys: `letter("a")`.
    public static func letter(_ c: Character) -> Int32 {
        guard let v = c.uppercased().unicodeScalars.first?.value, v >= 65, v <= 90 else { return GLFW_KEY_UNKNOWN }
        return Int32(v)
    }
    /// Digit keys of the main row: `digit(1)` (clamped to 0...9).
    public static func digit(_ d: Int) -> Int32 { GLFW_KEY_0 + Int32(max(0, min(9, d))) }
}
