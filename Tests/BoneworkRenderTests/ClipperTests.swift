import BoneworkRender
import BoneworkWorld
import Foundation
import Testing

/// Checks the clipper against an independent computation: the area of a triangle's intersection
/// with a simple polygon, summed over the signed fan triangles (O, p_i, p_i+1) of the polygon, each
/// intersected with the triangle by half-plane clipping in double precision. No triangulation or
/// convex decomposition is involved, so it shares nothing with the code under test.
@Suite struct ClipperTests {
    typealias Point = SIMD2<Double>

    // MARK: Independent reference

    static func signedArea(_ polygon: [Point]) -> Double {
        guard polygon.count >= 3 else { return 0 }
        var sum = 0.0
        for i in polygon.indices {
            let a = polygon[i]
            let b = polygon[(i + 1) % polygon.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// Intersection of two convex polygons, both counter-clockwise.
    static func convexIntersection(_ subject: [Point], _ clip: [Point]) -> [Point] {
        var result = subject
        for i in clip.indices {
            let a = clip[i]
            let b = clip[(i + 1) % clip.count]
            func side(_ p: Point) -> Double { (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) }
            var next: [Point] = []
            for j in result.indices {
                let p = result[j]
                let q = result[(j + 1) % result.count]
                let sp = side(p)
                let sq = side(q)
                if sp >= 0 { next.append(p) }
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    next.append(p + (q - p) * t)
                }
            }
            result = next
            if result.isEmpty { break }
        }
        return result
    }

    static func ccw(_ polygon: [Point]) -> [Point] { signedArea(polygon) < 0 ? polygon.reversed() : polygon }

    /// Area of (triangle ∩ simple polygon).
    static func intersectionArea(triangle: [Point], polygon: [Point]) -> Double {
        let tri = ccw(triangle)
        let origin = polygon[0]
        var total = 0.0
        for i in 1..<(polygon.count - 1) {
            let fan = [origin, polygon[i], polygon[i + 1]]
            let sign: Double = signedArea(fan) >= 0 ? 1 : -1
            total += sign * abs(signedArea(convexIntersection(tri, ccw(fan))))
        }
        return abs(total)
    }

    // MARK: Helpers

    static func flat(_ points: [Point]) -> [Float] { points.flatMap { [Float($0.x), Float($0.y)] } }

    /// Sum of the clipped triangles' areas.
    static func clippedArea(_ clipper: Clipper) -> Double {
        var total = 0.0
        let v = clipper.clippedVertices
        let t = clipper.clippedTriangles
        for k in stride(from: 0, to: t.count, by: 3) {
            let tri = (0..<3).map { Point(Double(v[Int(t[k + $0]) * 2]), Double(v[Int(t[k + $0]) * 2 + 1])) }
            total += abs(signedArea(tri))
        }
        return total
    }

    /// A grid mesh over [x0, x1] x [y0, y1] with n x n cells, two triangles per cell; uvs map the
    /// rectangle onto [0, 1]^2 with v down.
    static func grid(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ n: Int)
        -> (vertices: [Float], uvs: [Float], triangles: [UInt16])
    {
        var vertices: [Float] = []
        var uvs: [Float] = []
        var triangles: [UInt16] = []
        for j in 0...n {
            for i in 0...n {
                let u = Double(i) / Double(n)
                let v = Double(j) / Double(n)
                vertices += [Float(x0 + (x1 - x0) * u), Float(y0 + (y1 - y0) * v)]
                uvs += [Float(u), Float(1 - v)]
            }
        }
        for j in 0..<n {
            for i in 0..<n {
                let a = UInt16(j * (n + 1) + i)
                let b = a + 1
                let c = a + UInt16(n + 1)
                let d = c + 1
                triangles += [a, b, d, d, c, a]
            }
        }
        return (vertices, uvs, triangles)
    }

    static func meshIntersectionArea(_ mesh: (vertices: [Float], uvs: [Float], triangles: [UInt16]), _ polygon: [Point])
        -> Double
    {
        var total = 0.0
        for k in stride(from: 0, to: mesh.triangles.count, by: 3) {
            let tri = (0..<3).map {
                let i = Int(mesh.triangles[k + $0])
                return Point(Double(mesh.vertices[i * 2]), Double(mesh.vertices[i * 2 + 1]))
            }
            total += intersectionArea(triangle: tri, polygon: polygon)
        }
        return total
    }

    /// A deterministic generator for random test shapes.
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// A star-shaped (hence simple) polygon around (cx, cy) with random radii: concave in general.
    static func star(_ random: inout Random, points: Int, cx: Double, cy: Double, clockwise: Bool) -> [Point] {
        var result: [Point] = []
        for k in 0..<points {
            let angle = Double(k) / Double(points) * 2 * Double.pi
            let radius = 3 + 7 * random.next()
            result.append(Point(cx + radius * cos(angle), cy + radius * sin(angle)))
        }
        return clockwise ? result.reversed() : result
    }

    static func checkAreaAndUVs(
        _ polygon: [Point], _ mesh: (vertices: [Float], uvs: [Float], triangles: [UInt16]),
        _ rect: (Double, Double, Double, Double), sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var clipper = Clipper()
        clipper.clipStart(worldPolygon: flat(polygon), endSlot: 3)
        clipper.clipTriangles(vertices: mesh.vertices, uvs: mesh.uvs, triangles: mesh.triangles)
        let expected = meshIntersectionArea(mesh, polygon)
        let actual = clippedArea(clipper)
        #expect(
            abs(actual - expected) <= 1e-4 * max(1, expected), "area \(actual) vs \(expected)",
            sourceLocation: sourceLocation)
        // The grid's uvs are an affine function of position; clipped uvs must follow it.
        let (x0, y0, x1, y1) = rect
        var worst = 0.0
        for k in 0..<(clipper.clippedVertices.count / 2) {
            let x = Double(clipper.clippedVertices[k * 2])
            let y = Double(clipper.clippedVertices[k * 2 + 1])
            let u = (x - x0) / (x1 - x0)
            let v = 1 - (y - y0) / (y1 - y0)
            worst = max(
                worst, abs(Double(clipper.clippedUVs[k * 2]) - u), abs(Double(clipper.clippedUVs[k * 2 + 1]) - v))
        }
        #expect(worst < 1e-4, "uv error \(worst)", sourceLocation: sourceLocation)
        // Every clipped vertex lies inside (or on) the clip polygon's bounding box.
        let minX = polygon.map(\.x).min()! - 1e-3
        let maxX = polygon.map(\.x).max()! + 1e-3
        for k in 0..<(clipper.clippedVertices.count / 2) {
            let x = Double(clipper.clippedVertices[k * 2])
            #expect(x >= minX && x <= maxX, sourceLocation: sourceLocation)
        }
    }

    // MARK: Tests

    @Test func squareClipsQuad() {
        // Counter-clockwise square: the clipper must turn it clockwise itself.
        let square = [Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)]
        let mesh = Self.grid(-5, -5, 5, 5, 1)
        var clipper = Clipper()
        #expect(clipper.clipStart(worldPolygon: Self.flat(square), endSlot: 1) == 1)
        clipper.clipTriangles(vertices: mesh.vertices, uvs: mesh.uvs, triangles: mesh.triangles)
        #expect(abs(Self.clippedArea(clipper) - 25) < 1e-4)
        Self.checkAreaAndUVs(square, mesh, (-5, -5, 5, 5))
        Self.checkAreaAndUVs(square.reversed(), Self.grid(-3, 2, 14, 7, 4), (-3, 2, 14, 7))
    }

