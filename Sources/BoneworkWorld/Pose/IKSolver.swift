import BoneworkFormat
import Foundation

/// Inverse kinematics constraints: rotate one bone, or a parent/child pair, so that the chain
/// reaches the target bone's world position. Float operations follow the reference one by one.
enum IKSolver {
    private static let pi = SpineMath.pi
    private static let radDeg = SpineMath.radDeg

    /// Solves IK constraint `c` of one instance with its current mix, softness, bend direction,
    /// compress and stretch values. `world` false: the bones' applied poses are written but not
    /// their world transforms (`PoseLanes` computes those for four instances at once).
    static func solve(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint c: Int, world: Bool = true
    ) {
        let ci = r.ik(c)
        let mix = cols.ikMix[ci]
        if mix == 0 { return }
        let target = r.bone(Int(rig.ikTarget[c]))
        let targetX = cols.worldX[target]
        let targetY = cols.worldY[target]
        let bones = rig.ikBones + Int(rig.ikBoneStart[c])
        switch rig.ikBoneCount[c] {
        case 1:
            oneBone(
                cols, rig, r, bone: Int(bones[0]), targetX: targetX, targetY: targetY,
                compress: cols.ikCompress[ci] != 0, stretch: cols.ikStretch[ci] != 0,
                uniform: rig.ikUniform[c] != 0, alpha: mix, world: world)
        case 2:
            twoBone(
                cols, rig, r, parent: Int(bones[0]), child: Int(bones[1]), targetX: targetX, targetY: targetY,
                bendDirection: cols.ikBend[ci], stretch: cols.ikStretch[ci] != 0, uniform: rig.ikUniform[c] != 0,
                softness: cols.ikSoftness[ci], alpha: mix, world: world)
        default:
            break
        }
    }

    /// Rotates one bone towards the target (optionally scaling it to reach or not overshoot it).
    static func oneBone(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, bone k: Int, targetX: Float, targetY: Float,
        compress: Bool, stretch: Bool, uniform: Bool, alpha: Float, world: Bool = true
    ) {
        let i = r.bone(k)
        let parent = Int(rig.boneParent[k])
        var pa: Float = 1
        var pb: Float = 0
        var pc: Float = 0
        var pd: Float = 1
        var pwx: Float = 0
        var pwy: Float = 0
        if parent >= 0 {
            let p = r.bone(parent)
            pa = cols.a[p]
            pb = cols.b[p]
            pc = cols.c[p]
            pd = cols.d[p]
            pwx = cols.worldX[p]
            pwy = cols.worldY[p]
        }
        let sx = cols.skeletonScaleX[r.instance]
        let sy = cols.skeletonScaleY[r.instance]
        var rotationIK = -cols.appliedShearX[i] - cols.appliedRotation[i]
        var tx: Float = 0
        var ty: Float = 0
        let inherit = cols.inheritMode(rig, r, bone: k)
        if inherit == Inherit.onlyTranslation.rawValue {
            tx = (targetX - cols.worldX[i]) * sign(sx)
            ty = (targetY - cols.worldY[i]) * sign(sy)
        } else {
            if inherit == Inherit.noRotationOrReflection.rawValue {
                let s = abs(pa * pd - pb * pc) / max(0.0001, pa * pa + pc * pc)
                let sa = pa / sx
                let sc = pc / sy
                pb = -sc * s * sx
                pd = sa * s * sy
                rotationIK += ArcTangent.atan2Deg(sc, sa)
            }
            let x = targetX - pwx
            let y = targetY - pwy
            let d = pa * pd - pb * pc
            if abs(d) <= 0.0001 {
                tx = 0
                ty = 0
            } else {
                tx = (x * pd - y * pb) / d - cols.appliedX[i]
                ty = (y * pa - x * pc) / d - cols.appliedY[i]
            }
        }
        rotationIK += ArcTangent.atan2Deg(ty, tx)
        if cols.appliedScaleX[i] < 0 { rotationIK += 180 }
        if rotationIK > 180 {
            rotationIK -= 360
        } else if rotationIK < -180 {
            rotationIK += 360
        }
        var scaleX = cols.appliedScaleX[i]
        var scaleY = cols.appliedScaleY[i]
        if compress || stretch {
            if inherit == Inherit.noScale.rawValue || inherit == Inherit.noScaleOrReflection.rawValue {
                tx = targetX - cols.worldX[i]
                ty = targetY - cols.worldY[i]
            }
            let b = rig.boneLength[k] * scaleX
            if Double(b) > 0.0001 {
                let dd = tx * tx + ty * ty
                if (compress && dd < b * b) || (stretch && dd > b * b) {
                    let s = (dd.squareRoot() / b - 1) * alpha + 1
                    scaleX *= s
                    if uniform { scaleY *= s }
                }
            }
        }
        BoneTransform.update(
            cols, rig, r, bone: k, x: cols.appliedX[i], y: cols.appliedY[i],
            rotation: cols.appliedRotation[i] + rotationIK * alpha,
            scaleX: scaleX, scaleY: scaleY, shearX: cols.appliedShearX[i], shearY: cols.appliedShearY[i],
            computeWorld: world)
    }

