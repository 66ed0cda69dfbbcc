/// Splits a simple polygon into convex parts, the way the reference does it for clipping
/// attachments: an ear-clipping triangulation, then consecutive triangles that share their first
/// vertex are merged into convex fans, then each fan may absorb one neighbouring triangle across
/// its closing edge when the result stays convex.
///
/// Polygons are flat `x, y` float pairs, clockwise (y up). The decomposer keeps its buffers between
/// calls: once they have grown to the largest polygon seen, decomposing allocates nothing.
public struct ConvexDecomposer: Sendable {
    /// The last triangulation: three vertex indices per triangle.
    public private(set) var triangles: [Int32] = []
    /// The last decomposition: the parts' vertices, flat `x, y` pairs, part after part.
    public private(set) var partVertices: [Float] = []
    /// The end (exclusive, in floats) of each part in `partVertices`; part k starts where part k-1 ends.
    public private(set) var partEnds: [Int32] = []

    // Ear clipping: the polygon's vertex indices still in play and whether each is a reflex vertex.
    private var remaining: [Int32] = []
    private var reflex: [Bool] = []
    // Fans: vertex indices, flat; fan k spans fanStarts[k] ..< fanStarts[k] + fanCounts[k].
    private var fanIndices: [Int32] = []
    private var fanStarts: [Int32] = []
    private var fanCounts: [Int32] = []
    // Vertices a fan absorbed in the merge step, in absorption order: (fan, vertex index).
    private var absorbedFan: [Int32] = []
    private var absorbedVertex: [Int32] = []
    // Whether fan k is still a part (false once a neighbouring fan absorbed it).
    private var fanAlive: [Bool] = []

    /// A decomposer with room for small polygons; its buffers grow once and are reused.
    public init() {
        let capacity = 32
        triangles.reserveCapacity(capacity * 3)
        partVertices.reserveCapacity(capacity * 2)
        partEnds.reserveCapacity(capacity)
        remaining.reserveCapacity(capacity)
        reflex.reserveCapacity(capacity)
        fanIndices.reserveCapacity(capacity * 3)
        fanStarts.reserveCapacity(capacity)
        fanCounts.reserveCapacity(capacity)
        fanAlive.reserveCapacity(capacity)
    }

    /// The number of parts of the last decomposition.
    public var partCount: Int { partEnds.count }

    /// The float range of part `k` in `partVertices`.
    public func partRange(_ k: Int) -> Range<Int> {
        let start = k == 0 ? 0 : Int(partEnds[k - 1])
        return start..<Int(partEnds[k])
    }

    /// Triangulates then decomposes `polygon` (clockwise, `x, y` pairs); the result is in
    /// `partVertices` / `partEnds`. Fewer than 3 vertices give no parts.
    ///
    /// # Safety
    /// `polygon` is read during the call only; it must hold `x, y` pairs.
    public mutating func decompose(_ polygon: UnsafeBufferPointer<Float>) {
        triangulate(polygon)
        mergeIntoConvexParts(polygon)
    }

    // MARK: Triangulation

    /// Ear-clipping triangulation of a clockwise polygon into `triangles`.
    ///
    /// # Safety
    /// `polygon` is read during the call only; it must hold `x, y` pairs.
    public mutating func triangulate(_ polygon: UnsafeBufferPointer<Float>) {
        triangles.removeAll(keepingCapacity: true)
        remaining.removeAll(keepingCapacity: true)
        reflex.removeAll(keepingCapacity: true)
        var count = polygon.count / 2
        guard count >= 3 else { return }
        for i in 0..<count { remaining.append(Int32(i)) }
        for i in 0..<count { reflex.append(isReflex(i, count, polygon)) }

        while count > 3 {
            let ear = findEar(count, polygon)
            triangles.append(remaining[(count + ear - 1) % count])
            triangles.append(remaining[ear])
            triangles.append(remaining[(ear + 1) % count])
            remaining.remove(at: ear)
            reflex.remove(at: ear)
            count -= 1
            let before = (count + ear - 1) % count
            let after = ear == count ? 0 : ear
            reflex[before] = isReflex(before, count, polygon)
            reflex[after] = isReflex(after, count, polygon)
        }
        triangles.append(remaining[2])
        triangles.append(remaining[0])
        triangles.append(remaining[1])
    }

    /// The position in `remaining` of the next ear to cut: the first convex vertex (walking from 0)
    /// whose triangle holds no reflex vertex; when there is none, the last convex vertex at or
    /// before the end, else vertex 0.
    private func findEar(_ count: Int, _ polygon: UnsafeBufferPointer<Float>) -> Int {
        var before = count - 1
        var tip = 0
        var after = 1
        while true {
            if !reflex[tip] && !holdsReflexVertex(before, tip, after, count, polygon) { return tip }
            if after == 0 {
                while tip > 0 && reflex[tip] { tip -= 1 }
                return tip
            }
            before = tip
            tip = after
            after = (after + 1) % count
        }
    }

    /// Whether any reflex vertex other than the three corners lies in triangle (before, tip, after).
    private func holdsReflexVertex(
        _ before: Int, _ tip: Int, _ after: Int, _ count: Int, _ polygon: UnsafeBufferPointer<Float>
    ) -> Bool {
        let a = point(remaining[before], polygon)
        let b = point(remaining[tip], polygon)
        let c = point(remaining[after], polygon)
        var k = (after + 1) % count
        while k != before {
            if reflex[k] {
                let p = point(remaining[k], polygon)
                if Self.turnsClockwise(c, a, p) && Self.turnsClockwise(a, b, p) && Self.turnsClockwise(b, c, p) {
                    return true
                }
            }
            k = (k + 1) % count
        }
        return false
    }

