import BoneworkFormat

/// Physics constraints in `PoseLanes`: four or eight instances advance one constraint's
/// simulation together. The step loop is the same for every instance of one skeleton data; a lane whose
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
        var mix = SIMD4<Float>()
        guard physics == .update, simulating(cols, r0, constraint: k, mix: &mix) else { return false }
        simulate(cols, rig, r0, PhysicsLaneState(cols, row: r0.physics(k)), constraint: k, mix: mix)
        if recomputesApplied { updateAppliedAnyInherit(cols, rig, r0, r1, r2, r3, bone: Int(rig.physicsBone[k])) }
        return true
    }

    /// `solvePhysics` for the 8 lanes from `low.0` (chunk sizes a multiple of 8): one simulation
    /// for all 8, then the applied pose of each half. Returns false (nothing done) when some lane
    /// does not mix the constraint or restarts.
    @inline(__always)
    static func solvePhysics8(
        _ cols: PoseColumns, _ rig: RigTables, _ low: (InstanceRows, InstanceRows, InstanceRows, InstanceRows),
        _ high: (InstanceRows, InstanceRows, InstanceRows, InstanceRows), constraint k: Int, physics: Physics,
        recomputesApplied: Bool
    ) -> Bool {
        var mix = SIMD8<Float>()
        guard physics == .update, simulating(cols, low.0, constraint: k, mix: &mix) else { return false }
        simulate(cols, rig, low.0, PhysicsLaneState(cols, row: low.0.physics(k)), constraint: k, mix: mix)
        if recomputesApplied {
            let bone = Int(rig.physicsBone[k])
            updateAppliedAnyInherit(cols, rig, low.0, low.1, low.2, low.3, bone: bone)
            updateAppliedAnyInherit(cols, rig, high.0, high.1, high.2, high.3, bone: bone)
        }
        return true
    }

    /// Whether every lane of `V` from `r` mixes physics constraint `k` (mix not 0, the lanes'
    /// mixes in `mix`) and none restarts this update. (The mixes go out through `inout`: an
    /// optional of a generic type would make a debug build create its type at first use.)
    @inline(__always)
    private static func simulating<V: LaneVector>(
        _ cols: PoseColumns, _ r: InstanceRows, constraint k: Int, mix: inout V
    ) -> Bool {
        let i = r.physics(k)
        mix = PhysicsLaneState<V>(cols, row: i)[PhysicsField.mix]
        // The lanes' restart flags (0 or 1 each) as the bits of `V`'s lanes.
        let reset = UnsafeRawPointer(cols.physicsReset + i).loadUnaligned(as: V.self)
        return !V.anyLane(V.equal(mix, V(repeating: 0))) && V.sameBits(reset, V())
    }

    /// The `.update` case of `PhysicsConstraintSolver.update` for the lanes of `V` that all mix
    /// the constraint and none restarting, up to the bone's applied pose.
    @inline(__always)
    private static func simulate<V: LaneVector>(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ s: PhysicsLaneState<V>, constraint k: Int, mix: V
    ) {
        var update = PhysicsLaneUpdate(cols, rig, r0, s, constraint: k, mix: mix)
        var a = update.remaining
        if update.x || update.y { a = update.translate() }
        if update.rotateOrShearX || update.scaleX { a = update.turn() }
        s[PhysicsField.remaining] = a
        s[PhysicsField.cx] = V.load(cols.worldX + update.bi)
        s[PhysicsField.cy] = V.load(cols.worldY + update.bi)
        update.applyOffsets()
    }
}

/// The physics columns of one constraint for the lanes of `V` (`PhysicsConstraintSolver.State`,
/// neighbouring rows at once).
struct PhysicsLaneState<V: LaneVector> {
    let base: UnsafeMutablePointer<Float>
    let stride: Int

    @inline(__always)
    init(_ cols: PoseColumns, row i: Int) {
        base = cols.physics + i
        stride = cols.physicsFieldStride
    }

    @inline(__always)
    subscript(_ field: Int) -> V {
        get { V.load(base + field &* stride) }
        nonmutating set { V.store(newValue, base + field &* stride) }
    }
}

/// One `.update` of one physics constraint for the lanes of `V` (`PoseLanes.simulate`): what its
/// parts share, and the parts, each out of line: as one function, the 8-lane form grew too
/// large for the optimizer to inline its loads and stores (about 85 calls per constraint,
/// `Benchmarks/callgrind.sh`). The parts are `mutating` (they change only the columns) so that
/// the caller lends its value rather than copying its 400 bytes for each call.
struct PhysicsLaneUpdate<V: LaneVector> {
    typealias Field = PhysicsField
    let cols: PoseColumns
    let s: PhysicsLaneState<V>
    let data: UnsafePointer<Float>
    /// The bone's lanes in the pose columns.
    let bi: Int
    let length: Float
    let referenceScale: Float
    let mix: V
    let inertia: V
    let step: V
    /// The carried time after this update's.
    let remaining: V
    /// The lanes with at least one step to run.
    let stepping: SIMDMask<V.MaskStorage>
    /// The damping per step (0 in lanes without a step).
    let d: V
    /// The limits of this update's movement (`PhysicsConstraintSolver`'s qx, qy), and their
    /// negations.
    let qx: V
    let qy: V
    let minusQx: V
    let minusQy: V
    let x: Bool
    let y: Bool
    let rotateOrShearX: Bool
    let scaleX: Bool

