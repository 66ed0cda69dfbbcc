import BoneworkFormat

/// Path constraints in `PoseLanes`: each of the four instances walks its own path with the
/// scalar code (`PathConstraintSolver.prepare`: spaces, lengths and positions, which differ per
/// instance), then the chain's bones are placed, rotated and given their applied poses for the
/// four lanes at once, bone by bone: the part with the arc tangents, sines and cosines, about
/// two thirds of a chain's instructions when done one by one. Per lane every float operation is
/// the scalar one in the same order, so the results are bit-identical to
/// `PathConstraintSolver.solve` (`PoseLaneTests` replays every reference trace in lanes).
extension PoseLanes {
    /// Path constraint `k` for the four lanes when it moves bones in all of them and `scratch`
    /// (four solves' floats, `PoseScratch`) is given; the bones' applied poses are recomputed
    /// when `recomputesApplied`. Returns false (nothing done) otherwise.
    @inline(__always)
    static func solvePath(
        _ cols: PoseColumns, _ rig: RigTables, _ r0: InstanceRows, _ r1: InstanceRows, _ r2: InstanceRows,
        _ r3: InstanceRows, constraint k: Int, scratch: UnsafeMutablePointer<Float>?, recomputesApplied: Bool
    ) -> Bool {
        guard let scratch else { return false }
        let floats = rig.paths.scratchFloats
        typealias Solver = PathConstraintSolver
        // A lane whose constraint does nothing sends the four through the scalar solver; the
        // chains prepared before it are dropped (preparing writes only scratch).
        guard let c0 = Solver.prepare(cols, rig, r0, constraint: k, scratch: scratch),
            let c1 = Solver.prepare(cols, rig, r1, constraint: k, scratch: scratch + floats),
            let c2 = Solver.prepare(cols, rig, r2, constraint: k, scratch: scratch + 2 &* floats),
            let c3 = Solver.prepare(cols, rig, r3, constraint: k, scratch: scratch + 3 &* floats)
        else { return false }
        place(
            PathChains(c0, c1, c2, c3), cols, rig, (r0, r1, r2, r3), constraint: k, recomputesApplied: recomputesApplied
        )
        return true
    }

