import BoneworkFormat

/// The pose system over four instances at once: in a chunked column layout
/// (`ColumnLayout.chunkSize` a multiple of 4), one bone of four neighbouring instances is four
/// contiguous floats, so the steps every instance of a skin shares (the update program) can
/// run in SIMD lanes, one instance per lane. In chunks of a multiple of 8, `pose8` runs the
/// child steps and physics simulations for 8 instances at once and the other steps for each
/// half of 4.
///
/// In lanes: `.childBone` steps (bones that inherit their parent's transform normally), roots,
/// bones inheriting noRotationOrReflection, the common IK cases (`IKLanes.swift`), absolute
/// world transform constraints without scale or shear (`TransformLanes.swift`), path chains once
/// each lane has walked its path (`PathLanes.swift`) and physics simulations
/// (`PhysicsLanes.swift`); IK and transform steps whose mixes are 0 in all lanes are skipped. The other steps (other inherit
/// modes, other constraints) run lane by lane with the scalar code. Per lane, every float
/// operation is the scalar one in the same order, so the results are bit-identical to posing
/// the four instances one by one (`PoseLaneTests`).
enum PoseLanes {
    /// The instances posed together.
    static let width = 4

    /// Poses the instances at rows `first ..< first + 4` (same update plan, `first` a multiple
    /// of 4); `cols`' applied pose points at scratch (`PoseScratch.columns`).
    @inline(__always)
    static func pose(
        _ cols: PoseColumns, _ rig: RigTables, first: Int, physics: Physics,
        pathScratch: UnsafeMutablePointer<Float>?
    ) {
        let r0 = cols.rows(first)
        let r1 = cols.rows(first &+ 1)
        let r2 = cols.rows(first &+ 2)
        let r3 = cols.rows(first &+ 3)
        copyApplied(SIMD4<Float>.self, cols, rig, r0)
        let plan = Int(cols.plan[first])
        let ops = rig.ops + Int(rig.planOpStart[plan])
        let count = Int(rig.planOpCount[plan])
        for o in 0..<count {
            let op = ops[o]
            if op.kind == .childBone {
                // One call per source; the compiler may merge them into one call that picks the
                // columns by `readsLocal`, which `PoseColumns`' field order keeps to one offset.
                if op.readsLocal {
                    updateChild(
                        SIMD4<Float>.self, cols, rig, r0, bone: Int(op.index), parent: Int(op.parent), readsLocal: true)
                } else {
                    updateChild(
                        SIMD4<Float>.self, cols, rig, r0, bone: Int(op.index), parent: Int(op.parent), readsLocal: false
                    )
                }
                continue
            }
            step(op, cols, rig, r0, r1, r2, r3, physics: physics, pathScratch: pathScratch)
        }
    }

    /// `pose` for the 8 instances at rows `first ..< first + 8` (same update plan, chunk size
    /// and `first` a multiple of 8): child steps (most of the steps) and physics simulations in 8 lanes; every other
    /// step for each half of 4 as `pose` runs it. Steps keep their order, and each instance's
    /// steps are independent of the other instances', so every lane gets `pose`'s results.
    @inline(__always)
    static func pose8(
        _ cols: PoseColumns, _ rig: RigTables, first: Int, physics: Physics,
        pathScratch: UnsafeMutablePointer<Float>?
    ) {
        let low = (cols.rows(first), cols.rows(first &+ 1), cols.rows(first &+ 2), cols.rows(first &+ 3))
        let high = (cols.rows(first &+ 4), cols.rows(first &+ 5), cols.rows(first &+ 6), cols.rows(first &+ 7))
        copyApplied(SIMD8<Float>.self, cols, rig, low.0)
        let plan = Int(cols.plan[first])
        let ops = rig.ops + Int(rig.planOpStart[plan])
        let count = Int(rig.planOpCount[plan])
        for o in 0..<count {
            let op = ops[o]
            if op.kind == .childBone {
                if op.readsLocal {
                    updateChild(
                        SIMD8<Float>.self, cols, rig, low.0, bone: Int(op.index), parent: Int(op.parent),
                        readsLocal: true)
                } else {
                    updateChild(
                        SIMD8<Float>.self, cols, rig, low.0, bone: Int(op.index), parent: Int(op.parent),
                        readsLocal: false)
                }
                continue
            }
            // A constraint at mix 0 in all 8 lanes (common: constraints keyed off) costs no calls.
            if idle(op, cols, low.0) && idle(op, cols, high.0) { continue }
            if op.kind == .physics
                && solvePhysics8(
                    cols, rig, low, high, constraint: Int(op.index), physics: physics,
                    recomputesApplied: op.recomputesApplied)
            {
                continue
            }
            step(op, cols, rig, low.0, low.1, low.2, low.3, physics: physics, pathScratch: pathScratch)
            step(op, cols, rig, high.0, high.1, high.2, high.3, physics: physics, pathScratch: pathScratch)
        }
    }

