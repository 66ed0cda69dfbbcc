import BoneworkFormat
import BoneworkWorld

/// A set of attachments keyed by (slot, name), built from the skeleton's skins: start empty and
/// `addSkin` several of them to mix and match, then `Skeleton.setSkin(_:)`.
public final class Skin {
    /// The skin's name (shown by `Skeleton.skinName` when worn).
    public let name: String
    /// The skeleton data whose skins it is assembled from; only that skeleton can wear it.
    public let skeletonData: SkeletonData
    /// The data skins this one was assembled from, in the order added.
    public private(set) var parts: [Int32] = []
    // (slot << 32 | interned name) -> attachment index.
    private(set) var table: [Int64: Int32] = [:]
    /// Whether `setAttachment` put an attachment no part holds there: the engine wears the parts
    /// as a composed skin (`World.setSkin(_:parts:)`); such entries are set on the slots after
    /// each apply.
    public private(set) var hasCustomAttachments = false

    /// An empty custom skin for `data`.
    public init(name: String, for data: SkeletonData) {
        self.name = name
        skeletonData = data
    }

    /// A custom skin holding one of the skeleton's skins.
    public convenience init(copying skinName: String, of data: SkeletonData) throws {
        self.init(name: skinName, for: data)
        try addSkin(skinName)
    }

    /// Adds every attachment of a skeleton skin (later skins replace earlier ones on the same key).
    public func addSkin(_ skinName: String) throws {
        guard let index = skeletonData.findSkinIndex(skinName) else {
            throw WorldError.noSuchSkin(skinName, skeleton: skeletonData.file)
        }
        parts.append(Int32(index))
        for entry in skeletonData.skins[index].entries {
            table[Self.key(entry.slot, entry.name)] = entry.attachment
        }
    }

    /// Adds every attachment of another custom skin.
    public func addSkin(_ other: Skin) {
        parts.append(contentsOf: other.parts)
        for (key, value) in other.table { table[key] = value }
        hasCustomAttachments = hasCustomAttachments || other.hasCustomAttachments
    }

    /// Puts one attachment (index into `SkeletonData.attachments`) under (slot, name).
    public func setAttachment(slot: Int, name: String, attachment: Int32) throws {
        guard slot >= 0, slot < skeletonData.slots.count else { throw BoneworkError.invalidArgument("slot \(slot)") }
        guard let id = skeletonData.attachmentNameID(name) else {
            throw BoneworkError.invalidArgument("no attachment named '\(name)'")
        }
        table[Self.key(Int32(slot), id)] = attachment
        hasCustomAttachments = true
    }

    /// The attachment under (slot, name), nil when this skin has none.
    public func attachment(slot: Int, name: String) -> Int32? {
        guard let id = skeletonData.attachmentNameID(name) else { return nil }
        return table[Self.key(Int32(slot), id)]
    }

    func attachment(slot: Int32, nameID: Int32) -> Int32? { table[Self.key(slot, nameID)] }

    /// Number of (slot, name) entries.
    public var count: Int { table.count }

    static func key(_ slot: Int32, _ name: Int32) -> Int64 { Int64(slot) << 32 | Int64(UInt32(bitPattern: name)) }
}

/// Per skeleton data: the skin key of each attachment, and each slot's setup key.
final class SkinKeys {
    /// Attachment index -> interned key name under which a skin holds it (-1: none).
    let keyOfAttachment: [Int32]

    init(_ data: SkeletonData) {
        var keys = [Int32](repeating: -1, count: data.attachments.count)
        for skin in data.skins {
            for entry in skin.entries where entry.attachment >= 0 && Int(entry.attachment) < keys.count {
                keys[Int(entry.attachment)] = entry.name
            }
        }
        keyOfAttachment = keys
    }
}
