import BoneworkFormat
import Foundation

/// Transform constraints: move the constrained bones' rotation, translation, scale and shear
/// towards the target bone's, by the mix of each channel. Four variants: world or local space,
/// absolute or relative to the bone's own pose. Float operations follow the reference.
enum TransformConstraintSolver {
    private static let pi = SpineMath.pi
    private static let pi2 = SpineMath.pi2
    private static let degRad = SpineMath.degRad

    /// Solves transform constraint `k` of one instance. The world modes recompute each bone's
    /// applied pose from its new world transform when `recomputesApplied`
    /// (`UpdateOp.recomputesApplied`).
    static func solve(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int, recomputesApplied: Bool = true
    ) {
        let ci = r.transform(k)
        let mix = Mixes(
            rotate: cols.transformMixRotate[ci], x: cols.transformMixX[ci], y: cols.transformMixY[ci],
            scaleX: cols.transformMixScaleX[ci],
            scaleY: cols.transformMixScaleY[ci], shearY: cols.transformMixShearY[ci])
        if mix.rotate == 0 && mix.x == 0 && mix.y == 0 && mix.scaleX == 0 && mix.scaleY == 0 && mix.shearY == 0 {
            return
        }
        let o = rig.transformOffset + k &* 6
        let offsets = Mixes(rotate: o[0], x: o[1], y: o[2], scaleX: o[3], scaleY: o[4], shearY: o[5])
        let target = Int(rig.transformTarget[k])
        let bones = UnsafeBufferPointer(
            start: rig.transformBones + Int(rig.transformBoneStart[k]), count: Int(rig.transformBoneCount[k]))
        if rig.transformLocal[k] != 0 {
            if rig.transformRelative[k] != 0 {
                relativeLocal(cols, rig, r, target, bones, mix, offsets)
            } else {
                absoluteLocal(cols, rig, r, target, bones, mix, offsets)
            }
        } else {
            if rig.transformRelative[k] != 0 {
                relativeWorld(cols, rig, r, target, bones, mix, offsets, recomputesApplied: recomputesApplied)
            } else {
                absoluteWorld(cols, rig, r, target, bones, mix, offsets, recomputesApplied: recomputesApplied)
            }
        }
    }

    /// One value per channel: the constraint's mixes, or its offsets.
    struct Mixes {
        var rotate: Float
        var x: Float
        var y: Float
        var scaleX: Float
        var scaleY: Float
        var shearY: Float
    }

    @inline(__always)
    private static func wrapRadians(_ r: Float) -> Float {
        if r > pi { return r - pi2 }
        if r < -pi { return r + pi2 }
        return r
    }

    /// Wraps degrees into (-180, 180] the way the reference does (ceil of a float/double mix).
    @inline(__always)
    private static func wrapDegrees(_ r: Float) -> Float {
        r - Foundation.ceil(Float(Double(r / 360) - 0.5)) * 360
    }

    /// The target bone's world transform and the rotation offsets in the target's handedness,
    /// which both world-space variants start from.
    private struct TargetFrame {
        let a: Float
        let b: Float
        let c: Float
        let d: Float
        let offsetRotation: Float
        let offsetShearY: Float

        @inline(__always)
        init(_ cols: PoseColumns, _ t: Int, _ offset: Mixes) {
            a = cols.a[t]
            b = cols.b[t]
            c = cols.c[t]
            d = cols.d[t]
            let degRadReflect = a * d - b * c > 0 ? degRad : -degRad
            offsetRotation = offset.rotate * degRadReflect
            offsetShearY = offset.shearY * degRadReflect
        }
    }

    /// Rotates bone row `i`'s world basis by `rr` radians (both world-space variants).
    @inline(__always)
    private static func rotateWorld(_ cols: PoseColumns, _ i: Int, by rr: Float) {
        let a = cols.a[i]
        let b = cols.b[i]
        let c = cols.c[i]
        let d = cols.d[i]
        // SpineMath's values (libm in double, rounded; `TrigTests`), as `PoseLanes` computes them.
        let (sine, cosine) = Trig.sinCos(rr)
        cols.a[i] = cosine * a - sine * c
        cols.b[i] = cosine * b - sine * d
        cols.c[i] = sine * a + cosine * c
        cols.d[i] = sine * b + cosine * d
    }

