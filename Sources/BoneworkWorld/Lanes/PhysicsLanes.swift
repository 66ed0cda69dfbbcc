import BoneworkFormat

/// Physics constraints in `PoseLanes`: four instances advance one constraint's simulation
/// together. The step loop is the same for every instance of one skeleton data; a lane whose
/// carried time allows fewer steps than another's sits out the extra steps (masked), so each lane
/// runs exactly its own steps. Per lane every float operation is
/// `PhysicsConstraintSolver.update`'s, in its order, so the results are bit-identical
/// (`PoseLaneTests` replays every reference trace in lanes, and checks lanes whose steps and
/// values differ).
extension PoseLanes {
    /// Physics constraint `k` for the four lanes in an `.update` pass when every lane mixes it
    /// (mix not 0) and none restarts this update; the bone's applied pose is recomputed when
    /// `recomputesApplied`. Returns false (nothing done) otherwise.
    @inline(__always)
    static func solvePhysics(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, constraint k: Int, physics: Physics, recomputesApplied: Bool
    ) -> Bool {
        guard physics == .update else { return false }
        let i = r0.physics(k)
        let state = PhysicsLaneState(cols, row: i)
        let zero = F(repeating: 0)
        let mix = state[PhysicsField.mix]
        guard all(mix .!= zero),
            all(UnsafeRawPointer(cols.physicsReset + i).loadUnaligned(as: SIMD4<Int32>.self) .== SIMD4(repeating: 0))
        else { return false }
        simulate(cols, rig, r0, state, constraint: k, mix: mix)
        if recomputesApplied { updateAppliedAnyInherit(cols, rig, r0, r1, r2, r3, bone: Int(rig.physicsBone[k])) }
        return true
    }

