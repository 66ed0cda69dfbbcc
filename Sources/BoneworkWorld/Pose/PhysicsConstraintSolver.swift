import BoneworkFormat
import Foundation

/// How a world-transform pass treats physics constraints (the reference's `Physics`).
public enum Physics: UInt8, Sendable {
    /// Physics constraints are left out.
    case none = 0
    /// Every constraint's motion is cleared, then simulated as for `update`.
    case reset = 1
    /// The simulation advances by the skeleton time passed since the last update.
    case update = 2
    /// The last simulated offsets are applied without advancing the simulation.
    case pose = 3
}

/// Read-only per-constraint values physics needs beyond `RigTables`: how strongly each channel
/// follows the simulation, the velocity limit and the fixed step. Built once per `SkeletonData`.
struct PhysicsTables {
    /// 7 floats per constraint: x, y, rotate, scaleX, shearX, limit, step.
    var values: UnsafePointer<Float>
    /// The skeleton's reference scale (wind and gravity are given for it).
    var referenceScale: Float
    /// 2 floats per constraint: the setup damping and the damping per step it gives,
    /// pow(damping, 60 · step) in double rounded to float, so that an update whose damping is
    /// the setup one (bit for bit) costs no `pow` (about 3,400 instructions per celestial-circus
    /// skeleton-frame, `Benchmarks/callgrind.sh`).
    var setupDecay: UnsafePointer<Float>

    static let x = 0
    static let y = 1
    static let rotate = 2
    static let scaleX = 3
    static let shearX = 4
    static let limit = 5
    static let step = 6
    static let stride = 7

    static func build(_ data: SkeletonData, _ buffers: FrozenBuffers) -> PhysicsTables {
        PhysicsTables(
            values: buffers.freeze(
                data.physicsConstraints.flatMap { [$0.x, $0.y, $0.rotate, $0.scaleX, $0.shearX, $0.limit, $0.step] }),
            referenceScale: data.referenceScale,
            setupDecay: buffers.freeze(
                data.physicsConstraints.flatMap { [$0.damping, PhysicsConstraintSolver.pow($0.damping, 60 * $0.step)] })
        )
    }
}

/// Physics constraints: a damped spring simulation per constraint that offsets its bone's
/// translation, rotation, shear and scale as the bone moves. The simulation runs in fixed steps
/// of `step` seconds over the skeleton time that passed (`Batch.advanceTime`), carrying the
/// remainder to the next update, exactly as the reference integrates; all its state lives in
/// the batch's physics columns (`PhysicsField`), so instances never share anything.
///
/// Every operation is a float operation in the reference's order: the same inputs give the same
/// bits whichever thread or chunk order runs it.
///
/// One departure from the reference bounds the work of an update: the time carried into the
/// steps is at most `maxCatchUp` seconds (the reference carries any amount, so a frame of an
/// hour, or a step rate of a billion, asks it for millions of steps; past 2^24 steps `remaining
/// -= step` no longer changes a float and its loop never ends). With step rates of 1...255 per
/// second (what the readers accept) an update runs at most 255 steps per constraint; updates of
/// up to a second, everything the reference traces use, are integrated exactly as it does.
enum PhysicsConstraintSolver {
    private static let invPi2: Float = 1 / SpineMath.pi2
    /// The most skeleton time (seconds) one update integrates; the rest of a longer frame is
    /// dropped, as a game's fixed-step loop drops time after a stall.
    static let maxCatchUp: Float = 1

    /// The physics columns of one constraint of one instance.
    struct State {
        let base: UnsafeMutablePointer<Float>
        let stride: Int

        @inline(__always)
        init(_ cols: PoseColumns, row i: Int) {
            base = cols.physics + i
            stride = cols.physicsFieldStride
        }

        @inline(__always)
        subscript(_ field: Int) -> Float {
            get { base[field &* stride] }
            nonmutating set { base[field &* stride] = newValue }
        }
    }

    /// Clears the motion of constraint `k` of one instance; the simulation restarts at the
    /// instance's current time.
    static func reset(_ cols: PoseColumns, _ r: InstanceRows, constraint k: Int) {
        let i = r.physics(k)
        let s = State(cols, row: i)
        s[PhysicsField.remaining] = 0
        s[PhysicsField.lastTime] = cols.time[r.instance]
        cols.physicsReset[i] = 1
        for f in PhysicsField.xOffset...PhysicsField.scaleVelocity { s[f] = 0 }
    }