    private static func absoluteWorld(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, _ target: Int, _ bones: UnsafeBufferPointer<Int32>,
        _ mix: Mixes, _ offset: Mixes, recomputesApplied: Bool
    ) {
        let translate = mix.x != 0 || mix.y != 0
        let t = r.bone(target)
        let frame = TargetFrame(cols, t, offset)
        let (ta, tb, tc, td) = (frame.a, frame.b, frame.c, frame.d)
        let offsetShearY = frame.offsetShearY
        for bone in bones {
            let k = Int(bone)
            let i = r.bone(k)
            if mix.rotate != 0 {
                var rr = wrapRadians(
                    ArcTangent.atan2(tc, ta) - ArcTangent.atan2(cols.c[i], cols.a[i]) + frame.offsetRotation)
                rr *= mix.rotate
                rotateWorld(cols, i, by: rr)
            }
            if translate {
                let tx = offset.x * ta + offset.y * tb + cols.worldX[t]
                let ty = offset.x * tc + offset.y * td + cols.worldY[t]
                cols.worldX[i] += (tx - cols.worldX[i]) * mix.x
                cols.worldY[i] += (ty - cols.worldY[i]) * mix.y
            }
            if mix.scaleX > 0 {
                var s = (cols.a[i] * cols.a[i] + cols.c[i] * cols.c[i]).squareRoot()
                if s != 0 { s = (s + ((ta * ta + tc * tc).squareRoot() - s + offset.scaleX) * mix.scaleX) / s }
                cols.a[i] *= s
                cols.c[i] *= s
            }
            if mix.scaleY > 0 {
                var s = (cols.b[i] * cols.b[i] + cols.d[i] * cols.d[i]).squareRoot()
                if s != 0 { s = (s + ((tb * tb + td * td).squareRoot() - s + offset.scaleY) * mix.scaleY) / s }
                cols.b[i] *= s
                cols.d[i] *= s
            }
            if mix.shearY > 0 {
                let b = cols.b[i]
                let d = cols.d[i]
                let by = ArcTangent.atan2(d, b)
                var rr = wrapRadians(
                    ArcTangent.atan2(td, tb) - ArcTangent.atan2(tc, ta) - (by - ArcTangent.atan2(cols.c[i], cols.a[i])))
                rr = by + (rr + offsetShearY) * mix.shearY
                let s = (b * b + d * d).squareRoot()
                cols.b[i] = SpineMath.cos(rr) * s
                cols.d[i] = SpineMath.sin(rr) * s
            }
            if recomputesApplied { BoneTransform.updateApplied(cols, rig, r, bone: k) }
        }
    }

    private static func relativeWorld(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, _ target: Int, _ bones: UnsafeBufferPointer<Int32>,
        _ mix: Mixes, _ offset: Mixes, recomputesApplied: Bool
    ) {
        let translate = mix.x != 0 || mix.y != 0
        let t = r.bone(target)
        let frame = TargetFrame(cols, t, offset)
        let (ta, tb, tc, td) = (frame.a, frame.b, frame.c, frame.d)
        let offsetShearY = frame.offsetShearY
        for bone in bones {
            let k = Int(bone)
            let i = r.bone(k)
            if mix.rotate != 0 {
                var rr = wrapRadians(ArcTangent.atan2(tc, ta) + frame.offsetRotation)
                rr *= mix.rotate
                rotateWorld(cols, i, by: rr)
            }
            if translate {
                let tx = offset.x * ta + offset.y * tb + cols.worldX[t]
                let ty = offset.x * tc + offset.y * td + cols.worldY[t]
                cols.worldX[i] += tx * mix.x
                cols.worldY[i] += ty * mix.y
            }
            if mix.scaleX != 0 {
                let s = ((ta * ta + tc * tc).squareRoot() - 1 + offset.scaleX) * mix.scaleX + 1
                cols.a[i] *= s
                cols.c[i] *= s
            }
            if mix.scaleY != 0 {
                let s = ((tb * tb + td * td).squareRoot() - 1 + offset.scaleY) * mix.scaleY + 1
                cols.b[i] *= s
                cols.d[i] *= s
            }
            if mix.shearY > 0 {
                let rr = wrapRadians(ArcTangent.atan2(td, tb) - ArcTangent.atan2(tc, ta))
                let b = cols.b[i]
                let d = cols.d[i]
                let r2 = ArcTangent.atan2(d, b) + (rr - pi / 2 + offsetShearY) * mix.shearY
                let s = (b * b + d * d).squareRoot()
                cols.b[i] = SpineMath.cos(r2) * s
                cols.d[i] = SpineMath.sin(r2) * s
            }
            if recomputesApplied { BoneTransform.updateApplied(cols, rig, r, bone: k) }
        }
    }