    /// Carries the lanes' time into the state and works out what the parts share.
    @inline(__always)
    init(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ s: PhysicsLaneState<V>, constraint k: Int, mix: V
    ) {
        self.cols = cols
        self.s = s
        self.mix = mix
        let zero = V(repeating: 0)
        let data = rig.physicsValues.values + k &* PhysicsTables.stride
        self.data = data
        x = data[PhysicsTables.x] > 0
        y = data[PhysicsTables.y] > 0
        rotateOrShearX = data[PhysicsTables.rotate] > 0 || data[PhysicsTables.shearX] > 0
        scaleX = data[PhysicsTables.scaleX] > 0
        let boneIndex = Int(rig.physicsBone[k])
        bi = r0.bone(boneIndex)
        length = rig.boneLength[boneIndex]
        referenceScale = rig.physicsValues.referenceScale
        let t = data[PhysicsTables.step]
        step = V(repeating: t)

        let time = V.load(cols.time + r0.instance)
        let elapsed = time - s[Field.lastTime]
        var delta = zero
        delta.replace(with: elapsed, where: V.above(elapsed, zero))
        var remaining = s[Field.remaining] + delta
        remaining.replace(
            with: V(repeating: PhysicsConstraintSolver.maxCatchUp),
            where: V.above(remaining, V(repeating: PhysicsConstraintSolver.maxCatchUp)))
        s[Field.remaining] = remaining
        s[Field.lastTime] = time
        self.remaining = remaining
        inertia = s[Field.inertia]
        let stepping = V.atLeast(remaining, step)
        self.stepping = stepping
        // Damping per step: the setup damping's is in the tables (every lane at it, the common
        // case, takes one compare); other lanes' need pow, lane by lane.
        var d = zero
        if V.anyLane(stepping) {
            let damping = s[Field.damping]
            let setup = rig.physicsValues.setupDecay + k &* 2
            if V.sameBits(damping, V(repeating: setup[0])) {
                d.replace(with: V(repeating: setup[1]), where: stepping)
            } else {
                for lane in 0..<V.scalarCount where stepping[lane] {
                    d[lane] =
                        damping[lane].bitPattern == setup[0].bitPattern
                        ? setup[1] : PhysicsConstraintSolver.pow(damping[lane], 60 * t)
                }
            }
        }
        self.d = d
        var qx = V(repeating: data[PhysicsTables.limit]) * delta
        let qy = qx * V.magnitude(V.load(cols.skeletonScaleX + r0.instance))
        qx *= V.magnitude(V.load(cols.skeletonScaleY + r0.instance))
        self.qx = qx
        self.qy = qy
        minusQx = V.signFlipped(qx)
        minusQy = V.signFlipped(qy)
    }

