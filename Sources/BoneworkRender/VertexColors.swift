import BoneworkFormat

/// The colours every vertex of one drawn slot carries: light and dark, 8 bits per channel packed
/// little-endian (red in the lowest byte, so the bytes in memory read r, g, b, a).
public struct SlotVertexColors: Sendable, Equatable {
    /// The light (tint) colour, packed.
    public var light: UInt32
    /// The dark colour of two-colour tinting, packed.
    public var dark: UInt32

    /// Colours already packed.
    public init(light: UInt32, dark: UInt32) {
        self.light = light
        self.dark = dark
    }

    /// The two-colour tint rule. `c = skeleton * slot * attachment` (float32, component-wise).
    /// Premultiplied pages: light = (c.rgb * c.a, c.a), dark = (d.rgb * c.a, 1), or (0, 0, 0, 1)
    /// without a dark colour. Straight-alpha pages: light = c, dark = (d.rgb, 0), or (0, 0, 0, 1).
    /// Each channel is stored as `floor(x * 255)` clamped to 0...255.
    public init(skeleton: Color, slot: Color, attachment: Color, dark: Color?, premultiplied: Bool) {
        let r = skeleton.r * slot.r * attachment.r
        let g = skeleton.g * slot.g * attachment.g
        let b = skeleton.b * slot.b * attachment.b
        let a = skeleton.a * slot.a * attachment.a
        if premultiplied {
            light = Self.pack(r * a, g * a, b * a, a)
            if let d = dark {
                self.dark = Self.pack(d.r * a, d.g * a, d.b * a, 1)
            } else {
                self.dark = Self.pack(0, 0, 0, 1)
            }
        } else {
            light = Self.pack(r, g, b, a)
            if let d = dark {
                self.dark = Self.pack(d.r, d.g, d.b, 0)
            } else {
                self.dark = Self.pack(0, 0, 0, 1)
            }
        }
    }

    /// One channel as 8 bits: `floor(x * 255)`, clamped (NaN gives 0).
    @inline(__always)
    public static func quantize(_ x: Float) -> UInt32 {
        let scaled = x * 255
        guard scaled >= 1 else { return 0 }
        guard scaled < 255 else { return 255 }
        return UInt32(scaled)
    }

    /// Four channels, 0...1 each, packed red-lowest by ``quantize(_:)``.
    @inline(__always)
    public static func pack(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> UInt32 {
        quantize(r) | quantize(g) << 8 | quantize(b) << 16 | quantize(a) << 24
    }
}
