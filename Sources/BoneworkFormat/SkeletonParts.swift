/// Setup values of one bone. `parent` is a bone index (-1 for the root); parents always precede
/// their children.
public struct BoneData: Sendable, Equatable {
    /// The bone's name in the export; unique within a skeleton (``SkeletonData/findBone(_:)``).
    public var name: String
    /// Index of the parent in ``SkeletonData/bones``, always lower than this bone's own; -1 for the root.
    public var parent: Int32
    /// Length in skeleton units, already multiplied by the load scale; used by IK stretch, path
    /// spacing and debug drawing, never by the world transform itself.
    public var length: Float = 0
    /// Setup x translation relative to the parent, in skeleton units.
    public var x: Float = 0
    /// Setup y translation relative to the parent, in skeleton units (y points up).
    public var y: Float = 0
    /// Setup rotation relative to the parent, in degrees, counter-clockwise.
    public var rotation: Float = 0
    /// Setup scale along the bone's local x axis (1 = unscaled; negative mirrors).
    public var scaleX: Float = 1
    /// Setup scale along the bone's local y axis (1 = unscaled; negative mirrors).
    public var scaleY: Float = 1
    /// Setup shear of the x axis, in degrees.
    public var shearX: Float = 0
    /// Setup shear of the y axis, in degrees.
    public var shearY: Float = 0
    /// Which parts of the parent's transform the bone inherits.
    public var inherit: Inherit = .normal
    /// When true the bone is only active while the current skin lists it in ``SkinData/bones``;
    /// inactive bones are skipped by the update and by their constraints.
    public var skinRequired = false
    /// Editor-only colour (nonessential data); kept for debug drawing.
    public var color = Color(0.61, 0.61, 0.61, 1)

    /// A bone with the setup pose at identity (no translation, rotation, scale or shear).
    /// - Parameters:
    ///   - name: The bone's unique name.
    ///   - parent: The parent's index in ``SkeletonData/bones``, or -1 for the root.
    public init(name: String, parent: Int32) {
        self.name = name
        self.parent = parent
    }
}

/// Setup values of one slot: where a bone shows one attachment at a time, with a colour and a blend
/// mode. Slots are listed in setup draw order (first drawn first).
public struct SlotData: Sendable, Equatable {
    /// The slot's name in the export; unique within a skeleton (``SkeletonData/findSlot(_:)``).
    public var name: String
    /// Index in ``SkeletonData/bones`` of the bone the slot's attachment follows.
    public var bone: Int32
    /// Setup tint multiplied into the attachment's colour (channels 0...1).
    public var color: Color = .white
    /// The dark colour for two-colour tinting; nil when the slot has none.
    public var darkColor: Color?
    /// Interned name (index into `SkeletonData.attachmentNames`) of the setup attachment; -1 = none.
    public var attachmentName: Int32 = -1
    /// How the slot's attachment is composited over what is drawn before it.
    public var blendMode: BlendMode = .normal
    /// The editor's visibility toggle (nonessential data, false only when hidden in the editor);
    /// read and kept, but playback draws the slot either way, as the reference runtime does.
    public var visible = true

    /// A slot with a white tint, no dark colour, no setup attachment and normal blending.
    /// - Parameters:
    ///   - name: The slot's unique name.
    ///   - bone: The index of the slot's bone in ``SkeletonData/bones``.
    public init(name: String, bone: Int32) {
        self.name = name
        self.bone = bone
    }
}

