import CEGL

/// An OpenGL 3.3 core context without any window system: EGL on Mesa's surfaceless platform. It
/// has no default framebuffer; draw into an `OffscreenTarget`. Not thread-safe: use it on one
/// thread (the context is current on the thread that created it or last called `makeCurrent`).
public final class HeadlessGLContext {
    let display: EGLDisplay
    let context: EGLContext

    /// Creates the context and makes it current on this thread.
    public init() throws(RenderError) {
        let surfaceless = EGLenum(EGL_PLATFORM_SURFACELESS_MESA)
        if let clientExtensions = eglQueryString(nil, EGLint(EGL_EXTENSIONS)) {
            let names = String(cString: clientExtensions)
            guard names.contains("EGL_MESA_platform_surfaceless") else {
                throw .eglUnavailable("the EGL client has no surfaceless platform (EGL_MESA_platform_surfaceless)")
            }
        } else {
            throw .eglUnavailable("eglQueryString(EGL_NO_DISPLAY) failed: \(Self.errorName())")
        }
        guard let display = eglGetPlatformDisplay(surfaceless, nil, nil) else {
            throw .eglUnavailable("no surfaceless display: \(Self.errorName())")
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGL_TRUE else {
            throw .eglUnavailable("eglInitialize failed: \(Self.errorName())")
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
            throw .contextCreation("eglBindAPI(EGL_OPENGL_API) failed: \(Self.errorName())")
        }
        let configAttributes: [EGLint] = [
            EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_BIT), EGLint(EGL_NONE),
        ]
        var config: EGLConfig? = nil
        var configCount: EGLint = 0
        if eglChooseConfig(display, configAttributes, &config, 1, &configCount) != EGL_TRUE || configCount == 0 {
            config = nil  // EGL_KHR_no_config_context: a surfaceless context needs no config
        }
        let contextAttributes: [EGLint] = [
            EGLint(EGL_CONTEXT_MAJOR_VERSION), 3,
            EGLint(EGL_CONTEXT_MINOR_VERSION), 3,
            EGLint(EGL_CONTEXT_OPENGL_PROFILE_MASK), EGLint(EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT),
            EGLint(EGL_NONE),
        ]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            throw .contextCreation("eglCreateContext (OpenGL 3.3 core) failed: \(Self.errorName())")
        }
        self.display = display
        self.context = context
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            let message = Self.errorName()
            eglDestroyContext(display, context)
            throw .contextCreation("eglMakeCurrent failed: \(message)")
        }
    }

    deinit {
        if eglGetCurrentContext() == context {
            eglMakeCurrent(display, nil, nil, nil)
        }
        eglDestroyContext(display, context)
        // The display stays initialised: other contexts of this process may still use it.
    }

    /// Makes this context current on the calling thread.
    public func makeCurrent() throws(RenderError) {
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            throw .contextCreation("eglMakeCurrent failed: \(Self.errorName())")
        }
    }

    /// Whether this context is current on the calling thread.
    public var isCurrent: Bool { eglGetCurrentContext() == context }

    static func errorName() -> String {
        let code = eglGetError()
        let names: [Int32: String] = [
            EGL_SUCCESS: "EGL_SUCCESS", EGL_NOT_INITIALIZED: "EGL_NOT_INITIALIZED", EGL_BAD_ACCESS: "EGL_BAD_ACCESS",
            EGL_BAD_ALLOC: "EGL_BAD_ALLOC", EGL_BAD_ATTRIBUTE: "EGL_BAD_ATTRIBUTE", EGL_BAD_CONFIG: "EGL_BAD_CONFIG",
            EGL_BAD_CONTEXT: "EGL_BAD_CONTEXT", EGL_BAD_DISPLAY: "EGL_BAD_DISPLAY", EGL_BAD_MATCH: "EGL_BAD_MATCH",
            EGL_BAD_PARAMETER: "EGL_BAD_PARAMETER", EGL_BAD_SURFACE: "EGL_BAD_SURFACE",
        ]
        return names[code] ?? "EGL error 0x\(String(code, radix: 16))"
    }
}