    /// A step other than a child step for the 4 lanes `r0 ... r3`: in lanes where `PoseLanes`
    /// has them, else lane by lane with the scalar code.
    @inline(__always)
    static func step(
        _ op: UpdateOp, _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows,
        _ r2: InstanceRows, _ r3: InstanceRows, physics: Physics, pathScratch: UnsafeMutablePointer<Float>?
    ) {
        let index = Int(op.index)
        if idle(op, cols, r0) { return }
        if op.kind == .ik && solveIK(cols, rig, r0, r1, r2, r3, constraint: index) { return }
        let applied = op.recomputesApplied
        if op.kind == .transform
            && solveTransform(cols, rig, r0, r1, r2, r3, constraint: index, recomputesApplied: applied)
        {
            return
        }
        if op.kind == .path
            && solvePath(
                cols, rig, r0, r1, r2, r3, constraint: index, scratch: pathScratch, recomputesApplied: applied)
        {
            return
        }
        if op.kind == .physics
            && solvePhysics(cols, rig, r0, r1, r2, r3, constraint: index, physics: physics, recomputesApplied: applied)
        {
            return
        }
        if op.kind == .bone && rig.boneParent[index] < 0 {
            updateRoot(cols, rig, r0, bone: index)
            return
        }
        if op.kind == .bone && updateNoRotationOrReflection(cols, rig, r0, r1, r2, r3, bone: index) { return }
        // Lane by lane: the step and its lanes are independent of the other lanes.
        PoseSystem.step(op, cols, rig, r0, physics: physics, pathScratch: pathScratch)
        PoseSystem.step(op, cols, rig, r1, physics: physics, pathScratch: pathScratch)
        PoseSystem.step(op, cols, rig, r2, physics: physics, pathScratch: pathScratch)
        PoseSystem.step(op, cols, rig, r3, physics: physics, pathScratch: pathScratch)
    }

    /// Whether constraint step `op` has every mix at 0 in all four lanes (the solvers then leave
    /// the pose as it is).
    @inline(__always)
    static func idle(_ op: UpdateOp, _ cols: PoseColumns, _ r: InstanceRows) -> Bool {
        let zero = SIMD4<Float>(repeating: 0)
        switch op.kind {
        case .ik:
            return all(load(cols.ikMix + r.ik(Int(op.index))) .== zero)
        case .transform:
            let i = r.transform(Int(op.index))
            return all(
                (load(cols.transformMixRotate + i) .== zero) .& (load(cols.transformMixX + i) .== zero)
                    .& (load(cols.transformMixY + i) .== zero) .& (load(cols.transformMixScaleX + i) .== zero)
                    .& (load(cols.transformMixScaleY + i) .== zero) .& (load(cols.transformMixShearY + i) .== zero))
        default:
            return false
        }
    }

    /// `BoneTransform.updateFromApplied` for the four lanes of root bone `k`: the local 2×2
    /// (from the setup table when it applies) scaled by the skeleton's scale, the position
    /// scaled and moved to the skeleton's position.
    @inline(__always)
    static func updateRoot(_ c: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let i = r.bone(k)
        var l = (a: SIMD4<Float>(), b: SIMD4<Float>(), c: SIMD4<Float>(), d: SIMD4<Float>())
        localTransform(c, rig, i, bone: k, readsLocal: false, &l.a, &l.b, &l.c, &l.d)
        let sx = load(c.skeletonScaleX + r.instance)
        let sy = load(c.skeletonScaleY + r.instance)
        store(l.a * sx, c.a + i)
        store(l.b * sx, c.b + i)
        store(l.c * sy, c.c + i)
        store(l.d * sy, c.d + i)
        store(load(c.appliedX + i) * sx + load(c.skeletonX + r.instance), c.worldX + i)
        store(load(c.appliedY + i) * sy + load(c.skeletonY + r.instance), c.worldY + i)
    }

