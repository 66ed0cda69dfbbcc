import BoneworkFormat

/// Attachment keys: every (slot, interned attachment name) pair that a skin, a slot's setup or a
/// timeline uses, numbered densely in the order first met. A plan's attachment table has one
/// entry per key (`RigTables.planAttachment`).
struct AttachmentKeys {
    private(set) var index: [Int64: Int32] = [:]
    private let names: [String]

    init(_ data: SkeletonData) { names = data.attachmentNames }

    var count: Int { index.count }

    /// The key of (slot, name), numbering it if it is new; -1 for no name or an empty one.
    mutating func key(_ slot: Int32, _ name: Int32) -> Int32 {
        guard name >= 0, Int(name) < names.count, !names[Int(name)].isEmpty else { return -1 }
        let packed = Int64(slot) << 32 | Int64(name)
        if let k = index[packed] { return k }
        let k = Int32(index.count)
        index[packed] = k
        return k
    }
}
