import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

/// PNG streams built chunk by chunk, with sizes no exporter writes: each is a `PNGError` naming
/// the file, decided from the header and the chunk lengths before pixel memory is allocated.
@Suite struct PNGHostileTests {
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG of `width` x `height` (bit depth, colour type) whose IDAT holds `data`.
    static func png(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 6, data: [UInt8]) -> [UInt8] {
        signature + chunk("IHDR", bigEndian(width) + bigEndian(height) + [depth, colour, 0, 0, 0])
            + chunk("IDAT", data) + chunk("IEND", [])
    }

    /// A zlib stream of stored (uncompressed) blocks holding `raw`.
    static func stored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65535, raw.count - at)
            let last: UInt8 = at + n == raw.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += raw[at..<(at + n)]
            at += n
        } while at < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func error(_ bytes: [UInt8]) -> PNGError? {
        do {
            _ = try PNG.decode(bytes: bytes, file: "hostile.png")
            return nil
        } catch {
            return error as? PNGError
        }
    }

    @Test func hostilePNGsAreRefusedBeforeTheirPixelsAreAllocated() throws {
        let tiny = Self.stored([0, 1, 2, 3, 4])
        let cases: [(bytes: [UInt8], kind: PNGError.Kind)] = [
            // Dimensions past the limits, or past what PNG allows at all.
            (Self.png(width: 1_000_000_000, height: 1, data: tiny), .corrupt),
            (Self.png(width: 16385, height: 1, data: tiny), .limitExceeded),
            (Self.png(width: 16384, height: 16384, data: tiny), .limitExceeded),
            (Self.png(width: 0, height: 10, data: tiny), .corrupt),
            // 8192 x 8192 RGBA (256 MiB) from a few bytes of image data.
            (Self.png(width: 8192, height: 8192, data: tiny), .corrupt),
            // The same at one bit per pixel: 8 MiB of rows can hide in 8 KiB, not in 11 bytes.
            (Self.png(width: 8192, height: 8192, depth: 1, colour: 0, data: tiny), .corrupt),
            // Truncated streams, wrong colour types, not a PNG.
            (Array(Self.png(width: 2, height: 2, data: tiny).prefix(40)), .corrupt),
            (Self.png(width: 2, height: 2, depth: 8, colour: 5, data: tiny), .corrupt),
            (Self.signature, .corrupt), ([], .corrupt), (Array("not a png".utf8), .corrupt),
        ]
        for (bytes, kind) in cases {
            let error = try #require(Self.error(bytes), "\(bytes.prefix(33)) decoded")
            #expect(error.kind == kind, "\(error)")
            #expect(error.file == "hostile.png")
        }
        // A claim too large for its data is refused from the chunk lengths, before the 256 MiB of
        // pixels are allocated (libpng would only notice the missing rows while decoding them).
        for depth: UInt8 in [8, 16] {
            let claim = try #require(Self.error(Self.png(width: 8192, height: 8192, depth: depth, data: tiny)))
            #expect(claim.reason.contains("bytes of image data cannot hold 8192x8192 pixels"), "\(claim)")
        }
        // A real image whose data is all there decodes (2 x 2 RGBA, filter byte 0 per row).
        let rows: [UInt8] = [0, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 255, 255, 9, 9, 9, 255]
        let image = try PNG.decode(bytes: Self.png(width: 2, height: 2, data: Self.stored(rows)), file: "ok.png")
        #expect(image.width == 2 && image.pixels.count == 16)
        // The same at a lower pixel limit (what the fuzz target uses).
        #expect(throws: PNGError.self) {
            try PNG.decode(
                bytes: Self.png(width: 2, height: 2, data: Self.stored(rows)), file: "x", maximumPixelCount: 3)
        }
    }
}

extension PNGHostileTests {
    /// The inputs `Tools/fuzz.sh png` kept and the named regressions: each decodes (at the fuzz
    /// target's limit of 2^20 pixels) or is a `PNGError` naming its file.
    @Test func fuzzedPNGsDecodeOrFailNamingTheFile() throws {
        let root = TestPaths.repositoryRoot.appendingPathComponent("Tools/Fuzz")
        let files = try FuzzInputs.files(root, target: "png")
        #expect(files.count >= 20, "Tools/Fuzz/corpus/png holds only \(files.count) inputs")
        for url in files {
            do {
                let image = try PNG.decode(
                    bytes: [UInt8](Data(contentsOf: url)), file: url.lastPathComponent, maximumPixelCount: 1 << 20)
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch let error as PNGError {
                #expect(error.file == url.lastPathComponent)
            }
        }
        let claim = root.appendingPathComponent("regressions/png/claims-8192-square-from-11-bytes.png")
        let error = try #require(Self.error([UInt8](Data(contentsOf: claim))))
        #expect(error.reason.contains("cannot hold 8192x8192 pixels"), "\(error)")
    }
}
