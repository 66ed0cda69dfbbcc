import BoneworkFormat

extension PathConstraintSolver {
    /// The second half of a solve: places and rotates the bones of path constraint `k` of one
    /// instance along `chain` (from `prepare`), each followed by its applied pose when
    /// `recomputesApplied` (`UpdateOp.recomputesApplied`).
    static func place(
        _ chain: PathChain, _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int,
        recomputesApplied: Bool = true
    ) {
        let tables = rig.paths
        let boneCount = Int(tables.boneCount[k])
        let bones = tables.bones + Int(tables.boneStart[k])
        let (mixRotate, mixX, mixY) = (chain.mixRotate, chain.mixX, chain.mixY)
        let (tangents, scale, tip) = (chain.tangents, chain.scale, chain.tip)
        let (spaces, lengths, positions) = (chain.spaces, chain.lengths, chain.positions)
        let offsetRotation = chain.offsetRotation
        var boneX = positions[0]
        var boneY = positions[1]
        var p = 3
        for i in 0..<boneCount {
            let b = Int(bones[i])
            let bi = r.bone(b)
            cols.worldX[bi] += (boneX - cols.worldX[bi]) * mixX
            cols.worldY[bi] += (boneY - cols.worldY[bi]) * mixY
            let x = positions[p]
            let y = positions[p &+ 1]
            let dx = x - boneX
            let dy = y - boneY
            if scale {
                let length = lengths[i]
                if length >= epsilon {
                    let sc = ((dx * dx + dy * dy).squareRoot() / length - 1) * mixRotate + 1
                    cols.a[bi] *= sc
                    cols.c[bi] *= sc
                }
            }
            boneX = x
            boneY = y
            if mixRotate > 0 {
                let a = cols.a[bi]
                let bb = cols.b[bi]
                let c = cols.c[bi]
                let d = cols.d[bi]
                var rr: Float
                if tangents {
                    rr = positions[p &- 1]
                } else if spaces[i &+ 1] < epsilon {
                    rr = positions[p &+ 2]
                } else {
                    rr = ArcTangent.atan2(dy, dx)
                }
                rr -= ArcTangent.atan2(c, a)
                if tip {
                    let (sine, cosine) = Trig.sinCos(rr)
                    let length = rig.boneLength[b]
                    boneX += (length * (cosine * a - sine * c) - dx) * mixRotate
                    boneY += (length * (sine * a + cosine * c) - dy) * mixRotate
                } else {
                    rr += offsetRotation
                }
                if rr > SpineMath.pi {
                    rr -= SpineMath.pi2
                } else if rr < -SpineMath.pi {
                    rr += SpineMath.pi2
                }
                rr *= mixRotate
                let (sine, cosine) = Trig.sinCos(rr)
                cols.a[bi] = cosine * a - sine * c
                cols.b[bi] = cosine * bb - sine * d
                cols.c[bi] = sine * a + cosine * c
                cols.d[bi] = sine * bb + cosine * d
            }
            if recomputesApplied { BoneTransform.updateApplied(cols, rig, r, bone: b) }
            p &+= 3
        }
    }
}