/// Setup values of one IK constraint: rotates one bone, or a parent and child pair, so that the
/// chain's tip reaches a target bone.
public struct IKConstraintData: Sendable, Equatable {
    /// The constraint's name in the export, unique among IK constraints.
    public var name: String
    /// Position in the skeleton's constraint update order, shared by all four constraint kinds
    /// (lower runs first).
    public var order: Int32 = 0
    /// When true the constraint only runs while the current skin lists it in ``SkinData/constraints``.
    public var skinRequired = false
    /// The constrained bones, indices into ``SkeletonData/bones``: one bone, or a parent and its child.
    public var bones: [Int32] = []
    /// Index in ``SkeletonData/bones`` of the bone the chain reaches for.
    public var target: Int32 = 0
    /// How much of the IK rotation is applied, 0 (none) to 1 (full).
    public var mix: Float = 1
    /// Two-bone chains: the distance, in skeleton units, from full reach at which the chain starts to
    /// slow its straightening, so that it never snaps straight; 0 = no softening.
    public var softness: Float = 0
    /// Two-bone chains: which way the joint bends, 1 or -1.
    public var bendDirection: Int32 = 1
    /// One-bone chains: when true, the bone is scaled down along x when the target is nearer than
    /// its length.
    public var compress = false
    /// When true, the bone (the parent, in a two-bone chain) is scaled up along x when the target
    /// is out of reach.
    public var stretch = false
    /// When true, compress and stretch scale y as well as x.
    public var uniform = false

    /// An IK constraint with full mix and no bones; the reader fills the rest.
    /// - Parameter name: The constraint's unique name.
    public init(name: String) { self.name = name }
}

/// Setup values of one transform constraint: moves constrained bones toward a target bone's world
/// transform (or its local transform when ``local``), each property by its own mix.
public struct TransformConstraintData: Sendable, Equatable {
    /// The constraint's name in the export, unique among transform constraints.
    public var name: String
    /// Position in the skeleton's constraint update order, shared by all four constraint kinds
    /// (lower runs first).
    public var order: Int32 = 0
    /// When true the constraint only runs while the current skin lists it in ``SkinData/constraints``.
    public var skinRequired = false
    /// The constrained bones, indices into ``SkeletonData/bones``.
    public var bones: [Int32] = []
    /// Index in ``SkeletonData/bones`` of the bone whose transform is copied.
    public var target: Int32 = 0
    /// How much of the target's rotation is applied, 0...1.
    public var mixRotate: Float = 1
    /// How much of the target's x translation is applied, 0...1.
    public var mixX: Float = 1
    /// How much of the target's y translation is applied, 0...1.
    public var mixY: Float = 1
    /// How much of the target's x scale is applied, 0...1.
    public var mixScaleX: Float = 1
    /// How much of the target's y scale is applied, 0...1.
    public var mixScaleY: Float = 1
    /// How much of the target's y shear is applied, 0...1.
    public var mixShearY: Float = 1
    /// Added to the target's rotation, in degrees.
    public var offsetRotation: Float = 0
    /// Added to the target's x translation, in skeleton units.
    public var offsetX: Float = 0
    /// Added to the target's y translation, in skeleton units.
    public var offsetY: Float = 0
    /// Added to the target's x scale (0 = no change).
    public var offsetScaleX: Float = 0
    /// Added to the target's y scale (0 = no change).
    public var offsetScaleY: Float = 0
    /// Added to the target's y shear, in degrees.
    public var offsetShearY: Float = 0
    /// When true the target's values are added to the bones' own instead of replacing them.
    public var relative = false
    /// When true the constraint works on local transforms instead of world transforms.
    public var local = false

    /// A transform constraint with every mix at 1 and no offsets; the reader fills the rest.
    /// - Parameter name: The constraint's unique name.
    public init(name: String) { self.name = name }
}

