import BoneworkFormat
import CGL

/// The world-space rectangle (y up) mapped onto the whole target; `(x, y)` is its bottom-left.
public struct WorldViewport: Sendable, Equatable {
    /// The left edge, world units.
    public var x: Float
    /// The bottom edge, world units.
    public var y: Float
    /// World units across the target.
    public var width: Float
    /// World units up the target.
    public var height: Float

    /// A viewport from its bottom-left corner and size.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The CPU vertex path: draws a `DrawList` (world-space triangles, already posed, coloured and
/// clipped) with one draw call per batch, through a persistent streaming vertex and index buffer.
///
/// Fragment colour (two-colour tint of a premultiplied texel `t`):
/// `a = t.a * light.a`, `rgb = ((t.a - 1) * dark.a + 1 - t.rgb) * dark.rgb + t.rgb * light.rgb`.
/// Blending is ADD with the factors of `blendFactors(_:premultiplied:)`.
public final class BatchRenderer {
    let context: GLContext
    let program: ShaderProgram
    let vertexArray: GLuint
    let vertexBuffer: GLuint
    let indexBuffer: GLuint
    var vertexCapacity = 0
    var indexCapacity = 0
    let originUniform: GLint
    let scaleUniform: GLint

    /// Draw calls issued by the last `draw`.
    public private(set) var lastDrawCalls = 0
    /// What the last `draw` cost (draw calls, CPU time, bytes uploaded).
    public private(set) var lastFrame = RenderFrameStats()

    static let vertexShader = """
        #version 330 core
        layout(location = 0) in vec2 aPosition;
        layout(location = 1) in vec2 aUV;
        layout(location = 2) in vec4 aLight;
        layout(location = 3) in vec4 aDark;
        uniform vec2 uOrigin;
        uniform vec2 uScale;
        out vec2 vUV;
        out vec4 vLight;
        out vec4 vDark;
        void main() {
            vUV = aUV;
            vLight = aLight;
            vDark = aDark;
            gl_Position = vec4((aPosition - uOrigin) * uScale - 1.0, 0.0, 1.0);
        }
        """

    static let fragmentShader = """
        #version 330 core
        uniform sampler2D uTexture;
        in vec2 vUV;
        in vec4 vLight;
        in vec4 vDark;
        out vec4 fragColor;
        void main() {
            vec4 t = texture(uTexture, vUV);
            fragColor.a = t.a * vLight.a;
            fragColor.rgb = ((t.a - 1.0) * vDark.a + 1.0 - t.rgb) * vDark.rgb + t.rgb * vLight.rgb;
        }
        """

