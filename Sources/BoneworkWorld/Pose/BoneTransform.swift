import BoneworkFormat

/// World transform of one bone from its applied pose and its parent's world transform, for every
/// inherit mode, and the inverse (applied pose recovered from a world transform that a
/// constraint changed). Float operations follow the reference one by one: constraint solvers
/// and discrete results downstream depend on the last bits.
enum BoneTransform {
    private static let degRad = SpineMath.degRad
    private static let halfPi = SpineMath.pi / 2

    /// The local 2×2 of a pose's rotation, scale and shear (the bone's axes before its parent's
    /// transform): (a, b, c, d) = (cos(rx) * scaleX, cos(ry) * scaleY, sin(rx) * scaleX,
    /// sin(ry) * scaleY) with rx = rotation + shearX and ry = rotation + 90 + shearY.
    @inline(__always)
    static func local(
        rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float
    ) -> (a: Float, b: Float, c: Float, d: Float) {
        let t = Trig.sinCosPair((rotation + shearX) * degRad, (rotation + 90 + shearY) * degRad)
        return (t.cosX * scaleX, t.cosY * scaleY, t.sinX * scaleX, t.sinY * scaleY)
    }

    /// `local`, read from the table of setup values (`RigTables.boneLocalSetup`) when the pose's
    /// rotation, scale and shear are bone `k`'s setup values bit for bit (bones no timeline or
    /// constraint moved this frame).
    @inline(__always)
    static func local(
        _ rig: RigTables, bone k: Int, rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float
    ) -> (a: Float, b: Float, c: Float, d: Float) {
        let t = rig.boneLocalSetup + k &* LocalSetup.stride
        if rotation.bitPattern == t[0].bitPattern && scaleX.bitPattern == t[1].bitPattern
            && scaleY.bitPattern == t[2].bitPattern && shearX.bitPattern == t[3].bitPattern
            && shearY.bitPattern == t[4].bitPattern
        {
            return (t[5], t[6], t[7], t[8])
        }
        return computedLocal(rotation: rotation, scaleX: scaleX, scaleY: scaleY, shearX: shearX, shearY: shearY)
    }

    /// `local` out of line, for callers whose common case needs no trigonometry.
    @inline(never)
    static func computedLocal(
        rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float
    ) -> (a: Float, b: Float, c: Float, d: Float) {
        local(rotation: rotation, scaleX: scaleX, scaleY: scaleY, shearX: shearX, shearY: shearY)
    }

    /// Layout of `RigTables.boneLocalSetup`: per bone the setup rotation, scaleX, scaleY, shearX,
    /// shearY, then their `local` (a, b, c, d).
    enum LocalSetup {
        static let stride = 9

        static func table(_ bones: [BoneData]) -> [Float] {
            var t: [Float] = []
            t.reserveCapacity(bones.count * stride)
            for bone in bones {
                let l = BoneTransform.local(
                    rotation: bone.rotation, scaleX: bone.scaleX, scaleY: bone.scaleY, shearX: bone.shearX,
                    shearY: bone.shearY)
                t += [bone.rotation, bone.scaleX, bone.scaleY, bone.shearX, bone.shearY, l.a, l.b, l.c, l.d]
            }
            return t
        }
    }

    /// Computes bone `k`'s world transform from the given applied pose and stores the pose as the
    /// bone's applied pose (`computeWorld` false: only stores it).
    @inline(__always)
    static func update(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int,
        x: Float, y: Float, rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float,
        storeApplied: Bool = true, computeWorld: Bool = true
    ) {
        let i = r.bone(k)
        if storeApplied {
            cols.appliedX[i] = x
            cols.appliedY[i] = y
            cols.appliedRotation[i] = rotation
            cols.appliedScaleX[i] = scaleX
            cols.appliedScaleY[i] = scaleY
            cols.appliedShearX[i] = shearX
            cols.appliedShearY[i] = shearY
        }
        guard computeWorld else { return }
        world(
            cols, rig, r, bone: k, i: i, x: x, y: y, rotation: rotation, scaleX: scaleX, scaleY: scaleY,
            shearX: shearX, shearY: shearY, setupTable: !storeApplied)
    }

