/// A loaded skeleton: immutable, `Sendable`, shared by every instance. Everything is a flat array
/// of values indexed by integers; no per-instance state lives here (not even a sequence frame).
public final class SkeletonData: Sendable {
    /// The file it was loaded from.
    public let file: String
    public let hash: String
    public let version: String
    public let x: Float
    public let y: Float
    public let width: Float
    public let height: Float
    public let referenceScale: Float
    public let fps: Float
    public let imagesPath: String
    public let audioPath: String

    public let bones: [BoneData]
    public let slots: [SlotData]
    public let ikConstraints: [IKConstraintData]
    public let transformConstraints: [TransformConstraintData]
    public let pathConstraints: [PathConstraintData]
    public let physicsConstraints: [PhysicsConstraintData]
    /// Skins in file order; the default skin (if the file has one) is `skins[defaultSkin]`.
    public let skins: [SkinData]
    public let defaultSkin: Int32
    public let attachments: [AttachmentData]
    /// Resolved images of attachments (see `AttachmentData.firstFrame`).
    public let attachmentFrames: [AttachmentFrame]
    /// Texture coordinates of mesh frames (see `AttachmentFrame.meshUVStart`).
    public let meshUVs: [Float]
    /// Every attachment name used by skins, slots and attachment timelines, interned.
    public let attachmentNames: [String]
    public let events: [EventData]
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
    @available(*, deprecated, renamed: "findBoneIndex(_:)", message: "findBoneIndex returns Int")
    public func findBone(_ name: String) -> Int32? { boneIndex[name] }
    @available(*, deprecated, renamed: "findSlotIndex(_:)", message: "findSlotIndex returns Int")
    public func findSlot(_ name: String) -> Int32? { slotIndex[name] }
    @available(*, deprecated, renamed: "findSkinIndex(_:)", message: "findSkinIndex returns Int")
    public func findSkin(_ name: String) -> Int32? { skinIndex[name] }
    public func findAnimation(_ name: String) -> Int32? { animationIndex[name] }
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
