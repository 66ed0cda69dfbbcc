import BoneworkFormat

/// Transform constraints in `PoseLanes`: four instances solve one constraint together in its
/// common absolute world case without scale or shear; the lanes' results are bit-identical to
/// `TransformConstraintSolver`'s (`PoseLaneTests` replays every reference trace in lanes).
extension PoseLanes {
    /// Transform constraint `k` for the four lanes when it is absolute and in world space, every
    /// lane rotates (mixRotate not 0) or translates (mixX or mixY not 0) and mixes no scale or
    /// shear, and its bones have parents and inherit normally in every lane: each bone's world
    /// basis turns towards the target's, its world position moves towards the target's offset
    /// point, then (when `recomputesApplied`) its applied pose is recomputed from its world
    /// transform (`updateApplied`), lane by lane the scalar's float operations. Returns false
    /// (nothing done) otherwise.
    @inline(__always)
    static func solveTransform(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, constraint k: Int, recomputesApplied: Bool
    ) -> Bool {
        guard rig.transformLocal[k] == 0 && rig.transformRelative[k] == 0 else { return false }
        let ci = r0.transform(k)
        let zero = F(repeating: 0)
        let mixX = load(cols.transformMixX + ci)
        let mixY = load(cols.transformMixY + ci)
        let mixRotate = load(cols.transformMixRotate + ci)
        let translating = (mixX .!= zero) .| (mixY .!= zero)
        let rotating = mixRotate .!= zero
        // The scalar scales and shears only for mixes above 0.
        guard
            all(
                (translating .| rotating) .& .!(load(cols.transformMixScaleX + ci) .> zero)
                    .& .!(load(cols.transformMixScaleY + ci) .> zero) .& .!(load(cols.transformMixShearY + ci) .> zero))
        else { return false }
        let bones = UnsafeBufferPointer(
            start: rig.transformBones + Int(rig.transformBoneStart[k]), count: Int(rig.transformBoneCount[k]))
        let normal = Inherit.normal.rawValue
        for bone in bones {
            let b = Int(bone)
            guard rig.boneParent[b] >= 0 else { return false }
            guard
                cols.inheritMode(rig, r0, bone: b) == normal && cols.inheritMode(rig, r1, bone: b) == normal
                    && cols.inheritMode(rig, r2, bone: b) == normal && cols.inheritMode(rig, r3, bone: b) == normal
            else { return false }
        }
        let offset = rig.transformOffset + k &* 6
        let offsetX = F(repeating: offset[1])
        let offsetY = F(repeating: offset[2])
        let t = r0.bone(Int(rig.transformTarget[k]))
        let ta = load(cols.a + t)
        let tb = load(cols.b + t)
        let tc = load(cols.c + t)
        let td = load(cols.d + t)
        let anyRotating = any(rotating)
        let anyStill = !all(translating)
        // The target's angle and the rotation offset in its handedness, as `TargetFrame`.
        var targetAngle = zero
        var offsetRotation = zero
        if anyRotating {
            targetAngle = LaneArcTangent.atan2(tc, ta)
            var degRadReflect = F(repeating: -SpineMath.degRad)
            degRadReflect.replace(with: F(repeating: SpineMath.degRad), where: ta * td - tb * tc .> zero)
            offsetRotation = F(repeating: offset[0]) * degRadReflect
        }
        for bone in bones {
            let b = Int(bone)
            let i = r0.bone(b)
            if anyRotating { rotate(cols, i, by: targetAngle, offsetRotation, mixRotate, where: rotating) }
            let tx = offsetX * ta + offsetY * tb + load(cols.worldX + t)
            let ty = offsetX * tc + offsetY * td + load(cols.worldY + t)
            let x = load(cols.worldX + i)
            let y = load(cols.worldY + i)
            var movedX = x + (tx - x) * mixX
            var movedY = y + (ty - y) * mixY
            if anyStill {
                movedX.replace(with: x, where: .!translating)
                movedY.replace(with: y, where: .!translating)
            }
            store(movedX, cols.worldX + i)
            store(movedY, cols.worldY + i)
            if recomputesApplied && !updateApplied(cols, r0, bone: b, parent: Int(rig.boneParent[b])) {
                BoneTransform.updateApplied(cols, rig, r0, bone: b)
                BoneTransform.updateApplied(cols, rig, r1, bone: b)
                BoneTransform.updateApplied(cols, rig, r2, bone: b)
                BoneTransform.updateApplied(cols, rig, r3, bone: b)
            }
        }
        return true
    }

