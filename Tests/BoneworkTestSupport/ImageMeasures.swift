import BoneworkImage

/// Coarse measures of rendered pictures, for tests that check a render shows something (or
/// changed) without comparing it with a reference picture.
public enum ImageMeasures {
    /// The PNG at `path`, decoded.
    public static func read(_ path: String) throws -> Image { try PNG.read(file: path) }

    /// Fraction of pixels with alpha above 32.
    public static func coverage(_ image: Image) -> Double {
        var n = 0
        var k = 3
        while k < image.pixels.count {
            if image.pixels[k] > 32 { n += 1 }
            k += 4
        }
        return Double(n) / Double(max(1, image.width * image.height))
    }

    /// Number of pixels that differ by more than 8 in any channel; `Int.max` when the sizes differ.
    public static func differingPixels(_ a: Image, _ b: Image) -> Int {
        guard a.width == b.width, a.height == b.height else { return Int.max }
        var n = 0
        var k = 0
        while k + 3 < a.pixels.count {
            for c in 0..<4 where abs(Int(a.pixels[k + c]) - Int(b.pixels[k + c])) > 8 {
                n += 1
                break
            }
            k += 4
        }
        return n
    }

    /// Mean (r, g, b) over pixels with alpha above 128; (0, 0, 0) when there are none.
    public static func meanColor(_ image: Image) -> (Double, Double, Double) {
        var sum = (0.0, 0.0, 0.0)
        var n = 0.0
        var k = 0
        while k + 3 < image.pixels.count {
            if image.pixels[k + 3] > 128 {
                sum.0 += Double(image.pixels[k])
                sum.1 += Double(image.pixels[k + 1])
                sum.2 += Double(image.pixels[k + 2])
                n += 1
            }
            k += 4
        }
        return n > 0 ? (sum.0 / n, sum.1 / n, sum.2 / n) : (0, 0, 0)
    }
}
