import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

/// The first `size: width, height` line of an atlas text, read without the atlas reader so this
/// test depends on libpng alone.
private func firstPageSize(ofAtlas path: String) throws -> (width: Int, height: Int) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(whereSeparator: \.isNewline) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("size:") else { continue }
        let numbers = trimmed.dropFirst(5).split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        if numbers.count == 2 { return (numbers[0], numbers[1]) }
    }
    throw PNGError(.corrupt, file: path, reason: "no size line")
}

/// A PNG stream holding only the signature, an IHDR claiming `width` x `height` RGBA pixels and an
/// empty IDAT: enough for libpng to report the size.
private func pngHeaderOnly(width: UInt32, height: UInt32) -> [UInt8] {
    func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }
    let ihdr = bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", [])
        + chunk("IEND", [])
}

private func gradient(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 4
            image.pixels[i] = UInt8(truncatingIfNeeded: x * 7)
            image.pixels[i + 1] = UInt8(truncatingIfNeeded: y * 13)
            image.pixels[i + 2] = UInt8(truncatingIfNeeded: x * y)
            image.pixels[i + 3] = UInt8(truncatingIfNeeded: x + y * 3)
        }
    }
    return image
}

@Suite struct PNGCodecTests {
    @Test func decodesARealAtlasPageAtItsDeclaredSize() throws {
        for example in ["vine/vine", "spineboy/spineboy", "coin/coin-pma"] {
            let size = try firstPageSize(ofAtlas: TestPaths.example("\(example).atlas"))
            let image = try PNG.read(file: TestPaths.example("\(example).png"))
            #expect(image.width == size.width && image.height == size.height, "\(example)")
            #expect(image.pixels.count == size.width * size.height * 4)
            #expect(image.pixels.contains { $0 != 0 }, "\(example) decoded blank")
            // Pages hold both transparent and opaque pixels.
            let alphas = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
            #expect(alphas.contains(0) && alphas.contains(255), "\(example)")
        }
    }

    @Test func encodeDecodeRoundTrip() throws {
        for (width, height) in [(1, 1), (3, 5), (64, 33), (257, 2)] {
            let image = gradient(width: width, height: height)
            let bytes = try PNG.encode(image)
            #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(try PNG.decode(bytes: bytes, file: "memory") == image)
        }
    }

    @Test func writeThenReadAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bonework-\(UUID().uuidString).png")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let image = gradient(width: 40, height: 30)
        try PNG.write(image, to: path)
        #expect(try PNG.read(file: path) == image)
        // Decoding a real page and encoding it again keeps every pixel.
        let page = try PNG.read(file: TestPaths.example("vine/vine.png"))
        #expect(try PNG.decode(bytes: PNG.encode(page), file: "again") == page)
    }

    @Test func badInputThrowsNamingTheFile() throws {
        let real = try [UInt8](Data(contentsOf: URL(fileURLWithPath: TestPaths.example("coin/coin.png"))))
        let cases: [(bytes: [UInt8], kind: PNGError.Kind)] = [
            ([], .corrupt),
            (Array("not a png at all".utf8), .corrupt),
            (Array(real.prefix(8)), .corrupt),
            (Array(real.prefix(100)), .corrupt),
            (Array(real.prefix(real.count / 2)), .corrupt),
            (Array(real.dropLast(20)), .corrupt),
            (pngHeaderOnly(width: 100_000, height: 1), .limitExceeded),
            (pngHeaderOnly(width: 16385, height: 4), .limitExceeded),
            (pngHeaderOnly(width: 8192, height: 8193), .limitExceeded),
            (pngHeaderOnly(width: 4, height: 4), .corrupt),  // IDAT without data
        ]
        for (index, c) in cases.enumerated() {
            #expect {
                try PNG.decode(bytes: c.bytes, file: "case-\(index).png")
            } throws: { error in
                guard let error = error as? PNGError else { return false }
                return error.kind == c.kind && error.file == "case-\(index).png" && !error.reason.isEmpty
                    && error.description.contains("case-\(index).png")
            }
        }
        #expect {
            try PNG.read(file: TestPaths.example("no-such-page.png"))
        } throws: { error in
            (error as? PNGError)?.kind == .io && (error as? PNGError)?.file.hasSuffix("no-such-page.png") == true
        }
    }

    @Test func encoderRejectsInconsistentImages() {
        let bad = [
            Image(width: 2, height: 2, pixels: [0, 0, 0]), Image(width: 0, height: 1, pixels: []),
            Image(width: 20000, height: 1, pixels: [UInt8](repeating: 0, count: 80000)),
        ]
        for image in bad {
            #expect(throws: PNGError.self) { try PNG.encode(image) }
        }
    }
}

@Suite struct ImageAlphaTests {
    @Test func premultiplyRoundsToNearestForEveryValue() {
        var image = Image(width: 256, height: 256)
        for alpha in 0..<256 {
            for value in 0..<256 {
                let i = (alpha * 256 + value) * 4
                image.pixels[i] = UInt8(value)
                image.pixels[i + 1] = UInt8(255 - value)
                image.pixels[i + 2] = UInt8(value / 2)
                image.pixels[i + 3] = UInt8(alpha)
            }
        }
        let result = image.premultipliedAlpha()
        var mismatches = 0
        for p in stride(from: 0, to: image.pixels.count, by: 4) {
            let alpha = Double(image.pixels[p + 3])
            for c in 0..<3 {
                let expected = UInt8((Double(image.pixels[p + c]) * alpha / 255).rounded())
                if result.pixels[p + c] != expected { mismatches += 1 }
            }
            if result.pixels[p + 3] != image.pixels[p + 3] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func unpremultiplyUndoesPremultiply() {
        var image = Image(width: 3, height: 1, pixels: [200, 100, 50, 128, 9, 9, 9, 0, 10, 20, 30, 255])
        image.premultiplyAlpha()
        #expect(image.pixels == [100, 50, 25, 128, 0, 0, 0, 0, 10, 20, 30, 255])
        image.unpremultiplyAlpha()
        #expect(image.pixels == [199, 100, 50, 128, 0, 0, 0, 0, 10, 20, 30, 255])
    }
}
