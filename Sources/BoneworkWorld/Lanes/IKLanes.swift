import BoneworkFormat
import Foundation

/// IK constraints in `PoseLanes`: four instances solve one constraint together when every lane
/// takes the solver's common path; the lanes' results are bit-identical to `IKSolver`'s
/// (`PoseLaneTests` replays every reference trace in lanes).
extension PoseLanes {
    typealias F = SIMD4<Float>

    /// IK constraint `c` for the four lanes when every lane solves it (mix not 0) and its bones
    /// have parents and inherit normally: the applied poses are solved in lanes (`oneBone`,
    /// `twoBone`) or, off their common path, by each lane's scalar solver; then the bones' world
    /// transforms are computed in lanes (parent first), exactly as the solver's own update would.
    /// Returns false (nothing done) otherwise.
    @inline(__always)
    static func solveIK(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, constraint c: Int
    ) -> Bool {
        let count = Int(rig.ikBoneCount[c])
        guard count == 1 || count == 2 else { return false }
        let bones = rig.ikBones + Int(rig.ikBoneStart[c])
        let first = Int(bones[0])
        let last = Int(bones[count &- 1])
        let firstParent = Int(rig.boneParent[first])
        let lastParent = Int(rig.boneParent[last])
        guard firstParent >= 0, lastParent >= 0 else { return false }
        let normal = Inherit.normal.rawValue
        @inline(__always) func solves(_ r: InstanceRows) -> Bool {
            cols.ikMix[r.ik(c)] != 0 && cols.inheritMode(rig, r, bone: first) == normal
                && cols.inheritMode(rig, r, bone: last) == normal
        }
        guard solves(r0) && solves(r1) && solves(r2) && solves(r3) else { return false }
        let inLanes =
            count == 1
            ? oneBone(cols, rig, r0, constraint: c, bone: first, parent: firstParent)
            : twoBone(cols, rig, r0, constraint: c, parent: first, child: last)
        if !inLanes {
            IKSolver.solve(cols, rig, r0, constraint: c, world: false)
            IKSolver.solve(cols, rig, r1, constraint: c, world: false)
            IKSolver.solve(cols, rig, r2, constraint: c, world: false)
            IKSolver.solve(cols, rig, r3, constraint: c, world: false)
        }
        updateChild(cols, rig, r0, bone: first, parent: firstParent)
        if count == 2 { updateChild(cols, rig, r0, bone: last, parent: lastParent) }
        return true
    }

    /// `IKSolver.oneBone` for the four lanes starting at `r` when none of them compresses or
    /// stretches (the bone keeps its scale; its parent and it inherit normally, checked by the
    /// caller): the applied rotation towards the target, lane by lane the scalar's float
    /// operations. Returns false (nothing done) otherwise.
    @inline(__always)
    static func oneBone(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint c: Int, bone k: Int, parent: Int
    ) -> Bool {
        let ci = r.ik(c)
        let flags =
            UnsafeRawPointer(cols.ikCompress + ci).loadUnaligned(as: UInt32.self)
            | UnsafeRawPointer(cols.ikStretch + ci).loadUnaligned(as: UInt32.self)
        guard flags == 0 else { return false }
        let alpha = load(cols.ikMix + ci)
        let target = r.bone(Int(rig.ikTarget[c]))
        let parentWorld = LaneWorld(cols, r.bone(parent))
        let pa = parentWorld.a
        let pb = parentWorld.b
        let pc = parentWorld.c
        let pd = parentWorld.d
        let i = r.bone(k)
        let rotation = load(cols.appliedRotation + i)
        let x = load(cols.worldX + target) - parentWorld.x
        let y = load(cols.worldY + target) - parentWorld.y
        let d = pa * pd - pb * pc
        var tx = (x * pd - y * pb) / d - load(cols.appliedX + i)
        var ty = (y * pa - x * pc) / d - load(cols.appliedY + i)
        let singular = magnitude(d) .<= 0.0001
        tx.replace(with: 0, where: singular)
        ty.replace(with: 0, where: singular)
        var rotationIK = -load(cols.appliedShearX + i) - rotation
        rotationIK += LaneArcTangent.atan2Deg(ty, tx)
        rotationIK.replace(with: rotationIK + 180, where: load(cols.appliedScaleX + i) .< 0)
        store(rotation + wrapped(rotationIK) * alpha, cols.appliedRotation + i)
        return true
    }

