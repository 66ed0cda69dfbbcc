/// One bone's world transform in SIMD lanes, one instance per lane: what the lane steps of the
/// pose system (`PoseLanes`, 4 lanes) and the vertex system (`LaneBones`, 4 or 8) read.
struct LaneWorld<V: SIMD> where V.Scalar == Float {
    let a: V
    let b: V
    let c: V
    let d: V
    let x: V
    let y: V

    /// A point of the bone's space in world space, per lane (a·px + b·py + x, c·px + d·py + y).
    @inline(__always)
    func point(_ px: V, _ py: V) -> (x: V, y: V) {
        (a * px + b * py + x, c * px + d * py + y)
    }
}

extension LaneWorld where V == SIMD4<Float> {
    /// The lanes of element `i` (the group's first row) of `cols`' world transform columns.
    @inline(__always)
    init(_ cols: PoseColumns, _ i: Int) {
        self.init(
            a: PoseLanes.load(cols.a + i), b: PoseLanes.load(cols.b + i), c: PoseLanes.load(cols.c + i),
            d: PoseLanes.load(cols.d + i), x: PoseLanes.load(cols.worldX + i), y: PoseLanes.load(cols.worldY + i))
    }
}
