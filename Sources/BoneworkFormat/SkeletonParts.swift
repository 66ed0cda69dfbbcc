/// Setup values of one bone. `parent` is a bone index (-1 for the root); parents always precede
/// their children.
public struct BoneData: Sendable, Equatable {
    public var name: String
    public var parent: Int32
    public var length: Float = 0
    public var x: Float = 0
    public var y: Float = 0
    public var rotation: Float = 0
    public var scaleX: Float = 1
    public var scaleY: Float = 1
    public var shearX: Float = 0
    public var shearY: Float = 0
    public var inherit: Inherit = .normal
    public var skinRequired = false
    /// Editor-only colour (nonessential data); kept for debug drawing.
    public var color = Color(0.61, 0.61, 0.61, 1)

    public init(name: String, parent: Int32) {
        self.name = name
        self.parent = parent
    }
}

public struct SlotData: Sendable, Equatable {
    public var name: String
    public var bone: Int32
    public var color: Color = .white
    /// The dark colour for two-colour tinting; nil when the slot has none.
    public var darkColor: Color?
    /// Interned name (index into `SkeletonData.attachmentNames`) of the setup attachment; -1 = none.
    public var attachmentName: Int32 = -1
    public var blendMode: BlendMode = .normal
    public var visible = true

    public init(name: String, bone: Int32) {
        self.name = name
        self.bone = bone
    }
}

public struct IKConstraintData: Sendable, Equatable {
    public var name: String
    public var order: Int32 = 0
    public var skinRequired = false
    public var bones: [Int32] = []
    public var target: Int32 = 0
    public var mix: Float = 1
    public var softness: Float = 0
    public var bendDirection: Int32 = 1
    public var compress = false
    public var stretch = false
    public var uniform = false

    public init(name: String) { self.name = name }
}

public struct TransformConstraintData: Sendable, Equatable {
    public var name: String
    public var order: Int32 = 0
    public var skinRequired = false
    public var bones: [Int32] = []
    public var target: Int32 = 0
    public var mixRotate: Float = 1
    public var mixX: Float = 1
    public var mixY: Float = 1
    public var mixScaleX: Float = 1
    public var mixScaleY: Float = 1
    public var mixShearY: Float = 1
    public var offsetRotation: Float = 0
    public var offsetX: Float = 0
    public var offsetY: Float = 0
    public var offsetScaleX: Float = 0
    public var offsetScaleY: Float = 0
    public var offsetShearY: Float = 0
    public var relative = false
    public var local = false

    public init(name: String) { self.name = name }
}

public struct PathConstraintData: Sendable, Equatable {
    public var name: String
    public var order: Int32 = 0
    public var skinRequired = false
    public var bones: [Int32] = []
    /// A slot index: the path attachment in this slot is followed.
    public var target: Int32 = 0
    public var positionMode: PositionMode = .percent
    public var spacingMode: SpacingMode = .length
    public var rotateMode: RotateMode = .tangent
    public var offsetRotation: Float = 0
    public var position: Float = 0
    public var spacing: Float = 0
    public var mixRotate: Float = 1
    public var mixX: Float = 1
    public var mixY: Float = 1

    public init(name: String) { self.name = name }
}

public struct PhysicsConstraintData: Sendable, Equatable {
    public var name: String
    public var order: Int32 = 0
    public var skinRequired = false
    public var bone: Int32 = 0
    public var x: Float = 0
    public var y: Float = 0
    public var rotate: Float = 0
    public var scaleX: Float = 0
    public var shearX: Float = 0
    public var limit: Float = 5000
    /// Seconds per simulation step (1 / fps).
    public var step: Float = 1.0 / 60.0
    public var inertia: Float = 1
    public var strength: Float = 100
    public var damping: Float = 1
    public var massInverse: Float = 1
    public var wind: Float = 0
    public var gravity: Float = 0
    public var mix: Float = 1
    public var inertiaGlobal = false
    public var strengthGlobal = false
    public var dampingGlobal = false
    public var massGlobal = false
    public var windGlobal = false
    public var gravityGlobal = false
    public var mixGlobal = false

    public init(name: String) { self.name = name }
}

public struct EventData: Sendable, Equatable {
    public var name: String
    public var intValue: Int32 = 0
    public var floatValue: Float = 0
    public var stringValue: String = ""
    public var audioPath: String = ""
    public var volume: Float = 1
    public var balance: Float = 0

    public init(name: String) { self.name = name }
}

/// The kinds of constraint, used where a skin or the update order refers to one by index.
public enum ConstraintKind: UInt8, Sendable {
    case ik = 0
    case transform = 1
    case path = 2
    case physics = 3
}

public struct ConstraintRef: Sendable, Equatable, Hashable {
    public var kind: ConstraintKind
    public var index: Int32

    public init(_ kind: ConstraintKind, _ index: Int32) {
        self.kind = kind
        self.index = index
    }
}

/// One (slot, name) -> attachment entry of a skin.
public struct SkinEntry: Sendable, Equatable {
    public var slot: Int32
    /// Interned attachment name (index into `SkeletonData.attachmentNames`).
    public var name: Int32
    /// Index into `SkeletonData.attachments`.
    public var attachment: Int32

    public init(slot: Int32, name: Int32, attachment: Int32) {
        self.slot = slot
        self.name = name
        self.attachment = attachment
    }
}

public struct SkinData: Sendable, Equatable {
    public var name: String
    /// Entries in file order.
    public var entries: [SkinEntry] = []
    /// Bones that only exist when this skin is active (skin-required bones it enables).
    public var bones: [Int32] = []
    /// Constraints this skin enables.
    public var constraints: [ConstraintRef] = []

    public init(name: String) { self.name = name }
}