    /// `IKSolver.twoBone` for the four lanes starting at `r` in its common case: the parent
    /// scales uniformly, nothing stretches, the parent has a parent, and the chain is not folded
    /// onto the parent's origin (any softness and bend direction; the solver writes both bones'
    /// applied poses, lane by lane the scalar's float operations; libm's arc cosine per lane, as
    /// the scalar calls it). Returns false (nothing done) otherwise.
    @inline(__always)
    static func twoBone(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int, parent pk: Int, child ck: Int
    ) -> Bool {
        let ik = r.ik(k)
        guard UnsafeRawPointer(cols.ikStretch + ik).loadUnaligned(as: UInt32.self) == 0 else { return false }
        let grand = Int(rig.boneParent[pk])
        guard grand >= 0 else { return false }
        let p = r.bone(pk)
        let ch = r.bone(ck)
        // Scale signs: the solver works with positive scales and turns the result back.
        let sx = load(cols.appliedScaleX + p)
        let sy = load(cols.appliedScaleY + p)
        var psx = sx
        var psy = sy
        var csx = load(cols.appliedScaleX + ch)
        var o1 = F(repeating: 0)
        var o2 = F(repeating: 0)
        var s2 = F(repeating: 1)
        let parentFlipped = psx .< 0
        psx.replace(with: -psx, where: parentFlipped)
        o1.replace(with: 180, where: parentFlipped)
        s2.replace(with: -1, where: parentFlipped)
        let parentFlippedY = psy .< 0
        psy.replace(with: -psy, where: parentFlippedY)
        s2.replace(with: -s2, where: parentFlippedY)
        let childFlipped = csx .< 0
        csx.replace(with: -csx, where: childFlipped)
        o2.replace(with: 180, where: childFlipped)
        guard all(magnitude(psx - psy) .<= 0.0001) else { return false }
        let px = load(cols.appliedX + p)
        let py = load(cols.appliedY + p)
        let cx = load(cols.appliedX + ch)
        let cy = load(cols.appliedY + ch)
        let childWorld = LaneWorld(cols, p).point(cx, cy)
        let grandWorld = LaneWorld(cols, r.bone(grand))
        let a = grandWorld.a
        let b = grandWorld.b
        let c = grandWorld.c
        let d = grandWorld.d
        let ppwx = grandWorld.x
        let ppwy = grandWorld.y
        let determinant = a * d - b * c
        var id = 1 / determinant
        id.replace(with: 0, where: magnitude(determinant) .<= 0.0001)
        var x = childWorld.x - ppwx
        var y = childWorld.y - ppwy
        let dx = (x * d - y * b) * id - px
        let dy = (y * a - x * c) * id - py
        let l1 = (dx * dx + dy * dy).squareRoot()
        for lane in 0..<width where Double(l1[lane]) < 0.0001 { return false }
        let target = r.bone(Int(rig.ikTarget[k]))
        x = load(cols.worldX + target) - ppwx
        y = load(cols.worldY + target) - ppwy
        var tx = (x * d - y * b) * id - px
        var ty = (y * a - x * c) * id - py
        var dd = tx * tx + ty * ty
        // Softness (lanes with softness 0 or nothing to soften keep the target).
        let softnessIn = load(cols.ikSoftness + ik)
        let softness = softnessIn * (psx * (csx + 1) * 0.5)
        let l2 = F(repeating: rig.boneLength[ck]) * csx
        let td = dd.squareRoot()
        let sd = td - l1 - l2 * psx + softness
        var soft = pointwiseMin(F(repeating: 1), sd / (softness * 2)) - 1
        soft = (sd - softness * (1 - soft * soft)) / td
        let softened = (softnessIn .!= 0) .& (sd .> 0)
        tx.replace(with: tx - soft * tx, where: softened)
        ty.replace(with: ty - soft * ty, where: softened)
        dd.replace(with: tx * tx + ty * ty, where: softened)
        // Law of cosines (uniform parent scale).
        let bendDirection = F(UnsafeRawPointer(cols.ikBend + ik).loadUnaligned(as: SIMD4<Int32>.self))
        let l2Scaled = l2 * psx
        var cosine = (dd - l1 * l1 - l2Scaled * l2Scaled) / (2 * l1 * l2Scaled)
        var a2 = F(repeating: 0)
        for lane in 0..<width {
            let value = cosine[lane]
            if value < -1 {
                cosine[lane] = -1
                a2[lane] = SpineMath.pi * bendDirection[lane]
            } else if value > 1 {
                cosine[lane] = 1
            } else {
                a2[lane] = Float(Foundation.acos(Double(value))) * bendDirection[lane]
            }
        }
        let la = l1 + l2Scaled * cosine
        let lb = l2Scaled * LaneTrig.sinCosPair(a2, a2 + SpineMath.pi / 2).sinX
        var a1 = LaneArcTangent.atan2(ty * la - tx * lb, tx * la + ty * lb)
        // The child usually sits at its setup position: its direction is then in the table.
        let setup = rig.boneSetup + ck &* 7
        let atSetup =
            (unsafeBitCast(cx, to: SIMD4<UInt32>.self) .== SIMD4(repeating: setup[0].bitPattern))
            .& (unsafeBitCast(cy, to: SIMD4<UInt32>.self) .== SIMD4(repeating: setup[1].bitPattern))
        let direction = all(atSetup) ? F(repeating: rig.boneSetupDirection[ck]) : LaneArcTangent.atan2(cy, cx)
        let os = direction * s2
        let radDeg = SpineMath.radDeg
        let parentRotation = load(cols.appliedRotation + p)
        a1 = (a1 - os) * radDeg + o1 - parentRotation
        a1 = wrapped(a1)
        let alpha = load(cols.ikMix + ik)
        // The parent's applied pose: rotated, scale kept (no stretch), shear cleared.
        store(parentRotation + a1 * alpha, cols.appliedRotation + p)
        store(F(repeating: 0), cols.appliedShearX + p)
        store(F(repeating: 0), cols.appliedShearY + p)
        let childRotation = load(cols.appliedRotation + ch)
        a2 = ((a2 + os) * radDeg - load(cols.appliedShearX + ch)) * s2 + o2 - childRotation
        a2 = wrapped(a2)
        store(childRotation + a2 * alpha, cols.appliedRotation + ch)
        return true
    }

    /// An angle change in degrees brought into [-180, 180] by one turn, as the solvers do.
    @inline(__always)
    private static func wrapped(_ angle: F) -> F {
        var result = angle
        result.replace(with: angle - 360, where: angle .> 180)
        result.replace(with: angle + 360, where: angle .< -180)
        return result
    }
}