    /// The world transform of bone `k` (element `i`) from an applied pose; `setupTable`: try
    /// the setup table for the local 2×2 first (poses read back from the applied pose, often
    /// untouched setup values).
    @inline(__always)
    private static func world(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int, i: Int,
        x: Float, y: Float, rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float,
        setupTable: Bool
    ) {
        @inline(__always) func localPose() -> (a: Float, b: Float, c: Float, d: Float) {
            if setupTable {
                return local(
                    rig, bone: k, rotation: rotation, scaleX: scaleX, scaleY: scaleY, shearX: shearX, shearY: shearY)
            }
            return local(rotation: rotation, scaleX: scaleX, scaleY: scaleY, shearX: shearX, shearY: shearY)
        }
        let sx = cols.skeletonScaleX[r.instance]
        let sy = cols.skeletonScaleY[r.instance]
        let parent = Int(rig.boneParent[k])
        if parent < 0 {
            let l = localPose()
            cols.a[i] = l.a * sx
            cols.b[i] = l.b * sx
            cols.c[i] = l.c * sy
            cols.d[i] = l.d * sy
            cols.worldX[i] = x * sx + cols.skeletonX[r.instance]
            cols.worldY[i] = y * sy + cols.skeletonY[r.instance]
            return
        }
        let p = r.bone(parent)
        var pa = cols.a[p]
        var pb = cols.b[p]
        var pc = cols.c[p]
        var pd = cols.d[p]
        cols.worldX[i] = pa * x + pb * y + cols.worldX[p]
        cols.worldY[i] = pc * x + pd * y + cols.worldY[p]
        let inherit = cols.inheritMode(rig, r, bone: k)
        if inherit == Inherit.normal.rawValue || inherit > Inherit.noScaleOrReflection.rawValue {
            // Normal: the parent's full transform, no skeleton scale on top.
            let l = localPose()
            cols.a[i] = pa * l.a + pb * l.c
            cols.b[i] = pa * l.b + pb * l.d
            cols.c[i] = pc * l.a + pd * l.c
            cols.d[i] = pc * l.b + pd * l.d
            return
        }
        var a: Float
        var b: Float
        var c: Float
        var d: Float
        switch inherit {
        case Inherit.onlyTranslation.rawValue:
            let l = localPose()
            a = l.a
            b = l.b
            c = l.c
            d = l.d
        case Inherit.noRotationOrReflection.rawValue:
            var s = pa * pa + pc * pc
            let prx: Float
            if s > 0.0001 {
                s = abs(pa * pd - pb * pc) / s
                pa /= sx
                pc /= sy
                pb = pc * s
                pd = pa * s
                prx = ArcTangent.atan2Deg(pc, pa)
            } else {
                pa = 0
                pc = 0
                prx = 90 - ArcTangent.atan2Deg(pd, pb)
            }
            let t = Trig.sinCosPair((rotation + shearX - prx) * degRad, (rotation + shearY - prx + 90) * degRad)
            let la = t.cosX * scaleX
            let lb = t.cosY * scaleY
            let lc = t.sinX * scaleX
            let ld = t.sinY * scaleY
            a = pa * la - pb * lc
            b = pa * lb - pb * ld
            c = pc * la + pd * lc
            d = pc * lb + pd * ld
        default:  // noScale, noScaleOrReflection
            let (sine, cosine) = Trig.sinCos(rotation * degRad)
            var za = (pa * cosine + pb * sine) / sx
            var zc = (pc * cosine + pd * sine) / sy
            var s = (za * za + zc * zc).squareRoot()
            if s > 0.00001 { s = 1 / s }
            za *= s
            zc *= s
            s = (za * za + zc * zc).squareRoot()
            if inherit == Inherit.noScale.rawValue && (pa * pd - pb * pc < 0) != ((sx < 0) != (sy < 0)) {
                s = -s
            }
            let zr = Trig.sinCos(halfPi + ArcTangent.atan2(zc, za))
            let zb = zr.cos * s
            let zd = zr.sin * s
            let sh = Trig.sinCosPair(shearX * degRad, (90 + shearY) * degRad)
            let la = sh.cosX * scaleX
            let lb = sh.cosY * scaleY
            let lc = sh.sinX * scaleX
            let ld = sh.sinY * scaleY
            a = za * la + zb * lc
            b = za * lb + zb * ld
            c = zc * la + zd * lc
            d = zc * lb + zd * ld
        }
        cols.a[i] = a * sx
        cols.b[i] = b * sx
        cols.c[i] = c * sy
        cols.d[i] = d * sy
    }