    /// Turns the world basis at lane row `i` towards the target's angle in the lanes of
    /// `rotating` (`TransformConstraintSolver`'s absolute world rotation).
    @inline(__always)
    private static func rotate(
        _ cols: PoseColumns, _ i: Int, by targetAngle: F, _ offsetRotation: F, _ mix: F,
        where rotating: SIMDMask<SIMD4<Int32>>
    ) {
        let a = load(cols.a + i)
        let b = load(cols.b + i)
        let c = load(cols.c + i)
        let d = load(cols.d + i)
        var rr = targetAngle - LaneArcTangent.atan2(c, a) + offsetRotation
        let over = rr .> F(repeating: SpineMath.pi)
        let under = (rr .< F(repeating: -SpineMath.pi)) .& .!over
        rr.replace(with: rr - F(repeating: SpineMath.pi2), where: over)
        rr.replace(with: rr + F(repeating: SpineMath.pi2), where: under)
        rr *= mix
        let (sine, cosine) = LaneTrig.sinCos(rr)
        var na = cosine * a - sine * c
        var nb = cosine * b - sine * d
        var nc = sine * a + cosine * c
        var nd = sine * b + cosine * d
        na.replace(with: a, where: .!rotating)
        nb.replace(with: b, where: .!rotating)
        nc.replace(with: c, where: .!rotating)
        nd.replace(with: d, where: .!rotating)
        store(na, cols.a + i)
        store(nb, cols.b + i)
        store(nc, cols.c + i)
        store(nd, cols.d + i)
    }

    /// Bone `k`'s applied pose recomputed from its world transform in the four lanes: in lanes
    /// when it has a parent and inherits normally in every lane (`updateApplied`), else lane by
    /// lane with the scalar code. What path chains and physics run after moving a bone.
    @inline(__always)
    static func updateAppliedAnyInherit(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, bone k: Int
    ) {
        let parent = Int(rig.boneParent[k])
        let normal = Inherit.normal.rawValue
        if parent < 0 || cols.inheritMode(rig, r0, bone: k) != normal || cols.inheritMode(rig, r1, bone: k) != normal
            || cols.inheritMode(rig, r2, bone: k) != normal || cols.inheritMode(rig, r3, bone: k) != normal
            || !updateApplied(cols, r0, bone: k, parent: parent)
        {
            BoneTransform.updateApplied(cols, rig, r0, bone: k)
            BoneTransform.updateApplied(cols, rig, r1, bone: k)
            BoneTransform.updateApplied(cols, rig, r2, bone: k)
            BoneTransform.updateApplied(cols, rig, r3, bone: k)
        }
    }

    /// `BoneTransform.updateApplied` for the four lanes of bone `k`, which has a parent and
    /// inherits normally, when its world scale x is above 0.0001 in every lane. Returns false
    /// (nothing done) otherwise.
    @inline(__always)
    static func updateApplied(_ cols: PoseColumns, _ r: InstanceRows, bone k: Int, parent: Int) -> Bool {
        let i = r.bone(k)
        let a = load(cols.a + i)
        let b = load(cols.b + i)
        let c = load(cols.c + i)
        let d = load(cols.d + i)
        let p = LaneWorld(cols, r.bone(parent))
        let pid = 1 / (p.a * p.d - p.b * p.c)
        let ia = p.d * pid
        let ib = p.b * pid
        let ic = p.c * pid
        let id = p.a * pid
        let ra = ia * a - ib * c
        let rb = ia * b - ib * d
        let rc = id * c - ic * a
        let rd = id * d - ic * b
        let scaleX = (ra * ra + rc * rc).squareRoot()
        guard all(scaleX .> 0.0001) else { return false }
        let dx = load(cols.worldX + i) - p.x
        let dy = load(cols.worldY + i) - p.y
        store(dx * ia - dy * ib, cols.appliedX + i)
        store(dy * id - dx * ic, cols.appliedY + i)
        store(F(repeating: 0), cols.appliedShearX + i)
        let det = ra * rd - rb * rc
        store(scaleX, cols.appliedScaleX + i)
        store(det / scaleX, cols.appliedScaleY + i)
        // The scalar's negation flips the sign bit (SIMD's prefix minus is 0 - v).
        store(F.signFlipped(LaneArcTangent.atan2Deg(ra * rb + rc * rd, det)), cols.appliedShearY + i)
        store(LaneArcTangent.atan2Deg(rc, ra), cols.appliedRotation + i)
        return true
    }
}