/// Setup values of one path constraint: places and rotates bones along a path attachment.
public struct PathConstraintData: Sendable, Equatable {
    /// The constraint's name in the export, unique among path constraints.
    public var name: String
    /// Position in the skeleton's constraint update order, shared by all four constraint kinds
    /// (lower runs first).
    public var order: Int32 = 0
    /// When true the constraint only runs while the current skin lists it in ``SkinData/constraints``.
    public var skinRequired = false
    /// The constrained bones, indices into ``SkeletonData/bones``, placed along the path in this order.
    public var bones: [Int32] = []
    /// A slot index: the path attachment in this slot is followed.
    public var target: Int32 = 0
    /// Whether ``position`` is in skeleton units or a fraction of the path's length.
    public var positionMode: PositionMode = .percent
    /// How ``spacing`` is measured between consecutive bones.
    public var spacingMode: SpacingMode = .length
    /// How the bones are rotated to follow the path.
    public var rotateMode: RotateMode = .tangent
    /// Added to each bone's rotation along the path, in degrees.
    public var offsetRotation: Float = 0
    /// Where the first bone sits on the path: skeleton units, or 0...1 of its length (by ``positionMode``).
    public var position: Float = 0
    /// Gap between bones: skeleton units for `length` and `fixed`, a fraction of the path's length for
    /// `percent` and `proportional` (by ``spacingMode``).
    public var spacing: Float = 0
    /// How much of the path's rotation is applied, 0...1.
    public var mixRotate: Float = 1
    /// How much of the path's x translation is applied, 0...1.
    public var mixX: Float = 1
    /// How much of the path's y translation is applied, 0...1.
    public var mixY: Float = 1

    /// A path constraint at percent position 0 with length spacing and tangent rotation.
    /// - Parameter name: The constraint's unique name.
    public init(name: String) { self.name = name }
}

/// Setup values of one physics constraint: a damped spring simulation that makes a bone lag,
/// sway and bounce as the skeleton moves, stepped at a fixed rate.
public struct PhysicsConstraintData: Sendable, Equatable {
    /// The constraint's name in the export, unique among physics constraints.
    public var name: String
    /// Position in the skeleton's constraint update order, shared by all four constraint kinds
    /// (lower runs first).
    public var order: Int32 = 0
    /// When true the constraint only runs while the current skin lists it in ``SkinData/constraints``.
    public var skinRequired = false
    /// Index in ``SkeletonData/bones`` of the simulated bone.
    public var bone: Int32 = 0
    /// How much the simulation moves the bone's x translation, 0...1 (0 = not simulated).
    public var x: Float = 0
    /// How much the simulation moves the bone's y translation, 0...1 (0 = not simulated).
    public var y: Float = 0
    /// How much the simulation rotates the bone, 0...1 (0 = not simulated).
    public var rotate: Float = 0
    /// How much the simulation scales the bone along x, 0...1 (0 = not simulated).
    public var scaleX: Float = 0
    /// How much the simulation shears the bone's x axis, 0...1 (0 = not simulated).
    public var shearX: Float = 0
    /// Caps how far the bone's own movement can push the simulation, in skeleton units per second;
    /// larger jumps (a teleport) are clamped so that the spring does not explode.
    public var limit: Float = 5000
    /// Seconds per simulation step (1 / fps).
    public var step: Float = 1.0 / 60.0
    /// How much of the bone's movement carries into the simulation, 0...1 (1 = the spring lags fully).
    public var inertia: Float = 1
    /// Spring stiffness pulling the simulated values back to the pose; higher is stiffer and faster.
    public var strength: Float = 100
    /// Fraction of the simulated velocity kept per 1/60 second, 0...1 (1 = no damping).
    public var damping: Float = 1
    /// One over the simulated mass; higher makes forces and the spring act more strongly.
    public var massInverse: Float = 1
    /// Constant horizontal force, in units of ``SkeletonData/referenceScale`` per second squared.
    public var wind: Float = 0
    /// Constant downward force, in units of ``SkeletonData/referenceScale`` per second squared.
    public var gravity: Float = 0
    /// How much of the simulated result is applied to the bone, 0...1.
    public var mix: Float = 1
    /// When true, ``inertia`` is also set by the animations' all-constraints inertia timelines.
    public var inertiaGlobal = false
    /// When true, ``strength`` is also set by the animations' all-constraints strength timelines.
    public var strengthGlobal = false
    /// When true, ``damping`` is also set by the animations' all-constraints damping timelines.
    public var dampingGlobal = false
    /// When true, ``massInverse`` is also set by the animations' all-constraints mass timelines.
    public var massGlobal = false
    /// When true, ``wind`` is also set by the animations' all-constraints wind timelines.
    public var windGlobal = false
    /// When true, ``gravity`` is also set by the animations' all-constraints gravity timelines.
    public var gravityGlobal = false
    /// When true, ``mix`` is also set by the animations' all-constraints mix timelines.
    public var mixGlobal = false

