import BoneworkImage
import CGL

/// An offscreen framebuffer: `width` x `height` pixels of RGBA8 (not sRGB, no multisampling, no
/// depth), read back as an `Image` with rows top-down.
public final class OffscreenTarget {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    let framebuffer: GLuint
    let colorBuffer: GLuint
    let context: GLContext

    /// A framebuffer of `width` x `height` (1...16384 each) in `context`.
    /// - Throws: `RenderError.framebuffer` for a size out of range or an incomplete framebuffer.
    public init(width: Int, height: Int, context: GLContext) throws(RenderError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw .framebuffer("size \(width) x \(height) out of range 1...16384")
        }
        self.width = width
        self.height = height
        self.context = context
        context.makeCurrent()
        var framebuffer: GLuint = 0
        var colorBuffer: GLuint = 0
        glGenFramebuffers(1, &framebuffer)
        glGenRenderbuffers(1, &colorBuffer)
        glBindRenderbuffer(GL.e(GL_RENDERBUFFER), colorBuffer)
        glRenderbufferStorage(GL.e(GL_RENDERBUFFER), GL.e(GL_RGBA8), GLsizei(width), GLsizei(height))
        glBindFramebuffer(GL.e(GL_FRAMEBUFFER), framebuffer)
        glFramebufferRenderbuffer(GL.e(GL_FRAMEBUFFER), GL.e(GL_COLOR_ATTACHMENT0), GL.e(GL_RENDERBUFFER), colorBuffer)
        let status = glCheckFramebufferStatus(GL.e(GL_FRAMEBUFFER))
        guard status == GL.e(GL_FRAMEBUFFER_COMPLETE) else {
            glBindFramebuffer(GL.e(GL_FRAMEBUFFER), 0)
            glDeleteFramebuffers(1, &framebuffer)
            glDeleteRenderbuffers(1, &colorBuffer)
            throw .framebuffer("incomplete framebuffer, status 0x\(String(status, radix: 16))")
        }
        self.framebuffer = framebuffer
        self.colorBuffer = colorBuffer
    }

    deinit {
        guard context.makeCurrent() else { return }
        var framebuffer = framebuffer
        var colorBuffer = colorBuffer
        glDeleteFramebuffers(1, &framebuffer)
        glDeleteRenderbuffers(1, &colorBuffer)
    }

    /// Binds the target for drawing, with a viewport over all of it.
    public func bind() {
        context.makeCurrent()
        glBindFramebuffer(GL.e(GL_FRAMEBUFFER), framebuffer)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    /// Clears to a premultiplied colour (components 0...1).
    public func clear(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        bind()
        glClearColor(r, g, b, a)
        glClear(GL.e(GL_COLOR_BUFFER_BIT))
    }

    /// Reads the pixels as stored (premultiplied), the top row first.
    public func readImage() -> Image {
        var image = Image(width: width, height: height)
        readImage(into: &image)
        return image
    }

    /// Reads into an existing image of the same size (no allocation once it has its pixels).
    public func readImage(into image: inout Image) {
        bind()
        let rowBytes = width * 4
        if image.width != width || image.height != height || image.pixels.count != rowBytes * height {
            image = Image(width: width, height: height)
        }
        glPixelStorei(GL.e(GL_PACK_ALIGNMENT), 1)
        image.pixels.withUnsafeMutableBytes { bytes in
            glReadPixels(
                0, 0, GLsizei(width), GLsizei(height), GL.e(GL_RGBA), GL.e(GL_UNSIGNED_BYTE), bytes.baseAddress)
            // GL's first row is the bottom one: flip in place.
            var top = 0
            var bottom = height - 1
            while top < bottom {
                let a = bytes.baseAddress! + top * rowBytes
                let b = bytes.baseAddress! + bottom * rowBytes
                for k in 0..<rowBytes {
                    let t = a.load(fromByteOffset: k, as: UInt8.self)
                    a.storeBytes(of: b.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self)
                    b.storeBytes(of: t, toByteOffset: k, as: UInt8.self)
                }
                top += 1
                bottom -= 1
            }
        }
    }
}
