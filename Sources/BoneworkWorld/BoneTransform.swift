import BoneworkFormat

/// World transform of one bone from its applied pose and its parent's world transform, for every
/// inherit mode, and the inverse (applied pose recovered from a world transform that a
/// constraint changed). Float operations follow the reference one by one: constraint solvers
/// and discrete results downstream depend on the last bits.
enum BoneTransform {
    private static let degRad = SpineMath.degRad
    private static let halfPi = SpineMath.pi / 2

    /// Computes bone `k`'s world transform from the given applied pose and stores the pose as the
    /// bone's applied pose.
    @inline(__always)
    static func update(
        _ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int,
        x: Float, y: Float, rotation: Float, scaleX: Float, scaleY: Float, shearX: Float, shearY: Float,
        storeApplied: Bool = true
    ) {
        let i = r.bone(k)
        if storeApplied {
            cols.ax[i] = x
            cols.ay[i] = y
            cols.arotation[i] = rotation
            cols.ascaleX[i] = scaleX
            cols.ascaleY[i] = scaleY
            cols.ashearX[i] = shearX
            cols.ashearY[i] = shearY
        }
        let sx = cols.skeletonScaleX[r.instance]
        let sy = cols.skeletonScaleY[r.instance]
        let parent = Int(rig.boneParent[k])
        if parent < 0 {
            let rx = Trig.sinCos((rotation + shearX) * degRad)
            let ry = Trig.sinCos((rotation + 90 + shearY) * degRad)
            cols.a[i] = rx.cos * scaleX * sx
            cols.b[i] = ry.cos * scaleY * sx
            cols.c[i] = rx.sin * scaleX * sy
            cols.d[i] = ry.sin * scaleY * sy
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
        var a: Float
        var b: Float
        var c: Float
        var d: Float
        let inherit = cols.inheritMode(rig, r, bone: k)
        switch inherit {
        case Inherit.onlyTranslation.rawValue:
            let rx = Trig.sinCos((rotation + shearX) * degRad)
            let ry = Trig.sinCos((rotation + 90 + shearY) * degRad)
            a = rx.cos * scaleX
            b = ry.cos * scaleY
            c = rx.sin * scaleX
            d = ry.sin * scaleY
        case Inherit.noRotationOrReflection.rawValue:
            var s = pa * pa + pc * pc
            let prx: Float
            if s > 0.0001 {
                s = abs(pa * pd - pb * pc) / s
                pa /= sx
                pc /= sy
                pb = pc * s
                pd = pa * s
                prx = SpineMath.atan2Deg(pc, pa)
            } else {
                pa = 0
                pc = 0
                prx = 90 - SpineMath.atan2Deg(pd, pb)
            }
            let rx = Trig.sinCos((rotation + shearX - prx) * degRad)
            let ry = Trig.sinCos((rotation + shearY - prx + 90) * degRad)
            let la = rx.cos * scaleX
            let lb = ry.cos * scaleY
            let lc = rx.sin * scaleX
            let ld = ry.sin * scaleY
            a = pa * la - pb * lc
            b = pa * lb - pb * ld
            c = pc * la + pd * lc
            d = pc * lb + pd * ld
        case Inherit.noScale.rawValue, Inherit.noScaleOrReflection.rawValue:
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
            let zr = Trig.sinCos(halfPi + SpineMath.atan2(zc, za))
            let zb = zr.cos * s
            let zd = zr.sin * s
            let shx = Trig.sinCos(shearX * degRad)
            let shy = Trig.sinCos((90 + shearY) * degRad)
            let la = shx.cos * scaleX
            let lb = shy.cos * scaleY
            let lc = shx.sin * scaleX
            let ld = shy.sin * scaleY
            a = za * la + zb * lc
            b = za * lb + zb * ld
            c = zc * la + zd * lc
            d = zc * lb + zd * ld
        default:  // normal: the parent's full transform, no skeleton scale on top.
            let rx = Trig.sinCos((rotation + shearX) * degRad)
            let ry = Trig.sinCos((rotation + 90 + shearY) * degRad)
            let la = rx.cos * scaleX
            let lb = ry.cos * scaleY
            let lc = rx.sin * scaleX
            let ld = ry.sin * scaleY
            cols.a[i] = pa * la + pb * lc
            cols.b[i] = pa * lb + pb * ld
            cols.c[i] = pc * la + pd * lc
            cols.d[i] = pc * lb + pd * ld
            return
        }
        cols.a[i] = a * sx
        cols.b[i] = b * sx
        cols.c[i] = c * sy
        cols.d[i] = d * sy
    }

    /// Updates bone `k` from its current applied pose.
    @inline(__always)
    static func updateFromApplied(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let i = r.bone(k)
        // The applied pose is already what it would store.
        update(
            cols, rig, r, bone: k, x: cols.ax[i], y: cols.ay[i], rotation: cols.arotation[i],
            scaleX: cols.ascaleX[i], scaleY: cols.ascaleY[i], shearX: cols.ashearX[i], shearY: cols.ashearY[i],
            storeApplied: false)
    }

    /// Recomputes bone `k`'s applied pose from its world transform (after a constraint wrote the
    /// world transform directly), so that later constraints and children see a consistent pose.
    static func updateApplied(_ cols: BatchColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int) {
        let i = r.bone(k)
        let a = cols.a[i]
        let b = cols.b[i]
        let c = cols.c[i]
        let d = cols.d[i]
        let sx = cols.skeletonScaleX[r.instance]
        let sy = cols.skeletonScaleY[r.instance]
        let parent = Int(rig.boneParent[k])
        if parent < 0 {
            cols.ax[i] = cols.worldX[i] - cols.skeletonX[r.instance]
            cols.ay[i] = cols.worldY[i] - cols.skeletonY[r.instance]
            cols.arotation[i] = SpineMath.atan2Deg(c, a)
            cols.ascaleX[i] = (a * a + c * c).squareRoot()
            cols.ascaleY[i] = (b * b + d * d).squareRoot()
            cols.ashearX[i] = 0
            cols.ashearY[i] = SpineMath.atan2Deg(a * b + c * d, a * d - b * c)
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
        cols.ax[i] = dx * ia - dy * ib
        cols.ay[i] = dy * id - dx * ic
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
                let zr = halfPi + SpineMath.atan2(pc, pa)
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
        cols.ashearX[i] = 0
        let scaleX = (ra * ra + rc * rc).squareRoot()
        if scaleX > 0.0001 {
            let det = ra * rd - rb * rc
            cols.ascaleX[i] = scaleX
            cols.ascaleY[i] = det / scaleX
            cols.ashearY[i] = -SpineMath.atan2Deg(ra * rb + rc * rd, det)
            cols.arotation[i] = SpineMath.atan2Deg(rc, ra)
        } else {
            cols.ascaleX[i] = 0
            cols.ascaleY[i] = (rb * rb + rd * rd).squareRoot()
            cols.ashearY[i] = 0
            cols.arotation[i] = 90 - SpineMath.atan2Deg(rd, rb)
        }
    }
}