    /// Makes the next update of every physics constraint of one instance react as if its bone had
    /// moved an additional (x, y) in world space (the reference's physicsTranslate).
    static func translate(_ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, x: Float, y: Float) {
        for k in 0..<rig.physicsCount {
            let s = State(cols, row: r.physics(k))
            s[PhysicsField.ux] -= x
            s[PhysicsField.uy] -= y
            s[PhysicsField.cx] -= x
            s[PhysicsField.cy] -= y
        }
    }

    /// Makes the next update of every physics constraint of one instance react as if its bone had
    /// rotated an additional `degrees` around the world point (x, y) (the reference's physicsRotate).
    static func rotate(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, x: Float, y: Float, degrees: Float
    ) {
        let rr = degrees * SpineMath.degRad
        let (sine, cosine) = Trig.sinCos(rr)
        for k in 0..<rig.physicsCount {
            let s = State(cols, row: r.physics(k))
            let dx = s[PhysicsField.cx] - x
            let dy = s[PhysicsField.cy] - y
            let tx = dx * cosine - dy * sine - dx
            let ty = dx * sine + dy * cosine - dy
            s[PhysicsField.ux] -= tx
            s[PhysicsField.uy] -= ty
            s[PhysicsField.cx] -= tx
            s[PhysicsField.cy] -= ty
        }
    }