    /// `PathConstraintSolver.place` for four lanes: each bone is moved, scaled and rotated in
    /// all lanes, then (when `recomputesApplied`) its applied pose is recomputed (in lanes when
    /// it has a parent and inherits normally in every lane, else lane by lane), before the next
    /// bone.
    private static func place(
        _ chains: PathChains, _ cols: PoseColumns, _ rig: RigTables,
        _ rows: (InstanceRows, InstanceRows, InstanceRows, InstanceRows), constraint k: Int, recomputesApplied: Bool
    ) {
        let tables = rig.paths
        let bones = tables.bones + Int(tables.boneStart[k])
        let boneCount = Int(tables.boneCount[k])
        let epsilon = F(repeating: PathConstraintSolver.epsilon)
        let pi = F(repeating: SpineMath.pi)
        let minusPi = F(repeating: -SpineMath.pi)
        let pi2 = F(repeating: SpineMath.pi2)
        let first = chains.c0
        let (tangents, scale, tip) = (first.tangents, first.scale, first.tip)
        let mixRotate = chains.gather(\.mixRotate)
        let mixX = chains.gather(\.mixX)
        let mixY = chains.gather(\.mixY)
        let offsetRotation = chains.gather(\.offsetRotation)
        let rotating = mixRotate .> F(repeating: 0)
        let anyRotating = any(rotating)
        var boneX = chains.position(0)
        var boneY = chains.position(1)
        let r0 = rows.0
        var p = 3
        for n in 0..<boneCount {
            let b = Int(bones[n])
            let i = r0.bone(b)
            let worldX = load(cols.worldX + i)
            let worldY = load(cols.worldY + i)
            store(worldX + (boneX - worldX) * mixX, cols.worldX + i)
            store(worldY + (boneY - worldY) * mixY, cols.worldY + i)
            let x = chains.position(p)
            let y = chains.position(p &+ 1)
            let dx = x - boneX
            let dy = y - boneY
            var a = load(cols.a + i)
            var c = load(cols.c + i)
            if scale {
                let length = chains.length(n)
                let sc = ((dx * dx + dy * dy).squareRoot() / length - 1) * mixRotate + 1
                let scaled = length .>= epsilon
                a.replace(with: a * sc, where: scaled)
                c.replace(with: c * sc, where: scaled)
                store(a, cols.a + i)
                store(c, cols.c + i)
            }
            boneX = x
            boneY = y
            if anyRotating {
                let bb = load(cols.b + i)
                let d = load(cols.d + i)
                var rr: F
                if tangents {
                    rr = chains.position(p &- 1)
                } else {
                    let spaceZero = chains.space(n &+ 1) .< epsilon
                    rr = chains.position(p &+ 2)
                    if !all(spaceZero) { rr.replace(with: LaneArcTangent.atan2(dy, dx), where: .!spaceZero) }
                }
                rr -= LaneArcTangent.atan2(c, a)
                if tip {
                    let (sine, cosine) = LaneTrig.sinCos(rr)
                    let length = F(repeating: rig.boneLength[b])
                    boneX.replace(with: boneX + (length * (cosine * a - sine * c) - dx) * mixRotate, where: rotating)
                    boneY.replace(with: boneY + (length * (sine * a + cosine * c) - dy) * mixRotate, where: rotating)
                } else {
                    rr += offsetRotation
                }
                let over = rr .> pi
                let under = (rr .< minusPi) .& .!over
                rr.replace(with: rr - pi2, where: over)
                rr.replace(with: rr + pi2, where: under)
                rr *= mixRotate
                let (sine, cosine) = LaneTrig.sinCos(rr)
                var na = cosine * a - sine * c
                var nb = cosine * bb - sine * d
                var nc = sine * a + cosine * c
                var nd = sine * bb + cosine * d
                na.replace(with: a, where: .!rotating)
                nb.replace(with: bb, where: .!rotating)
                nc.replace(with: c, where: .!rotating)
                nd.replace(with: d, where: .!rotating)
                store(na, cols.a + i)
                store(nb, cols.b + i)
                store(nc, cols.c + i)
                store(nd, cols.d + i)
            }
            if recomputesApplied { updateAppliedAnyInherit(cols, rig, r0, rows.1, rows.2, rows.3, bone: b) }
            p &+= 3
        }
    }
}

/// The four lanes' prepared chains (`PathConstraintSolver.prepare`), read across lanes.
struct PathChains {
    var c0: PathChain
    var c1: PathChain
    var c2: PathChain
    var c3: PathChain

    init(_ c0: PathChain, _ c1: PathChain, _ c2: PathChain, _ c3: PathChain) {
        (self.c0, self.c1, self.c2, self.c3) = (c0, c1, c2, c3)
    }

    @inline(__always)
    func gather(_ field: KeyPath<PathChain, Float>) -> SIMD4<Float> {
        SIMD4(c0[keyPath: field], c1[keyPath: field], c2[keyPath: field], c3[keyPath: field])
    }

    /// Float `i` of the lanes' positions (x, y, tangent angle per space).
    @inline(__always)
    func position(_ i: Int) -> SIMD4<Float> {
        SIMD4(c0.positions[i], c1.positions[i], c2.positions[i], c3.positions[i])
    }

    @inline(__always)
    func length(_ i: Int) -> SIMD4<Float> {
        SIMD4(c0.lengths[i], c1.lengths[i], c2.lengths[i], c3.lengths[i])
    }

    @inline(__always)
    func space(_ i: Int) -> SIMD4<Float> {
        SIMD4(c0.spaces[i], c1.spaces[i], c2.spaces[i], c3.spaces[i])
    }
}