    /// The `.update` case of `PhysicsConstraintSolver.update` for four lanes that all mix the
    /// constraint and none restarting, up to the bone's applied pose.
    @inline(__always)
    private static func simulate(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ s: PhysicsLaneState, constraint k: Int, mix: F
    ) {
        typealias Field = PhysicsField
        let zero = F(repeating: 0)
        let data = rig.physicsValues.values + k &* PhysicsTables.stride
        let dataX = data[PhysicsTables.x]
        let dataY = data[PhysicsTables.y]
        let dataRotate = data[PhysicsTables.rotate]
        let dataScaleX = data[PhysicsTables.scaleX]
        let dataShearX = data[PhysicsTables.shearX]
        let x = dataX > 0
        let y = dataY > 0
        let rotateOrShearX = dataRotate > 0 || dataShearX > 0
        let scaleX = dataScaleX > 0
        let boneIndex = Int(rig.physicsBone[k])
        let bi = r0.bone(boneIndex)
        let l = rig.boneLength[boneIndex]
        let t = data[PhysicsTables.step]
        let step = F(repeating: t)

        let time = load(cols.time + r0.instance)
        let elapsed = time - s[Field.lastTime]
        var delta = zero
        delta.replace(with: elapsed, where: elapsed .> zero)
        var remaining = s[Field.remaining] + delta
        remaining.replace(
            with: F(repeating: PhysicsConstraintSolver.maxCatchUp),
            where: remaining .> F(repeating: PhysicsConstraintSolver.maxCatchUp))
        s[Field.remaining] = remaining
        s[Field.lastTime] = time

        let bx = load(cols.worldX + bi)
        let by = load(cols.worldY + bi)
        var a = remaining
        let inertia = s[Field.inertia]
        let stepping = a .>= step
        // Damping per step, lane by lane (the setup damping's is in the tables; others need pow).
        var d = zero
        if any(stepping) {
            let damping = s[Field.damping]
            let setup = rig.physicsValues.setupDecay + k &* 2
            for lane in 0..<4 where stepping[lane] {
                d[lane] =
                    damping[lane].bitPattern == setup[0].bitPattern
                    ? setup[1] : PhysicsConstraintSolver.pow(damping[lane], 60 * t)
            }
        }
        let f = rig.physicsValues.referenceScale
        var qx = F(repeating: data[PhysicsTables.limit]) * delta
        let qy = qx * magnitude(load(cols.skeletonScaleX + r0.instance))
        qx *= magnitude(load(cols.skeletonScaleY + r0.instance))
        let minusQx = negated(qx)
        let minusQy = negated(qy)
        if x || y {
            var xOffset = s[Field.xOffset]
            var yOffset = s[Field.yOffset]
            if x {
                let u = (s[Field.ux] - bx) * inertia
                xOffset += clamp(u, minusQx, qx)
                s[Field.ux] = bx
            }
            if y {
                let u = (s[Field.uy] - by) * inertia
                yOffset += clamp(u, minusQy, qy)
                s[Field.uy] = by
            }
            if any(stepping) {
                let m = s[Field.massInverse] * step
                let e = s[Field.strength]
                let w = s[Field.wind] * f
                let g = s[Field.gravity] * f
                var xVelocity = s[Field.xVelocity]
                var yVelocity = s[Field.yVelocity]
                var active = stepping
                repeat {
                    if x {
                        xVelocity.replace(with: xVelocity + (w - xOffset * e) * m, where: active)
                        xOffset.replace(with: xOffset + xVelocity * step, where: active)
                        xVelocity.replace(with: xVelocity * d, where: active)
                    }
                    if y {
                        yVelocity.replace(with: yVelocity - (g + yOffset * e) * m, where: active)
                        yOffset.replace(with: yOffset + yVelocity * step, where: active)
                        yVelocity.replace(with: yVelocity * d, where: active)
                    }
                    a.replace(with: a - step, where: active)
                    active .&= a .>= step
                } while any(active)
                s[Field.xVelocity] = xVelocity
                s[Field.yVelocity] = yVelocity
            }
            s[Field.xOffset] = xOffset
            s[Field.yOffset] = yOffset
            if x { store(load(cols.worldX + bi) + xOffset * mix * F(repeating: dataX), cols.worldX + bi) }
            if y { store(load(cols.worldY + bi) + yOffset * mix * F(repeating: dataY), cols.worldY + bi) }
        }

        if rotateOrShearX || scaleX {
            let ca = LaneArcTangent.atan2(load(cols.c + bi), load(cols.a + bi))
            var c: F
            var sn: F
            var mr = zero
            let dx = clamp(s[Field.cx] - load(cols.worldX + bi), minusQx, qx)
            let dy = clamp(s[Field.cy] - load(cols.worldY + bi), minusQy, qy)
            var rotateOffset = s[Field.rotateOffset]
            var scaleOffset = s[Field.scaleOffset]
            if rotateOrShearX {
                mr = F(repeating: dataRotate + dataShearX) * mix
                var rr = LaneArcTangent.atan2(dy + s[Field.ty], dx + s[Field.tx]) - ca - rotateOffset * mr
                let turns = (rr * F(repeating: 1 / SpineMath.pi2) - F(repeating: 0.5)).rounded(.up)
                rotateOffset += (rr - turns * F(repeating: SpineMath.pi2)) * inertia
                rr = rotateOffset * mr + ca
                (sn, c) = LaneTrig.sinCos(rr)
                if scaleX {
                    let length = F(repeating: l) * worldScaleX(cols, bi)
                    scaleOffset.replace(
                        with: scaleOffset + (dx * c + dy * sn) * inertia / length, where: length .> zero)
                }
            } else {
                (sn, c) = LaneTrig.sinCos(ca)
                let length = F(repeating: l) * worldScaleX(cols, bi)
                scaleOffset.replace(with: scaleOffset + (dx * c + dy * sn) * inertia / length, where: length .> zero)
            }
            a = remaining
            if any(stepping) {
                let m = s[Field.massInverse] * step
                let e = s[Field.strength]
                let w = s[Field.wind]
                let g = s[Field.gravity]
                let h = F(repeating: l / f)
                var scaleVelocity = s[Field.scaleVelocity]
                var rotateVelocity = s[Field.rotateVelocity]
                var active = stepping
                while any(active) {
                    a.replace(with: a - step, where: active)
                    if scaleX {
                        scaleVelocity.replace(
                            with: scaleVelocity + (w * c - g * sn - scaleOffset * e) * m, where: active)
                        scaleOffset.replace(with: scaleOffset + scaleVelocity * step, where: active)
                        scaleVelocity.replace(with: scaleVelocity * d, where: active)
                    }
                    if rotateOrShearX {
                        rotateVelocity.replace(
                            with: rotateVelocity - ((w * sn + g * c) * h + rotateOffset * e) * m, where: active)
                        rotateOffset.replace(with: rotateOffset + rotateVelocity * step, where: active)
                        rotateVelocity.replace(with: rotateVelocity * d, where: active)
                    }
                    active .&= a .>= step
                    if rotateOrShearX && any(active) {
                        let turned = LaneTrig.sinCos(rotateOffset * mr + ca)
                        sn.replace(with: turned.sin, where: active)
                        c.replace(with: turned.cos, where: active)
                    }
                }
                s[Field.scaleVelocity] = scaleVelocity
                s[Field.rotateVelocity] = rotateVelocity
            }
            s[Field.rotateOffset] = rotateOffset
            s[Field.scaleOffset] = scaleOffset
        }
        s[Field.remaining] = a
        s[Field.cx] = load(cols.worldX + bi)
        s[Field.cy] = load(cols.worldY + bi)

        if rotateOrShearX {
            let o = s[Field.rotateOffset] * mix
            if dataShearX > 0 {
                var rr = zero
                if dataRotate > 0 {
                    rr = o * F(repeating: dataRotate)
                    let (sine, cosine) = LaneTrig.sinCos(rr)
                    rotate(cols.b + bi, cols.d + bi, sine, cosine)
                }
                rr += o * F(repeating: dataShearX)
                let (sine, cosine) = LaneTrig.sinCos(rr)
                rotate(cols.a + bi, cols.c + bi, sine, cosine)
            } else {
                let (sine, cosine) = LaneTrig.sinCos(o * F(repeating: dataRotate))
                rotate(cols.a + bi, cols.c + bi, sine, cosine)
                rotate(cols.b + bi, cols.d + bi, sine, cosine)
            }
        }
        if scaleX {
            let sc = F(repeating: 1) + s[Field.scaleOffset] * mix * F(repeating: dataScaleX)
            store(load(cols.a + bi) * sc, cols.a + bi)
            store(load(cols.c + bi) * sc, cols.c + bi)
        }
        s[Field.tx] = F(repeating: l) * load(cols.a + bi)
        s[Field.ty] = F(repeating: l) * load(cols.c + bi)
    }

