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
    /// A bone's rotation, in degrees added to its setup rotation.
    case rotate
    /// A bone's x and y translation, in skeleton units added to its setup position.
    case translate
    /// A bone's x translation alone, in skeleton units added to its setup x.
    case translateX
    /// A bone's y translation alone, in skeleton units added to its setup y.
    case translateY
    /// A bone's x and y scale, multiplied into its setup scale.
    case scale
    /// A bone's x scale alone, multiplied into its setup scale.
    case scaleX
    /// A bone's y scale alone, multiplied into its setup scale.
    case scaleY
    /// A bone's x and y shear, in degrees added to its setup shear.
    case shear
    /// A bone's x shear alone, in degrees added to its setup shear.
    case shearX
    /// A bone's y shear alone, in degrees added to its setup shear.
    case shearY
    /// A bone's ``Inherit`` mode; stepped (no curves), the raw value stored as a float.
    case inherit
    /// A slot's colour, all four channels (0...1).
    case rgba
    /// A slot's red, green and blue, leaving alpha to other timelines.
    case rgb
    /// A slot's alpha alone.
    case alpha
    /// A slot's colour and dark colour (two-colour tinting): light RGBA, then dark RGB.
    case rgba2
    /// A slot's light RGB and dark RGB, leaving alpha to other timelines.
    case rgb2
    /// Which attachment a slot shows; stepped, names in `AnimationData.ints`.
    case attachment
    /// Vertex offsets of one mesh or other vertex attachment in one slot, added to its setup vertices.
    case deform
    /// The ``SequenceMode``, start frame and frame delay (seconds) of one sequence attachment in one slot.
    case sequence
    /// The slots' draw order; stepped, one permutation of slot indices per key in `AnimationData.ints`.
    case drawOrder
    /// Events fired at key times; the keys are in `AnimationData.events`.
    case event
    /// An IK constraint's mix, softness, bend direction, compress and stretch.
    case ik
    /// A transform constraint's six mixes (rotate, x, y, scaleX, scaleY, shearY).
    case transform
    /// A path constraint's position (units as its ``PathConstraintData/positionMode``).
    case pathPosition
    /// A path constraint's spacing (units as its ``PathConstraintData/spacingMode``).
    case pathSpacing
    /// A path constraint's rotate, x and y mixes.
    case pathMix
    /// A physics constraint's ``PhysicsConstraintData/inertia``.
    case physicsInertia
    /// A physics constraint's ``PhysicsConstraintData/strength``.
    case physicsStrength
    /// A physics constraint's ``PhysicsConstraintData/damping``.
    case physicsDamping
    /// A physics constraint's mass, stored as ``PhysicsConstraintData/massInverse``.
    case physicsMass
    /// A physics constraint's ``PhysicsConstraintData/wind``.
    case physicsWind
    /// A physics constraint's ``PhysicsConstraintData/gravity``.
    case physicsGravity
    /// A physics constraint's ``PhysicsConstraintData/mix``.
    case physicsMix
    /// Keys at which a physics constraint's simulation is reset to the current pose (no values).
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
    /// The value moves in a straight line from this key to the next.
    public static let linear: Float = 0
    /// The value holds until the next key, then jumps.
    public static let stepped: Float = 1
    /// A bezier curve whose samples start at (curvesStart + (value - bezier)).
    public static let bezier: Float = 2
    /// Floats per bezier segment: 9 sampled (x, y) points.
    public static let bezierSize = 18
}

/// One timeline of an animation: a view into the animation's flat pools.
public struct TimelineData: Sendable, Equatable {
    /// What the timeline animates; fixes the frame layout (``TimelineKind/frameStride``).
    public var kind: TimelineKind
    /// Bone, slot or constraint index (by kind). Physics timelines: -1 means every constraint.
    public var target: Int32
    /// Deform and sequence timelines: the attachment index they animate; -1 otherwise.
    public var attachment: Int32 = -1
    /// Number of keys; at least 1 in loaded data.
    public var frameCount: Int32
    /// Start of the frames in `AnimationData.frames` (frameCount * kind.frameStride floats).
    public var framesStart: Int32
    /// Start of the curves in `AnimationData.curves`: frameCount type markers followed by bezier
    /// samples; -1 when the kind has no curves.
    public var curvesStart: Int32 = -1
    /// Floats from `curvesStart` in `AnimationData.curves` that belong to this timeline (markers and
    /// bezier samples); 0 when the kind has no curves.
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

    /// A timeline with no curves and no values outside `frames`; ``AnimationData/append(_:)`` sets
    /// the pool offsets of a ``TimelineBuilder``'s timeline.
    /// - Parameters:
    ///   - kind: What the timeline animates.
    ///   - target: The bone, slot or constraint index (by kind); -1 for all physics constraints.
    ///   - frameCount: The number of keys.
    ///   - framesStart: The first float of the keys in `AnimationData.frames`.
    public init(kind: TimelineKind, target: Int32, frameCount: Int32, framesStart: Int32) {
        self.kind = kind
        self.target = target
        self.frameCount = frameCount
        self.framesStart = framesStart
    }
}

/// One fired event key of an event timeline. Its payloads start from the ``EventData`` values and
/// carry whatever the key overrides.
public struct EventKey: Sendable, Equatable {
    /// When the event fires, in seconds from the animation's start.
    public var time: Float
    /// Index into `SkeletonData.events`.
    public var event: Int32
    /// The integer payload of this key.
    public var intValue: Int32
    /// The float payload of this key.
    public var floatValue: Float
    /// The string payload of this key.
    public var stringValue: String
    /// Audio volume for this key, 0...1 (meaningful when the event has an audio path).
    public var volume: Float
    /// Audio stereo balance for this key, -1 (left) ... 1 (right).
    public var balance: Float

    /// An event key with every payload given; nothing is looked up or checked here.
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
    /// The animation's name in the export, unique within a skeleton (``SkeletonData/findAnimation(_:)``).
    public var name: String
    /// Length in seconds: the time of the last key of any timeline (0 for an empty animation).
    public var duration: Float
    /// The timelines in the order they apply, each a view into the pools below.
    public var timelines: [TimelineData] = []
    /// Key times and values of every timeline, then deform vertex offsets (see ``TimelineData/framesStart``).
    public var frames: [Float] = []
    /// Curve markers (``CurveType``) and bezier samples of every curved timeline.
    public var curves: [Float] = []
    /// Interned attachment names of attachment timelines and slot permutations of draw order timelines.
    public var ints: [Int32] = []
    /// The keys of every event timeline, in time order per timeline.
    public var events: [EventKey] = []

    /// An animation with no timelines; add them with ``append(_:)``.
    /// - Parameters:
    ///   - name: The animation's unique name.
    ///   - duration: Its length in seconds.
    public init(name: String, duration: Float) {
        self.name = name
        self.duration = duration
    }
}
