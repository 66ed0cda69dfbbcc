import CGL

/// The OpenGL context GL objects were made in: kept alive by them and made current again before
/// they are deleted, so that a deinit never deletes names in another context.
public enum GLContext {
    /// A headless EGL context (offscreen rendering).
    case headless(HeadlessGLContext)
    /// A window's context.
    case window(GLFWWindowContext)

    /// Makes the context current on this thread; false when that failed.
    @discardableResult
    public func makeCurrent() -> Bool {
        switch self {
        case .headless(let context):
            if context.isCurrent { return true }
            do { try context.makeCurrent() } catch { return false }
            return true
        case .window(let window):
            if !window.isCurrent { window.makeCurrent() }
            return true
        }
    }

    /// The driver's renderer and version strings, e.g. "llvmpipe (LLVM 15.0.6, 256 bits) / 4.5 (Core Profile) Mesa".
    public var rendererDescription: String {
        makeCurrent()
        func string(_ name: Int32) -> String {
            guard let raw = glGetString(GLenum(name)) else { return "?" }
            return String(cString: UnsafeRawPointer(raw).assumingMemoryBound(to: CChar.self))
        }
        return "\(string(GL_RENDERER)) / \(string(GL_VERSION))"
    }
}

/// Small helpers over the C API's integer types.
enum GL {
    @inline(__always) static func e(_ value: Int32) -> GLenum { GLenum(value) }

    /// Whether the current context can make immutable, persistently mapped buffers
    /// (`ARB_buffer_storage`, core since GL 4.4).
    static func hasBufferStorage() -> Bool {
        var major: GLint = 0
        var minor: GLint = 0
        glGetIntegerv(e(GL_MAJOR_VERSION), &major)
        glGetIntegerv(e(GL_MINOR_VERSION), &minor)
        if major > 4 || (major == 4 && minor >= 4) { return true }
        var count: GLint = 0
        glGetIntegerv(e(GL_NUM_EXTENSIONS), &count)
        for k in 0..<max(0, Int(count)) {
            guard let raw = glGetStringi(e(GL_EXTENSIONS), GLuint(k)) else { continue }
            let name = String(cString: UnsafeRawPointer(raw).assumingMemoryBound(to: CChar.self))
            if name == "GL_ARB_buffer_storage" { return true }
        }
        return false
    }

    /// Waits until the GPU has passed `fence`, then deletes it. Bounded (ten one-second waits): a
    /// lost context must not hang the caller forever.
    static func waitAndDelete(_ fence: GLsync) {
        for _ in 0..<10 {
            let result = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
            if result != GL.e(GL_TIMEOUT_EXPIRED) { break }
        }
        glDeleteSync(fence)
    }

    /// Drains the GL error queue; returns the first error code (0 when none).
    static func firstError() -> GLenum {
        var first: GLenum = 0
        for _ in 0..<16 {
            let code = glGetError()
            if code == GLenum(GL_NO_ERROR) { break }
            if first == 0 { first = code }
        }
        return first
    }
}