    /// A physics constraint that simulates nothing yet (every property weight 0), stepping at 60 Hz.
    /// - Parameter name: The constraint's unique name.
    public init(name: String) { self.name = name }
}

/// The setup values of one named event; an ``EventKey`` in an animation may override them.
public struct EventData: Sendable, Equatable {
    /// The event's name in the export, unique within a skeleton (``SkeletonData/findEvent(_:)``).
    public var name: String
    /// Default integer payload, free for the application to interpret.
    public var intValue: Int32 = 0
    /// Default float payload, free for the application to interpret.
    public var floatValue: Float = 0
    /// Default string payload, free for the application to interpret.
    public var stringValue: String = ""
    /// Path of an audio file to play, relative to ``SkeletonData/audioPath``; empty when none.
    public var audioPath: String = ""
    /// Default playback volume of the audio, 0...1.
    public var volume: Float = 1
    /// Default stereo balance of the audio, -1 (left) ... 1 (right).
    public var balance: Float = 0

    /// An event with zero payloads, no audio, full volume and centred balance.
    /// - Parameter name: The event's unique name.
    public init(name: String) { self.name = name }
}

/// The kinds of constraint, used where a skin or the update order refers to one by index.
public enum ConstraintKind: UInt8, Sendable {
    /// An index into ``SkeletonData/ikConstraints``.
    case ik = 0
    /// An index into ``SkeletonData/transformConstraints``.
    case transform = 1
    /// An index into ``SkeletonData/pathConstraints``.
    case path = 2
    /// An index into ``SkeletonData/physicsConstraints``.
    case physics = 3
}

/// A constraint named by kind and index into that kind's array of ``SkeletonData``.
public struct ConstraintRef: Sendable, Equatable, Hashable {
    /// Which constraint array ``index`` points into.
    public var kind: ConstraintKind
    /// The constraint's index within the array of its ``kind``.
    public var index: Int32

    /// Names constraint `index` of kind `kind`; the index is not checked here.
    public init(_ kind: ConstraintKind, _ index: Int32) {
        self.kind = kind
        self.index = index
    }
}

/// One (slot, name) -> attachment entry of a skin.
public struct SkinEntry: Sendable, Equatable {
    /// Index in ``SkeletonData/slots`` of the slot the entry is for.
    public var slot: Int32
    /// Interned attachment name (index into `SkeletonData.attachmentNames`).
    public var name: Int32
    /// Index into `SkeletonData.attachments`.
    public var attachment: Int32

    /// An entry mapping (`slot`, `name`) to `attachment`; indices are checked when the data is finished.
    public init(slot: Int32, name: Int32, attachment: Int32) {
        self.slot = slot
        self.name = name
        self.attachment = attachment
    }
}

/// One skin: the attachments it provides per (slot, name), plus the skin-required bones and
/// constraints it turns on.
public struct SkinData: Sendable, Equatable {
    /// The skin's name in the export (`default` for the default skin), unique within a skeleton.
    public var name: String
    /// Entries in file order.
    public var entries: [SkinEntry] = []
    /// Bones that only exist when this skin is active (skin-required bones it enables).
    public var bones: [Int32] = []
    /// Constraints this skin enables.
    public var constraints: [ConstraintRef] = []

    /// An empty skin.
    /// - Parameter name: The skin's unique name.
    public init(name: String) { self.name = name }
}
