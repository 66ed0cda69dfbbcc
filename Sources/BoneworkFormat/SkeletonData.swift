/// A loaded skeleton: immutable, `Sendable`, shared by every instance. Everything is a flat array
/// of values indexed by integers; no per-instance state lives here (not even a sequence frame).
public final class SkeletonData: Sendable {
    /// The file it was loaded from.
    public let file: String
    /// The editor's hash of the export (changes whenever the skeleton does); empty when absent.
    public let hash: String
    /// The Spine editor version that exported the file, such as `4.2.38`.
    public let version: String
    /// Left edge of the setup pose's bounding box as the editor measured it, in skeleton units.
    public let x: Float
    /// Bottom edge of the setup pose's bounding box, in skeleton units.
    public let y: Float
    /// Width of the setup pose's bounding box, in skeleton units (0 when not exported).
    public let width: Float
    /// Height of the setup pose's bounding box, in skeleton units (0 when not exported).
    public let height: Float
    /// Baseline distance, in skeleton units, for physics: wind and gravity are multiplied by it (100
    /// by default, times the load scale).
    public let referenceScale: Float
    /// The editor's dopesheet frames per second (nonessential data, 30 when absent); playback does
    /// not depend on it.
    public let fps: Float
    /// The editor's images folder (nonessential data); empty when not exported.
    public let imagesPath: String
    /// The folder event audio paths are relative to (nonessential data); empty when not exported.
    public let audioPath: String

    /// Every bone in setup order: parents before children, the root first.
    public let bones: [BoneData]
    /// Every slot in setup draw order (first drawn first).
    public let slots: [SlotData]
    /// IK constraints in file order; ``IKConstraintData/order`` gives their place in the update.
    public let ikConstraints: [IKConstraintData]
    /// Transform constraints in file order; ``TransformConstraintData/order`` gives their place in
    /// the update.
    public let transformConstraints: [TransformConstraintData]
    /// Path constraints in file order; ``PathConstraintData/order`` gives their place in the update.
    public let pathConstraints: [PathConstraintData]
    /// Physics constraints in file order; ``PhysicsConstraintData/order`` gives their place in the update.
    public let physicsConstraints: [PhysicsConstraintData]
    /// Skins in file order; the default skin (if the file has one) is `skins[defaultSkin]`.
    public let skins: [SkinData]
    /// Index in ``skins`` of the skin named `default`; -1 when the file has none.
    public let defaultSkin: Int32
    /// Every attachment of every skin, in the order the skins were read; ``SkinEntry/attachment``
    /// indexes this array.
    public let attachments: [AttachmentData]
    /// Resolved images of attachments (see `AttachmentData.firstFrame`).
    public let attachmentFrames: [AttachmentFrame]
    /// Texture coordinates of mesh frames (see `AttachmentFrame.meshUVStart`).
    public let meshUVs: [Float]
    /// Every attachment name used by skins, slots and attachment timelines, interned.
    public let attachmentNames: [String]
    /// Every event's setup values, in file order; ``EventKey/event`` indexes this array.
    public let events: [EventData]
    /// Every animation in file order.
    public let animations: [AnimationData]
    /// The atlas attachments were resolved against (nil when loaded without one).
    public let atlas: Atlas?

    private let boneIndex: [String: Int32]
    private let slotIndex: [String: Int32]
    private let skinIndex: [String: Int32]
    private let animationIndex: [String: Int32]
    private let eventIndex: [String: Int32]
    private let nameIndex: [String: Int32]

    init(builder b: SkeletonDataBuilder, frames: [AttachmentFrame], meshUVs: [Float], atlas: Atlas?) {
        file = b.file
        hash = b.hash
        version = b.version
        x = b.x
        y = b.y
        width = b.width
        height = b.height
        referenceScale = b.referenceScale
        fps = b.fps
        imagesPath = b.imagesPath
        audioPath = b.audioPath
        bones = b.bones
        slots = b.slots
        ikConstraints = b.ikConstraints
        transformConstraints = b.transformConstraints
        pathConstraints = b.pathConstraints
        physicsConstraints = b.physicsConstraints
        skins = b.skins
        defaultSkin = b.defaultSkin
        attachments = b.attachments
        attachmentFrames = frames
        self.meshUVs = meshUVs
        attachmentNames = b.attachmentNames
        events = b.events
        animations = b.animations
        self.atlas = atlas
        boneIndex = Self.index(b.bones.map(\.name))
        slotIndex = Self.index(b.slots.map(\.name))
        skinIndex = Self.index(b.skins.map(\.name))
        animationIndex = Self.index(b.animations.map(\.name))
        eventIndex = Self.index(b.events.map(\.name))
        nameIndex = Self.index(b.attachmentNames)
    }

    private static func index(_ names: [String]) -> [String: Int32] {
        var result: [String: Int32] = [:]
        for (i, name) in names.enumerated() where result[name] == nil { result[name] = Int32(i) }
        return result
    }

    /// The index of the bone named `name` into ``bones`` (the `Int` that `World.boneWorld(_:bone:)`
    /// and the other per-bone accessors take), nil when the skeleton has no such bone.
    public func findBoneIndex(_ name: String) -> Int? { boneIndex[name].map(Int.init) }
    /// The index of the slot named `name` into ``slots``, nil when the skeleton has no such slot.
    public func findSlotIndex(_ name: String) -> Int? { slotIndex[name].map(Int.init) }
    /// The index of the skin named `name` into ``skins``, nil when the skeleton has no such skin.
    public func findSkinIndex(_ name: String) -> Int? { skinIndex[name].map(Int.init) }
    /// The bone's index as `Int32`: use `findBoneIndex(_:)`, whose `Int` the per-bone accessors take.
    @available(*, deprecated, renamed: "findBoneIndex(_:)", message: "findBoneIndex returns Int")
    public func findBone(_ name: String) -> Int32? { boneIndex[name] }
    /// The slot's index as `Int32`: use `findSlotIndex(_:)`, whose `Int` the per-slot accessors take.
    @available(*, deprecated, renamed: "findSlotIndex(_:)", message: "findSlotIndex returns Int")
    public func findSlot(_ name: String) -> Int32? { slotIndex[name] }
    /// The skin's index as `Int32`: use `findSkinIndex(_:)`, whose `Int` the per-skin accessors take.
    @available(*, deprecated, renamed: "findSkinIndex(_:)", message: "findSkinIndex returns Int")
    public func findSkin(_ name: String) -> Int32? { skinIndex[name] }
    /// The index in ``animations`` of the animation with this name, nil when none; a hash lookup.
    public func findAnimation(_ name: String) -> Int32? { animationIndex[name] }
    /// The index in ``events`` of the event with this name, nil when none; a hash lookup.
    public func findEvent(_ name: String) -> Int32? { eventIndex[name] }
    /// The interned id of an attachment name, nil when no skin, slot or timeline uses it.
    public func attachmentNameID(_ name: String) -> Int32? { nameIndex[name] }

    /// The attachment a skin holds for (slot, interned name), nil when it has none.
    public func attachment(skin: Int32, slot: Int32, name: Int32) -> Int32? {
        guard skin >= 0, Int(skin) < skins.count else { return nil }
        for entry in skins[Int(skin)].entries where entry.slot == slot && entry.name == name {
            return entry.attachment
        }
        return nil
    }
}
