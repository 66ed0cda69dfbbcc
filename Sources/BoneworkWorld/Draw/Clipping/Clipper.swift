/// Clips drawn triangles against a clipping attachment's polygon while walking a draw order.
///
/// `clipStart` takes the clip polygon in world space, makes it clockwise and splits it into convex
/// parts. `clipTriangles` then keeps a triangle whole when it lies inside one part, and otherwise
/// replaces it by the fan of its intersection with every part it touches, with texture coordinates
/// interpolated barycentrically. The clip lasts until `clipEnd(slot:)` reaches the clipping
/// attachment's end slot (or `clipEnd()` is called after the last slot).
///
/// The clipper keeps all its buffers: once they have grown to the largest polygon and mesh seen,
/// clipping allocates nothing.
public struct Clipper: Sendable {
    /// Whether a clip is active (between `clipStart` and the matching `clipEnd`).
    public private(set) var isClipping = false
    /// The slot index that ends the active clip; -1 when it runs to the end of the draw order.
    public private(set) var endSlot: Int32 = -1

    /// Output of the last `clipTriangles`: world positions, `x, y` per vertex.
    public private(set) var clippedVertices: [Float] = []
    /// Output of the last `clipTriangles`: texture coordinates, `u, v` per vertex.
    public private(set) var clippedUVs: [Float] = []
    /// Output of the last `clipTriangles`: three indices into the clipped vertices per triangle.
    public private(set) var clippedTriangles: [UInt32] = []

    /// The active clip polygon, clockwise, in world space.
    private var polygon: [Float] = []
    private var decomposer = ConvexDecomposer()
    /// The convex parts, each clockwise and closed (its first vertex repeated at its end).
    public private(set) var parts: [Float] = []
    /// Where each part ends (exclusive, in floats) in `parts`.
    public private(set) var partEnds: [Int32] = []
    // Polygon clipping: two ping-pong buffers and the result.
    private var input: [Float] = []
    private var output: [Float] = []
    private var clipped: [Float] = []

    /// A clipper with room for small polygons; its buffers grow once and are reused.
    public init() {
        let capacity = 128
        clippedVertices.reserveCapacity(capacity)
        clippedUVs.reserveCapacity(capacity)
        clippedTriangles.reserveCapacity(capacity)
        polygon.reserveCapacity(capacity)
        parts.reserveCapacity(capacity)
        partEnds.reserveCapacity(capacity / 4)
        input.reserveCapacity(capacity)
        output.reserveCapacity(capacity)
        clipped.reserveCapacity(capacity)
    }

    /// The number of convex parts of the active clip.
    public var partCount: Int { partEnds.count }

    // MARK: Starting and ending clips

    /// Starts clipping with `worldPolygon` (`x, y` pairs) until the slot `endSlot` has been drawn
    /// (-1: until `clipEnd()`). Ignored while a clip is already active. Returns the number of
    /// convex parts (0 when the polygon has fewer than 3 vertices: everything is clipped away).
    ///
    /// # Safety
    /// `worldPolygon` is copied during the call; it must hold `x, y` pairs.
    @discardableResult
    public mutating func clipStart(worldPolygon: UnsafeBufferPointer<Float>, endSlot: Int32) -> Int {
        guard !isClipping else { return 0 }
        isClipping = true
        self.endSlot = endSlot
        polygon.removeAll(keepingCapacity: true)
        polygon.append(contentsOf: worldPolygon.prefix(worldPolygon.count & ~1))
        parts.removeAll(keepingCapacity: true)
        partEnds.removeAll(keepingCapacity: true)
        guard polygon.count >= 6 else { return 0 }
        Self.makeClockwise(&polygon, 0..<polygon.count)
        polygon.withUnsafeBufferPointer { decomposer.decompose($0) }
        for k in 0..<decomposer.partCount {
            let range = decomposer.partRange(k)
            let start = parts.count
            for i in range { parts.append(decomposer.partVertices[i]) }
            Self.makeClockwise(&parts, start..<parts.count)
            parts.append(parts[start])
            parts.append(parts[start + 1])
            partEnds.append(Int32(parts.count))
        }
        return partEnds.count
    }

    /// Array convenience for `clipStart(worldPolygon:endSlot:)`.
    @discardableResult
    public mutating func clipStart(worldPolygon: [Float], endSlot: Int32) -> Int {
        worldPolygon.withUnsafeBufferPointer { clipStart(worldPolygon: $0, endSlot: endSlot) }
    }

    /// Ends the active clip when `slot` is its end slot.
    public mutating func clipEnd(slot: Int32) {
        if isClipping && endSlot == slot && slot >= 0 { clipEnd() }
    }

