import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkRender
@testable import BoneworkWorld

/// Clipping on real exports: spineboy-pro's `portal` and coin-pro. For every triangle drawn under
/// an active clip, the clipper's output area must equal the area of the triangle's intersection
/// with the clip polygon computed independently (the clip polygon, concave or not, cut by the
/// convex triangle with Sutherland-Hodgman), and a triangle yields output exactly when that
/// intersection has area.
@Suite struct ClippingExamplesTests {
    struct Totals {
        var clippedFrames = 0
        var inputTriangles = 0
        var touchingTriangles = 0
        var outputTriangles = 0
        var clippedArea = 0.0
        var expectedArea = 0.0
    }

    @Test(arguments: [
        ("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", "portal"),
        ("coin/coin-pro.skel", "coin/coin.atlas", "animation"),
    ])
    func clippedAreaMatchesIndependentIntersection(_ skeleton: String, _ atlasFile: String, _ animation: String)
        throws
    {
        let data = try ExampleSkeletons.load(skeleton, atlas: atlasFile)
        let world = World()
        let entity = try world.spawn(data)
        try world.setAnimation(entity, animation, loop: true)
        var totals = Totals()
        for _ in 0..<90 {
            world.update(1.0 / 30.0)
            try check(world.pose(entity), data, &totals)
        }
        #expect(totals.clippedFrames > 10, "\(skeleton): the clip must be active on many frames")
        #expect(totals.touchingTriangles > 0)
        #expect(totals.outputTriangles >= totals.touchingTriangles)
        let tolerance = 1e-3 * max(1, totals.expectedArea)
        #expect(
            abs(totals.clippedArea - totals.expectedArea) <= tolerance,
            "\(skeleton): clipped area \(totals.clippedArea) vs independent \(totals.expectedArea)")
    }

    private func check(_ pose: InstancePose, _ data: SkeletonData, _ totals: inout Totals) throws {
        var clipper = Clipper()
        var clipPolygon: [SIMD2<Double>] = []
        var active = false
        for slot in pose.drawOrder {
            guard let name = pose.attachments[slot], let nameID = data.attachmentNameID(name),
                let index = data.attachment(skin: data.defaultSkin, slot: Int32(slot), name: nameID)
            else {
                if active { clipper.clipEnd(slot: Int32(slot)) }
                active = clipper.isClipping
                continue
            }
            let attachment = data.attachments[Int(index)]
            if attachment.kind == .clipping {
                let polygon = worldVertices(attachment, bone: Int(data.slots[slot].bone), pose.bones)
                _ = clipper.clipStart(worldPolygon: polygon, endSlot: attachment.endSlot)
                clipPolygon = stride(from: 0, to: polygon.count, by: 2).map {
                    SIMD2(Double(polygon[$0]), Double(polygon[$0 + 1]))
                }
                active = clipper.isClipping
                if active { totals.clippedFrames += 1 }
                continue
            }
            if active, let vertices = pose.vertices[slot] {
                let triangles: [UInt16] = attachment.kind == .region ? [0, 1, 2, 2, 3, 0] : attachment.triangles
                let uvs = [Float](repeating: 0, count: vertices.count)
                for t in stride(from: 0, to: triangles.count, by: 3) {
                    let corners = (0..<3).map { k -> SIMD2<Double> in
                        let v = Int(triangles[t + k]) * 2
                        return SIMD2(Double(vertices[v]), Double(vertices[v + 1]))
                    }
                    let expected = abs(polygonArea(clip(subject: clipPolygon, byConvex: corners)))
                    clipper.clipTriangles(vertices: vertices, uvs: uvs, triangles: Array(triangles[t..<t + 3]))
                    let output = clipper.clippedTriangles.count / 3
                    var area = 0.0
                    for o in stride(from: 0, to: clipper.clippedTriangles.count, by: 3) {
                        let points = (0..<3).map { k -> SIMD2<Double> in
                            let v = Int(clipper.clippedTriangles[o + k]) * 2
                            return SIMD2(Double(clipper.clippedVertices[v]), Double(clipper.clippedVertices[v + 1]))
                        }
                        area += abs(polygonArea(points))
                    }
                    totals.inputTriangles += 1
                    totals.outputTriangles += output
                    totals.clippedArea += area
                    totals.expectedArea += expected
                    let triangleArea = abs(polygonArea(corners))
                    if expected > 1e-3 * max(1, triangleArea) {
                        totals.touchingTriangles += 1
                        #expect(output > 0, "slot \(data.slots[slot].name): a triangle inside the clip vanished")
                    } else if expected == 0 {
                        #expect(output == 0, "slot \(data.slots[slot].name): a triangle outside the clip was drawn")
                    }
                }
            }
            clipper.clipEnd(slot: Int32(slot))
            active = clipper.isClipping
        }
        clipper.clipEnd()
    }

    /// World vertices of an unweighted or weighted vertex attachment, computed from the bone
    /// transforms of the pose (independently of the engine's vertex system).
    private func worldVertices(_ a: AttachmentData, bone: Int, _ bones: [[Float]]) -> [Float] {
        var out: [Float] = []
        if a.bones.isEmpty {
            let m = bones[bone]
            for v in stride(from: 0, to: a.vertices.count, by: 2) {
                let x = a.vertices[v]
                let y = a.vertices[v + 1]
                out += [m[0] * x + m[1] * y + m[4], m[2] * x + m[3] * y + m[5]]
            }
            return out
        }
        var b = 0
        var f = 0
        while b < a.bones.count {
            let n = Int(a.bones[b])
            b += 1
            var wx: Float = 0
            var wy: Float = 0
            for _ in 0..<n {
                let m = bones[Int(a.bones[b])]
                let x = a.vertices[f]
                let y = a.vertices[f + 1]
                let w = a.vertices[f + 2]
                wx += (m[0] * x + m[1] * y + m[4]) * w
                wy += (m[2] * x + m[3] * y + m[5]) * w
                b += 1
                f += 3
            }
            out += [wx, wy]
        }
        return out
    }

    private func polygonArea(_ points: [SIMD2<Double>]) -> Double {
        guard points.count >= 3 else { return 0 }
        var sum = 0.0
        for i in points.indices {
            let p = points[i]
            let q = points[(i + 1) % points.count]
            sum += p.x * q.y - q.x * p.y
        }
        return sum / 2
    }

    /// Sutherland-Hodgman: any simple polygon clipped by a convex window (either winding).
    private func clip(subject: [SIMD2<Double>], byConvex window: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let orientation: Double = polygonArea(window) >= 0 ? 1 : -1
        var output = subject
        for i in window.indices {
            let a = window[i]
            let b = window[(i + 1) % window.count]
            func inside(_ p: SIMD2<Double>) -> Bool {
                orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) >= 0
            }
            func intersection(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> SIMD2<Double> {
                let d1 = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                let d2 = (b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)
                return p + (q - p) * (d1 / (d1 - d2))
            }
            let input = output
            output.removeAll()
            guard !input.isEmpty else { break }
            for j in input.indices {
                let p = input[j]
                let q = input[(j + 1) % input.count]
                if inside(q) {
                    if !inside(p) { output.append(intersection(p, q)) }
                    output.append(q)
                } else if inside(p) {
                    output.append(intersection(p, q))
                }
            }
        }
        return output
    }
}
