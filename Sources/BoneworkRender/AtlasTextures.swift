import BoneworkFormat
import BoneworkImage
import CGL

/// The GL textures of one atlas's pages, uploaded once and shared by every instance of every
/// skeleton that uses the atlas; deleted when this object goes away.
///
/// Pages are uploaded exactly as stored (8-bit RGBA, no premultiplying, no colour conversion) as
/// `GL_RGBA8`, image row 0 (the top) first, so atlas texture coordinates (v = 0 at the top) are
/// used unchanged. Filtering and wrapping come from the page's header.
public final class AtlasTextures {
    /// GL texture name of each page, in atlas page order.
    public let names: [UInt32]
    /// Whether each page holds premultiplied alpha.
    public let premultiplied: [Bool]
    let context: GLContext

    /// Uploads `images[k]` as page k of `atlas`. Throws when the counts differ or an image's pixel
    /// buffer does not match its size.
    public init(atlas: Atlas, images: [Image], context: GLContext) throws(RenderError) {
        guard images.count == atlas.pages.count else {
            throw .texture("\(atlas.file): \(atlas.pages.count) pages but \(images.count) images")
        }
        self.context = context
        context.makeCurrent()
        var names = [GLuint](repeating: 0, count: images.count)
        if !names.isEmpty { glGenTextures(GLsizei(names.count), &names) }
        for (k, image) in images.enumerated() {
            do {
                try Self.upload(image, page: atlas.pages[k], into: names[k], file: atlas.file)
            } catch {
                glDeleteTextures(GLsizei(names.count), names)
                throw error
            }
        }
        self.names = names
        premultiplied = atlas.pages.map(\.pma)
    }

    /// Reads every page's PNG (beside the atlas file, checked against the page's size) and
    /// uploads it exactly as stored.
    public convenience init(atlas: Atlas, context: GLContext) throws {
        try self.init(atlas: atlas, images: atlas.loadPageImages(premultiplied: false), context: context)
    }

    deinit {
        if !names.isEmpty && context.makeCurrent() { glDeleteTextures(GLsizei(names.count), names) }
    }

    private static func upload(_ image: Image, page: AtlasPage, into texture: GLuint, file: String) throws(RenderError)
    {
        guard image.width > 0, image.height > 0, image.width <= 16384, image.height <= 16384,
            image.pixels.count == image.width * image.height * 4
        else {
            throw .texture(
                "\(file): page \(page.name) image is \(image.width) x \(image.height) with \(image.pixels.count) bytes")
        }
        glBindTexture(GL.e(GL_TEXTURE_2D), texture)
        glPixelStorei(GL.e(GL_UNPACK_ALIGNMENT), 1)
        image.pixels.withUnsafeBytes { bytes in
            glTexImage2D(
                GL.e(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0, GL.e(GL_RGBA),
                GL.e(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        let minFilter = glFilter(page.minFilter, minifying: true)
        glTexParameteri(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_MIN_FILTER), minFilter)
        glTexParameteri(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_MAG_FILTER), glFilter(page.magFilter, minifying: false))
        glTexParameteri(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_WRAP_S), glWrap(page.uWrap))
        glTexParameteri(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_WRAP_T), glWrap(page.vWrap))
        if minFilter != GL_NEAREST && minFilter != GL_LINEAR {
            glGenerateMipmap(GL.e(GL_TEXTURE_2D))
        } else {
            glTexParameteri(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_MAX_LEVEL), 0)
        }
        let error = GL.firstError()
        guard error == 0 else {
            throw .texture("\(file): uploading page \(page.name) failed with GL error 0x\(String(error, radix: 16))")
        }
    }

    static func glFilter(_ filter: TextureFilter, minifying: Bool) -> GLint {
        if !minifying { return filter == .nearest ? GL_NEAREST : GL_LINEAR }
        switch filter {
        case .nearest: return GL_NEAREST
        case .linear: return GL_LINEAR
        case .mipMap, .mipMapLinearLinear: return GL_LINEAR_MIPMAP_LINEAR
        case .mipMapNearestNearest: return GL_NEAREST_MIPMAP_NEAREST
        case .mipMapLinearNearest: return GL_LINEAR_MIPMAP_NEAREST
        case .mipMapNearestLinear: return GL_NEAREST_MIPMAP_LINEAR
        }
    }

    static func glWrap(_ wrap: TextureWrap) -> GLint {
        switch wrap {
        case .clampToEdge: GL_CLAMP_TO_EDGE
        case .repeat: GL_REPEAT
        case .mirroredRepeat: GL_MIRRORED_REPEAT
        }
    }
}