    private static func absoluteLocal(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, _ target: Int, _ bones: UnsafeBufferPointer<Int32>,
        _ mix: Mixes, _ offset: Mixes
    ) {
        let t = r.bone(target)
        for bone in bones {
            let k = Int(bone)
            let i = r.bone(k)
            var rotation = cols.appliedRotation[i]
            if mix.rotate != 0 {
                let rr = wrapDegrees(cols.appliedRotation[t] - rotation + offset.rotate)
                rotation += rr * mix.rotate
            }
            var x = cols.appliedX[i]
            var y = cols.appliedY[i]
            x += (cols.appliedX[t] - x + offset.x) * mix.x
            y += (cols.appliedY[t] - y + offset.y) * mix.y
            var scaleX = cols.appliedScaleX[i]
            var scaleY = cols.appliedScaleY[i]
            // As in the reference, the mixed scale is divided by the bone's own scale.
            if mix.scaleX != 0 && scaleX != 0 {
                scaleX = (scaleX + (cols.appliedScaleX[t] - scaleX + offset.scaleX) * mix.scaleX) / scaleX
            }
            if mix.scaleY != 0 && scaleY != 0 {
                scaleY = (scaleY + (cols.appliedScaleY[t] - scaleY + offset.scaleY) * mix.scaleY) / scaleY
            }
            let shearY = cols.appliedShearY[i]
            if mix.shearY != 0 {
                // As in the reference, the shear mix lands in the local pose, not the applied one.
                let rr = wrapDegrees(cols.appliedShearY[t] - shearY + offset.shearY)
                cols.shearY[i] += rr * mix.shearY
            }
            BoneTransform.update(
                cols, rig, r, bone: k, x: x, y: y, rotation: rotation, scaleX: scaleX, scaleY: scaleY,
                shearX: cols.appliedShearX[i], shearY: shearY)
        }
    }

    private static func relativeLocal(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, _ target: Int, _ bones: UnsafeBufferPointer<Int32>,
        _ mix: Mixes, _ offset: Mixes
    ) {
        let t = r.bone(target)
        for bone in bones {
            let k = Int(bone)
            let i = r.bone(k)
            let rotation = cols.appliedRotation[i] + (cols.appliedRotation[t] + offset.rotate) * mix.rotate
            let x = cols.appliedX[i] + (cols.appliedX[t] + offset.x) * mix.x
            let y = cols.appliedY[i] + (cols.appliedY[t] + offset.y) * mix.y
            let scaleX = cols.appliedScaleX[i] * (((cols.appliedScaleX[t] - 1 + offset.scaleX) * mix.scaleX) + 1)
            let scaleY = cols.appliedScaleY[i] * (((cols.appliedScaleY[t] - 1 + offset.scaleY) * mix.scaleY) + 1)
            let shearY = cols.appliedShearY[i] + (cols.appliedShearY[t] + offset.shearY) * mix.shearY
            BoneTransform.update(
                cols, rig, r, bone: k, x: x, y: y, rotation: rotation, scaleX: scaleX, scaleY: scaleY,
                shearX: cols.appliedShearX[i], shearY: shearY)
        }
    }
}
