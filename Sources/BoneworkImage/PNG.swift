import CPNG
import Foundation

/// A PNG that could not be read, decoded or written.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong (the raw value is the word messages use).
    public enum Kind: String, Sendable, Equatable {
        /// The file could not be opened, read or written.
        case io
        /// The bytes are not a complete, valid PNG.
        case corrupt
        /// The image is larger than `PNG.maximumDimension` / `PNG.maximumPixelCount`.
        case limitExceeded
        /// The `Image` handed to the encoder is inconsistent (size versus pixel count).
        case invalidImage
    }

    /// What went wrong.
    public var kind: Kind
    /// The file the bytes came from or were going to (a label for in-memory data).
    public var file: String
    /// libpng's or the system's words for it.
    public var reason: String

    /// An error of `kind` for `file`.
    public init(_ kind: Kind, file: String, reason: String) {
        self.kind = kind
        self.file = file
        self.reason = reason
    }

    /// `FILE: KIND: REASON`, on one line.
    public var description: String { "\(file): \(kind.rawValue): \(reason)" }
}

/// PNG codec on libpng's simplified API. Images are always 8-bit RGBA with straight (not
/// premultiplied) alpha, rows top to bottom, which is what exporters write and what the
/// simplified API produces for every PNG colour type.
public enum PNG {
    /// The largest width or height decoded or encoded.
    public static let maximumDimension = 16384
    /// The largest width x height decoded: 8192 x 8192, 256 MiB of RGBA.
    public static let maximumPixelCount = 1 << 26

    /// Decodes a PNG file of any colour type into 8-bit straight-alpha RGBA.
    /// - Throws: `PNGError` (`io` with the system's reason, `corrupt`, `limitExceeded` past
    ///   ``maximumDimension`` or ``maximumPixelCount``).
    public static func read(file: String) throws -> Image {
        let bytes: [UInt8]
        do {
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw PNGError(.io, file: file, reason: "cannot read the file (\(describe(error)))")
        }
        return try decode(bytes: bytes, file: file)
    }

    /// Decodes PNG bytes; `file` names them in errors.
    public static func decode(bytes: [UInt8], file: String) throws -> Image {
        try decode(bytes: bytes, file: file, maximumPixelCount: maximumPixelCount)
    }

    /// Decodes PNG bytes of at most `limit` pixels (and ``maximumDimension`` per side); `file`
    /// names them in errors. Before any pixel memory is allocated, the header's size is checked
    /// against the limit and against what the file's compressed image data could hold at all
    /// (deflate expands at most 1032 times): a file of a few hundred bytes that claims 8192 x 8192
    /// pixels is refused without allocating 256 MiB.
    /// - Throws: `PNGError` (`corrupt`, or `limitExceeded` naming the size).
    public static func decode(bytes: [UInt8], file: String, maximumPixelCount limit: Int) throws -> Image {
        guard !bytes.isEmpty else { throw PNGError(.corrupt, file: file, reason: "empty file") }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        // On failure libpng has already released its state; the message says why.
        guard begun != 0 else { throw PNGError(.corrupt, file: file, reason: message(of: image)) }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width <= maximumDimension, height <= maximumDimension, width * height <= limit
        else {
            png_image_free(&image)
            throw PNGError(
                .limitExceeded, file: file,
                reason: "\(width)x\(height) pixels exceed the limit of \(maximumDimension) per side and \(limit) in all"
            )
        }
        if let (imageData, bitsPerPixel) = compressedImageData(bytes) {
            // The least the image data inflates to (every row's pixels, without filter bytes).
            let least = width * height * bitsPerPixel / 8
            guard least <= imageData * 1032 + 1032 else {
                png_image_free(&image)
                throw PNGError(
                    .corrupt, file: file,
                    reason: "\(imageData) bytes of image data cannot hold \(width)x\(height) pixels (truncated file?)")
            }
        }
        image.format = bonework_png_format_rgba
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { raw in
            png_image_finish_read(&image, nil, raw.baseAddress, png_int_32(width * 4), nil)
        }
        guard finished != 0 else {
            png_image_free(&image)
            throw PNGError(.corrupt, file: file, reason: message(of: image))
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Encodes an image as an 8-bit RGBA PNG.
    public static func encode(_ image: Image) throws -> [UInt8] {
        try encode(image, file: "<memory>")
    }

    /// Encodes and writes an image, replacing `file` atomically.
    public static func write(_ image: Image, to file: String) throws {
        let bytes = try encode(image, file: file)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw PNGError(.io, file: file, reason: "cannot write the file (\(describe(error)))")
        }
    }

    static func encode(_ image: Image, file: String) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= maximumDimension, image.height <= maximumDimension
        else {
            throw PNGError(
                .invalidImage, file: file,
                reason: "\(image.width)x\(image.height) pixels: each side must be in 1...\(maximumDimension)")
        }
        guard image.pixels.count == image.width * image.height * 4 else {
            throw PNGError(
                .invalidImage, file: file,
                reason:
                    "\(image.pixels.count) bytes of pixels for \(image.width)x\(image.height) RGBA (\(image.width * image.height * 4) expected)"
            )
        }
        var header = png_image()
        header.version = png_uint_32(PNG_IMAGE_VERSION)
        header.width = png_uint_32(image.width)
        header.height = png_uint_32(image.height)
        header.format = bonework_png_format_rgba
        let stride = png_int_32(image.width * 4)
        return try image.pixels.withUnsafeBytes { pixels -> [UInt8] in
            // First pass measures, second pass writes into a buffer of that size.
            var size = 0
            guard png_image_write_to_memory(&header, nil, &size, 0, pixels.baseAddress, stride, nil) != 0 else {
                throw PNGError(.invalidImage, file: file, reason: message(of: header))
            }
            var bytes = [UInt8](repeating: 0, count: size)
            let written = bytes.withUnsafeMutableBytes { out in
                png_image_write_to_memory(&header, out.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
            }
            guard written != 0, size <= bytes.count else {
                throw PNGError(.invalidImage, file: file, reason: message(of: header))
            }
            bytes.removeLast(bytes.count - size)
            return bytes
        }
    }

    /// The bytes of compressed image data (all IDAT chunks, as far as the file holds them) and the
    /// bits per pixel the header declares; nil when the bytes do not start like a PNG (libpng has
    /// accepted the header by then, so that does not happen). Reads chunk headers only.
    static func compressedImageData(_ bytes: [UInt8]) -> (bytes: Int, bitsPerPixel: Int)? {
        guard bytes.count >= 33 else { return nil }
        let depth = Int(bytes[24])
        let channels: Int
        switch bytes[25] {
        case 0, 3: channels = 1
        case 2: channels = 3
        case 4: channels = 2
        case 6: channels = 4
        default: return nil
        }
        var total = 0
        var at = 8
        while at + 8 <= bytes.count {
            let length =
                Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let isData =
                bytes[at + 4] == 0x49 && bytes[at + 5] == 0x44 && bytes[at + 6] == 0x41 && bytes[at + 7] == 0x54
            let present = min(length, bytes.count - (at + 8))
            if isData { total += present }
            at += 8 + present + 4
        }
        return (total, depth * channels)
    }

    /// libpng's error text stored in the image header.
    static func message(of image: png_image) -> String {
        var copy = image.message
        let text = withUnsafeBytes(of: &copy) { raw -> String in
            let bytes = raw.prefix(while: { $0 != 0 })
            return String(decoding: bytes, as: UTF8.self)
        }
        return text.isEmpty ? "libpng failed without a message" : "libpng: \(text)"
    }

    static func describe(_ error: Error) -> String {
        (error as NSError).localizedDescription
    }
}
