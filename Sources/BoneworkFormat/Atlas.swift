public enum TextureFilter: String, Sendable {
    case nearest = "Nearest"
    case linear = "Linear"
    case mipMap = "MipMap"
    case mipMapNearestNearest = "MipMapNearestNearest"
    case mipMapLinearNearest = "MipMapLinearNearest"
    case mipMapNearestLinear = "MipMapNearestLinear"
    case mipMapLinearLinear = "MipMapLinearLinear"
}

public enum TextureWrap: Sendable {
    case clampToEdge
    case `repeat`
    case mirroredRepeat
}

/// One texture page of an atlas, as its header lines describe it.
public struct AtlasPage: Sendable, Equatable {
    /// The page's image file name, relative to the atlas file.
    public var name: String
    public var width: Int32 = 0
    public var height: Int32 = 0
    public var format: String = "RGBA8888"
    public var minFilter: TextureFilter = .nearest
    public var magFilter: TextureFilter = .nearest
    public var uWrap: TextureWrap = .clampToEdge
    public var vWrap: TextureWrap = .clampToEdge
    /// Whether the page's pixels are stored with premultiplied alpha.
    public var pma = false
    public var scale: Float = 1

    public init(name: String) { self.name = name }
}

/// One packed image. Sizes and offsets follow the reference runtime's TextureRegion/AtlasRegion:
/// `width`/`height` are the packed image's size before rotation, `u,v,u2,v2` its texture
/// coordinates, `offsetX/Y` and `originalWidth/Height` undo whitespace stripping.
public struct AtlasRegion: Sendable, Equatable {
    public var name: String
    public var page: Int32
    public var x: Int32 = 0
    public var y: Int32 = 0
    public var width: Int32 = 0
    public var height: Int32 = 0
    public var u: Float = 0
    public var v: Float = 0
    public var u2: Float = 0
    public var v2: Float = 0
    public var offsetX: Float = 0
    public var offsetY: Float = 0
    public var originalWidth: Float = 0
    public var originalHeight: Float = 0
    /// Rotation in the page: 0, 90, or any other angle the packer wrote.
    public var degrees: Int32 = 0
    public var index: Int32 = -1
    public var splits: [Int32]?
    public var pads: [Int32]?
    /// Custom `key: int, int, ...` lines, in file order.
    public var values: [AtlasCustomValue] = []

    public init(name: String, page: Int32) {
        self.name = name
        self.page = page
    }
}

public struct AtlasCustomValue: Sendable, Equatable {
    public var name: String
    public var values: [Int32]

    public init(name: String, values: [Int32]) {
        self.name = name
        self.values = values
    }
}

/// A parsed `.atlas` file: pages and regions, immutable and shared.
public final class Atlas: Sendable {
    /// The path the atlas was read from (used to find page images and in errors).
    public let file: String
    public let pages: [AtlasPage]
    public let regions: [AtlasRegion]
    private let regionIndex: [String: Int32]

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
