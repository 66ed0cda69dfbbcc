import BoneworkFormat

// The readers' tests compare lookups with the data model's stored Int32 indices (parents,
// constraint targets, skin entries); these give the lookups in that form.
extension SkeletonData {
    func findBone32(_ name: String) -> Int32? { findBoneIndex(name).map(Int32.init) }
    func findSlot32(_ name: String) -> Int32? { findSlotIndex(name).map(Int32.init) }
    func findSkin32(_ name: String) -> Int32? { findSkinIndex(name).map(Int32.init) }
}
