import CGL

/// Asks the driver whether GL object names are still alive in a context (for leak checks:
/// textures, buffers and framebuffers must be deleted when their owner goes away).
public enum GLObjectProbe {
    /// Whether `name` is a live texture in `context` (made current).
    public static func isTexture(_ name: UInt32, in context: GLContext) -> Bool {
        context.makeCurrent()
        return glIsTexture(name) == GLboolean(GL_TRUE)
    }

    /// Whether `name` is a live buffer in `context`.
    public static func isBuffer(_ name: UInt32, in context: GLContext) -> Bool {
        context.makeCurrent()
        return glIsBuffer(name) == GLboolean(GL_TRUE)
    }

    /// Whether `name` is a live framebuffer in `context`.
    public static func isFramebuffer(_ name: UInt32, in context: GLContext) -> Bool {
        context.makeCurrent()
        return glIsFramebuffer(name) == GLboolean(GL_TRUE)
    }

    /// Whether `name` is a live vertex array in `context`.
    public static func isVertexArray(_ name: UInt32, in context: GLContext) -> Bool {
        context.makeCurrent()
        return glIsVertexArray(name) == GLboolean(GL_TRUE)
    }
}
