import BoneworkFormat
import BoneworkImage
import BoneworkRender
import CGL

/// The crowd window's on-screen text and markers, drawn in GL over the crowd: solid quads (text
/// as one quad per run of lit font pixels, `BitmapFont`) in window pixels from the top-left,
/// through the CPU vertex path with a 1x1 white texture. Rebuilt every frame; its list keeps its
/// storage, so a warm HUD allocates nothing.
final class CrowdHUD {
    private let renderer: BatchRenderer
    private let white: GLuint
    private var list = DrawList()
    /// One quad's corners, reused (a rectangle appends from it: no allocation per quad).
    private let corners = UnsafeMutableBufferPointer<Float>.allocate(capacity: 8)
    private static let uvs: [Float] = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]
    private static let triangles: [UInt16] = [0, 1, 2, 2, 3, 0]
    private var width: Float = 1
    private var height: Float = 1
    /// Window pixels per font pixel: 2 gives 10x14-pixel glyphs, readable at 1280x720.
    let scale: Float = 2
    /// Window pixels from one text line to the next.
    var lineHeight: Float { Float(BitmapFont.glyphHeight + 3) * scale }

    init(context: GLContext) throws {
        renderer = try BatchRenderer(context: context)
        var name: GLuint = 0
        glGenTextures(1, &name)
        glBindTexture(GLenum(GL_TEXTURE_2D), name)
        let pixel: [UInt8] = [255, 255, 255, 255]
        pixel.withUnsafeBytes {
            glTexImage2D(
                GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, 1, 1, 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        white = name
    }

    deinit {
        corners.deallocate()
        var name = white
        glDeleteTextures(1, &name)
    }

    /// Starts a frame's HUD for a window of `width` x `height` pixels.
    func begin(width: Int, height: Int) {
        list.removeAll()
        self.width = Float(max(1, width))
        self.height = Float(max(1, height))
    }

    /// A filled rectangle, window pixels from the top-left.
    func rect(x: Float, y: Float, width w: Float, height h: Float, color: Color) {
        let top = height - y
        (corners[0], corners[1], corners[2], corners[3]) = (x, top - h, x + w, top - h)
        (corners[4], corners[5], corners[6], corners[7]) = (x + w, top, x, top)
        let colors = SlotVertexColors(skeleton: .white, slot: color, attachment: .white, dark: nil, premultiplied: true)
        Self.uvs.withUnsafeBufferPointer { uvs in
            Self.triangles.withUnsafeBufferPointer { triangles in
                list.append(
                    positions: UnsafeBufferPointer(corners), uvs: uvs, vertexCount: 4, triangles: triangles,
                    colors: colors, texture: white, blendMode: .normal, premultiplied: true)
            }
        }
    }

    /// The lines of `text` from `(x, y)` (window pixels, top-left of the first line) on a dark
    /// backdrop.
    func text(_ text: HUDText, x: Float, y: Float, color: Color) {
        var widest = 0
        for i in 0..<text.count { widest = max(widest, text.line(i).count) }
        let width = Float(max(0, widest * BitmapFont.advance - 1)) * scale
        rect(
            x: x - 6, y: y - 6, width: width + 12, height: Float(text.count) * lineHeight + 9,
            color: Color(0, 0, 0, 0.6))
        for row in 0..<text.count {
            let top = y + Float(row) * lineHeight
            BitmapFont.forEachRun(text.line(row)) { run in
                rect(
                    x: x + Float(run.x) * scale, y: top + Float(run.y) * scale, width: Float(run.length) * scale,
                    height: scale, color: color)
            }
        }
    }

    /// Draws the frame's HUD over whatever the bound framebuffer holds.
    func draw() {
        renderer.draw(list, viewport: WorldViewport(x: 0, y: 0, width: width, height: height))
    }
}
