import BoneworkWorld

/// One value a trigger watches: a kind and a payload. Two values are equal only when both the
/// kind and the payload are equal, so a type change is a change even when the number is the
/// same: `.int(3)`, `.optionalInt(3)` and `.float(3)` are three different values, and
/// `.optionalInt(nil)` differs from `.none` (never written).
///
/// Sixteen bytes, bit-copyable: columns of them are plain memory.
public struct TriggerValue: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// What kind of value the payload holds.
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// Never written.
        case none = 0
        /// A `Bool`: payload 0 or 1.
        case bool
        /// An `Int`.
        case int
        /// An `Int?`: the payload is the value, `isNil` tells `nil` apart from 0.
        case optionalInt
        /// A `Float`, compared by value (+0 and -0 are equal; NaN equals the same NaN bits).
        case float
        /// A small enumeration or bucket index (e.g. a speed bucket), distinct from `.int`.
        case bucket
    }

    /// The value's kind.
    public let kind: Kind
    /// For `.optionalInt`: whether it is nil (the payload is then 0).
    public let isNil: Bool
    /// The value's bits: the integer, 0 or 1 for a bool, a float's bit pattern.
    public let payload: Int64

    init(kind: Kind, isNil: Bool = false, payload: Int64) {
        self.kind = kind
        self.isNil = isNil
        self.payload = payload
    }

    /// The value of a column never written.
    public static let none = TriggerValue(kind: .none, payload: 0)
    /// A boolean value.
    public static func bool(_ v: Bool) -> TriggerValue { TriggerValue(kind: .bool, payload: v ? 1 : 0) }
    /// An integer value.
    public static func int(_ v: Int) -> TriggerValue { TriggerValue(kind: .int, payload: Int64(v)) }
    /// An optional integer (nil differs from every integer and from ``none``).
    public static func optionalInt(_ v: Int?) -> TriggerValue {
        TriggerValue(kind: .optionalInt, isNil: v == nil, payload: Int64(v ?? 0))
    }
    /// A float value (+0 and -0 are the same value).
    public static func float(_ v: Float) -> TriggerValue {
        TriggerValue(kind: .float, payload: Int64(v == 0 ? 0 : v.bitPattern))
    }
    /// A bucket or enumeration index.
    public static func bucket(_ v: Int) -> TriggerValue { TriggerValue(kind: .bucket, payload: Int64(v)) }

    /// The bucket of `value` among ascending `bounds`: 0 below `bounds[0]`, 1 below `bounds[1]`, ...
    public static func bucket(_ value: Float, bounds: [Float]) -> TriggerValue {
        var b = 0
        while b < bounds.count && value >= bounds[b] { b += 1 }
        return .bucket(b)
    }

    /// `int(3)`, `float(1.5)`, `bucket(2)`, `none`...
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
    /// The column's position in its system.
    public let index: Int
    /// The column's name.
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
    /// The trigger's name, as diagnostics print it.
    public var name: String
    /// The value column it watches.
    public var column: ValueColumn
    /// Actions for particular values, searched in order; `otherwise` for any other value.
    public var cases: [(value: TriggerValue, action: TriggerAction)]
    /// The action for a value no case lists.
    public var otherwise: TriggerAction
    /// Mix duration in seconds when this trigger changes the animation.
    public var mix: Float

    /// A trigger named `name` watching `column`.
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