    @Test func concaveLShape() {
        let shape = [
            Point(0, 0), Point(12, 0), Point(12, 4), Point(4, 4), Point(4, 12), Point(0, 12),
        ]
        Self.checkAreaAndUVs(shape, Self.grid(-2, -2, 14, 14, 5), (-2, -2, 14, 14))
        Self.checkAreaAndUVs(shape.reversed(), Self.grid(1, 1, 9, 9, 3), (1, 1, 9, 9))
        // Whole L covered by one quad: the clipped area is the L's area.
        var clipper = Clipper()
        clipper.clipStart(worldPolygon: Self.flat(shape), endSlot: -1)
        #expect(clipper.partCount >= 2)
        let mesh = Self.grid(-20, -20, 20, 20, 1)
        clipper.clipTriangles(vertices: mesh.vertices, uvs: mesh.uvs, triangles: mesh.triangles)
        #expect(abs(Self.clippedArea(clipper) - 80) < 1e-3)
    }

    @Test func randomStarPolygons() {
        var random = Random(state: 42)
        for round in 0..<40 {
            let points = 5 + round % 12
            let polygon = Self.star(&random, points: points, cx: 1, cy: -2, clockwise: round % 2 == 0)
            let x0 = -12 + 6 * random.next()
            let y0 = -14 + 6 * random.next()
            let mesh = Self.grid(x0, y0, x0 + 8 + 10 * random.next(), y0 + 8 + 10 * random.next(), 1 + round % 4)
            let x1 = Double(mesh.vertices[mesh.vertices.count - 2])
            let y1 = Double(mesh.vertices[mesh.vertices.count - 1])
            Self.checkAreaAndUVs(polygon, mesh, (x0, y0, x1, y1))
        }
    }