    /// The x and y simulation and the bone's world position. Returns the carried time left.
    @inline(never)
    mutating func translate() -> V {
        let bx = V.load(cols.worldX + bi)
        let by = V.load(cols.worldY + bi)
        var a = remaining
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
        if V.anyLane(stepping) {
            let m = s[Field.massInverse] * step
            let e = s[Field.strength]
            let w = s[Field.wind] * referenceScale
            let g = s[Field.gravity] * referenceScale
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
                active .&= V.atLeast(a, step)
            } while V.anyLane(active)
            s[Field.xVelocity] = xVelocity
            s[Field.yVelocity] = yVelocity
        }
        s[Field.xOffset] = xOffset
        s[Field.yOffset] = yOffset
        if x {
            V.store(V.load(cols.worldX + bi) + xOffset * mix * V(repeating: data[PhysicsTables.x]), cols.worldX + bi)
        }
        if y {
            V.store(V.load(cols.worldY + bi) + yOffset * mix * V(repeating: data[PhysicsTables.y]), cols.worldY + bi)
        }
        return a
    }

    /// The rotation and scale simulation. Returns the carried time left.
    @inline(never)
    mutating func turn() -> V {
        let zero = V(repeating: 0)
        let dataRotate = data[PhysicsTables.rotate]
        let dataShearX = data[PhysicsTables.shearX]
        let ca = V.atan2(V.load(cols.c + bi), V.load(cols.a + bi))
        var c = zero
        var sn = zero
        var mr = zero
        let dx = clamp(s[Field.cx] - V.load(cols.worldX + bi), minusQx, qx)
        let dy = clamp(s[Field.cy] - V.load(cols.worldY + bi), minusQy, qy)
        var rotateOffset = s[Field.rotateOffset]
        var scaleOffset = s[Field.scaleOffset]
        if rotateOrShearX {
            mr = V(repeating: dataRotate + dataShearX) * mix
            var rr = V.atan2(dy + s[Field.ty], dx + s[Field.tx]) - ca - rotateOffset * mr
            let turns = (rr * V(repeating: 1 / SpineMath.pi2) - V(repeating: 0.5)).rounded(.up)
            rotateOffset += (rr - turns * V(repeating: SpineMath.pi2)) * inertia
            rr = rotateOffset * mr + ca
            V.sinCos(rr, sin: &sn, cos: &c)
            if scaleX {
                let scaled = V(repeating: length) * worldScaleX()
                scaleOffset.replace(
                    with: scaleOffset + (dx * c + dy * sn) * inertia / scaled, where: V.above(scaled, zero))
            }
        } else {
            V.sinCos(ca, sin: &sn, cos: &c)
            let scaled = V(repeating: length) * worldScaleX()
            scaleOffset.replace(with: scaleOffset + (dx * c + dy * sn) * inertia / scaled, where: V.above(scaled, zero))
        }
        var a = remaining
        if V.anyLane(stepping) {
            let m = s[Field.massInverse] * step
            let e = s[Field.strength]
            let w = s[Field.wind]
            let g = s[Field.gravity]
            let h = V(repeating: length / referenceScale)
            var scaleVelocity = s[Field.scaleVelocity]
            var rotateVelocity = s[Field.rotateVelocity]
            var active = stepping
            while V.anyLane(active) {
                a.replace(with: a - step, where: active)
                if scaleX {
                    scaleVelocity.replace(with: scaleVelocity + (w * c - g * sn - scaleOffset * e) * m, where: active)
                    scaleOffset.replace(with: scaleOffset + scaleVelocity * step, where: active)
                    scaleVelocity.replace(with: scaleVelocity * d, where: active)
                }
                if rotateOrShearX {
                    rotateVelocity.replace(
                        with: rotateVelocity - ((w * sn + g * c) * h + rotateOffset * e) * m, where: active)
                    rotateOffset.replace(with: rotateOffset + rotateVelocity * step, where: active)
                    rotateVelocity.replace(with: rotateVelocity * d, where: active)
                }
                active .&= V.atLeast(a, step)
                if rotateOrShearX && V.anyLane(active) {
                    var turnedSine = zero
                    var turnedCosine = zero
                    V.sinCos(rotateOffset * mr + ca, sin: &turnedSine, cos: &turnedCosine)
                    sn.replace(with: turnedSine, where: active)
                    c.replace(with: turnedCosine, where: active)
                }
            }
            s[Field.scaleVelocity] = scaleVelocity
            s[Field.rotateVelocity] = rotateVelocity
        }
        s[Field.rotateOffset] = rotateOffset
        s[Field.scaleOffset] = scaleOffset
        return a
    }

    /// The offsets applied to the bone's world basis, and the tip's offset kept for the next
    /// update (`tx`, `ty`).
    @inline(never)
    mutating func applyOffsets() {
        let zero = V(repeating: 0)
        let dataRotate = data[PhysicsTables.rotate]
        let dataShearX = data[PhysicsTables.shearX]
        if rotateOrShearX {
            let o = s[Field.rotateOffset] * mix
            var sine = zero
            var cosine = zero
            if dataShearX > 0 {
                var rr = zero
                if dataRotate > 0 {
                    rr = o * V(repeating: dataRotate)
                    V.sinCos(rr, sin: &sine, cos: &cosine)
                    rotate(cols.b + bi, cols.d + bi, sine, cosine)
                }
                rr += o * V(repeating: dataShearX)
                V.sinCos(rr, sin: &sine, cos: &cosine)
                rotate(cols.a + bi, cols.c + bi, sine, cosine)
            } else {
                V.sinCos(o * V(repeating: dataRotate), sin: &sine, cos: &cosine)
                rotate(cols.a + bi, cols.c + bi, sine, cosine)
                rotate(cols.b + bi, cols.d + bi, sine, cosine)
            }
        }
        if scaleX {
            let sc = V(repeating: 1) + s[Field.scaleOffset] * mix * V(repeating: data[PhysicsTables.scaleX])
            V.store(V.load(cols.a + bi) * sc, cols.a + bi)
            V.store(V.load(cols.c + bi) * sc, cols.c + bi)
        }
        s[Field.tx] = V(repeating: length) * V.load(cols.a + bi)
        s[Field.ty] = V(repeating: length) * V.load(cols.c + bi)
    }

    /// Rotates a world basis column, (a, c) or (b, d), by the angle of `sine` and `cosine`.
    @inline(__always)
    private func rotate(
        _ top: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>, _ sine: V, _ cosine: V
    ) {
        let p = V.load(top)
        let q = V.load(bottom)
        V.store(cosine * p - sine * q, top)
        V.store(sine * p + cosine * q, bottom)
    }

    /// `v > high ? high : (v < low ? low : v)` per lane, as the scalar's clamps.
    @inline(__always)
    private func clamp(_ v: V, _ low: V, _ high: V) -> V {
        var r = v
        r.replace(with: low, where: V.above(low, v))
        r.replace(with: high, where: V.above(v, high))
        return r
    }

    @inline(__always)
    private func worldScaleX() -> V {
        let a = V.load(cols.a + bi)
        let c = V.load(cols.c + bi)
        return (a * a + c * c).squareRoot()
    }
}