    /// Rotates a world basis column, (a, c) or (b, d), by the angle of `sine` and `cosine`.
    @inline(__always)
    private static func rotate(
        _ top: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>, _ sine: F, _ cosine: F
    ) {
        let p = load(top)
        let q = load(bottom)
        store(cosine * p - sine * q, top)
        store(sine * p + cosine * q, bottom)
    }

    /// `v > high ? high : (v < low ? low : v)` per lane, as the scalar's clamps.
    @inline(__always)
    private static func clamp(_ v: F, _ low: F, _ high: F) -> F {
        var r = v
        r.replace(with: low, where: v .< low)
        r.replace(with: high, where: v .> high)
        return r
    }

    /// -v per lane by its sign bit, as the scalar's negation (SIMD's prefix minus is 0 - v, which
    /// turns -0 into +0).
    @inline(__always)
    private static func negated(_ v: F) -> F {
        unsafeBitCast(unsafeBitCast(v, to: SIMD4<UInt32>.self) ^ 0x8000_0000, to: F.self)
    }

    @inline(__always)
    private static func worldScaleX(_ cols: PoseColumns, _ bi: Int) -> F {
        let a = load(cols.a + bi)
        let c = load(cols.c + bi)
        return (a * a + c * c).squareRoot()
    }
}

/// The physics columns of one constraint for four lanes (`PhysicsConstraintSolver.State`, four
/// neighbouring rows at once).
struct PhysicsLaneState {
    let base: UnsafeMutablePointer<Float>
    let stride: Int

    @inline(__always)
    init(_ cols: PoseColumns, row i: Int) {
        base = cols.physics + i
        stride = cols.physicsFieldStride
    }

    @inline(__always)
    subscript(_ field: Int) -> SIMD4<Float> {
        get { SIMD4.load(base + field &* stride) }
        nonmutating set { SIMD4.store(newValue, base + field &* stride) }
    }
}