    /// Ends the active clip, if any.
    public mutating func clipEnd() {
        guard isClipping else { return }
        isClipping = false
        endSlot = -1
        polygon.removeAll(keepingCapacity: true)
        parts.removeAll(keepingCapacity: true)
        partEnds.removeAll(keepingCapacity: true)
        clippedVertices.removeAll(keepingCapacity: true)
        clippedUVs.removeAll(keepingCapacity: true)
        clippedTriangles.removeAll(keepingCapacity: true)
    }

    // MARK: Clipping triangles

    /// Clips `triangles` (three vertex indices each) of the mesh `vertices` (`x, y` per vertex) with
    /// texture coordinates `uvs` (`u, v` per vertex) against the active clip; the result replaces
    /// `clippedVertices`, `clippedUVs` and `clippedTriangles`. Triangles naming a vertex that is not
    /// there are dropped.
    public mutating func clipTriangles(
        vertices: UnsafeBufferPointer<Float>, uvs: UnsafeBufferPointer<Float>, triangles: UnsafeBufferPointer<UInt16>
    ) {
        clippedVertices.removeAll(keepingCapacity: true)
        clippedUVs.removeAll(keepingCapacity: true)
        clippedTriangles.removeAll(keepingCapacity: true)
        let vertexCount = min(vertices.count, uvs.count) / 2
        var t = 0
        while t + 2 < triangles.count {
            let i1 = Int(triangles[t])
            let i2 = Int(triangles[t + 1])
            let i3 = Int(triangles[t + 2])
            t += 3
            guard i1 < vertexCount, i2 < vertexCount, i3 < vertexCount else { continue }
            let p1 = SIMD2(vertices[i1 * 2], vertices[i1 * 2 + 1])
            let p2 = SIMD2(vertices[i2 * 2], vertices[i2 * 2 + 1])
            let p3 = SIMD2(vertices[i3 * 2], vertices[i3 * 2 + 1])
            let uv1 = SIMD2(uvs[i1 * 2], uvs[i1 * 2 + 1])
            let uv2 = SIMD2(uvs[i2 * 2], uvs[i2 * 2 + 1])
            let uv3 = SIMD2(uvs[i3 * 2], uvs[i3 * 2 + 1])
            var partStart = 0
            for partEnd in partEnds {
                defer { partStart = Int(partEnd) }
                let cut = clipTriangle(p1, p2, p3, partStart, Int(partEnd))
                if !cut {
                    // Inside this part: kept whole, and no other part is tried.
                    appendWholeTriangle(p1, p2, p3, uv1, uv2, uv3)
                    break
                }
                // Fewer than 3 points: the triangle only touches this part.
                if clipped.count >= 6 { appendClippedFan(p1, p2, p3, uv1, uv2, uv3) }
            }
        }
    }

    /// Array convenience for `clipTriangles(vertices:uvs:triangles:)`.
    public mutating func clipTriangles(vertices: [Float], uvs: [Float], triangles: [UInt16]) {
        vertices.withUnsafeBufferPointer { v in
            uvs.withUnsafeBufferPointer { uv in
                triangles.withUnsafeBufferPointer { clipTriangles(vertices: v, uvs: uv, triangles: $0) }
            }
        }
    }

    private mutating func appendWholeTriangle(
        _ p1: SIMD2<Float>, _ p2: SIMD2<Float>, _ p3: SIMD2<Float>,
        _ uv1: SIMD2<Float>, _ uv2: SIMD2<Float>, _ uv3: SIMD2<Float>
    ) {
        let base = UInt32(truncatingIfNeeded: clippedVertices.count / 2)
        clippedVertices.append(p1.x)
        clippedVertices.append(p1.y)
        clippedVertices.append(p2.x)
        clippedVertices.append(p2.y)
        clippedVertices.append(p3.x)
        clippedVertices.append(p3.y)
        clippedUVs.append(uv1.x)
        clippedUVs.append(uv1.y)
        clippedUVs.append(uv2.x)
        clippedUVs.append(uv2.y)
        clippedUVs.append(uv3.x)
        clippedUVs.append(uv3.y)
        clippedTriangles.append(base)
        clippedTriangles.append(base &+ 1)
        clippedTriangles.append(base &+ 2)
    }