    /// Updates physics constraint `k` of one instance: advances its simulation (`update`,
    /// `reset`) or re-applies its offsets (`pose`), then writes its bone's world transform and,
    /// when `recomputesApplied` (`UpdateOp.recomputesApplied`), its applied pose.
    static func update(
        _ cols: PoseColumns, _ rig: RigTables, _ r: InstanceRows, constraint k: Int, physics: Physics,
        recomputesApplied: Bool = true
    ) {
        let i = r.physics(k)
        let s = State(cols, row: i)
        let mix = s[PhysicsField.mix]
        if mix == 0 { return }
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
        let bi = r.bone(boneIndex)
        let l = rig.boneLength[boneIndex]

        switch physics {
        case .none:
            return
        case .reset, .update:
            if physics == .reset { reset(cols, r, constraint: k) }
            let time = cols.time[r.instance]
            let elapsed = time - s[PhysicsField.lastTime]
            let delta = elapsed > 0 ? elapsed : 0
            s[PhysicsField.remaining] += delta
            if s[PhysicsField.remaining] > maxCatchUp { s[PhysicsField.remaining] = maxCatchUp }
            s[PhysicsField.lastTime] = time

            let bx = cols.worldX[bi]
            let by = cols.worldY[bi]
            if cols.physicsReset[i] != 0 {
                cols.physicsReset[i] = 0
                s[PhysicsField.ux] = bx
                s[PhysicsField.uy] = by
            } else {
                var a = s[PhysicsField.remaining]
                let inertia = s[PhysicsField.inertia]
                let t = data[PhysicsTables.step]
                // Damping per step, shared by both integrations (each runs only when a >= t).
                let damping = s[PhysicsField.damping]
                let setup = rig.physicsValues.setupDecay + k &* 2
                let d =
                    a < t ? 0 : damping.bitPattern == setup[0].bitPattern ? setup[1] : pow(damping, 60 * t)
                let f = rig.physicsValues.referenceScale
                var qx = data[PhysicsTables.limit] * delta
                let qy = qx * abs(cols.skeletonScaleX[r.instance])
                qx *= abs(cols.skeletonScaleY[r.instance])
                if x || y {
                    if x {
                        let u = (s[PhysicsField.ux] - bx) * inertia
                        s[PhysicsField.xOffset] += u > qx ? qx : (u < -qx ? -qx : u)
                        s[PhysicsField.ux] = bx
                    }
                    if y {
                        let u = (s[PhysicsField.uy] - by) * inertia
                        s[PhysicsField.yOffset] += u > qy ? qy : (u < -qy ? -qy : u)
                        s[PhysicsField.uy] = by
                    }
                    if a >= t {
                        let m = s[PhysicsField.massInverse] * t
                        let e = s[PhysicsField.strength]
                        let w = s[PhysicsField.wind] * f
                        let g = s[PhysicsField.gravity] * f
                        var xOffset = s[PhysicsField.xOffset]
                        var xVelocity = s[PhysicsField.xVelocity]
                        var yOffset = s[PhysicsField.yOffset]
                        var yVelocity = s[PhysicsField.yVelocity]
                        repeat {
                            if x {
                                xVelocity += (w - xOffset * e) * m
                                xOffset += xVelocity * t
                                xVelocity *= d
                            }
                            if y {
                                yVelocity -= (g + yOffset * e) * m
                                yOffset += yVelocity * t
                                yVelocity *= d
                            }
                            a -= t
                        } while a >= t
                        s[PhysicsField.xOffset] = xOffset
                        s[PhysicsField.xVelocity] = xVelocity
                        s[PhysicsField.yOffset] = yOffset
                        s[PhysicsField.yVelocity] = yVelocity
                    }
                    if x { cols.worldX[bi] += s[PhysicsField.xOffset] * mix * dataX }
                    if y { cols.worldY[bi] += s[PhysicsField.yOffset] * mix * dataY }
                }

                if rotateOrShearX || scaleX {
                    let ca = ArcTangent.atan2(cols.c[bi], cols.a[bi])
                    var c: Float
                    var sn: Float
                    var mr: Float = 0
                    var dx = s[PhysicsField.cx] - cols.worldX[bi]
                    var dy = s[PhysicsField.cy] - cols.worldY[bi]
                    if dx > qx {
                        dx = qx
                    } else if dx < -qx {
                        dx = -qx
                    }
                    if dy > qy {
                        dy = qy
                    } else if dy < -qy {
                        dy = -qy
                    }
                    if rotateOrShearX {
                        mr = (dataRotate + dataShearX) * mix
                        var rr =
                            ArcTangent.atan2(dy + s[PhysicsField.ty], dx + s[PhysicsField.tx]) - ca
                            - s[PhysicsField.rotateOffset] * mr
                        s[PhysicsField.rotateOffset] +=
                            (rr - Foundation.ceil(rr * invPi2 - 0.5) * SpineMath.pi2) * inertia
                        rr = s[PhysicsField.rotateOffset] * mr + ca
                        (sn, c) = Trig.sinCos(rr)
                        if scaleX {
                            rr = l * worldScaleX(cols, bi)
                            if rr > 0 { s[PhysicsField.scaleOffset] += (dx * c + dy * sn) * inertia / rr }
                        }
                    } else {
                        (sn, c) = Trig.sinCos(ca)
                        let rr = l * worldScaleX(cols, bi)
                        if rr > 0 { s[PhysicsField.scaleOffset] += (dx * c + dy * sn) * inertia / rr }
                    }
                    a = s[PhysicsField.remaining]
                    if a >= t {
                        let m = s[PhysicsField.massInverse] * t
                        let e = s[PhysicsField.strength]
                        let w = s[PhysicsField.wind]
                        let g = s[PhysicsField.gravity]
                        let h = l / f
                        var scaleOffset = s[PhysicsField.scaleOffset]
                        var scaleVelocity = s[PhysicsField.scaleVelocity]
                        var rotateOffset = s[PhysicsField.rotateOffset]
                        var rotateVelocity = s[PhysicsField.rotateVelocity]
                        while true {
                            a -= t
                            if scaleX {
                                scaleVelocity += (w * c - g * sn - scaleOffset * e) * m
                                scaleOffset += scaleVelocity * t
                                scaleVelocity *= d
                            }
                            if rotateOrShearX {
                                rotateVelocity -= ((w * sn + g * c) * h + rotateOffset * e) * m
                                rotateOffset += rotateVelocity * t
                                rotateVelocity *= d
                                if a < t { break }
                                let rr = rotateOffset * mr + ca
                                (sn, c) = Trig.sinCos(rr)
                            } else if a < t {
                                break
                            }
                        }
                        s[PhysicsField.scaleOffset] = scaleOffset
                        s[PhysicsField.scaleVelocity] = scaleVelocity
                        s[PhysicsField.rotateOffset] = rotateOffset
                        s[PhysicsField.rotateVelocity] = rotateVelocity
                    }
                }
                s[PhysicsField.remaining] = a
            }
            s[PhysicsField.cx] = cols.worldX[bi]
            s[PhysicsField.cy] = cols.worldY[bi]
        case .pose:
            if x { cols.worldX[bi] += s[PhysicsField.xOffset] * mix * dataX }
            if y { cols.worldY[bi] += s[PhysicsField.yOffset] * mix * dataY }
        }

        if rotateOrShearX {
            var o = s[PhysicsField.rotateOffset] * mix
            if dataShearX > 0 {
                var rr: Float = 0
                if dataRotate > 0 {
                    rr = o * dataRotate
                    let (sine, cosine) = Trig.sinCos(rr)
                    let b = cols.b[bi]
                    let d = cols.d[bi]
                    cols.b[bi] = cosine * b - sine * d
                    cols.d[bi] = sine * b + cosine * d
                }
                rr += o * dataShearX
                let (sine, cosine) = Trig.sinCos(rr)
                let a = cols.a[bi]
                let c = cols.c[bi]
                cols.a[bi] = cosine * a - sine * c
                cols.c[bi] = sine * a + cosine * c
            } else {
                o *= dataRotate
                let (sine, cosine) = Trig.sinCos(o)
                let a = cols.a[bi]
                let c = cols.c[bi]
                cols.a[bi] = cosine * a - sine * c
                cols.c[bi] = sine * a + cosine * c
                let b = cols.b[bi]
                let d = cols.d[bi]
                cols.b[bi] = cosine * b - sine * d
                cols.d[bi] = sine * b + cosine * d
            }
        }
        if scaleX {
            let sc = 1 + s[PhysicsField.scaleOffset] * mix * dataScaleX
            cols.a[bi] *= sc
            cols.c[bi] *= sc
        }
        if physics != .pose {
            s[PhysicsField.tx] = l * cols.a[bi]
            s[PhysicsField.ty] = l * cols.c[bi]
        }
        if recomputesApplied { BoneTransform.updateApplied(cols, rig, r, bone: boneIndex) }
    }

