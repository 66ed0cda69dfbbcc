import CEGL
import CGL
import Testing

/// Why a headless OpenGL context could not be made.
struct HeadlessGLError: Error, CustomStringConvertible {
    var step: String
    var eglError: EGLint

    var description: String {
        "headless OpenGL: \(step) failed (EGL error 0x\(String(eglError, radix: 16))). Bonework renders offscreen "
            + "through EGL on Mesa's surfaceless platform: install libegl1 and libgl1-mesa-dri."
    }
}

/// An OpenGL 3.3 core context with no window and no surface: Mesa's surfaceless EGL platform,
/// made current on the calling thread with EGL_NO_SURFACE. Draw into framebuffer objects.
///
/// GL entry points: the CGL module declares every core function through GL_GLEXT_PROTOTYPES and
/// links libGL. On glvnd systems libGL exports all of them (glGenFramebuffers and the other 3.x
/// functions included) as stubs that dispatch to whichever vendor owns the current context, and
/// EGL contexts share that dispatch through libGLdispatch, so direct calls reach Mesa and no
/// eglGetProcAddress loading is needed. `headlessContextRendersIntoAFramebuffer` proves it;
/// `procAddress` stays available for extensions a header does not declare.
final class HeadlessGL {
    let display: EGLDisplay
    let context: EGLContext
    private(set) var isCurrent = false

    init(major: EGLint = 3, minor: EGLint = 3) throws {
        guard let display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
            throw HeadlessGLError(step: "eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA)", eglError: eglGetError())
        }
        var eglMajor: EGLint = 0
        var eglMinor: EGLint = 0
        guard eglInitialize(display, &eglMajor, &eglMinor) == EGL_TRUE else {
            throw HeadlessGLError(step: "eglInitialize", eglError: eglGetError())
        }
        guard eglBindAPI(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
            let error = eglGetError()
            eglTerminate(display)
            throw HeadlessGLError(step: "eglBindAPI(EGL_OPENGL_API)", eglError: error)
        }
        let config = HeadlessGL.chooseConfig(display)
        let attributes: [EGLint] = [
            EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
            EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE,
        ]
        guard let context = eglCreateContext(display, config, nil, attributes) else {
            let error = eglGetError()
            eglTerminate(display)
            throw HeadlessGLError(step: "eglCreateContext(OpenGL \(major).\(minor) core)", eglError: error)
        }
        self.display = display
        self.context = context
        guard eglMakeCurrent(display, nil, nil, context) == EGL_TRUE else {
            let error = eglGetError()
            eglDestroyContext(display, context)
            eglTerminate(display)
            throw HeadlessGLError(step: "eglMakeCurrent(EGL_NO_SURFACE)", eglError: error)
        }
        isCurrent = true
    }

    /// An RGBA8 config usable for pbuffers, else any RGBA8 OpenGL config, else no config at all
    /// (EGL_KHR_no_config_context), which is fine because rendering goes to framebuffer objects.
    private static func chooseConfig(_ display: EGLDisplay) -> EGLConfig? {
        let dontCare: EGLint = -1  // EGL_DONT_CARE, a cast macro Swift does not import
        for surfaceType in [EGL_PBUFFER_BIT, dontCare] {
            let attributes: [EGLint] = [
                EGL_SURFACE_TYPE, surfaceType, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE,
            ]
            var config: EGLConfig?
            var count: EGLint = 0
            if eglChooseConfig(display, attributes, &config, 1, &count) == EGL_TRUE, count > 0, let config {
                return config
            }
        }
        return nil
    }

    /// An entry point looked up at run time, for functions no header declares.
    func procAddress(_ name: String) -> UnsafeMutableRawPointer? {
        unsafeBitCast(eglGetProcAddress(name), to: UnsafeMutableRawPointer?.self)
    }

    func close() {
        if isCurrent {
            eglMakeCurrent(display, nil, nil, nil)
            isCurrent = false
        }
        eglDestroyContext(display, context)
        eglTerminate(display)
        eglReleaseThread()
    }
}

private func glString(_ name: Int32) -> String {
    glGetString(GLenum(name)).map { String(cString: $0) } ?? ""
}

/// Contexts are current per thread and the surfaceless display is one shared object, so these
/// tests run one at a time and each keeps its work on one thread (no suspension points).
@Suite(.serialized) struct HeadlessGLTests {
    @Test func eglOpensAnOpenGL33CoreContextWithoutAWindow() throws {
        let gl = try HeadlessGL()
        defer { gl.close() }
        let version = glString(GL_VERSION)
        #expect(!version.isEmpty, "glGetString(GL_VERSION) returned nothing")
        var major: GLint = 0
        var minor: GLint = 0
        glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
        #expect(major * 10 + minor >= 33, "OpenGL \(major).\(minor) (\(version), \(glString(GL_RENDERER)))")
        var profile: GLint = 0
        glGetIntegerv(GLenum(GL_CONTEXT_PROFILE_MASK), &profile)
        #expect(profile & GL_CONTEXT_CORE_PROFILE_BIT != 0, "not a core profile context")
        var maxTexture: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxTexture)
        #expect(maxTexture >= 1024)
        #expect(glGetError() == GLenum(GL_NO_ERROR))
        // The run-time lookup also works, for functions no header declares.
        #expect(gl.procAddress("glGenFramebuffers") != nil)
    }

    @Test func headlessContextRendersIntoAFramebuffer() throws {
        let gl = try HeadlessGL()
        defer { gl.close() }
        let size: GLsizei = 8
        var framebuffer: GLuint = 0
        var renderbuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
        glGenRenderbuffers(1, &renderbuffer)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), size, size)
        glFramebufferRenderbuffer(
            GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
        defer {
            glDeleteRenderbuffers(1, &renderbuffer)
            glDeleteFramebuffers(1, &framebuffer)
        }
        #expect(framebuffer != 0 && renderbuffer != 0)
        #expect(glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE))

        glViewport(0, 0, size, size)
        glClearColor(0.2, 0.4, 0.6, 0.8)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        var pixels = [UInt8](repeating: 0, count: Int(size * size) * 4)
        glReadPixels(0, 0, size, size, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), &pixels)
        #expect(glGetError() == GLenum(GL_NO_ERROR))

        let expected: [UInt8] = [51, 102, 153, 204]
        var wrong = 0
        for (i, value) in pixels.enumerated() where abs(Int(value) - Int(expected[i % 4])) > 1 { wrong += 1 }
        #expect(wrong == 0, "cleared pixels \(Array(pixels.prefix(4))), expected \(expected)")
    }
}