    /// `BoneTransform.updateFromApplied` for the four lanes when bone `k` has a parent and
    /// inherits noRotationOrReflection in every lane, with a parent scale not near zero: the
    /// world transform from the applied pose, lane by lane the scalar's float operations.
    /// Returns false (nothing done) otherwise.
    @inline(__always)
    static func updateNoRotationOrReflection(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, bone k: Int
    ) -> Bool {
        let parent = Int(rig.boneParent[k])
        guard parent >= 0 else { return false }
        let mode = Inherit.noRotationOrReflection.rawValue
        guard
            cols.inheritMode(rig, r0, bone: k) == mode && cols.inheritMode(rig, r1, bone: k) == mode
                && cols.inheritMode(rig, r2, bone: k) == mode && cols.inheritMode(rig, r3, bone: k) == mode
        else { return false }
        let parentWorld = LaneWorld(cols, r0.bone(parent))
        var pa = parentWorld.a
        var pb = parentWorld.b
        var pc = parentWorld.c
        var pd = parentWorld.d
        var s = pa * pa + pc * pc
        guard all(s .> 0.0001) else { return false }
        let i = r0.bone(k)
        let x = load(cols.appliedX + i)
        let y = load(cols.appliedY + i)
        let origin = parentWorld.point(x, y)
        store(origin.x, cols.worldX + i)
        store(origin.y, cols.worldY + i)
        let sx = load(cols.skeletonScaleX + r0.instance)
        let sy = load(cols.skeletonScaleY + r0.instance)
        s = magnitude(pa * pd - pb * pc) / s
        pa /= sx
        pc /= sy
        pb = pc * s
        pd = pa * s
        let prx = LaneArcTangent.atan2Deg(pc, pa)
        let rotation = load(cols.appliedRotation + i)
        let degRad = SpineMath.degRad
        let t = LaneTrig.sinCosPair(
            (rotation + load(cols.appliedShearX + i) - prx) * degRad,
            (rotation + load(cols.appliedShearY + i) - prx + 90) * degRad)
        let scaleX = load(cols.appliedScaleX + i)
        let scaleY = load(cols.appliedScaleY + i)
        let la = t.cosX * scaleX
        let lb = t.cosY * scaleY
        let lc = t.sinX * scaleX
        let ld = t.sinY * scaleY
        store((pa * la - pb * lc) * sx, cols.a + i)
        store((pa * lb - pb * ld) * sx, cols.b + i)
        store((pc * la + pd * lc) * sy, cols.c + i)
        store((pc * lb + pd * ld) * sy, cols.d + i)
        return true
    }

