import BoneworkImage
import Foundation
import Testing

@testable import Bonework

enum TestSupport {
    /// A fresh temporary folder.
    static func temporaryDirectory(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bonework-facade-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `../shared/spine-examples` beside the package (the repository's example exports).
    static var examplesDirectory: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spine-examples")
            .path
    }

    static func read(_ path: String) throws -> Image { try PNG.read(file: path) }

    /// Fraction of pixels with alpha above 32.
    static func coverage(_ image: Image) -> Double {
        var n = 0
        var k = 3
        while k < image.pixels.count {
            if image.pixels[k] > 32 { n += 1 }
            k += 4
        }
        return Double(n) / Double(max(1, image.width * image.height))
    }

    /// Number of pixels that differ by more than 8 in any channel.
    static func differingPixels(_ a: Image, _ b: Image) -> Int {
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

    /// Mean (r, g, b) over pixels with alpha above 128.
    static func meanColor(_ image: Image) -> (Double, Double, Double) {
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

/// GL work shares one headless context: tests that render run one at a time.
@globalActor actor RenderActor {
    static let shared = RenderActor()
}
