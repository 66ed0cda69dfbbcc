/// An 8-bit RGBA image, rows top to bottom.
public struct Image: Sendable, Equatable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, rows top to bottom.
    public var pixels: [UInt8]

    /// An image over existing pixels (the caller keeps `pixels.count == width * height * 4`).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent black image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }
}