    @inline(__always)
    private static func worldScaleX(_ cols: PoseColumns, _ bi: Int) -> Float {
        (cols.a[bi] * cols.a[bi] + cols.c[bi] * cols.c[bi]).squareRoot()
    }

    /// `a` raised to `b`, evaluated in double and rounded to float as the reference does.
    @inline(__always)
    static func pow(_ a: Float, _ b: Float) -> Float {
        Float(Foundation.pow(Double(a), Double(b)))
    }
}

extension World {
    /// Recomputes one instance's world transforms now (outside a frame) with the given physics
    /// mode: `.update` advances the simulation by the instance time passed since its last
    /// update, `.pose` re-applies the last offsets, `.reset` restarts the simulation, `.none`
    /// leaves physics constraints out.
    public func updateWorldTransforms(_ entity: Entity, physics: Physics) throws {
        let (batch, row) = try locate(entity)
        batch.updateWorldTransforms(row: row, physics: physics)
    }

    /// Makes the instance's physics react at its next update as if its bones had moved an
    /// additional (x, y) in world space. A teleport by (dx, dy) that should not swing anything is
    /// cancelled with `physicsTranslate(entity, x: -dx, y: -dy)`.
    public func physicsTranslate(_ entity: Entity, x: Float, y: Float) throws {
        let (batch, row) = try locate(entity)
        let cols = batch.columns()
        PhysicsConstraintSolver.translate(PoseColumns(cols), batch.rig.tables, cols.rows(row), x: x, y: y)
    }

    /// Makes the instance's physics react at its next update as if its bones had rotated an
    /// additional `degrees` around the world point (x, y); the negative of an instant rotation
    /// cancels its swing.
    public func physicsRotate(_ entity: Entity, x: Float, y: Float, degrees: Float) throws {
        let (batch, row) = try locate(entity)
        let cols = batch.columns()
        PhysicsConstraintSolver.rotate(
            PoseColumns(cols), batch.rig.tables, cols.rows(row), x: x, y: y, degrees: degrees)
    }

    /// Clears the motion of every physics constraint of the instance; each restarts from the
    /// pose at its next update.
    public func resetPhysics(_ entity: Entity) throws {
        let (batch, row) = try locate(entity)
        let cols = batch.columns()
        let r = cols.rows(row)
        for k in 0..<batch.rig.tables.physicsCount {
            PhysicsConstraintSolver.reset(PoseColumns(cols), r, constraint: k)
        }
    }
}