    /// |v| per lane: the sign bit cleared, as `abs` does.
    @inline(__always)
    static func magnitude(_ v: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) & 0x7fff_ffff, to: SIMD4<Float>.self)
    }

    /// The lanes' local poses become their applied poses, for the bones whose steps read the
    /// applied pose (`RigTables.appliedBones`; the others read their local pose).
    @inline(__always)
    private static func copyApplied<V: LaneVector>(
        _: V.Type, _ c: PoseColumns, _ rig: RigTables, _ r: InstanceRows
    ) {
        for n in 0..<rig.appliedBoneCount {
            let i = r.bone(Int(rig.appliedBones[n]))
            V.store(V.load(c.x + i), c.appliedX + i)
            V.store(V.load(c.y + i), c.appliedY + i)
            V.store(V.load(c.rotation + i), c.appliedRotation + i)
            V.store(V.load(c.scaleX + i), c.appliedScaleX + i)
            V.store(V.load(c.scaleY + i), c.appliedScaleY + i)
            V.store(V.load(c.shearX + i), c.appliedShearX + i)
            V.store(V.load(c.shearY + i), c.appliedShearY + i)
        }
    }

    /// `BoneTransform.updateChild` for the four lanes starting at `r` (the IK lane steps' form).
    @inline(__always)
    static func updateChild(_ c: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int, parent: Int) {
        updateChild(SIMD4<Float>.self, c, rig, r, bone: k, parent: parent, readsLocal: false)
    }

    /// `BoneTransform.updateChild` for the lanes of `V` starting at `r`, from the applied pose
    /// or, for a bone no constraint touches (`readsLocal`), from the local pose it equals.
    @inline(__always)
    static func updateChild<V: LaneVector>(
        _: V.Type, _ c: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int, parent: Int,
        readsLocal: Bool
    ) {
        let i = r.bone(k)
        let x = V.load((readsLocal ? c.x : UnsafePointer(c.appliedX)) + i)
        let y = V.load((readsLocal ? c.y : UnsafePointer(c.appliedY)) + i)
        var la = V()
        var lb = V()
        var lc = V()
        var ld = V()
        localTransform(c, rig, i, bone: k, readsLocal: readsLocal, &la, &lb, &lc, &ld)
        let j = r.bone(parent)
        let pa = V.load(c.a + j)
        let pb = V.load(c.b + j)
        let pc = V.load(c.c + j)
        let pd = V.load(c.d + j)
        V.store(pa * x + pb * y + V.load(c.worldX + j), c.worldX + i)
        V.store(pc * x + pd * y + V.load(c.worldY + j), c.worldY + i)
        V.store(pa * la + pb * lc, c.a + i)
        V.store(pa * lb + pb * ld, c.b + i)
        V.store(pc * la + pd * lc, c.c + i)
        V.store(pc * lb + pd * ld, c.d + i)
    }

    /// Bone `k`'s local 2×2 in the lanes at element `i`, from the applied pose or (for
    /// `readsLocal`) the local pose: the setup table's when rotation, scale and shear are the
    /// setup values in every lane, else `local`.
    @inline(__always)
    static func localTransform<V: LaneVector>(
        _ c: PoseColumns, _ rig: RigTables, _ i: Int, bone k: Int, readsLocal: Bool, _ la: inout V,
        _ lb: inout V, _ lc: inout V, _ ld: inout V
    ) {
        let rotation = V.load((readsLocal ? c.rotation : UnsafePointer(c.appliedRotation)) + i)
        let scaleX = V.load((readsLocal ? c.scaleX : UnsafePointer(c.appliedScaleX)) + i)
        let scaleY = V.load((readsLocal ? c.scaleY : UnsafePointer(c.appliedScaleY)) + i)
        let shearX = V.load((readsLocal ? c.shearX : UnsafePointer(c.appliedShearX)) + i)
        let shearY = V.load(UnsafePointer(readsLocal ? c.shearY : c.appliedShearY) + i)
        let t = rig.boneLocalSetupLanes + k &* BoneTransform.LocalSetup.stride
        if V.allMatch(rotation, scaleX, scaleY, shearX, shearY, setup: t) {
            // The table holds what `local` computes for the setup values, bit for bit.
            la = V.splat(t + 5)
            lb = V.splat(t + 6)
            lc = V.splat(t + 7)
            ld = V.splat(t + 8)
        } else {
            // `BoneTransform.local` per lane.
            let degRad = SpineMath.degRad
            var sinX = V()
            var cosX = V()
            var sinY = V()
            var cosY = V()
            V.sinCosPair(
                (rotation + shearX) * degRad, (rotation + 90 + shearY) * degRad, sinX: &sinX, cosX: &cosX,
                sinY: &sinY, cosY: &cosY)
            la = cosX * scaleX
            lb = cosY * scaleY
            lc = sinX * scaleX
            ld = sinY * scaleY
        }
    }

    /// `LaneVector.load` for 4 lanes (the 4-lane steps' shorthand).
    @inline(__always)
    static func load(_ p: UnsafePointer<Float>) -> SIMD4<Float> { .load(p) }

    /// `LaneVector.store` for 4 lanes (the 4-lane steps' shorthand).
    @inline(__always)
    static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) { SIMD4.store(v, p) }
}