    @Test func partsAreConvexClockwiseAndTileThePolygon() {
        var random = Random(state: 7)
        for round in 0..<30 {
            let polygon = Self.star(&random, points: 4 + round % 14, cx: 0, cy: 0, clockwise: round % 3 == 0)
            var clipper = Clipper()
            let count = clipper.clipStart(worldPolygon: Self.flat(polygon), endSlot: -1)
            #expect(count == clipper.partCount && count >= 1)
            var total = 0.0
            var start = 0
            for end in clipper.partEnds.map(Int.init) {
                // Closed: the first vertex is repeated at the end.
                #expect(
                    clipper.parts[start] == clipper.parts[end - 2] && clipper.parts[start + 1] == clipper.parts[end - 1]
                )
                let part = stride(from: start, to: end - 2, by: 2).map {
                    Point(Double(clipper.parts[$0]), Double(clipper.parts[$0 + 1]))
                }
                #expect(part.count >= 3)
                total += Self.signedArea(part)
                for k in part.indices {
                    let a = part[k]
                    let b = part[(k + 1) % part.count]
                    let c = part[(k + 2) % part.count]
                    let turn = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
                    #expect(turn <= 1e-6, "part not convex clockwise at round \(round)")
                }
                start = end
            }
            #expect(abs(-total - abs(Self.signedArea(polygon))) < 1e-3)
        }
    }

    @Test func insideTrianglesStayWholeAndOutsideOnesVanish() {
        let square = [Point(0, 0), Point(0, 10), Point(10, 10), Point(10, 0)]
        var clipper = Clipper()
        clipper.clipStart(worldPolygon: Self.flat(square), endSlot: 2)
        let vertices: [Float] = [1, 1, 3, 1, 2, 4, 20, 20, 25, 20, 22, 24]
        let uvs: [Float] = [0, 0, 1, 0, 0.5, 1, 0, 0, 1, 0, 1, 1]
        clipper.clipTriangles(vertices: vertices, uvs: uvs, triangles: [0, 1, 2, 3, 4, 5])
        #expect(clipper.clippedVertices == [1, 1, 3, 1, 2, 4])
        #expect(clipper.clippedUVs == [0, 0, 1, 0, 0.5, 1])
        #expect(clipper.clippedTriangles == [0, 1, 2])
        // Out-of-range indices are dropped, not trapped on.
        clipper.clipTriangles(vertices: vertices, uvs: uvs, triangles: [0, 1, 9])
        #expect(clipper.clippedTriangles.isEmpty)
    }

    @Test func slotSemantics() {
        var clipper = Clipper()
        let a: [Float] = [0, 0, 0, 10, 10, 10, 10, 0]
        #expect(clipper.clipStart(worldPolygon: a, endSlot: 5) == 1)
        #expect(clipper.isClipping && clipper.endSlot == 5)
        // A second clip while one is active is ignored.
        #expect(clipper.clipStart(worldPolygon: [0, 0, 0, 1, 1, 1], endSlot: 9) == 0)
        #expect(clipper.endSlot == 5)
        clipper.clipEnd(slot: 4)
        #expect(clipper.isClipping)
        clipper.clipEnd(slot: 5)
        #expect(!clipper.isClipping)
        // No end slot: only clipEnd() ends it.
        clipper.clipStart(worldPolygon: a, endSlot: -1)
        clipper.clipEnd(slot: -1)
        clipper.clipEnd(slot: 0)
        #expect(clipper.isClipping)
        clipper.clipEnd()
        #expect(!clipper.isClipping)
        // A degenerate polygon clips everything away.
        clipper.clipStart(worldPolygon: [0, 0, 5, 5], endSlot: -1)
        clipper.clipTriangles(vertices: [1, 1, 2, 1, 1, 2], uvs: [0, 0, 0, 0, 0, 0], triangles: [0, 1, 2])
        #expect(clipper.isClipping && clipper.clippedTriangles.isEmpty)
    }

    @Test func buffersAreReusedOnceWarm() {
        var random = Random(state: 99)
        let polygon = Self.flat(Self.star(&random, points: 14, cx: 0, cy: 0, clockwise: false))
        let mesh = Self.grid(-9, -9, 9, 9, 6)
        var clipper = Clipper()
        func frame() -> [UnsafeRawPointer?] {
            clipper.clipStart(worldPolygon: polygon, endSlot: -1)
            clipper.clipTriangles(vertices: mesh.vertices, uvs: mesh.uvs, triangles: mesh.triangles)
            let addresses = [
                clipper.clippedVertices.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                clipper.clippedUVs.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                clipper.clippedTriangles.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
                clipper.parts.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) },
            ]
            clipper.clipEnd()
            return addresses
        }
        _ = frame()
        let warm = frame()
        for _ in 0..<5 { #expect(frame() == warm) }
    }
}
