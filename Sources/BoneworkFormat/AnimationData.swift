/// Every 4.2 timeline type. Frame layouts (floats per frame) follow the reference runtime:
/// - `rotate`, `translateX/Y`, `scaleX/Y`, `shearX/Y`, `alpha`, path position / spacing and the
///   physics value timelines: [time, value] (stride 2)
/// - `translate`, `scale`, `shear`: [time, x, y] (3); `inherit`: [time, inherit raw value] (2)
/// - `rgba`: [time, r, g, b, a] (5); `rgb`: 4; `rgba2`: [time, r, g, b, a, r2, g2, b2] (8); `rgb2`: 7
/// - `ik`: [time, mix, softness, bendDirection, compress (0/1), stretch (0/1)] (6)
/// - `transform`: [time, rotate, x, y, scaleX, scaleY, shearY] (7); `pathMix`: [time, rotate, x, y] (4)
/// - `sequence`: [time, mode | (index << 4), delay] (3)
/// - `attachment`, `drawOrder`, `event`, `deform`, `physicsReset`: [time] (1) plus values elsewhere
///   (see `TimelineData.valuesStart`).
public enum TimelineKind: UInt8, Sendable, CaseIterable {
    case rotate, translate, translateX, translateY, scale, scaleX, scaleY, shear, shearX, shearY, inherit
    case rgba, rgb, alpha, rgba2, rgb2, attachment, deform, sequence
    case drawOrder, event
    case ik, transform, pathPosition, pathSpacing, pathMix
    case physicsInertia, physicsStrength, physicsDamping, physicsMass, physicsWind, physicsGravity, physicsMix
    case physicsReset

    /// Floats per frame in `AnimationData.frames`.
    public var frameStride: Int {
        switch self {
        case .translate, .scale, .shear, .sequence: return 3
        case .rgba: return 5
        case .rgb, .pathMix: return 4
        case .rgba2: return 8
        case .rgb2: return 7
        case .ik: return 6
        case .transform: return 7
        case .attachment, .deform, .drawOrder, .event, .physicsReset: return 1
        default: return 2
        }
    }

    /// Whether frames carry curve data (LINEAR / STEPPED / BEZIER per frame).
    public var hasCurves: Bool {
        switch self {
        case .inherit, .attachment, .sequence, .drawOrder, .event, .physicsReset: return false
        default: return true
        }
    }

    /// Number of curved values per frame (bezier segments are stored per value).
    public var curveValueCount: Int { hasCurves ? (self == .deform ? 1 : frameStride - 1) : 0 }
}

/// Curve type markers stored per frame in the curve data, as in the reference runtime.
public enum CurveType {
    public static let linear: Float = 0
    public static let stepped: Float = 1
    /// A bezier curve whose samples start at (curvesStart + (value - bezier)).
    public static let bezier: Float = 2
    /// Floats per bezier segment: 9 sampled (x, y) points.
    public static let bezierSize = 18
}

/// One timeline of an animation: a view into the animation's flat pools.
public struct TimelineData: Sendable, Equatable {
    public var kind: TimelineKind
    /// Bone, slot or constraint index (by kind). Physics timelines: -1 means every constraint.
    public var target: Int32
    /// Deform and sequence timelines: the attachment index they animate; -1 otherwise.
    public var attachment: Int32 = -1
    public var frameCount: Int32
    /// Start of the frames in `AnimationData.frames` (frameCount * kind.frameStride floats).
    public var framesStart: Int32
    /// Start of the curves in `AnimationData.curves`: frameCount type markers followed by bezier
    /// samples; -1 when the kind has no curves.
    public var curvesStart: Int32 = -1
    public var curvesCount: Int32 = 0
    /// Per-frame values stored outside `frames`:
    /// - attachment: frameCount interned names in `ints` (-1 = none)
    /// - drawOrder: frameCount * slotCount slot indices in `ints`; a frame whose first entry is -1
    ///   means the setup draw order
    /// - event: frameCount entries in `events`
    /// - deform: frameCount * valueStride vertex offsets in `frames`
    public var valuesStart: Int32 = 0
    /// Deform: floats per frame (the attachment's deform length). drawOrder: slot count.
    public var valueStride: Int32 = 0

    public init(kind: TimelineKind, target: Int32, frameCount: Int32, framesStart: Int32) {
        self.kind = kind
        self.target = target
        self.frameCount = frameCount
        self.framesStart = framesStart
    }
}

/// One fired event key of an event timeline.
public struct EventKey: Sendable, Equatable {
    public var time: Float
    /// Index into `SkeletonData.events`.
    public var event: Int32
    public var intValue: Int32
    public var floatValue: Float
    public var stringValue: String
    public var volume: Float
    public var balance: Float

    public init(
        time: Float, event: Int32, intValue: Int32, floatValue: Float, stringValue: String, volume: Float,
        balance: Float
    ) {
        self.time = time
        self.event = event
        self.intValue = intValue
        self.floatValue = floatValue
        self.stringValue = stringValue
        self.volume = volume
        self.balance = balance
    }
}

/// An animation: its timelines are views into four contiguous pools.
public struct AnimationData: Sendable, Equatable {
    public var name: String
    public var duration: Float
    public var timelines: [TimelineData] = []
    public var frames: [Float] = []
    public var curves: [Float] = []
    public var ints: [Int32] = []
    public var events: [EventKey] = []

    public init(name: String, duration: Float) {
        self.name = name
        self.duration = duration
    }
}
