/// Why the renderer could not do what was asked. Thrown, never trapped on.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No EGL implementation, or it cannot give a surfaceless display (headless rendering).
    case eglUnavailable(String)
    /// No window system to open a window on (no X server / Wayland compositor).
    case noDisplay(String)
    /// The platform has a display but refused an OpenGL 3.3 core context.
    case contextCreation(String)
    /// A shader did not compile or link; the message is the driver's log.
    case shader(String)
    /// An offscreen framebuffer could not be completed (GL status code) or has an unusable size.
    case framebuffer(String)
    /// A texture could not be made (size, pixel count).
    case texture(String)
    /// A render request could not be carried out (missing skin or animation, bad field).
    case request(String)
    /// Per-frame GL buffers could not be allocated or mapped.
    case buffer(String)

    /// What failed, on one line, with the driver's or the platform's words.
    public var description: String {
        switch self {
        case .eglUnavailable(let message): "EGL unavailable: \(message)"
        case .noDisplay(let message): "no display: \(message)"
        case .contextCreation(let message): "OpenGL context creation failed: \(message)"
        case .shader(let message): "shader error: \(message)"
        case .framebuffer(let message): "framebuffer error: \(message)"
        case .texture(let message): "texture error: \(message)"
        case .request(let message): "render request: \(message)"
        case .buffer(let message): "buffer error: \(message)"
        }
    }
}
