/// One bone's world transform in four SIMD lanes, one instance per lane: what the lane steps of
/// the pose system (`PoseLanes`) and the vertex system (`LaneBones`) read.
struct LaneWorld {
    let a: SIMD4<Float>
    let b: SIMD4<Float>
    let c: SIMD4<Float>
    let d: SIMD4<Float>
    let x: SIMD4<Float>
    let y: SIMD4<Float>

    /// A point of the bone's space in world space, per lane (a·px + b·py + x, c·px + d·py + y).
    @inline(__always)
    func point(_ px: SIMD4<Float>, _ py: SIMD4<Float>) -> (x: SIMD4<Float>, y: SIMD4<Float>) {
        (a * px + b * py + x, c * px + d * py + y)
    }
}

extension LaneWorld {
    /// The lanes of element `i` (the group's first row) of `cols`' world transform columns.
    @inline(__always)
    init(_ cols: BatchColumns, _ i: Int) {
        self.init(
            a: PoseLanes.load(cols.a + i), b: PoseLanes.load(cols.b + i), c: PoseLanes.load(cols.c + i),
            d: PoseLanes.load(cols.d + i), x: PoseLanes.load(cols.worldX + i), y: PoseLanes.load(cols.worldY + i))
    }
}
