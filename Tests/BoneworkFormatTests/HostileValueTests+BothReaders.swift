import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

// MARK: - Values that load but that no editor writes: both readers decide the same

extension HostileValueTests {
    static func binaryError(_ bytes: [UInt8]) -> LoadError? {
        do {
            _ = try SkeletonBinaryReader.read(bytes: bytes, file: "hostile.skel", atlas: nil)
            return nil
        } catch {
            return error as? LoadError
        }
    }

    static func json(_ text: String) throws -> SkeletonData {
        try SkeletonJSONReader.read(bytes: Array(text.utf8), file: "hostile.json", atlas: nil)
    }

    /// A .skel of one bone and one physics constraint (nothing else).
    static func physicsSkel(damping: Float = 1, massInverse: Float? = nil) -> SkelWriter {
        var w = SkelWriter()
        w.header()
        w.bones(1)
        w.slots([])
        w.noIKTransformOrPathConstraints()
        w.physics(damping: damping, massInverse: massInverse)
        w.noSkins()
        w.noEvents()
        w.noAnimations()
        return w
    }

    static func physicsJSON(_ fields: String, timelines: String = "") -> String {
        let animations = timelines.isEmpty ? "" : #", "animations": {"a": {"physics": {"p": {\#(timelines)}}}}"#
        return
            #"{"bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "x": 1\#(fields)}]\#(animations)}"#
    }

