/// An RGBA colour with float channels in 0...1.
public struct Color: Sendable, Equatable, Hashable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    public init(_ r: Float, _ g: Float, _ b: Float, _ a: Float) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

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
    case normal = 0
    case onlyTranslation = 1
    case noRotationOrReflection = 2
    case noScale = 3
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

public enum BlendMode: UInt8, Sendable, CaseIterable {
    case normal = 0
    case additive = 1
    case multiply = 2
    case screen = 3

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

public enum PositionMode: UInt8, Sendable {
    case fixed = 0
    case percent = 1
}

public enum SpacingMode: UInt8, Sendable {
    case length = 0
    case fixed = 1
    case percent = 2
    case proportional = 3
}

public enum RotateMode: UInt8, Sendable {
    case tangent = 0
    case chain = 1
    case chainScale = 2
}

/// How a sequence advances its frames (Spine's `SequenceMode`, binary raw values).
public enum SequenceMode: UInt8, Sendable {
    case hold = 0
    case once = 1
    case loop = 2
    case pingpong = 3
    case onceReverse = 4
    case loopReverse = 5
    case pingpongReverse = 6
}
