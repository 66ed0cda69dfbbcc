import BoneworkImage

/// A straight-alpha colour with components in 0...1.
struct RGBA {
    var r: Float
    var g: Float
    var b: Float
    var a: Float

    init(_ r: Float, _ g: Float, _ b: Float, _ a: Float = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// From 0xRRGGBB.
    init(hex: UInt32, alpha: Float = 1) {
        self.init(
            Float((hex >> 16) & 0xFF) / 255, Float((hex >> 8) & 0xFF) / 255, Float(hex & 0xFF) / 255, alpha)
    }

    func with(alpha: Float) -> RGBA { RGBA(r, g, b, alpha) }

    /// Linear blend towards `other` by `t`.
    func mixed(_ other: RGBA, _ t: Float) -> RGBA {
        RGBA(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t, a + (other.a - a) * t)
    }
}

/// A 2-D shape described by its signed distance in pixels (negative inside). Coordinates are
/// canvas pixels, y down.
indirect enum Shape {
    case circle(x: Float, y: Float, r: Float)
    case ellipse(x: Float, y: Float, rx: Float, ry: Float)
    /// A rectangle given by its centre and half extents, corners rounded by `r`.
    case box(x: Float, y: Float, hw: Float, hh: Float, r: Float)
    /// A segment from (ax, ay) to (bx, by) thickened by `r`.
    case capsule(ax: Float, ay: Float, bx: Float, by: Float, r: Float)
    case union(Shape, Shape)
    case intersection(Shape, Shape)
    case subtraction(Shape, Shape)
    /// The shape grown outwards by `by` pixels (negative shrinks it).
    case grown(Shape, by: Float)

    func distance(_ px: Float, _ py: Float) -> Float {
        switch self {
        case .circle(let x, let y, let r):
            return hypot(px - x, py - y) - r
        case .ellipse(let x, let y, let rx, let ry):
            let nx = (px - x) / rx
            let ny = (py - y) / ry
            let k0 = (nx * nx + ny * ny).squareRoot()
            let k1 = hypot(nx / rx, ny / ry)
            if k1 < 1e-6 { return -min(rx, ry) }
            return k0 * (k0 - 1) / k1
        case .box(let x, let y, let hw, let hh, let r):
            let qx = abs(px - x) - (hw - r)
            let qy = abs(py - y) - (hh - r)
            let outside = hypot(max(qx, 0), max(qy, 0))
            return outside + min(max(qx, qy), 0) - r
        case .capsule(let ax, let ay, let bx, let by, let r):
            let dx = bx - ax
            let dy = by - ay
            let lengthSquared = dx * dx + dy * dy
            var t: Float = 0
            if lengthSquared > 0 { t = min(max(((px - ax) * dx + (py - ay) * dy) / lengthSquared, 0), 1) }
            return hypot(px - (ax + dx * t), py - (ay + dy * t)) - r
        case .union(let a, let b):
            return min(a.distance(px, py), b.distance(px, py))
        case .intersection(let a, let b):
            return max(a.distance(px, py), b.distance(px, py))
        case .subtraction(let a, let b):
            return max(a.distance(px, py), -b.distance(px, py))
        case .grown(let shape, let amount):
            return shape.distance(px, py) - amount
        }
    }

    func grown(_ amount: Float) -> Shape { .grown(self, by: amount) }
    func clipped(to other: Shape) -> Shape { .intersection(self, other) }
    func minus(_ other: Shape) -> Shape { .subtraction(self, other) }
    static func + (a: Shape, b: Shape) -> Shape { .union(a, b) }
}

private func hypot(_ x: Float, _ y: Float) -> Float { (x * x + y * y).squareRoot() }

/// How a filled shape is coloured.
enum Paint {
    case solid(RGBA)
    /// Colour `from` at (x0, y0) blending to `to` at (x1, y1), clamped beyond.
    case linear(x0: Float, y0: Float, from: RGBA, x1: Float, y1: Float, to: RGBA)
    /// Colour `inner` at the centre blending to `outer` at `radius`.
    case radial(x: Float, y: Float, radius: Float, inner: RGBA, outer: RGBA)

    /// A vertical gradient from `top` at y0 to `bottom` at y1.
    static func vertical(_ y0: Float, _ top: RGBA, _ y1: Float, _ bottom: RGBA) -> Paint {
        .linear(x0: 0, y0: y0, from: top, x1: 0, y1: y1, to: bottom)
    }

    func color(_ px: Float, _ py: Float) -> RGBA {
        switch self {
        case .solid(let color):
            return color
        case .linear(let x0, let y0, let from, let x1, let y1, let to):
            let dx = x1 - x0
            let dy = y1 - y0
            let lengthSquared = dx * dx + dy * dy
            guard lengthSquared > 0 else { return from }
            let t = min(max(((px - x0) * dx + (py - y0) * dy) / lengthSquared, 0), 1)
            return from.mixed(to, t)
        case .radial(let x, let y, let radius, let inner, let outer):
            let t = min(hypot(px - x, py - y) / max(radius, 1e-6), 1)
            return inner.mixed(outer, t)
        }
    }
}

/// An RGBA drawing surface, premultiplied floats, rows top to bottom. Shapes are anti-aliased by
/// their distance field: a pixel whose centre lies half a pixel inside the edge is fully covered.
struct Canvas {
    let width: Int
    let height: Int
    private var pixels: [Float]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height * 4)
    }

    /// Composites `shape` filled with `paint` over the canvas.
    mutating func fill(_ shape: Shape, _ paint: Paint, opacity: Float = 1) {
        for y in 0..<height {
            let py = Float(y) + 0.5
            for x in 0..<width {
                let px = Float(x) + 0.5
                let coverage = min(max(0.5 - shape.distance(px, py), 0), 1) * opacity
                if coverage <= 0 { continue }
                let color = paint.color(px, py)
                let alpha = color.a * coverage
                let keep = 1 - alpha
                let i = (y * width + x) * 4
                pixels[i] = color.r * alpha + pixels[i] * keep
                pixels[i + 1] = color.g * alpha + pixels[i + 1] * keep
                pixels[i + 2] = color.b * alpha + pixels[i + 2] * keep
                pixels[i + 3] = alpha + pixels[i + 3] * keep
            }
        }
    }

    mutating func fill(_ shape: Shape, _ color: RGBA, opacity: Float = 1) {
        fill(shape, .solid(color), opacity: opacity)
    }

    /// Fills `shape` with `paint` inside an outline `width` pixels wide.
    mutating func outlined(_ shape: Shape, _ paint: Paint, outline: RGBA = Palette.outline, width: Float = 2.5) {
        fill(shape.grown(width), .solid(outline))
        fill(shape, paint)
    }

    /// The canvas as 8-bit straight-alpha RGBA.
    func image() -> Image {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for p in 0..<(width * height) {
            let i = p * 4
            let alpha = min(max(pixels[i + 3], 0), 1)
            guard alpha > 0 else { continue }
            for c in 0..<3 {
                bytes[i + c] = Canvas.byte(pixels[i + c] / alpha)
            }
            bytes[i + 3] = Canvas.byte(alpha)
        }
        return Image(width: width, height: height, pixels: bytes)
    }

    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value, 0), 1) * 255 + 0.5)
    }
}