    /// Updates bone `k` from its current applied pose, for any bone (the pose loop's `.bone`
    /// steps: roots, other inherit modes, bones whose inherit mode a timeline keys; children
    /// that always inherit normally are `.childBone` steps, `updateChild`).
    @inline(never)
    static func updateFromApplied(_ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let parent = Int(rig.boneParent[k])
        let inherit = cols.inheritMode(rig, r, bone: k)
        guard parent >= 0, inherit == Inherit.normal.rawValue || inherit > Inherit.noScaleOrReflection.rawValue
        else {
            updateFromAppliedOther(cols, rig, r, bone: k)
            return
        }
        updateChild(cols, rig, r, bone: k, parent: parent)
    }

    /// Updates bone `k`, a child of `parent` that inherits normally, from its current applied
    /// pose (the pose loop's `.childBone` step, inlined there).
    @inline(__always)
    static func updateChild(_ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int, parent: Int) {
        let i = r.bone(k)
        let x = cols.appliedX[i]
        let y = cols.appliedY[i]
        let l = local(
            rig, bone: k, rotation: cols.appliedRotation[i], scaleX: cols.appliedScaleX[i],
            scaleY: cols.appliedScaleY[i],
            shearX: cols.appliedShearX[i], shearY: cols.appliedShearY[i])
        let p = r.bone(parent)
        let pa = cols.a[p]
        let pb = cols.b[p]
        let pc = cols.c[p]
        let pd = cols.d[p]
        cols.worldX[i] = pa * x + pb * y + cols.worldX[p]
        cols.worldY[i] = pc * x + pd * y + cols.worldY[p]
        cols.a[i] = pa * l.a + pb * l.c
        cols.b[i] = pa * l.b + pb * l.d
        cols.c[i] = pc * l.a + pd * l.c
        cols.d[i] = pc * l.b + pd * l.d
    }

    /// `updateFromApplied` for the root and for bones with other inherit modes.
    @inline(never)
    static func updateFromAppliedOther(_ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let i = r.bone(k)
        // The applied pose is already what it would store.
        world(
            cols, rig, r, bone: k, i: i, x: cols.appliedX[i], y: cols.appliedY[i], rotation: cols.appliedRotation[i],
            scaleX: cols.appliedScaleX[i], scaleY: cols.appliedScaleY[i], shearX: cols.appliedShearX[i],
            shearY: cols.appliedShearY[i],
            setupTable: true)
    }