    /// Appends the polygon in `clipped` as a fan, with texture coordinates interpolated from the
    /// triangle (p1, p2, p3).
    private mutating func appendClippedFan(
        _ p1: SIMD2<Float>, _ p2: SIMD2<Float>, _ p3: SIMD2<Float>,
        _ uv1: SIMD2<Float>, _ uv2: SIMD2<Float>, _ uv3: SIMD2<Float>
    ) {
        let d0 = p2.y - p3.y
        let d1 = p3.x - p2.x
        let d2 = p1.x - p3.x
        let d4 = p3.y - p1.y
        let inverse = 1 / (d0 * d2 + d1 * (p1.y - p3.y))
        let base = UInt32(truncatingIfNeeded: clippedVertices.count / 2)
        let count = clipped.count / 2
        for k in 0..<count {
            let x = clipped[k * 2]
            let y = clipped[k * 2 + 1]
            clippedVertices.append(x)
            clippedVertices.append(y)
            let c0 = x - p3.x
            let c1 = y - p3.y
            let a = (d0 * c0 + d1 * c1) * inverse
            let b = (d4 * c0 + d2 * c1) * inverse
            let c = 1 - a - b
            clippedUVs.append(uv1.x * a + uv2.x * b + uv3.x * c)
            clippedUVs.append(uv1.y * a + uv2.y * b + uv3.y * c)
        }
        for k in 1..<(count - 1) {
            clippedTriangles.append(base)
            clippedTriangles.append(base &+ UInt32(k))
            clippedTriangles.append(base &+ UInt32(k + 1))
        }
    }

    /// Sutherland-Hodgman clipping of triangle (p1, p2, p3) by the closed convex part
    /// `parts[start..<end]`; the polygon left is in `clipped` (empty when nothing is left). Returns
    /// false when the triangle lies inside the part (nothing cut), true otherwise.
    private mutating func clipTriangle(
        _ p1: SIMD2<Float>, _ p2: SIMD2<Float>, _ p3: SIMD2<Float>, _ start: Int, _ end: Int
    ) -> Bool {
        input.removeAll(keepingCapacity: true)
        input.append(p1.x)
        input.append(p1.y)
        input.append(p2.x)
        input.append(p2.y)
        input.append(p3.x)
        input.append(p3.y)
        input.append(p1.x)
        input.append(p1.y)
        output.removeAll(keepingCapacity: true)
        var cut = false
        var edge = start
        while true {
            let edgeX = parts[edge]
            let edgeY = parts[edge + 1]
            let ex = edgeX - parts[edge + 2]
            let ey = edgeY - parts[edge + 3]
            var k = 0
            while k + 2 < input.count {
                let x1 = input[k]
                let y1 = input[k + 1]
                let x2 = input[k + 2]
                let y2 = input[k + 3]
                k += 2
                let secondInside = ey * (edgeX - x2) > ex * (edgeY - y2)
                let side1 = ey * (edgeX - x1) - ex * (edgeY - y1)
                if side1 > 0 {
                    if secondInside {
                        output.append(x2)
                        output.append(y2)
                        continue
                    }
                    // Leaving the inside: keep the crossing point.
                    let ix = x2 - x1
                    let iy = y2 - y1
                    let s = side1 / (ix * ey - iy * ex)
                    if s >= 0 && s <= 1 {
                        output.append(x1 + ix * s)
                        output.append(y1 + iy * s)
                    } else {
                        output.append(x2)
                        output.append(y2)
                    }
                } else if secondInside {
                    // Entering the inside: the crossing point, then the inside point.
                    let ix = x2 - x1
                    let iy = y2 - y1
                    let s = side1 / (ix * ey - iy * ex)
                    if s >= 0 && s <= 1 {
                        output.append(x1 + ix * s)
                        output.append(y1 + iy * s)
                        output.append(x2)
                        output.append(y2)
                    } else {
                        output.append(x2)
                        output.append(y2)
                        continue
                    }
                }
                cut = true
            }
            if output.isEmpty {
                // Entirely outside this edge.
                clipped.removeAll(keepingCapacity: true)
                return true
            }
            output.append(output[0])
            output.append(output[1])
            if edge + 4 >= end { break }
            edge += 2
            swap(&input, &output)
            output.removeAll(keepingCapacity: true)
        }
        swap(&clipped, &output)
        clipped.removeLast(2)
        return cut
    }

    /// Reverses the polygon `values[range]` (`x, y` pairs) when it is counter-clockwise (y up).
    static func makeClockwise(_ values: inout [Float], _ range: Range<Int>) {
        let count = range.count / 2
        guard count >= 2 else { return }
        let first = range.lowerBound
        let last = first + (count - 1) * 2
        var area = values[last] * values[first + 1] - values[first] * values[last + 1]
        var i = first
        while i < last {
            area += values[i] * values[i + 3] - values[i + 2] * values[i + 1]
            i += 2
        }
        if area < 0 { return }
        var low = first
        var high = last
        while low < high {
            values.swapAt(low, high)
            values.swapAt(low + 1, high + 1)
            low += 2
            high -= 2
        }
    }
}