    private func isReflex(_ k: Int, _ count: Int, _ polygon: UnsafeBufferPointer<Float>) -> Bool {
        let a = point(remaining[(count + k - 1) % count], polygon)
        let b = point(remaining[k], polygon)
        let c = point(remaining[(k + 1) % count], polygon)
        return !Self.turnsClockwise(a, b, c)
    }

    @inline(__always)
    private func point(_ index: Int32, _ polygon: UnsafeBufferPointer<Float>) -> SIMD2<Float> {
        SIMD2(polygon[Int(index) * 2], polygon[Int(index) * 2 + 1])
    }

    /// a -> b -> c turns clockwise or goes straight (the reference's float expression, y up).
    @inline(__always)
    static func turnsClockwise(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Bool {
        a.x * (c.y - b.y) + b.x * (a.y - c.y) + c.x * (b.y - a.y) >= 0
    }

    /// +1 when a -> b -> c turns counter-clockwise or goes straight, -1 otherwise.
    @inline(__always)
    static func winding(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Int {
        let dx = b.x - a.x
        let dy = b.y - a.y
        return c.x * dy - c.y * dx + dx * a.y - a.x * dy >= 0 ? 1 : -1
    }

    // MARK: Merging triangles into convex parts

    private mutating func mergeIntoConvexParts(_ polygon: UnsafeBufferPointer<Float>) {
        fanIndices.removeAll(keepingCapacity: true)
        fanStarts.removeAll(keepingCapacity: true)
        fanCounts.removeAll(keepingCapacity: true)
        fanAlive.removeAll(keepingCapacity: true)
        absorbedFan.removeAll(keepingCapacity: true)
        absorbedVertex.removeAll(keepingCapacity: true)
        partVertices.removeAll(keepingCapacity: true)
        partEnds.removeAll(keepingCapacity: true)

        // 1. Consecutive triangles with the same first vertex extend a fan while it stays convex.
        var fanBase: Int32 = -1
        var fanWinding = 0
        var t = 0
        while t + 2 < triangles.count {
            let i1 = triangles[t]
            let i3 = triangles[t + 2]
            t += 3
            if i1 == fanBase, let fan = fanStarts.indices.last {
                let start = Int(fanStarts[fan])
                let end = start + Int(fanCounts[fan])
                let p3 = point(i3, polygon)
                let w1 = Self.winding(
                    point(fanIndices[end - 2], polygon), point(fanIndices[end - 1], polygon), p3)
                let w2 = Self.winding(p3, point(fanIndices[start], polygon), point(fanIndices[start + 1], polygon))
                if w1 == fanWinding && w2 == fanWinding {
                    fanIndices.append(i3)
                    fanCounts[fan] += 1
                    continue
                }
            }
            fanStarts.append(Int32(fanIndices.count))
            fanCounts.append(3)
            fanAlive.append(true)
            fanIndices.append(i1)
            fanIndices.append(triangles[t - 2])
            fanIndices.append(i3)
            fanBase = i1
            fanWinding = Self.winding(point(i1, polygon), point(triangles[t - 2], polygon), point(i3, polygon))
        }

        // 2. Each fan may absorb a lone triangle that starts on its closing edge (first vertex,
        // last vertex) when the corners on both sides of the new vertex stay convex.
        let fanCount = fanStarts.count
        for fan in 0..<fanCount where fanAlive[fan] {
            let start = Int(fanStarts[fan])
            let end = start + Int(fanCounts[fan])
            let firstIndex = fanIndices[start]
            let lastIndex = fanIndices[end - 1]
            let first = point(firstIndex, polygon)
            let second = point(fanIndices[start + 1], polygon)
            var prevPrev = point(fanIndices[end - 2], polygon)
            var prev = point(lastIndex, polygon)
            let closingWinding = Self.winding(prevPrev, prev, first)
            var other = 0
            while other < fanCount {
                defer { other += 1 }
                guard other != fan, fanAlive[other], fanCounts[other] == 3, !hasAbsorbed(other) else { continue }
                let otherStart = Int(fanStarts[other])
                guard fanIndices[otherStart] == firstIndex, fanIndices[otherStart + 1] == lastIndex else { continue }
                let newIndex = fanIndices[otherStart + 2]
                let p3 = point(newIndex, polygon)
                if Self.winding(prevPrev, prev, p3) == closingWinding
                    && Self.winding(p3, first, second) == closingWinding
                {
                    fanAlive[other] = false
                    absorbedFan.append(Int32(fan))
                    absorbedVertex.append(newIndex)
                    prevPrev = prev
                    prev = p3
                    other = 0  // the reference restarts the scan here (and then skips fan 0)
                }
            }
        }

        // 3. Write the surviving parts out as coordinates.
        for fan in 0..<fanCount where fanAlive[fan] {
            let start = Int(fanStarts[fan])
            for k in start..<(start + Int(fanCounts[fan])) { appendPartVertex(fanIndices[k], polygon) }
            for k in absorbedFan.indices where absorbedFan[k] == Int32(fan) {
                appendPartVertex(absorbedVertex[k], polygon)
            }
            partEnds.append(Int32(partVertices.count))
        }
    }

    private func hasAbsorbed(_ fan: Int) -> Bool {
        absorbedFan.contains(Int32(fan))
    }

    private mutating func appendPartVertex(_ index: Int32, _ polygon: UnsafeBufferPointer<Float>) {
        partVertices.append(polygon[Int(index) * 2])
        partVertices.append(polygon[Int(index) * 2 + 1])
    }
}