    /// Bends a parent/child chain so the child's tip reaches the target (law of cosines when the
    /// parent scales uniformly, an ellipse solution otherwise), with optional softness and stretch.
    static func twoBone(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, parent pk: Int, child ck: Int, targetX: Float,
        targetY: Float, bendDirection: Int32, stretch: Bool, uniform: Bool, softness softnessIn: Float,
        alpha: Float, world: Bool = true
    ) {
        let pi_ = r.bone(pk)
        let ci = r.bone(ck)
        guard
            cols.inheritMode(rig, r, bone: pk) == Inherit.normal.rawValue
                && cols.inheritMode(rig, r, bone: ck) == Inherit.normal.rawValue
        else {
            return
        }
        let bendDir = Float(bendDirection)
        let px = cols.appliedX[pi_]
        let py = cols.appliedY[pi_]
        var psx = cols.appliedScaleX[pi_]
        var psy = cols.appliedScaleY[pi_]
        var sx = psx
        var sy = psy
        var csx = cols.appliedScaleX[ci]
        var o1: Float
        var o2: Float
        var s2: Float
        if psx < 0 {
            psx = -psx
            o1 = 180
            s2 = -1
        } else {
            o1 = 0
            s2 = 1
        }
        if psy < 0 {
            psy = -psy
            s2 = -s2
        }
        if csx < 0 {
            csx = -csx
            o2 = 180
        } else {
            o2 = 0
        }
        var rr = psx - psy
        let cx = cols.appliedX[ci]
        let u = (rr < 0 ? -rr : rr) <= 0.0001
        let cy: Float
        let cwx: Float
        let cwy: Float
        if !u || stretch {
            cy = 0
            cwx = cols.a[pi_] * cx + cols.worldX[pi_]
            cwy = cols.c[pi_] * cx + cols.worldY[pi_]
        } else {
            cy = cols.appliedY[ci]
            cwx = cols.a[pi_] * cx + cols.b[pi_] * cy + cols.worldX[pi_]
            cwy = cols.c[pi_] * cx + cols.d[pi_] * cy + cols.worldY[pi_]
        }
        // The parent's parent (identity for a root parent).
        var a: Float = 1
        var b: Float = 0
        var c: Float = 0
        var d: Float = 1
        var ppwx: Float = 0
        var ppwy: Float = 0
        let grand = Int(rig.boneParent[pk])
        if grand >= 0 {
            let g = r.bone(grand)
            a = cols.a[g]
            b = cols.b[g]
            c = cols.c[g]
            d = cols.d[g]
            ppwx = cols.worldX[g]
            ppwy = cols.worldY[g]
        }
        var id = a * d - b * c
        id = abs(id) <= 0.0001 ? 0 : 1 / id
        var x = cwx - ppwx
        var y = cwy - ppwy
        let dx = (x * d - y * b) * id - px
        let dy = (y * a - x * c) * id - py
        let l1 = (dx * dx + dy * dy).squareRoot()
        var l2 = rig.boneLength[ck] * csx
        if Double(l1) < 0.0001 {
            oneBone(
                cols, rig, r, bone: pk, targetX: targetX, targetY: targetY, compress: false, stretch: stretch,
                uniform: false, alpha: alpha, world: world)
            BoneTransform.update(
                cols, rig, r, bone: ck, x: cx, y: cy, rotation: 0, scaleX: cols.appliedScaleX[ci],
                scaleY: cols.appliedScaleY[ci],
                shearX: cols.appliedShearX[ci], shearY: cols.appliedShearY[ci], computeWorld: world)
            return
        }
        x = targetX - ppwx
        y = targetY - ppwy
        var tx = (x * d - y * b) * id - px
        var ty = (y * a - x * c) * id - py
        var dd = tx * tx + ty * ty
        if softnessIn != 0 {
            let softness = softnessIn * (psx * (csx + 1) * 0.5)
            let td = dd.squareRoot()
            let sd = td - l1 - l2 * psx + softness
            if sd > 0 {
                var p = min(1, sd / (softness * 2)) - 1
                p = (sd - softness * (1 - p * p)) / td
                tx -= p * tx
                ty -= p * ty
                dd = tx * tx + ty * ty
            }
        }
        var a1: Float = 0
        var a2: Float = 0
        solved: do {
            if u {
                l2 *= psx
                var cosine = (dd - l1 * l1 - l2 * l2) / (2 * l1 * l2)
                if cosine < -1 {
                    cosine = -1
                    a2 = pi * bendDir
                } else if cosine > 1 {
                    cosine = 1
                    a2 = 0
                    if stretch {
                        a = ((dd.squareRoot()) / (l1 + l2) - 1) * alpha + 1
                        sx *= a
                        if uniform { sy *= a }
                    }
                } else {
                    a2 = Float(Foundation.acos(Double(cosine))) * bendDir
                }
                a = l1 + l2 * cosine
                b = l2 * Trig.sinCos(a2).sin
                a1 = ArcTangent.atan2(ty * a - tx * b, tx * a + ty * b)
                break solved
            }
            a = psx * l2
            b = psy * l2
            let aa = a * a
            let bb = b * b
            let ll = l1 * l1
            let ta = ArcTangent.atan2(ty, tx)
            var c0 = bb * ll + aa * dd - aa * bb
            let c1 = -2 * bb * l1
            let c2 = bb - aa
            d = c1 * c1 - 4 * c2 * c0
            if d >= 0 {
                var q = d.squareRoot()
                if c1 < 0 { q = -q }
                q = -(c1 + q) * 0.5
                let r0 = q / c2
                let r1 = c0 / q
                rr = abs(r0) < abs(r1) ? r0 : r1
                if dd - rr * rr >= 0 {
                    y = (dd - rr * rr).squareRoot() * bendDir
                    a1 = ta - ArcTangent.atan2(y, rr)
                    a2 = ArcTangent.atan2(y / psy, (rr - l1) / psx)
                    break solved
                }
            }
            var minAngle = pi
            var minX = l1 - a
            var minDist = minX * minX
            var minY: Float = 0
            var maxAngle: Float = 0
            var maxX = l1 + a
            var maxDist = maxX * maxX
            var maxY: Float = 0
            c0 = -a * l1 / (aa - bb)
            if c0 >= -1 && c0 <= 1 {
                c0 = Float(Foundation.acos(Double(c0)))
                let (sine, cosine) = Trig.sinCos(c0)
                x = a * cosine + l1
                y = b * sine
                d = x * x + y * y
                if d < minDist {
                    minAngle = c0
                    minDist = d
                    minX = x
                    minY = y
                }
                if d > maxDist {
                    maxAngle = c0
                    maxDist = d
                    maxX = x
                    maxY = y
                }
            }
            if dd <= (minDist + maxDist) * 0.5 {
                a1 = ta - ArcTangent.atan2(minY * bendDir, minX)
                a2 = minAngle * bendDir
            } else {
                a1 = ta - ArcTangent.atan2(maxY * bendDir, maxX)
                a2 = maxAngle * bendDir
            }
        }
        let os = ArcTangent.atan2(cy, cx) * s2
        a1 = (a1 - os) * radDeg + o1 - cols.appliedRotation[pi_]
        if a1 > 180 {
            a1 -= 360
        } else if a1 < -180 {
            a1 += 360
        }
        BoneTransform.update(
            cols, rig, r, bone: pk, x: px, y: py, rotation: cols.appliedRotation[pi_] + a1 * alpha, scaleX: sx,
            scaleY: sy,
            shearX: 0, shearY: 0, computeWorld: world)
        a2 = ((a2 + os) * radDeg - cols.appliedShearX[ci]) * s2 + o2 - cols.appliedRotation[ci]
        if a2 > 180 {
            a2 -= 360
        } else if a2 < -180 {
            a2 += 360
        }
        BoneTransform.update(
            cols, rig, r, bone: ck, x: cx, y: cy, rotation: cols.appliedRotation[ci] + a2 * alpha,
            scaleX: cols.appliedScaleX[ci], scaleY: cols.appliedScaleY[ci], shearX: cols.appliedShearX[ci],
            shearY: cols.appliedShearY[ci],
            computeWorld: world)
    }

    @inline(__always)
    private static func sign(_ v: Float) -> Float { v < 0 ? -1 : (v > 0 ? 1 : 0) }
}
