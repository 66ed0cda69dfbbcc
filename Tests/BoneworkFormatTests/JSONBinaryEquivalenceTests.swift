import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// The .json and .skel exports of one skeleton must give structurally equal SkeletonData: names,
/// hierarchy and counts exactly; setup values within 1e-3; key times within JSON's 4-decimal rounding.
@Suite struct JSONBinaryEquivalenceTests {
    static var pairs: [String] {
        let files = Set(TestPaths.skeletonFiles())
        return files.filter { $0.hasSuffix(".json") && files.contains($0.dropLast(5) + ".skel") }
            .map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyExampleHasBothExports() {
        #expect(Self.pairs.count == 26, "expected 26 json/skel pairs, found \(Self.pairs.count)")
    }

    @Test(arguments: pairs)
    func exportsAgree(_ base: String) throws {
        let atlas = try AtlasReader.read(file: try #require(TestPaths.atlasPath(forSkeleton: base)))
        let json = try SkeletonLoader.load(
            file: TestPaths.example(base + ".json"), atlas: atlas)
        let skel = try SkeletonLoader.load(
            file: TestPaths.example(base + ".skel"), atlas: atlas)
        var diff = StructuralDiff()
        diff.compare(json, skel)
        #expect(diff.first == nil, "\(base): \(diff.first ?? "")")
    }
}

/// Records the first difference between two SkeletonData values, by name.
struct StructuralDiff {
    private(set) var first: String?

    mutating func note(_ message: @autoclosure () -> String) { if first == nil { first = message() } }

    mutating func equal<T: Equatable>(_ a: T, _ b: T, _ what: @autoclosure () -> String) {
        if a != b { note("\(what()): json \(a) vs skel \(b)") }
    }

    /// JSON exports round setup values to 2 decimals and key times to 4, so a value agrees when it is
    /// within 1e-3 relative or within half a unit of the second decimal (`tolerance` overrides both).
    mutating func close(_ a: Float, _ b: Float, _ what: @autoclosure () -> String, tolerance: Float? = nil) {
        let allowed = tolerance.map { $0 * max(1, abs(b)) } ?? max(1e-3 * max(1, abs(b)), 0.00501)
        if !(abs(a - b) <= allowed) { note("\(what()): json \(a) vs skel \(b)") }
    }

    mutating func close(_ a: [Float], _ b: [Float], _ what: @autoclosure () -> String) {
        guard a.count == b.count else { return note("\(what()): count json \(a.count) vs skel \(b.count)") }
        for i in a.indices { close(a[i], b[i], "\(what())[\(i)]") }
    }

    mutating func close(_ a: Color, _ b: Color, _ what: @autoclosure () -> String) {
        close([a.r, a.g, a.b, a.a], [b.r, b.g, b.b, b.a], what())
    }

    mutating func compare(_ j: SkeletonData, _ s: SkeletonData) {
        equal(j.bones.map(\.name), s.bones.map(\.name), "bone names")
        for (a, b) in zip(j.bones, s.bones) {
            equal(a.parent, b.parent, "bone \(a.name) parent")
            equal(a.inherit, b.inherit, "bone \(a.name) inherit")
            equal(a.skinRequired, b.skinRequired, "bone \(a.name) skinRequired")
            close(
                [a.length, a.x, a.y, a.rotation, a.scaleX, a.scaleY, a.shearX, a.shearY],
                [b.length, b.x, b.y, b.rotation, b.scaleX, b.scaleY, b.shearX, b.shearY], "bone \(a.name) setup")
        }
        equal(j.slots.map(\.name), s.slots.map(\.name), "slot names")
        for (a, b) in zip(j.slots, s.slots) {
            equal(a.bone, b.bone, "slot \(a.name) bone")
            equal(a.blendMode, b.blendMode, "slot \(a.name) blend")
            equal(name(j, a.attachmentName), name(s, b.attachmentName), "slot \(a.name) attachment")
            close(a.color, b.color, "slot \(a.name) color")
            equal(a.darkColor == nil, b.darkColor == nil, "slot \(a.name) has dark color")
        }
        equal(j.ikConstraints.map(\.name), s.ikConstraints.map(\.name), "ik names")
        for (a, b) in zip(j.ikConstraints, s.ikConstraints) {
            equal(a.bones, b.bones, "ik \(a.name) bones")
            equal(a.target, b.target, "ik \(a.name) target")
            equal(a.order, b.order, "ik \(a.name) order")
            // A one-bone constraint has no bend; its direction flag is not meaningful.
            if a.bones.count == 2 { equal(a.bendDirection, b.bendDirection, "ik \(a.name) bend direction") }
            equal([a.compress, a.stretch, a.uniform], [b.compress, b.stretch, b.uniform], "ik \(a.name) flags")
            close([a.mix, a.softness], [b.mix, b.softness], "ik \(a.name) mix/softness")
        }
        equal(j.transformConstraints.map(\.name), s.transformConstraints.map(\.name), "transform names")
        for (a, b) in zip(j.transformConstraints, s.transformConstraints) {
            equal(a.bones, b.bones, "transform \(a.name) bones")
            equal([a.target, a.order], [b.target, b.order], "transform \(a.name) target/order")
            equal([a.local, a.relative], [b.local, b.relative], "transform \(a.name) flags")
            close(
                [
                    a.mixRotate, a.mixX, a.mixY, a.mixScaleX, a.mixScaleY, a.mixShearY, a.offsetRotation, a.offsetX,
                    a.offsetY, a.offsetScaleX, a.offsetScaleY, a.offsetShearY,
                ],
                [
                    b.mixRotate, b.mixX, b.mixY, b.mixScaleX, b.mixScaleY, b.mixShearY, b.offsetRotation, b.offsetX,
                    b.offsetY, b.offsetScaleX, b.offsetScaleY, b.offsetShearY,
                ], "transform \(a.name) values")
        }
        equal(j.pathConstraints.map(\.name), s.pathConstraints.map(\.name), "path names")
        for (a, b) in zip(j.pathConstraints, s.pathConstraints) {
            equal(a.bones, b.bones, "path \(a.name) bones")
            equal([a.target, a.order], [b.target, b.order], "path \(a.name) target/order")
            equal(
                [a.positionMode.rawValue, a.spacingMode.rawValue, a.rotateMode.rawValue],
                [b.positionMode.rawValue, b.spacingMode.rawValue, b.rotateMode.rawValue], "path \(a.name) modes")
            close(
                [a.offsetRotation, a.position, a.spacing, a.mixRotate, a.mixX, a.mixY],
                [b.offsetRotation, b.position, b.spacing, b.mixRotate, b.mixX, b.mixY], "path \(a.name) values")
        }
        equal(j.physicsConstraints.map(\.name), s.physicsConstraints.map(\.name), "physics names")
        for (a, b) in zip(j.physicsConstraints, s.physicsConstraints) {
            equal([a.bone, a.order], [b.bone, b.order], "physics \(a.name) bone/order")
            close(
                [
                    a.x, a.y, a.rotate, a.scaleX, a.shearX, a.limit, a.step, a.inertia, a.strength, a.damping,
                    a.massInverse, a.wind, a.gravity, a.mix,
                ],
                [
                    b.x, b.y, b.rotate, b.scaleX, b.shearX, b.limit, b.step, b.inertia, b.strength, b.damping,
                    b.massInverse, b.wind, b.gravity, b.mix,
                ],
                "physics \(a.name) values")
        }
        equal(j.skins.map(\.name), s.skins.map(\.name), "skin names")
        for (a, b) in zip(j.skins, s.skins) {
            equal(Set(a.bones), Set(b.bones), "skin \(a.name) bones")
            equal(Set(a.constraints), Set(b.constraints), "skin \(a.name) constraints")
            equal(a.entries.count, b.entries.count, "skin \(a.name) entry count")
            for entry in a.entries {
                let entryName = j.attachmentNames[Int(entry.name)]
                guard let nameID = s.attachmentNameID(entryName),
                    let other = s.attachment(skin: Int32(j.skins.firstIndex(of: a)!), slot: entry.slot, name: nameID)
                else {
                    note(
                        "skin \(a.name) slot \(j.slots[Int(entry.slot)].name) attachment \(entryName): missing in skel")
                    continue
                }
                compare(
                    j.attachments[Int(entry.attachment)], s.attachments[Int(other)],
                    "skin \(a.name) attachment \(entryName)")
            }
        }
        equal(j.events.map(\.name), s.events.map(\.name), "event names")
        equal(j.animations.map(\.name), s.animations.map(\.name), "animation names")
        for (a, b) in zip(j.animations, s.animations) { compare(a, b, j, s) }
    }

    private func name(_ data: SkeletonData, _ id: Int32) -> String? { id < 0 ? nil : data.attachmentNames[Int(id)] }

    mutating func compare(_ a: AttachmentData, _ b: AttachmentData, _ what: String) {
        equal(a.kind, b.kind, "\(what) kind")
        equal(a.path, b.path, "\(what) path")
        equal(a.isLinkedMesh, b.isLinkedMesh, "\(what) linked")
        equal(a.bones, b.bones, "\(what) bones")
        equal(a.triangles, b.triangles, "\(what) triangles")
        equal(
            [a.worldVerticesLength, a.hullLength, a.endSlot, a.frameCount],
            [b.worldVerticesLength, b.hullLength, b.endSlot, b.frameCount], "\(what) sizes")
        equal(
            a.sequence.map { [$0.count, $0.start, $0.digits, $0.setupIndex] },
            b.sequence.map { [$0.count, $0.start, $0.digits, $0.setupIndex] }, "\(what) sequence")
        close(a.vertices, b.vertices, "\(what) vertices")
        close(a.regionUVs, b.regionUVs, "\(what) uvs")
        close(a.lengths, b.lengths, "\(what) path lengths")
        close(
            [a.x, a.y, a.rotation, a.scaleX, a.scaleY, a.width, a.height],
            [b.x, b.y, b.rotation, b.scaleX, b.scaleY, b.width, b.height], "\(what) geometry")
        close(a.color, b.color, "\(what) color")
    }

    mutating func compare(_ a: AnimationData, _ b: AnimationData, _ j: SkeletonData, _ s: SkeletonData) {
        let what = "animation \(a.name)"
        close(a.duration, b.duration, "\(what) duration", tolerance: 1e-4)
        equal(a.timelines.count, b.timelines.count, "\(what) timeline count")
        for (ta, tb) in zip(a.timelines, b.timelines) {
            let tw = "\(what) \(ta.kind) timeline on \(ta.target)"
            equal([ta.kind.rawValue], [tb.kind.rawValue], "\(tw) kind")
            equal(
                [ta.target, ta.frameCount, ta.valueStride], [tb.target, tb.frameCount, tb.valueStride],
                "\(tw) target/frames")
            let stride = ta.kind.frameStride
            for f in 0..<Int(min(ta.frameCount, tb.frameCount)) {
                let ia = Int(ta.framesStart) + f * stride
                let ib = Int(tb.framesStart) + f * stride
                // Key times: JSON keeps 4 decimals.
                close(a.frames[ia], b.frames[ib], "\(tw) frame \(f) time", tolerance: 6e-5)
                for k in 1..<stride {
                    // JSON transform keys keep the first key's shear Y mix, as the reference JSON
                    // reader does (it never advances that value); the pose traces depend on it.
                    if ta.kind == .transform && k == 6 { continue }
                    close(a.frames[ia + k], b.frames[ib + k], "\(tw) frame \(f) value \(k)")
                }
                // Between equal keys a stepped and a linear curve are the same; exports pick either.
                let keysEqual =
                    f + 1 < Int(tb.frameCount)
                    && (1..<stride).allSatisfy { b.frames[ib + $0] == b.frames[ib + stride + $0] }
                if ta.kind.hasCurves && !keysEqual {
                    let ca = a.curves[Int(ta.curvesStart) + f]
                    let cb = b.curves[Int(tb.curvesStart) + f]
                    equal(min(ca, CurveType.bezier), min(cb, CurveType.bezier), "\(tw) frame \(f) curve type")
                }
                switch ta.kind {
                case .attachment:
                    equal(
                        name(j, a.ints[Int(ta.valuesStart) + f]), name(s, b.ints[Int(tb.valuesStart) + f]),
                        "\(tw) frame \(f) attachment")
                case .drawOrder:
                    let n = Int(ta.valueStride)
                    // A key without offsets means the setup order: -1 in the first entry, or the identity.
                    func order(_ ints: [Int32], _ start: Int) -> [Int32] {
                        ints[start] < 0 ? (0..<Int32(n)).map { $0 } : Array(ints[start..<start + n])
                    }
                    equal(
                        order(a.ints, Int(ta.valuesStart) + f * n), order(b.ints, Int(tb.valuesStart) + f * n),
                        "\(tw) frame \(f) order")
                case .event:
                    let ea = a.events[Int(ta.valuesStart) + f]
                    let eb = b.events[Int(tb.valuesStart) + f]
                    equal([ea.event, ea.intValue], [eb.event, eb.intValue], "\(tw) frame \(f) event")
                    equal(ea.stringValue, eb.stringValue, "\(tw) frame \(f) event string")
                    close(
                        [ea.floatValue, ea.volume, ea.balance], [eb.floatValue, eb.volume, eb.balance],
                        "\(tw) frame \(f) event values")
                case .deform:
                    // Unweighted deform keys hold setup vertex + offset: two rounded JSON numbers.
                    let n = Int(ta.valueStride)
                    for k in 0..<n {
                        let va = a.frames[Int(ta.valuesStart) + f * n + k]
                        let vb = b.frames[Int(tb.valuesStart) + f * n + k]
                        if !(abs(va - vb) <= max(1e-3 * max(1, abs(vb)), 0.01001)) {
                            note("\(tw) frame \(f) deform[\(k)]: json \(va) vs skel \(vb)")
                        }
                    }
                default: break
                }
            }
        }
    }
}
