import BoneworkWorld

/// One value a trigger watches: a kind and a payload. Two values are equal only when both the
/// kind and the payload are equal, so a type change is a change even when the number is the
/// same: `.int(3)`, `.optionalInt(3)` and `.float(3)` are three different values, and
/// `.optionalInt(nil)` differs from `.none` (never written).
///
/// Sixteen bytes, bit-copyable: columns of them are plain memory.
public struct TriggerValue: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// Never written.
        case none = 0
        case bool
        case int
        /// An `Int?`: the payload is the value, `isNil` tells `nil` apart from 0.
        case optionalInt
        /// A `Float`, compared by value (+0 and -0 are equal; NaN equals the same NaN bits).
        case float
        /// A small enumeration or bucket index (e.g. a speed bucket), distinct from `.int`.
        case bucket
    }

    public let kind: Kind
    public let isNil: Bool
    public let payload: Int64

    init(kind: Kind, isNil: Bool = false, payload: Int64) {
        self.kind = kind
        self.isNil = isNil
        self.payload = payload
    }

    public static let none = TriggerValue(kind: .none, payload: 0)
    public static func bool(_ v: Bool) -> TriggerValue { TriggerValue(kind: .bool, payload: v ? 1 : 0) }
    public static func int(_ v: Int) -> TriggerValue { TriggerValue(kind: .int, payload: Int64(v)) }
    public static func optionalInt(_ v: Int?) -> TriggerValue {
        TriggerValue(kind: .optionalInt, isNil: v == nil, payload: Int64(v ?? 0))
    }
    public static func float(_ v: Float) -> TriggerValue {
        TriggerValue(kind: .float, payload: Int64(v == 0 ? 0 : v.bitPattern))
    }
    public static func bucket(_ v: Int) -> TriggerValue { TriggerValue(kind: .bucket, payload: Int64(v)) }

    /// The bucket of `value` among ascending `bounds`: 0 below `bounds[0]`, 1 below `bounds[1]`, ...
    public static func bucket(_ value: Float, bounds: [Float]) -> TriggerValue {
        var b = 0
        while b < bounds.count && value >= bounds[b] { b += 1 }
        return .bucket(b)
    }

    public var description: String {
        switch kind {
        case .none: return "none"
        case .bool: return "bool(\(payload != 0))"
        case .int: return "int(\(payload))"
        case .optionalInt: return isNil ? "optionalInt(nil)" : "optionalInt(\(payload))"
        case .float: return "float(\(Float(bitPattern: UInt32(truncatingIfNeeded: payload))))"
        case .bucket: return "bucket(\(payload))"
        }
    }
}

/// A column of trigger values in a `TriggerSystem`, one value per entity.
public struct ValueColumn: Hashable, Sendable {
    public let index: Int
    public let name: String
}

/// What a trigger does when its value changes to a given value.
public enum TriggerAction: Sendable, Equatable {
    /// The trigger changed (it still wins over later triggers) but plays nothing.
    case keep
    /// Plays the animation on the scope's track, mixing over the trigger's mix duration.
    case play(String, loop: Bool)
    /// Plays the animation once, then mixes the track out to the setup pose over `fadeOut`
    /// seconds (a reaction on an additive layer).
    case playOnce(String, fadeOut: Float)
    /// Mixes the track out to the setup pose over the trigger's mix duration.
    case empty
}

/// One (value column, animation, mix) entry of a scope: when the column's value of a member
/// changes, the action chosen for the new value runs (if this trigger wins the frame).
public struct AnimationTrigger: Sendable {
    public var name: String
    public var column: ValueColumn
    /// Actions for particular values, searched in order; `otherwise` for any other value.
    public var cases: [(value: TriggerValue, action: TriggerAction)]
    public var otherwise: TriggerAction
    /// Mix duration in seconds when this trigger changes the animation.
    public var mix: Float

    public init(
        _ name: String, column: ValueColumn, cases: [(value: TriggerValue, action: TriggerAction)],
        otherwise: TriggerAction = .keep, mix: Float = 0.2
    ) {
        self.name = name
        self.column = column
        self.cases = cases
        self.otherwise = otherwise
        self.mix = mix
    }

    /// The action for `value`.
    public func action(for value: TriggerValue) -> TriggerAction {
        for c in cases where c.value == value { return c.action }
        return otherwise
    }
}