    /// Recomputes bone `k`'s applied pose from its world transform (after a constraint wrote the
    /// world transform directly), so that later constraints and children see a consistent pose.
    static func updateApplied(_ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let i = r.bone(k)
        let a = cols.a[i]
        let b = cols.b[i]
        let c = cols.c[i]
        let d = cols.d[i]
        let sx = cols.skeletonScaleX[r.instance]
        let sy = cols.skeletonScaleY[r.instance]
        let parent = Int(rig.boneParent[k])
        if parent < 0 {
            cols.appliedX[i] = cols.worldX[i] - cols.skeletonX[r.instance]
            cols.appliedY[i] = cols.worldY[i] - cols.skeletonY[r.instance]
            cols.appliedRotation[i] = ArcTangent.atan2Deg(c, a)
            cols.appliedScaleX[i] = (a * a + c * c).squareRoot()
            cols.appliedScaleY[i] = (b * b + d * d).squareRoot()
            cols.appliedShearX[i] = 0
            cols.appliedShearY[i] = ArcTangent.atan2Deg(a * b + c * d, a * d - b * c)
            return
        }
        let p = r.bone(parent)
        var pa = cols.a[p]
        var pb = cols.b[p]
        var pc = cols.c[p]
        var pd = cols.d[p]
        var pid = 1 / (pa * pd - pb * pc)
        var ia = pd * pid
        var ib = pb * pid
        var ic = pc * pid
        var id = pa * pid
        let dx = cols.worldX[i] - cols.worldX[p]
        let dy = cols.worldY[i] - cols.worldY[p]
        cols.appliedX[i] = dx * ia - dy * ib
        cols.appliedY[i] = dy * id - dx * ic
        let ra: Float
        let rb: Float
        let rc: Float
        let rd: Float
        let inherit = cols.inheritMode(rig, r, bone: k)
        if inherit == Inherit.onlyTranslation.rawValue {
            ra = a
            rb = b
            rc = c
            rd = d
        } else {
            if inherit == Inherit.noRotationOrReflection.rawValue {
                let s = abs(pa * pd - pb * pc) / (pa * pa + pc * pc)
                let sa = pa / sx
                let sc = pc / sy
                pb = -sc * s * sx
                pd = sa * s * sy
                pid = 1 / (pa * pd - pb * pc)
                ia = pd * pid
                ib = pb * pid
            } else if inherit == Inherit.noScale.rawValue || inherit == Inherit.noScaleOrReflection.rawValue {
                let rr = cols.rotation[i] * degRad
                let cosine = SpineMath.cos(rr)
                let sine = SpineMath.sin(rr)
                pa = (pa * cosine + pb * sine) / sx
                pc = (pc * cosine + pd * sine) / sy
                var s = (pa * pa + pc * pc).squareRoot()
                if Double(s) > 0.00001 { s = 1 / s }
                pa *= s
                pc *= s
                s = (pa * pa + pc * pc).squareRoot()
                if inherit == Inherit.noScale.rawValue && (pid < 0) != ((sx < 0) != (sy < 0)) { s = -s }
                let zr = halfPi + ArcTangent.atan2(pc, pa)
                pb = SpineMath.cos(zr) * s
                pd = SpineMath.sin(zr) * s
                pid = 1 / (pa * pd - pb * pc)
                ia = pd * pid
                ib = pb * pid
                ic = pc * pid
                id = pa * pid
            }
            ra = ia * a - ib * c
            rb = ia * b - ib * d
            rc = id * c - ic * a
            rd = id * d - ic * b
        }
        cols.appliedShearX[i] = 0
        let scaleX = (ra * ra + rc * rc).squareRoot()
        if scaleX > 0.0001 {
            let det = ra * rd - rb * rc
            cols.appliedScaleX[i] = scaleX
            cols.appliedScaleY[i] = det / scaleX
            cols.appliedShearY[i] = -ArcTangent.atan2Deg(ra * rb + rc * rd, det)
            cols.appliedRotation[i] = ArcTangent.atan2Deg(rc, ra)
        } else {
            cols.appliedScaleX[i] = 0
            cols.appliedScaleY[i] = (rb * rb + rd * rd).squareRoot()
            cols.appliedShearY[i] = 0
            cols.appliedRotation[i] = 90 - ArcTangent.atan2Deg(rd, rb)
        }
    }
}