    @Test func physicsMassAtOrBelowZeroIsRefusedByBothReaders() throws {
        // JSON holds the mass; a .skel its inverse. Zero, negative, or so small that the inverse
        // overflows: each is refused at its place, with the same words.
        for mass in ["0", "-2", "1e-45", "-0"] {
            let error = try #require(Self.jsonError(Self.physicsJSON(#", "mass": \#(mass)"#)), "mass \(mass)")
            #expect(error.kind == .malformed)
            #expect(error.location == .jsonPath("$.physics[0].mass"), "\(error)")
            #expect(error.expected == ValueLimits.massExpected)
        }
        for inverse: Float in [0, -0.5, .leastNonzeroMagnitude, -.greatestFiniteMagnitude] {
            let w = Self.physicsSkel(massInverse: inverse)
            let error = try #require(Self.binaryError(w.bytes), "inverse \(inverse)")
            #expect(error.location == .byteOffset(w.marks["massInverse"]!), "\(error)")
            #expect(error.expected == ValueLimits.massExpected)
        }
        // Mass timeline keys hold masses in both formats (the constraint stores the inverse).
        let keyed = try #require(
            Self.jsonError(Self.physicsJSON("", timelines: #""mass": [{"time": 0, "value": 1}, {"time": 1}]"#)))
        #expect(keyed.location == .jsonPath("$.animations.a.physics.p.mass[1].value"), "\(keyed)")
        #expect(keyed.expected == ValueLimits.massExpected)
        var w = SkelWriter()
        w.header()
        w.bones(1)
        w.slots([])
        w.noIKTransformOrPathConstraints()
        w.physics()
        w.noSkins()
        w.noEvents()
        w.animation { a in
            a.emptyTimelines(5)  // slot, bone, IK, transform, path
            a.varint(1)  // one physics group
            a.varint(1)  // constraint 0, stored plus one
            a.varint(1)  // one timeline
            a.byte(4)  // mass
            a.varint(1)  // one key
            a.varint(0)  // bezier count
            a.float(0)  // time
            a.mark("key")
            a.float(-3)  // mass
            a.emptyTimelines(3)  // attachment, draw order, event
        }
        let binaryKeyed = try #require(Self.binaryError(w.bytes))
        #expect(binaryKeyed.location == .byteOffset(w.marks["key"]!), "\(binaryKeyed)")
        #expect(binaryKeyed.expected == ValueLimits.massExpected)
        // The masses an editor writes load, the same from both formats.
        let json = try Self.json(Self.physicsJSON(#", "mass": 2.5"#))
        let binary = try SkeletonBinaryReader.read(
            bytes: Self.physicsSkel(massInverse: 1 / 2.5).bytes, file: "ok.skel", atlas: nil)
        #expect(json.physicsConstraints[0].massInverse == binary.physicsConstraints[0].massInverse)
    }

    @Test func physicsDampingIsClampedToZeroThroughOneByBothReaders() throws {
        for (given, kept): (Float, Float) in [(5, 1), (-0.5, 0), (1.0001, 1), (0.8982, 0.8982), (0, 0), (1, 1)] {
            let json = try Self.json(Self.physicsJSON(#", "damping": \#(given)"#))
            #expect(json.physicsConstraints[0].damping == kept, "JSON damping \(given)")
            let binary = try SkeletonBinaryReader.read(
                bytes: Self.physicsSkel(damping: given).bytes, file: "d.skel", atlas: nil)
            #expect(binary.physicsConstraints[0].damping == kept, "binary damping \(given)")
        }
        // Timeline keys too; what lies between keys follows their curve.
        let keyed = try Self.json(
            Self.physicsJSON("", timelines: #""damping": [{"time": 0, "value": 7}, {"time": 1, "value": -2}]"#))
        let frames = keyed.animations[0].frames
        #expect(frames == [0, 1, 1, 0])
    }

    static func rotateSkel(curve: UInt8, handles: [Float] = []) -> SkelWriter {
        var w = SkelWriter()
        w.header()
        w.bones(1)
        w.slots([])
        w.noIKTransformOrPathConstraints()
        w.noPhysics()
        w.noSkins()
        w.noEvents()
        w.animation { a in
            a.varint(0)  // slot timelines
            a.varint(1)  // one bone group
            a.varint(0)  // bone 0
            a.varint(1)  // one timeline
            a.byte(0)  // rotate
            a.varint(2)  // two keys
            a.varint(handles.isEmpty ? 0 : 1)  // bezier count
            a.floats([0, 0, 1, 90])  // time 0: 0 degrees; time 1: 90 degrees
            a.mark("curve")
            a.byte(curve)
            a.mark("handles")
            a.floats(handles)
            a.emptyTimelines(7)
        }
        return w
    }

    @Test func unknownCurveTypesAreRefusedByBothReaders() throws {
        for code: UInt8 in [3, 0x7F, 0xFF] {
            let w = Self.rotateSkel(curve: code)
            let error = try #require(Self.binaryError(w.bytes), "curve \(code)")
            #expect(error.location == .byteOffset(w.marks["curve"]!), "\(error)")
            #expect(error.expected == "a curve type in 0...2 (linear, stepped, bezier)")
        }
        let json =
            #"{"bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": {"rotate": [{"time": 0, "curve": "CURVE"}, {"time": 1, "value": 90}]}}}}}"#
        for curve in [#""linear""#, "3", #""bezier""#, "{}"] {
            let error = try #require(Self.jsonError(json.replacingOccurrences(of: #""CURVE""#, with: curve)))
            #expect(error.location == .jsonPath("$.animations.a.bones.root.rotate[0].curve"), "\(error)")
        }
        // The codes an export writes load: linear, stepped, bezier.
        for (code, handles) in [(0, []), (1, []), (2, [0.25, 0, 0.75, 90])] as [(UInt8, [Float])] {
            let data = try SkeletonBinaryReader.read(
                bytes: Self.rotateSkel(curve: code, handles: handles).bytes, file: "ok.skel", atlas: nil)
            #expect(data.animations[0].timelines.count == 1)
        }
    }

    @Test func bezierHandlesThatOverflowTheCurveAreRefusedByBothReaders() throws {
        let huge = Float.greatestFiniteMagnitude
        let w = Self.rotateSkel(curve: 2, handles: [huge, 0, -huge, 90])
        let error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["handles"]!), "\(error)")
        #expect(error.expected == ValueLimits.bezierExpected)
        let json =
            #"{"bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": {"rotate": [{"time": 0, "curve": [3.4e38, 0, -3.4e38, 90]}, {"time": 1, "value": 90}]}}}}}"#
        let jsonError = try #require(Self.jsonError(json))
        #expect(jsonError.location == .jsonPath("$.animations.a.bones.root.rotate[0].curve"), "\(jsonError)")
        #expect(jsonError.expected == ValueLimits.bezierExpected)
        // Handles outside the key interval but within range load (the curve is then evaluated by
        // a bounded scan over its samples; see HostileDataPlaybackTests).
        let outside = try SkeletonBinaryReader.read(
            bytes: Self.rotateSkel(curve: 2, handles: [-5, -1000, 7, 1000]).bytes, file: "ok.skel", atlas: nil)
        let finite = outside.animations[0].curves.allSatisfy { $0.isFinite }
        #expect(finite)
    }

    /// A .skel whose default skin holds one mesh in slot 0: `vertices` x,y pairs, `hull`, then
    /// `triangles` indices.
    static func meshSkel(vertexCount: Int, hull: Int, triangles: [Int]) -> SkelWriter {
        var w = SkelWriter.oneAttachment(named: "m") { s in
            s.byte(2)  // a mesh, no path, colour or sequence, unweighted
            s.mark("hull")
            s.varint(hull)
            s.mark("vertices")
            s.varint(vertexCount)
            for v in 0..<vertexCount { s.floats([Float(v), Float(v % 2)]) }
            for v in 0..<vertexCount { s.floats([Float(v) / Float(max(1, vertexCount)), 0]) }  // uvs
            s.mark("triangles")
            for t in triangles { s.varint(t) }
        }
        w.noEvents()
        w.noAnimations()
        return w
    }

    static func meshJSON(uvs: String, vertices: String, triangles: String, hull: Int) -> String {
        #"{"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "m"}], "skins": [{"name": "default", "attachments": {"s": {"m": {"type": "mesh", "uvs": \#(uvs), "vertices": \#(vertices), "triangles": \#(triangles), "hull": \#(hull)}}}}]}"#
    }

    @Test func degenerateMeshesAreRefusedByBothReaders() throws {
        // No vertices.
        var w = Self.meshSkel(vertexCount: 0, hull: 0, triangles: [])
        var error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["vertices"]!), "\(error)")
        #expect(error.expected == "a mesh with at least one vertex")
        error = try #require(Self.jsonError(Self.meshJSON(uvs: "[]", vertices: "[]", triangles: "[]", hull: 0)))
        #expect(error.expected == "a mesh with at least one vertex", "\(error)")
        // A hull of more vertices than the mesh has (the .skel counts hull vertices, not floats).
        w = Self.meshSkel(vertexCount: 3, hull: 5, triangles: [])
        error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["hull"]!), "\(error)")
        #expect(error.expected == "a hull vertex count in 0...3")
        let triangle = (uvs: "[0, 0, 1, 0, 0, 1]", vertices: "[0, 0, 10, 0, 0, 10]")
        error = try #require(
            Self.jsonError(
                Self.meshJSON(uvs: triangle.uvs, vertices: triangle.vertices, triangles: "[0, 1, 2]", hull: 5)))
        #expect(error.location == .jsonPath("$.skins[0].attachments.s.m.hull"), "\(error)")
        // Triangle indices past the vertices, or not three per triangle.
        w = Self.meshSkel(vertexCount: 3, hull: 3, triangles: [0, 1, 3])
        error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["triangles"]! + 2), "\(error)")
        error = try #require(
            Self.jsonError(
                Self.meshJSON(uvs: triangle.uvs, vertices: triangle.vertices, triangles: "[0, 1, 3]", hull: 3)))
        #expect(error.location == .jsonPath("$.skins[0].attachments.s.m.triangles[2]"), "\(error)")
        error = try #require(
            Self.jsonError(Self.meshJSON(uvs: triangle.uvs, vertices: triangle.vertices, triangles: "[0, 1]", hull: 3)))
        #expect(error.expected == "three vertex indices per triangle", "\(error)")
        // Odd uvs, and vertices that do not match the uvs.
        error = try #require(
            Self.jsonError(Self.meshJSON(uvs: "[0, 0, 1]", vertices: triangle.vertices, triangles: "[]", hull: 0)))
        #expect(error.expected == "an even number of uvs", "\(error)")
        error = try #require(
            Self.jsonError(Self.meshJSON(uvs: triangle.uvs, vertices: "[0, 0, 10, 0]", triangles: "[]", hull: 0)))
        #expect("\(error.location)".hasPrefix("$.skins[0].attachments.s.m.vertices"), "\(error)")
        // The same triangle loads from both.
        let binary = try SkeletonBinaryReader.read(
            bytes: Self.meshSkel(vertexCount: 3, hull: 3, triangles: [0, 1, 2]).bytes, file: "ok.skel", atlas: nil)
        let json = try Self.json(
            Self.meshJSON(uvs: triangle.uvs, vertices: triangle.vertices, triangles: "[0, 1, 2]", hull: 3))
        #expect(binary.attachments[0].triangles == json.attachments[0].triangles)
    }

    static func sequenceJSON(_ sequence: String) -> String {
        #"{"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "r"}], "skins": [{"name": "default", "attachments": {"s": {"r": {"sequence": \#(sequence)}}}}]}"#
    }

    static func sequenceSkel(count: Int, start: Int, digits: Int, setup: Int) -> SkelWriter {
        var w = SkelWriter.oneAttachment(named: "r") { s in
            s.byte(64)  // a region with a sequence
            s.mark("count")
            s.varint(count)
            s.varint(start)
            s.mark("digits")
            s.varint(digits)
            s.mark("setup")
            s.varint(setup)
            s.floats([0, 0, 1, 1, 32, 32])
        }
        w.noEvents()
        w.noAnimations()
        return w
    }

    @Test func sequenceCountsAndSetupFramesAreDecidedAlikeByBothReaders() throws {
        // No frames, a negative setup frame, absurd padding: refused by both.
        var w = Self.sequenceSkel(count: 0, start: 1, digits: 0, setup: 0)
        var error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["count"]!), "\(error)")
        error = try #require(Self.jsonError(Self.sequenceJSON(#"{"count": 0}"#)))
        #expect(error.location == .jsonPath("$.skins[0].attachments.s.r.sequence.count"), "\(error)")
        w = Self.sequenceSkel(count: 3, start: 1, digits: 0, setup: -1)
        error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["setup"]!), "\(error)")
        error = try #require(Self.jsonError(Self.sequenceJSON(#"{"count": 3, "setupIndex": -1}"#)))
        #expect(error.location == .jsonPath("$.skins[0].attachments.s.r.sequence.setupIndex"), "\(error)")
        w = Self.sequenceSkel(count: 3, start: 1, digits: 1000, setup: 0)
        error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["digits"]!), "\(error)")
        error = try #require(Self.jsonError(Self.sequenceJSON(#"{"count": 3, "digits": 1000}"#)))
        #expect(error.location == .jsonPath("$.skins[0].attachments.s.r.sequence.digits"), "\(error)")
        // A setup frame past the count and an absurd start load alike: the frame shown is clamped
        // to the last (as the reference does), and frame names are only looked up in an atlas.
        let binary = try SkeletonBinaryReader.read(
            bytes: Self.sequenceSkel(count: 3, start: 2_000_000_000, digits: 2, setup: 99).bytes, file: "ok.skel",
            atlas: nil)
        let json = try Self.json(
            Self.sequenceJSON(#"{"count": 3, "start": 2000000000, "digits": 2, "setupIndex": 99}"#))
        #expect(binary.attachments[0].sequence?.setupIndex == 99)
        #expect(json.attachments[0].sequence?.setupIndex == 99)
        #expect(json.attachments[0].sequence?.path(base: "r", frame: 2) == "r2000000002")
    }

    @Test func drawOrderOffsetsPastTheSlotsAreRefusedByBothReaders() throws {
        let json =
            #"{"bones": [{"name": "root"}], "slots": [{"name": "a", "bone": "root"}, {"name": "b", "bone": "root"}], "animations": {"x": {"drawOrder": [{"time": 0, "offsets": [{"slot": "b", "offset": OFFSET}]}]}}}"#
        for offset in ["1", "-2", "2147483647"] {
            let error = try #require(Self.jsonError(json.replacingOccurrences(of: "OFFSET", with: offset)))
            #expect(error.location == .jsonPath("$.animations.x.drawOrder[0].offsets[0].offset"), "\(error)")
        }
        var w = SkelWriter()
        w.header()
        w.bones(1)
        w.slots([(bone: 0, attachment: 0), (bone: 0, attachment: 0)])
        w.noIKTransformOrPathConstraints()
        w.noPhysics()
        w.noSkins()
        w.noEvents()
        w.animation { a in
            a.emptyTimelines(7)  // up to the attachment timelines
            a.varint(1)  // one draw order key
            a.float(0)
            a.varint(1)  // one change
            a.varint(1)  // slot b
            a.mark("offset")
            a.varint(1)  // to position 2 of 2
            a.emptyTimelines(1)
        }
        let error = try #require(Self.binaryError(w.bytes))
        #expect(error.location == .byteOffset(w.marks["offset"]!), "\(error)")
    }

    @Test func aLoadScaleThatOverflowsACoordinateIsRefused() throws {
        // Each value is finite in the file; the loader's scale would make it infinite.
        let json = #"{"bones": [{"name": "root", "x": 3e38}]}"#
        #expect(throws: LoadError.self) {
            _ = try SkeletonJSONReader.read(bytes: Array(json.utf8), file: "big.json", atlas: nil, scale: 10)
        }
        _ = try SkeletonJSONReader.read(bytes: Array(json.utf8), file: "big.json", atlas: nil, scale: 1)
    }

    @Test func manySkinsTimesManyBonesIsRefusedBeforeTheWorldCompilesThem() throws {
        // The world compiles one update plan per skin, each as long as the bones, slots and
        // constraints: 2,000 skins of 2,000 bones is 16 MB of plans from a file of 100 KB.
        var bones = #"{"name": "b0"}"#
        for i in 1..<2000 { bones += #", {"name": "b\#(i)", "parent": "b\#(i - 1)"}"# }
        var skins = ""
        for i in 0..<2000 { skins += (i == 0 ? "" : ", ") + #"{"name": "s\#(i)"}"# }
        let text = #"{"bones": [\#(bones)], "skins": [\#(skins)]}"#
        let error = try #require(Self.jsonError(text))
        #expect(error.kind == .limitExceeded, "\(error)")
        #expect(error.found == "2001 plans of 2000 values")
        // Real exports stay far below: mix-and-match (35 skins) needs about 0.04 values per byte.
        let mixAndMatch = try SkeletonJSONReader.read(
            bytes: Array(
                try Data(contentsOf: URL(fileURLWithPath: TestPaths.example("mix-and-match/mix-and-match-pro.json")))),
            file: "mix-and-match-pro.json", atlas: nil)
        #expect(mixAndMatch.skins.count > 30)
    }
}