    /// Compiles the shader and creates the buffers in `context` (made current).
    public init(context: GLContext) throws(RenderError) {
        self.context = context
        context.makeCurrent()
        program = try ShaderProgram(vertex: Self.vertexShader, fragment: Self.fragmentShader, context: context)
        originUniform = program.uniform("uOrigin")
        scaleUniform = program.uniform("uScale")
        glUseProgram(program.name)
        glUniform1i(program.uniform("uTexture"), 0)

        var vertexArray: GLuint = 0
        var buffers: [GLuint] = [0, 0]
        glGenVertexArrays(1, &vertexArray)
        glGenBuffers(2, &buffers)
        self.vertexArray = vertexArray
        vertexBuffer = buffers[0]
        indexBuffer = buffers[1]
        glBindVertexArray(vertexArray)
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), vertexBuffer)
        glBindBuffer(GL.e(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        let stride = GLsizei(MemoryLayout<RenderVertex>.stride)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GL.e(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribPointer(1, 2, GL.e(GL_FLOAT), GLboolean(GL_FALSE), stride, UnsafeRawPointer(bitPattern: 8))
        glEnableVertexAttribArray(2)
        glVertexAttribPointer(
            2, 4, GL.e(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, UnsafeRawPointer(bitPattern: 16))
        glEnableVertexAttribArray(3)
        glVertexAttribPointer(
            3, 4, GL.e(GL_UNSIGNED_BYTE), GLboolean(GL_TRUE), stride, UnsafeRawPointer(bitPattern: 20))
        glBindVertexArray(0)
        let error = GL.firstError()
        guard error == 0 else { throw .contextCreation("setting up buffers: GL error 0x\(String(error, radix: 16))") }
    }

    deinit {
        guard context.makeCurrent() else { return }
        var vertexArray = vertexArray
        let buffers = [vertexBuffer, indexBuffer]
        glDeleteVertexArrays(1, &vertexArray)
        glDeleteBuffers(2, buffers)
    }

    /// The blend factors (srcRGB, dstRGB, srcAlpha, dstAlpha) of a blend mode. Premultiplied
    /// textures: normal ONE, 1-SRC_ALPHA; additive ONE, ONE; multiply DST_COLOR, 1-SRC_ALPHA with
    /// alpha ONE, 1-SRC_ALPHA; screen ONE, 1-SRC_COLOR for both. Straight textures use SRC_ALPHA as
    /// the colour source factor of normal and additive.
    public static func blendFactors(_ mode: BlendMode, premultiplied: Bool) -> (Int32, Int32, Int32, Int32) {
        switch mode {
        case .normal:
            return (premultiplied ? GL_ONE : GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA)
        case .additive:
            return (premultiplied ? GL_ONE : GL_SRC_ALPHA, GL_ONE, GL_ONE, GL_ONE)
        case .multiply:
            return (GL_DST_COLOR, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA)
        case .screen:
            return (GL_ONE, GL_ONE_MINUS_SRC_COLOR, GL_ONE, GL_ONE_MINUS_SRC_COLOR)
        }
    }

    /// Draws `list` into `target` (which is bound), mapping `viewport` onto all of it.
    @discardableResult
    public func draw(_ list: DrawList, viewport: WorldViewport, into target: OffscreenTarget) -> RenderFrameStats {
        target.bind()
        return draw(list, viewport: viewport)
    }

    /// Draws `list` into the currently bound framebuffer and GL viewport, mapping `viewport` onto it.
    /// (Building the list is the caller's CPU time; the stats cover the upload and draw calls.)
    @discardableResult
    public func draw(_ list: DrawList, viewport: WorldViewport) -> RenderFrameStats {
        let clock = RenderClock()
        var stats = RenderFrameStats()
        lastDrawCalls = 0
        if !list.batches.isEmpty && viewport.width != 0 && viewport.height != 0 {
            stats.uploadBytes = list.vertices.count * MemoryLayout<RenderVertex>.stride + list.indices.count * 4
            encode(list, viewport: viewport)
        }
        clock.finish(&stats)
        stats.drawCalls = lastDrawCalls
        lastFrame = stats
        return stats
    }

    private func encode(_ list: DrawList, viewport: WorldViewport) {
        context.makeCurrent()
        glDisable(GL.e(GL_DEPTH_TEST))
        glDisable(GL.e(GL_CULL_FACE))
        glDisable(GL.e(GL_SCISSOR_TEST))
        glEnable(GL.e(GL_BLEND))
        glBlendEquation(GL.e(GL_FUNC_ADD))
        glUseProgram(program.name)
        glUniform2f(originUniform, viewport.x, viewport.y)
        glUniform2f(scaleUniform, 2 / viewport.width, 2 / viewport.height)
        glActiveTexture(GL.e(GL_TEXTURE0))
        glBindVertexArray(vertexArray)
        upload(list)

        var boundTexture: UInt32? = nil
        var boundBlend: (BlendMode, Bool)? = nil
        for batch in list.batches {
            if boundTexture != batch.texture {
                glBindTexture(GL.e(GL_TEXTURE_2D), batch.texture)
                boundTexture = batch.texture
            }
            if boundBlend == nil || boundBlend! != (batch.blendMode, batch.premultiplied) {
                let f = Self.blendFactors(batch.blendMode, premultiplied: batch.premultiplied)
                glBlendFuncSeparate(GL.e(f.0), GL.e(f.1), GL.e(f.2), GL.e(f.3))
                boundBlend = (batch.blendMode, batch.premultiplied)
            }
            glDrawElements(
                GL.e(GL_TRIANGLES), GLsizei(batch.indexCount), GL.e(GL_UNSIGNED_INT),
                UnsafeRawPointer(bitPattern: batch.indexStart * 4))
            lastDrawCalls += 1
        }
        glBindVertexArray(0)
    }

    /// Streams the list into the buffers: orphan the old storage (growing it when too small), then
    /// copy, so the driver never waits for the previous frame's draws.
    private func upload(_ list: DrawList) {
        let vertexBytes = list.vertices.count * MemoryLayout<RenderVertex>.stride
        let indexBytes = list.indices.count * 4
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), vertexBuffer)
        if vertexBytes > vertexCapacity { vertexCapacity = max(vertexBytes, vertexCapacity * 2, 64 * 1024) }
        glBufferData(GL.e(GL_ARRAY_BUFFER), GLsizeiptr(vertexCapacity), nil, GL.e(GL_STREAM_DRAW))
        list.vertices.withUnsafeBytes {
            glBufferSubData(GL.e(GL_ARRAY_BUFFER), 0, GLsizeiptr(vertexBytes), $0.baseAddress)
        }
        if indexBytes > indexCapacity { indexCapacity = max(indexBytes, indexCapacity * 2, 64 * 1024) }
        glBufferData(GL.e(GL_ELEMENT_ARRAY_BUFFER), GLsizeiptr(indexCapacity), nil, GL.e(GL_STREAM_DRAW))
        list.indices.withUnsafeBytes {
            glBufferSubData(GL.e(GL_ELEMENT_ARRAY_BUFFER), 0, GLsizeiptr(indexBytes), $0.baseAddress)
        }
    }
}
