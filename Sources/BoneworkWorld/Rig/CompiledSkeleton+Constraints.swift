import BoneworkFormat

/// The constraints' bone lists and setup values, flattened (`CompiledSkeleton.compileConstraints`).
struct CompiledConstraints {
    var ikBones: [Int32]
    var ikBoneStart: [Int32]
    var ikBoneCount: [Int32]
    var transformBones: [Int32]
    var transformBoneStart: [Int32]
    var transformBoneCount: [Int32]
    var transformMix: [Float]
    var transformOffset: [Float]
    var physicsSetup: [Float]
    var physicsGlobal: [UInt8]
}

/// Which slots and bones get a row of their own in the compact columns (`SlotFields.swift`):
/// per slot its row among the colour, dark colour, sequence and deform rows (-1 = none; only
/// slots a timeline changes have one: deform lengths only for slots deform timelines write), per
/// bone its inherit-mode row.
struct CompactRows {
    var colorRows: (rows: [Int32], count: Int)
    var darkRows: (rows: [Int32], count: Int)
    var sequenceRows: (rows: [Int32], count: Int)
    var deformRows: (rows: [Int32], count: Int)
    var inheritRows: [Int32]
    var inheritBones: Int32
}

extension CompiledSkeleton {
    static func compileConstraints(_ data: SkeletonData) -> CompiledConstraints {
        var ikBones: [Int32] = []
        var ikBoneStart: [Int32] = []
        var ikBoneCount: [Int32] = []
        for c in data.ikConstraints {
            ikBoneStart.append(Int32(ikBones.count))
            ikBoneCount.append(Int32(c.bones.count))
            ikBones.append(contentsOf: c.bones)
        }
        var transformBones: [Int32] = []
        var transformBoneStart: [Int32] = []
        var transformBoneCount: [Int32] = []
        var transformMix: [Float] = []
        var transformOffset: [Float] = []
        for c in data.transformConstraints {
            transformBoneStart.append(Int32(transformBones.count))
            transformBoneCount.append(Int32(c.bones.count))
            transformBones.append(contentsOf: c.bones)
            transformMix.append(contentsOf: [c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY])
            transformOffset.append(
                contentsOf: [c.offsetRotation, c.offsetX, c.offsetY, c.offsetScaleX, c.offsetScaleY, c.offsetShearY])
        }
        var physicsSetup: [Float] = []
        var physicsGlobal: [UInt8] = []
        for c in data.physicsConstraints {
            physicsSetup.append(contentsOf: [c.inertia, c.strength, c.damping, c.massInverse, c.wind, c.gravity, c.mix])
            physicsGlobal.append(
                contentsOf: [
                    c.inertiaGlobal, c.strengthGlobal, c.dampingGlobal, c.massGlobal, c.windGlobal, c.gravityGlobal,
                    c.mixGlobal,
                ].map { $0 ? 1 : 0 })
        }

        return CompiledConstraints(
            ikBones: ikBones, ikBoneStart: ikBoneStart, ikBoneCount: ikBoneCount, transformBones: transformBones,
            transformBoneStart: transformBoneStart, transformBoneCount: transformBoneCount, transformMix: transformMix,
            transformOffset: transformOffset, physicsSetup: physicsSetup, physicsGlobal: physicsGlobal)
    }

    /// Numbers the slots (by `slotFieldUse` bits) and bones (`inheritUse`) that need compact rows.
    static func compactRows(slotFieldUse: [UInt8], inheritUse: [Bool]) -> CompactRows {
        func rows(_ bit: UInt8) -> (rows: [Int32], count: Int) {
            var rows: [Int32] = []
            var n: Int32 = 0
            for use in slotFieldUse {
                if use & bit != 0 {
                    rows.append(n)
                    n += 1
                } else {
                    rows.append(-1)
                }
            }
            return (rows, Int(n))
        }
        let colorRows = rows(1)
        let darkRows = rows(2)
        let sequenceRows = rows(4)
        let deformRows = rows(8)
        var inheritRows: [Int32] = []
        var inheritBones: Int32 = 0
        for used in inheritUse {
            inheritRows.append(used ? inheritBones : -1)
            if used { inheritBones += 1 }
        }
        return CompactRows(
            colorRows: colorRows, darkRows: darkRows, sequenceRows: sequenceRows, deformRows: deformRows,
            inheritRows: inheritRows, inheritBones: inheritBones)
    }
}
