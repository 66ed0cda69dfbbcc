/// How much a loader may create beyond what a file spells out, in proportion to the file's size:
/// short keys that expand to whole vertex arrays or permutations, and sequences whose frames each
/// become a resolved image. A small hostile file can then make the process allocate no more than
/// a fixed allowance plus a small multiple of its own size; the readers' absolute maxima still
/// cap large files. Real exports use a small fraction of either budget.
enum LoadBudget {
    /// Expanded values (4 bytes each): 65,536 plus 16 per byte of file (64 bytes per byte).
    static func expandedValues(fileSize: Int, cap: Int) -> Int {
        min(cap, (1 << 16) &+ 16 &* max(0, fileSize))
    }

    /// Resolved images (about 80 bytes each): 1,024 plus one per byte of file.
    static func resolvedFrames(fileSize: Int, cap: Int) -> Int {
        min(cap, 1024 &+ max(0, fileSize))
    }

    /// Values the world compiles into its per-skin update plans (`SkeletonDataValidator`): 65,536
    /// plus 16 per byte of file, at most 2^26.
    static func compiledPlanValues(fileSize: Int) -> Int {
        min(1 << 26, (1 << 16) &+ 16 &* max(0, fileSize))
    }
}
