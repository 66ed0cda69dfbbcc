/// An RGBA colour with float channels in 0...1.
public struct Color: Sendable, Equatable, Hashable {
    /// Red, 0...1.
    public var r: Float
    /// Green, 0...1.
    public var g: Float
    /// Blue, 0...1.
    public var b: Float
    /// Alpha (opacity), 0...1, straight (not premultiplied into the other channels).
    public var a: Float

    /// A colour from its four channels, each 0...1; values outside are kept as given.
    public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Opaque white: the identity tint.
    public static let white = Color(1, 1, 1, 1)

    /// Parses `RRGGBBAA` or `RRGGBB` hex (alpha 1 when absent); nil when malformed.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 8 || digits.count == 6 else { return nil }
        var channels: [Float] = []
        var index = 0
        while index < digits.count {
            guard let high = Color.hexValue(digits[index]), let low = Color.hexValue(digits[index + 1]) else {
                return nil
            }
            channels.append(Float(high * 16 + low) / 255)
            index += 2
        }
        self.init(channels[0], channels[1], channels[2], channels.count == 4 ? channels[3] : 1)
    }

    private static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }
}

/// How a bone inherits its parent's transform (Spine's `Inherit`, same raw values as the binary format).
public enum Inherit: UInt8, Sendable, CaseIterable {
    /// The parent's whole world transform: translation, rotation, scale, shear and reflection.
    case normal = 0
    /// Only the parent's position; rotation, scale and shear are the bone's own, in world space.
    case onlyTranslation = 1
    /// Everything but the parent's rotation and reflection (mirroring by negative scale).
    case noRotationOrReflection = 2
    /// Everything but the parent's scale; reflection is still inherited.
    case noScale = 3
    /// Everything but the parent's scale and reflection.
    case noScaleOrReflection = 4

    /// The JSON spelling (`normal`, `onlyTranslation`, ...).
    public init?(jsonName: String) {
        switch jsonName {
        case "normal": self = .normal
        case "onlyTranslation": self = .onlyTranslation
        case "noRotationOrReflection": self = .noRotationOrReflection
        case "noScale": self = .noScale
        case "noScaleOrReflection": self = .noScaleOrReflection
        default: return nil
        }
    }
}

/// How a slot's attachment is composited over what is drawn before it (Spine's `BlendMode`, same
/// raw values as the binary format). Each mode has a premultiplied and a straight-alpha form.
public enum BlendMode: UInt8, Sendable, CaseIterable {
    /// Ordinary alpha blending.
    case normal = 0
    /// Adds the attachment's colour to the destination (glows, fire).
    case additive = 1
    /// Multiplies the destination by the attachment's colour (shadows).
    case multiply = 2
    /// Inverse of multiply: brightens the destination.
    case screen = 3

    /// The JSON spelling (`normal`, `additive`, `multiply`, `screen`); nil for anything else.
    public init?(jsonName: String) {
        switch jsonName {
        case "normal": self = .normal
        case "additive": self = .additive
        case "multiply": self = .multiply
        case "screen": self = .screen
        default: return nil
        }
    }
}

/// How a path constraint's position is measured (binary raw values).
public enum PositionMode: UInt8, Sendable {
    /// In skeleton units along the path.
    case fixed = 0
    /// As a fraction of the path's length, 0...1.
    case percent = 1
}

/// How a path constraint's spacing between bones is measured (binary raw values).
public enum SpacingMode: UInt8, Sendable {
    /// Each bone's length plus the spacing, in skeleton units.
    case length = 0
    /// The spacing alone, in skeleton units; bone lengths are ignored.
    case fixed = 1
    /// The spacing as a fraction of the path's length; bone lengths are ignored.
    case percent = 2
    /// Bone lengths scaled so that the bones fill the path, proportionally to their lengths.
    case proportional = 3
}

/// How a path constraint rotates its bones (binary raw values).
public enum RotateMode: UInt8, Sendable {
    /// Each bone points along the path's tangent at its position.
    case tangent = 0
    /// Each bone points at the next bone's position on the path, so the chain's tips lie on it.
    case chain = 1
    /// As ``chain``, and each bone is also scaled along x to reach the next position.
    case chainScale = 2
}

/// How a sequence advances its frames (Spine's `SequenceMode`, binary raw values).
public enum SequenceMode: UInt8, Sendable {
    /// The frame stays at the keyed index; the sequence does not advance.
    case hold = 0
    /// Plays forward once, then holds the last frame.
    case once = 1
    /// Plays forward and starts again from the first frame.
    case loop = 2
    /// Plays forward then backward, repeatedly.
    case pingpong = 3
    /// Plays backward once, then holds the first frame.
    case onceReverse = 4
    /// Plays backward and starts again from the last frame.
    case loopReverse = 5
    /// Plays backward then forward, repeatedly.
    case pingpongReverse = 6
}
