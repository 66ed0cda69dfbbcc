/// A texture sampling filter from an atlas page's `filter:` line; the raw value is the atlas spelling.
/// The mipmap filters make the renderer build mipmaps for the page.
public enum TextureFilter: String, Sendable {
    /// The nearest texel, unfiltered (sharp pixels).
    case nearest = "Nearest"
    /// Bilinear filtering of the four nearest texels.
    case linear = "Linear"
    /// Mipmapped; treated as ``mipMapLinearLinear``.
    case mipMap = "MipMap"
    /// The nearest texel of the nearest mipmap level.
    case mipMapNearestNearest = "MipMapNearestNearest"
    /// Bilinear filtering within the nearest mipmap level.
    case mipMapLinearNearest = "MipMapLinearNearest"
    /// The nearest texel, blended between the two nearest mipmap levels.
    case mipMapNearestLinear = "MipMapNearestLinear"
    /// Bilinear filtering, blended between the two nearest mipmap levels (trilinear).
    case mipMapLinearLinear = "MipMapLinearLinear"
}

/// How texture coordinates outside 0...1 are sampled along one axis of an atlas page, from its
/// `repeat:` line.
public enum TextureWrap: Sendable {
    /// The edge texel is stretched outward (the default, `repeat: none`).
    case clampToEdge
    /// The page tiles (`repeat: x`, `y` or `xy` for that axis).
    case `repeat`
    /// The page tiles, every other copy mirrored; no atlas line selects it.
    case mirroredRepeat
}

/// One texture page of an atlas, as its header lines describe it.
public struct AtlasPage: Sendable, Equatable {
    /// The page's image file name, relative to the atlas file.
    public var name: String
    /// Width of the page image in pixels, from its `size:` line; region texture coordinates divide by it.
    public var width: Int32 = 0
    /// Height of the page image in pixels, from its `size:` line.
    public var height: Int32 = 0
    /// The packer's pixel format name (`RGBA8888`, `RGB888`, ...); informational, pages are always
    /// loaded as 8-bit RGBA.
    public var format: String = "RGBA8888"
    /// Filter used when the page is drawn smaller than its pixel size.
    public var minFilter: TextureFilter = .nearest
    /// Filter used when the page is drawn larger than its pixel size.
    public var magFilter: TextureFilter = .nearest
    /// Wrapping along the horizontal texture axis.
    public var uWrap: TextureWrap = .clampToEdge
    /// Wrapping along the vertical texture axis.
    public var vWrap: TextureWrap = .clampToEdge
    /// Whether the page's pixels are stored with premultiplied alpha.
    public var pma = false
    /// The packer's scale, from the `scale:` line (positive; 1 when absent); kept as read.
    public var scale: Float = 1

    /// A page with the header defaults (no size yet, nearest filtering, clamped, straight alpha).
    /// - Parameter name: The page's image file name, relative to the atlas file.
    public init(name: String) { self.name = name }
}

/// One packed image. Sizes and offsets follow the reference runtime's TextureRegion/AtlasRegion:
/// `width`/`height` are the packed image's size before rotation, `u,v,u2,v2` its texture
/// coordinates, `offsetX/Y` and `originalWidth/Height` undo whitespace stripping.
public struct AtlasRegion: Sendable, Equatable {
    /// The region's name: the image path attachments look up (several regions may share one, told
    /// apart by ``index``).
    public var name: String
    /// Index into ``Atlas/pages`` of the page the region is packed in.
    public var page: Int32
    /// Left edge in the page, in pixels.
    public var x: Int32 = 0
    /// Top edge in the page, in pixels (y points down in the page image).
    public var y: Int32 = 0
    /// Packed width in pixels, before rotation and after whitespace stripping.
    public var width: Int32 = 0
    /// Packed height in pixels, before rotation and after whitespace stripping.
    public var height: Int32 = 0
    /// Left texture coordinate, 0...1 across the page.
    public var u: Float = 0
    /// Top texture coordinate, 0...1 down the page.
    public var v: Float = 0
    /// Right texture coordinate, 0...1 across the page.
    public var u2: Float = 0
    /// Bottom texture coordinate, 0...1 down the page.
    public var v2: Float = 0
    /// Pixels stripped from the left of the original image.
    public var offsetX: Float = 0
    /// Pixels stripped from the bottom of the original image.
    public var offsetY: Float = 0
    /// Width in pixels of the image before whitespace stripping.
    public var originalWidth: Float = 0
    /// Height in pixels of the image before whitespace stripping.
    public var originalHeight: Float = 0
    /// Rotation in the page: 0, 90, or any other angle the packer wrote.
    public var degrees: Int32 = 0
    /// The frame number when the packer kept one (`index:` line, e.g. for sequences); -1 when none.
    public var index: Int32 = -1
    /// Nine-patch split lines (left, right, top, bottom, in pixels); nil when the region has none.
    public var splits: [Int32]?
    /// Nine-patch content padding (left, right, top, bottom, in pixels); nil when the region has none.
    public var pads: [Int32]?
    /// Custom `key: int, int, ...` lines, in file order.
    public var values: [AtlasCustomValue] = []

    /// A region with zero bounds and texture coordinates; the reader fills them from its lines.
    /// - Parameters:
    ///   - name: The region's name.
    ///   - page: The index of its page in ``Atlas/pages``.
    public init(name: String, page: Int32) {
        self.name = name
        self.page = page
    }
}

/// A region line the atlas format does not define (`key: int, int, ...`), kept for applications
/// that store their own data in the atlas.
public struct AtlasCustomValue: Sendable, Equatable {
    /// The key before the colon.
    public var name: String
    /// The integers after the colon, in line order (at least one).
    public var values: [Int32]

    /// A custom value as read from one line.
    public init(name: String, values: [Int32]) {
        self.name = name
        self.values = values
    }
}

/// A parsed `.atlas` file: pages and regions, immutable and shared.
public final class Atlas: Sendable {
    /// The path the atlas was read from (used to find page images and in errors).
    public let file: String
    /// The texture pages in file order; ``AtlasRegion/page`` indexes this array.
    public let pages: [AtlasPage]
    /// Every region in file order.
    public let regions: [AtlasRegion]
    private let regionIndex: [String: Int32]

    /// An atlas from pages and regions already read (``AtlasReader`` builds them from a file);
    /// indexes the regions by name, the first of each name winning. Region page indices are not checked.
    /// - Parameters:
    ///   - file: The path the atlas came from, used to find page images and in errors.
    ///   - pages: The texture pages.
    ///   - regions: The packed images, each naming its page by index.
    public init(file: String, pages: [AtlasPage], regions: [AtlasRegion]) {
        self.file = file
        self.pages = pages
        self.regions = regions
        var index: [String: Int32] = [:]
        for (i, region) in regions.enumerated() where index[region.name] == nil {
            index[region.name] = Int32(i)
        }
        self.regionIndex = index
    }

    /// The first region with this name (the reference's findRegion), nil when absent.
    public func regionIndex(named name: String) -> Int32? { regionIndex[name] }
}
