/// An 8-bit RGBA colour for charts.
public struct ChartColor: Sendable, Equatable {
    /// Red, 0...255.
    public var r: UInt8
    /// Green, 0...255.
    public var g: UInt8
    /// Blue, 0...255.
    public var b: UInt8
    /// Alpha (straight), 0...255.
    public var a: UInt8

    /// A colour from its channels; opaque by default.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// The background.
    public static let white = ChartColor(r: 255, g: 255, b: 255)
    /// Text.
    public static let black = ChartColor(r: 0, g: 0, b: 0)
    /// Grid lines.
    public static let grid = ChartColor(r: 225, g: 225, b: 225)
    /// Axes and tick labels.
    public static let axis = ChartColor(r: 60, g: 60, b: 60)
}

/// The chart rasterizer: an opaque RGBA canvas with clipped rectangle fills, anti-aliased
/// lines and bitmap text. Coordinates are pixels, origin top left.
struct ChartCanvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, background: ChartColor) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
        fill(x: 0, y: 0, width: self.width, height: self.height, background)
    }

    var image: Image { Image(width: width, height: height, pixels: pixels) }

    /// Blends `color` over pixel (x, y) with coverage `coverage` in [0, 1] (clipped).
    mutating func blend(_ x: Int, _ y: Int, _ color: ChartColor, coverage: Double = 1) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let alpha = max(0, min(1, coverage)) * Double(color.a) / 255
        guard alpha > 0 else { return }
        let i = (y * width + x) * 4
        func mix(_ dst: UInt8, _ src: UInt8) -> UInt8 {
            UInt8(max(0, min(255, (Double(dst) * (1 - alpha) + Double(src) * alpha).rounded())))
        }
        pixels[i] = mix(pixels[i], color.r)
        pixels[i + 1] = mix(pixels[i + 1], color.g)
        pixels[i + 2] = mix(pixels[i + 2], color.b)
        pixels[i + 3] = 255
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: ChartColor) {
        let x0 = max(0, x)
        let y0 = max(0, y)
        let x1 = min(width, x + w)
        let y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for py in y0..<y1 {
            for px in x0..<x1 { blend(px, py, color) }
        }
    }

    /// A vertical span from `top` to `bottom` (fractional, top < bottom) in column x, with
    /// partial coverage at both ends.
    mutating func span(x: Int, top: Double, bottom: Double, _ color: ChartColor) {
        guard bottom > top else { return }
        let first = Int(top.rounded(.down))
        let last = Int(bottom.rounded(.up)) - 1
        guard first <= last else { return }
        for py in max(0, first)...min(height - 1, max(0, last)) {
            let cover = min(bottom, Double(py + 1)) - max(top, Double(py))
            blend(x, py, color, coverage: cover)
        }
    }

    /// An anti-aliased line of the given width (sampled coverage of the segment's capsule).
    mutating func line(
        _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, width lineWidth: Double, _ color: ChartColor
    ) {
        let r = lineWidth / 2
        let minX = Int((min(x0, x1) - r - 1).rounded(.down))
        let maxX = Int((max(x0, x1) + r + 1).rounded(.up))
        let minY = Int((min(y0, y1) - r - 1).rounded(.down))
        let maxY = Int((max(y0, y1) + r + 1).rounded(.up))
        let dx = x1 - x0
        let dy = y1 - y0
        let length2 = dx * dx + dy * dy
        for py in max(0, minY)...max(0, min(height - 1, maxY)) {
            for px in max(0, minX)...max(0, min(width - 1, maxX)) {
                // Distance from the pixel centre to the segment.
                let cx = Double(px) + 0.5
                let cy = Double(py) + 0.5
                var t = length2 > 0 ? ((cx - x0) * dx + (cy - y0) * dy) / length2 : 0
                t = max(0, min(1, t))
                let ex = x0 + t * dx - cx
                let ey = y0 + t * dy - cy
                let distance = (ex * ex + ey * ey).squareRoot()
                let coverage = r + 0.5 - distance
                if coverage > 0 { blend(px, py, color, coverage: coverage) }
            }
        }
    }

    /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels.
    mutating func text(_ text: String, x: Int, y: Int, scale: Int = 1, _ color: ChartColor) {
        var cx = x
        for scalar in text.unicodeScalars {
            let rows = ChartFont.rows(scalar)
            for (ry, bits) in rows.enumerated() {
                for rx in 0..<ChartFont.glyphWidth where bits & (0x10 >> UInt8(rx)) != 0 {
                    fill(x: cx + rx * scale, y: y + ry * scale, width: scale, height: scale, color)
                }
            }
            cx += ChartFont.advance * scale
        }
    }

    /// Draws `text` rotated a quarter turn counter-clockwise (reading bottom to top), its
    /// bottom-left corner at (x, y).
    mutating func verticalText(_ text: String, x: Int, y: Int, _ color: ChartColor) {
        var cy = y
        for scalar in text.unicodeScalars {
            let rows = ChartFont.rows(scalar)
            for (ry, bits) in rows.enumerated() {
                for rx in 0..<ChartFont.glyphWidth where bits & (0x10 >> UInt8(rx)) != 0 {
                    blend(x + ry, cy - rx, color)
                }
            }
            cy -= ChartFont.advance
        }
    }
}
