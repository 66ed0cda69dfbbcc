import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// The example exports in the shared reference folder (`../shared` beside the checkout).
private enum BinaryFixtures {
    /// Every `.skel` under the examples folder, as "example/file.skel", sorted.
    static var skelFiles: [String] { TestPaths.skeletonFiles().filter { $0.hasSuffix(".skel") } }

    static func bytes(_ relative: String) throws -> [UInt8] { try SkeletonLoader.readFile(TestPaths.example(relative)) }
}

/// Counts of a loaded skeleton under the keys `features.json` uses.
private func featureCounts(_ data: SkeletonData) -> [String: Int] {
    let entries = data.skins.flatMap(\.entries).map { data.attachments[Int($0.attachment)] }
    let meshes = entries.filter { $0.kind == .mesh }
    let timelines = data.animations.flatMap(\.timelines)
    func count(_ kinds: Set<TimelineKind>) -> Int { timelines.filter { kinds.contains($0.kind) }.count }
    return [
        "bones": data.bones.count, "slots": data.slots.count, "ik": data.ikConstraints.count,
        "transform": data.transformConstraints.count, "path": data.pathConstraints.count,
        "physics": data.physicsConstraints.count, "skins": data.skins.count, "animations": data.animations.count,
        "events": data.events.count, "attachments": entries.count,
        "region": entries.filter { $0.kind == .region }.count, "mesh": meshes.count,
        "linkedMesh": meshes.filter(\.isLinkedMesh).count, "clipping": entries.filter { $0.kind == .clipping }.count,
        "boundingBox": entries.filter { $0.kind == .boundingBox }.count,
        "pathAttachment": entries.filter { $0.kind == .path }.count,
        "point": entries.filter { $0.kind == .point }.count,
        "skinBones": data.skins.reduce(0) { $0 + $1.bones.count },
        "skinConstraints": data.skins.reduce(0) { $0 + $1.constraints.count },
        "skinRequiredBones": data.bones.filter(\.skinRequired).count,
        "nonNormalInherit": data.bones.filter { $0.inherit != .normal }.count,
        "weightedMesh": meshes.filter(\.isWeighted).count,
        "sequenceAttachments": entries.filter { $0.sequence != nil }.count,
        "maxMeshVertices": meshes.map(\.vertexCount).max() ?? 0,
        "totalMeshVertices": meshes.reduce(0) { $0 + $1.vertexCount },
        "timelines": timelines.count, "deformTimelines": count([.deform]), "sequenceTimelines": count([.sequence]),
        "drawOrderTimelines": count([.drawOrder]), "eventTimelines": count([.event]),
        "eventKeys": timelines.filter { $0.kind == .event }.reduce(0) { $0 + Int($1.frameCount) },
        "attachmentTimelines": count([.attachment]), "colorTimelines": count([.rgba, .rgb, .alpha, .rgba2, .rgb2]),
        "ikTimelines": count([.ik]), "transformTimelines": count([.transform]),
        "pathTimelines": count([.pathPosition, .pathSpacing, .pathMix]),
        "physicsTimelines": count([
            .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
            .physicsMix,
        ]),
        "physicsResetTimelines": count([.physicsReset]), "inheritTimelines": count([.inherit]),
    ]
}

/// The .skel file loaded by the binary reader, and its .json twin parsed by Foundation.
private func loadWithJSONTwin(_ file: String) throws -> (SkeletonData, [String: Any]) {
    let jsonPath = TestPaths.example(String(file.dropLast(5)) + ".json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath)))
    let json = try #require(object as? [String: Any], "\(jsonPath) is not a JSON object")
    return (try SkeletonLoader.load(file: TestPaths.example(file), atlas: nil), json)
}

private func number(_ map: [String: Any]?, _ key: String, _ fallback: Float) -> Float {
    (map?[key] as? NSNumber).map { Float(truncating: $0) } ?? fallback
}

private func flag(_ map: [String: Any]?, _ key: String, _ fallback: Bool = false) -> Bool {
    (map?[key] as? NSNumber)?.boolValue ?? fallback
}

/// Equal up to the JSON export's rounding (values are written with a few decimals).
private func near(_ a: Float, _ b: Float, _ tolerance: Float = 0.006) -> Bool {
    abs(a - b) <= tolerance + 1e-5 * abs(b)
}

private func near(_ a: [Float], _ b: [Float], _ tolerance: Float = 0.006) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { near($0, $1, tolerance) }
}

private func near(_ a: Color, _ hex: String?) -> Bool {
    let b = hex.flatMap { Color(hex: $0) } ?? .white
    return near([a.r, a.g, a.b, a.a], [b.r, b.g, b.b, b.a], 0.002)
}

private func floats(_ value: Any?) -> [Float] { (value as? [NSNumber])?.map { Float(truncating: $0) } ?? [] }

/// The latest key time anywhere under a JSON animation (keys are objects with a "time").
private func latestTime(_ value: Any) -> Float {
    if let map = value as? [String: Any] {
        return map.values.reduce(number(map, "time", 0)) { max($0, latestTime($1)) }
    }
    if let list = value as? [Any] { return list.reduce(0) { max($0, latestTime($1)) } }
    return 0
}

/// Deterministic pseudo-random numbers (SplitMix64) for reproducible corruption tests.
private struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Writes the binary format, for hand-made test files.
private struct SkelWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { byte(value ? 1 : 0) }
    mutating func int(_ value: Int32) {
        let u = UInt32(bitPattern: value)
        bytes += [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
    }
    mutating func float(_ value: Float) { int(Int32(bitPattern: value.bitPattern)) }
    mutating func varint(_ value: Int) {
        var u = UInt32(truncatingIfNeeded: value)
        while u >= 0x80 {
            byte(UInt8(u & 0x7F) | 0x80)
            u >>= 7
        }
        byte(UInt8(u))
    }
    mutating func string(_ value: String?) {
        guard let value else { return varint(0) }
        varint(value.utf8.count + 1)
        bytes += Array(value.utf8)
    }

    mutating func header(version: String? = "4.2.43") {
        int(0x1234)
        int(0x5678)
        string(version)
        for _ in 0..<5 { float(0) }  // x, y, width, height, reference scale
        bool(false)  // no nonessential data
    }

    /// A root bone named `name` (or a child of `parent`).
    mutating func bone(_ name: String, parent: Int?) {
        string(name)
        if let parent { varint(parent) }
        for value: Float in [0, 0, 0, 1, 1, 0, 0, 0] { float(value) }  // rotation ... length
        varint(0)  // inherit
        bool(false)  // skin required
    }

    mutating func slot(_ name: String, bone: Int) {
        string(name)
        varint(bone)
        bytes += [255, 255, 255, 255, 255, 255, 255, 255]  // colour, no dark colour
        varint(0)  // no setup attachment
        varint(0)  // normal blending
    }
}

/// A small skeleton: strings ["mesh"], one bone, `slots` slots, a default skin whose slot 0 holds
/// an unweighted 3-vertex mesh "mesh", no events, and one animation whose body `animation` writes
/// after the timeline count.
private func craftedSkeleton(slots: Int = 1, animation: (inout SkelWriter) -> Void) -> [UInt8] {
    var w = SkelWriter()
    w.header()
    w.varint(1)
    w.string("mesh")
    w.varint(1)
    w.bone("root", parent: nil)
    w.varint(slots)
    for i in 0..<slots { w.slot("slot\(i)", bone: 0) }
    for _ in 0..<4 { w.varint(0) }  // ik, transform, path, physics
    w.varint(1)  // default skin: one slot
    w.varint(0)  // slot 0
    w.varint(1)  // one attachment
    w.varint(1)  // key name "mesh"
    w.byte(2)  // mesh, no optional fields, unweighted
    w.varint(3)  // hull
    w.varint(3)  // vertices
    for value: Float in [0, 0, 10, 0, 0, 10] { w.float(value) }
    for value: Float in [0, 0, 1, 0, 0, 1] { w.float(value) }
    for index in [0, 1, 2] { w.varint(index) }  // (6 - 3 - 2) * 3 triangle indices
    w.varint(0)  // no other skins
    w.varint(0)  // no events
    w.varint(1)  // one animation
    w.string("anim")
    w.varint(1)  // timeline count hint
    animation(&w)
    return w.bytes
}

/// Writes the timeline groups before attachment timelines as empty.
private func noCurveTimelines(_ w: inout SkelWriter) { for _ in 0..<6 { w.varint(0) } }

private func loadError(_ body: () throws -> Void) -> LoadError? {
    do {
        try body()
        return nil
    } catch let error as LoadError {
        return error
    } catch {
        Issue.record("not a LoadError: \(error)")
        return nil
    }
}

@Suite struct BinaryReaderTests {
    static let required = [
        "bones", "slots", "ik", "transform", "path", "physics", "skins", "animations", "events", "attachments",
        "region", "mesh", "linkedMesh", "clipping", "boundingBox", "pathAttachment", "point",
    ]

    @Test func everyReferenceSkelExists() throws {
        let expected = try TestPaths.features().keys.filter { $0.hasSuffix(".skel") }.sorted()
        #expect(expected.count >= 26, "features.json lists \(expected.count) .skel files")
        #expect(BinaryFixtures.skelFiles == expected, "the .skel files on disk differ from features.json")
    }

    @Test(arguments: BinaryFixtures.skelFiles)
    func exampleLoadsWithReferenceCounts(_ file: String) throws {
        let data = try SkeletonLoader.load(file: TestPaths.example(file), atlas: nil)
        let expected = try #require(try TestPaths.features()[file], "\(file) missing from features.json")
        let actual = featureCounts(data)
        for key in Self.required {
            let reference = try #require(expected[key], "features.json has no '\(key)' for \(file)")
            #expect(actual[key] == reference, "\(file): \(key)")
        }
        // The finer counts must agree as well: they pin the timeline and attachment structure.
        for (key, reference) in expected where !Self.required.contains(key) {
            #expect(actual[key] == reference, "\(file): \(key)")
        }
        #expect(data.version.hasPrefix("4.2"))
    }

    /// Setup data agrees with the same skeleton's JSON export (read here with Foundation).
    @Test(arguments: BinaryFixtures.skelFiles)
    func setupMatchesJSONExport(_ file: String) throws {
        let jsonPath = TestPaths.example(String(file.dropLast(5)) + ".json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: jsonPath)))
        let json = try #require(object as? [String: Any])
        let data = try SkeletonLoader.load(file: TestPaths.example(file), atlas: nil)
        let bones = try #require(json["bones"] as? [[String: Any]])
        #expect(data.bones.map(\.name) == bones.map { $0["name"] as? String ?? "" })
        for (bone, map) in zip(data.bones, bones) {
            let parent = (map["parent"] as? String).flatMap { data.findBone32($0) } ?? -1
            #expect(bone.parent == parent, "\(file) bone \(bone.name) parent")
            for (value, key, fallback) in [
                (bone.x, "x", 0.0), (bone.y, "y", 0), (bone.rotation, "rotation", 0), (bone.length, "length", 0),
                (bone.scaleX, "scaleX", 1), (bone.scaleY, "scaleY", 1),
            ] {
                let expected = Float((map[key] as? NSNumber)?.doubleValue ?? fallback)
                // The JSON export rounds setup values to 2 decimals.
                #expect(abs(value - expected) <= 0.006 + 1e-5 * abs(expected), "\(file) bone \(bone.name) \(key)")
            }
        }
        let slots = json["slots"] as? [[String: Any]] ?? []
        #expect(data.slots.map(\.name) == slots.map { $0["name"] as? String ?? "" })
        for (slot, map) in zip(data.slots, slots) {
            let name = slot.attachmentName < 0 ? nil : data.attachmentNames[Int(slot.attachmentName)]
            #expect(name == map["attachment"] as? String, "\(file) slot \(slot.name) attachment")
        }
        let skins = json["skins"] as? [[String: Any]] ?? []
        #expect(data.skins.map(\.name) == skins.map { $0["name"] as? String ?? "" })
        let events = (json["events"] as? [String: Any])?.keys.sorted() ?? []
        #expect(data.events.map(\.name).sorted() == events)
        let animations = (json["animations"] as? [String: Any])?.keys.sorted() ?? []
        #expect(data.animations.map(\.name).sorted() == animations)
    }

    @Test(arguments: BinaryFixtures.skelFiles)
    func constraintsMatchJSONExport(_ file: String) throws {
        let (data, json) = try loadWithJSONTwin(file)
        func bones(_ map: [String: Any]) -> [Int32] {
            (map["bones"] as? [String] ?? []).map { data.findBone32($0) ?? -1 }
        }
        let ik = json["ik"] as? [[String: Any]] ?? []
        #expect(data.ikConstraints.map(\.name) == ik.map { $0["name"] as? String ?? "" }, "\(file) ik names")
        for (c, m) in zip(data.ikConstraints, ik) {
            #expect(
                c.bones == bones(m) && c.target == data.findBone32(m["target"] as? String ?? ""), "\(file) ik \(c.name)"
            )
            #expect(
                c.order == Int32(number(m, "order", 0)) && c.skinRequired == flag(m, "skin"), "\(file) ik \(c.name)")
            #expect(
                near(c.mix, number(m, "mix", 1)) && near(c.softness, number(m, "softness", 0)), "\(file) ik \(c.name)")
            // One-bone constraints ignore the bend direction; the exports disagree about it there.
            if c.bones.count == 2 {
                #expect(c.bendDirection == (flag(m, "bendPositive", true) ? 1 : -1), "\(file) ik \(c.name) bend")
            }
            #expect(
                [c.compress, c.stretch, c.uniform] == [flag(m, "compress"), flag(m, "stretch"), flag(m, "uniform")],
                "\(file) ik \(c.name) flags")
        }
        let transform = json["transform"] as? [[String: Any]] ?? []
        #expect(data.transformConstraints.map(\.name) == transform.map { $0["name"] as? String ?? "" })
        for (c, m) in zip(data.transformConstraints, transform) {
            #expect(
                c.bones == bones(m) && c.target == data.findBone32(m["target"] as? String ?? ""), "\(file) \(c.name)")
            #expect([c.local, c.relative] == [flag(m, "local"), flag(m, "relative")], "\(file) \(c.name) flags")
            let mixX = number(m, "mixX", 1)
            let mixScaleX = number(m, "mixScaleX", 1)
            let expected = [
                number(m, "mixRotate", 1), mixX, number(m, "mixY", mixX), mixScaleX, number(m, "mixScaleY", mixScaleX),
                number(m, "mixShearY", 1), number(m, "rotation", 0), number(m, "x", 0), number(m, "y", 0),
                number(m, "scaleX", 0), number(m, "scaleY", 0), number(m, "shearY", 0),
            ]
            let actual = [
                c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY, c.offsetRotation, c.offsetX,
                c.offsetY, c.offsetScaleX, c.offsetScaleY, c.offsetShearY,
            ]
            #expect(near(actual, expected), "\(file) transform \(c.name): \(actual) vs \(expected)")
        }
        let path = json["path"] as? [[String: Any]] ?? []
        #expect(data.pathConstraints.map(\.name) == path.map { $0["name"] as? String ?? "" })
        for (c, m) in zip(data.pathConstraints, path) {
            #expect(
                c.bones == bones(m) && c.target == data.findSlot32(m["target"] as? String ?? ""), "\(file) \(c.name)")
            let modes = [
                (m["positionMode"] as? String ?? "percent") == "fixed" ? 0 : 1,
                ["length", "fixed", "percent", "proportional"].firstIndex(of: m["spacingMode"] as? String ?? "length"),
                ["tangent", "chain", "chainScale"].firstIndex(of: m["rotateMode"] as? String ?? "tangent"),
            ]
            #expect(
                modes == [Int(c.positionMode.rawValue), Int(c.spacingMode.rawValue), Int(c.rotateMode.rawValue)],
                "\(file) path \(c.name) modes")
            let mixX = number(m, "mixX", 1)
            #expect(
                near(
                    [c.offsetRotation, c.position, c.spacing, c.mixRotate, c.mixX, c.mixY],
                    [
                        number(m, "rotation", 0), number(m, "position", 0), number(m, "spacing", 0),
                        number(m, "mixRotate", 1), mixX, number(m, "mixY", mixX),
                    ]), "\(file) path \(c.name) values")
        }
        let physics = json["physics"] as? [[String: Any]] ?? []
        #expect(data.physicsConstraints.map(\.name) == physics.map { $0["name"] as? String ?? "" })
        for (c, m) in zip(data.physicsConstraints, physics) {
            #expect(c.bone == data.findBone32(m["bone"] as? String ?? ""), "\(file) physics \(c.name) bone")
            let expected = [
                number(m, "x", 0), number(m, "y", 0), number(m, "rotate", 0), number(m, "scaleX", 0),
                number(m, "shearX", 0), number(m, "limit", 5000), 1 / number(m, "fps", 60), number(m, "inertia", 1),
                number(m, "strength", 100), number(m, "damping", 1), 1 / number(m, "mass", 1), number(m, "wind", 0),
                number(m, "gravity", 0), number(m, "mix", 1),
            ]
            let actual = [
                c.x, c.y, c.rotate, c.scaleX, c.shearX, c.limit, c.step, c.inertia, c.strength, c.damping,
                c.massInverse, c.wind, c.gravity, c.mix,
            ]
            #expect(near(actual, expected, 0.01), "\(file) physics \(c.name): \(actual) vs \(expected)")
            let globals = ["inertia", "strength", "damping", "mass", "wind", "gravity", "mix"].map {
                flag(m, $0 + "Global")
            }
            #expect(
                globals == [
                    c.inertiaGlobal, c.strengthGlobal, c.dampingGlobal, c.massGlobal, c.windGlobal, c.gravityGlobal,
                    c.mixGlobal,
                ], "\(file) physics \(c.name) globals")
        }
    }

    @Test(arguments: BinaryFixtures.skelFiles)
    func attachmentsMatchJSONExport(_ file: String) throws {
        let (data, json) = try loadWithJSONTwin(file)
        let skins = json["skins"] as? [[String: Any]] ?? []
        for skinMap in skins {
            let skinName = skinMap["name"] as? String ?? ""
            let skin = try #require(data.findSkin32(skinName), "\(file): skin \(skinName)")
            let skinData = data.skins[Int(skin)]
            let bones = (skinMap["bones"] as? [String] ?? []).map { data.findBone32($0) ?? -1 }
            #expect(Set(skinData.bones) == Set(bones), "\(file) skin \(skinName) bones")
            var constraints: [ConstraintRef] = []
            for (key, kind, names) in [
                ("ik", ConstraintKind.ik, data.ikConstraints.map(\.name)),
                ("transform", .transform, data.transformConstraints.map(\.name)),
                ("path", .path, data.pathConstraints.map(\.name)),
                ("physics", .physics, data.physicsConstraints.map(\.name)),
            ] {
                for name in skinMap[key] as? [String] ?? [] {
                    constraints.append(ConstraintRef(kind, Int32(names.firstIndex(of: name) ?? -1)))
                }
            }
            #expect(Set(skinData.constraints) == Set(constraints), "\(file) skin \(skinName) constraints")
            let slots = skinMap["attachments"] as? [String: [String: [String: Any]]] ?? [:]
            #expect(skinData.entries.count == slots.values.reduce(0) { $0 + $1.count }, "\(file) skin \(skinName)")
            for (slotName, attachments) in slots {
                let slot = try #require(data.findSlot32(slotName))
                for (key, m) in attachments {
                    let what = "\(file) skin \(skinName) slot \(slotName) attachment \(key)"
                    guard let nameID = data.attachmentNameID(key),
                        let index = data.attachment(skin: skin, slot: slot, name: nameID)
                    else {
                        Issue.record("\(what): missing")
                        continue
                    }
                    try compareAttachment(data, Int(index), m, key: key, what)
                }
            }
        }
    }

    private func compareAttachment(_ data: SkeletonData, _ index: Int, _ m: [String: Any], key: String, _ what: String)
        throws
    {
        let a = data.attachments[index]
        let name = m["name"] as? String ?? key
        #expect(a.name == name, "\(what) name")
        let type = m["type"] as? String ?? "region"
        let kinds: [String: AttachmentKind] = [
            "region": .region, "mesh": .mesh, "linkedmesh": .mesh, "boundingbox": .boundingBox, "path": .path,
            "point": .point, "clipping": .clipping,
        ]
        #expect(a.kind == kinds[type], "\(what) kind")
        if type == "region" || type == "mesh" || type == "linkedmesh" {
            #expect(a.path == m["path"] as? String ?? name, "\(what) path")
            #expect(near(a.color, m["color"] as? String), "\(what) color")
            let sequence = m["sequence"] as? [String: Any]
            #expect((a.sequence == nil) == (sequence == nil), "\(what) sequence")
            if let s = a.sequence, let sequence {
                #expect(
                    [s.count, s.start, s.digits, s.setupIndex]
                        == [
                            Int32(number(sequence, "count", 0)), Int32(number(sequence, "start", 1)),
                            Int32(number(sequence, "digits", 0)), Int32(number(sequence, "setup", 0)),
                        ], "\(what) sequence")
            }
        }
        switch type {
        case "region":
            #expect(
                near(
                    [a.x, a.y, a.rotation, a.scaleX, a.scaleY, a.width, a.height],
                    [
                        number(m, "x", 0), number(m, "y", 0), number(m, "rotation", 0), number(m, "scaleX", 1),
                        number(m, "scaleY", 1), number(m, "width", 32), number(m, "height", 32),
                    ]), "\(what) geometry")
        case "linkedmesh":
            #expect(a.isLinkedMesh, "\(what) linked")
            guard a.parentMesh >= 0 else { return }
            let parentSkin = try #require(data.findSkin32(m["skin"] as? String ?? "default"))
            let parentEntry = data.skins[Int(parentSkin)].entries.first { $0.attachment == a.parentMesh }
            #expect(parentEntry.map { data.attachmentNames[Int($0.name)] } == m["parent"] as? String, "\(what) parent")
            let inherits = flag(m, "timelines", true)
            #expect(a.timelineAttachment == (inherits ? a.parentMesh : Int32(index)), "\(what) timeline attachment")
            #expect(a.vertices == data.attachments[Int(a.parentMesh)].vertices, "\(what) vertices")
        case "point":
            #expect(
                near([a.x, a.y, a.rotation], [number(m, "x", 0), number(m, "y", 0), number(m, "rotation", 0)]),
                "\(what) point")
        default:
            #expect(!a.isLinkedMesh, "\(what) linked")
            let json = floats(m["vertices"])
            let uvs = floats(m["uvs"])
            let vertexCount = type == "mesh" ? uvs.count / 2 : Int(number(m, "vertexCount", 0))
            #expect(a.vertexCount == vertexCount, "\(what) vertex count")
            if json.count == vertexCount * 2 {
                #expect(a.bones.isEmpty && near(a.vertices, json), "\(what) vertices")
            } else {
                var bones: [Int32] = []
                var weights: [Float] = []
                var i = 0
                while i < json.count {
                    let n = Int(json[i])
                    bones.append(Int32(n))
                    for k in 0..<n where i + 4 + k * 4 < json.count + 1 {
                        bones.append(Int32(json[i + 1 + k * 4]))
                        weights += json[(i + 2 + k * 4)..<(i + 5 + k * 4)]
                    }
                    i += 1 + n * 4
                }
                #expect(a.bones == bones && near(a.vertices, weights), "\(what) weighted vertices")
            }
            if type == "mesh" {
                #expect(near(a.regionUVs, uvs, 1e-4), "\(what) uvs")
                #expect(a.triangles.map { Int($0) } == (m["triangles"] as? [Int] ?? []), "\(what) triangles")
                #expect(a.hullLength == Int32(number(m, "hull", 0)), "\(what) hull")
                #expect(a.edges.map { Int($0) } == (m["edges"] as? [Int] ?? []), "\(what) edges")
            }
            if type == "path" {
                #expect(a.closed == flag(m, "closed") && a.constantSpeed == flag(m, "constantSpeed", true), "\(what)")
                #expect(near(a.lengths, floats(m["lengths"]), 0.01), "\(what) lengths")
            }
            if type == "clipping" {
                #expect(a.endSlot == (m["end"] as? String).flatMap { data.findSlot32($0) } ?? -1, "\(what) end slot")
            }
        }
    }

    @Test(arguments: BinaryFixtures.skelFiles)
    func animationsMatchJSONExport(_ file: String) throws {
        let (data, json) = try loadWithJSONTwin(file)
        let animations = json["animations"] as? [String: [String: Any]] ?? [:]
        let slotCount = data.slots.count
        for animation in data.animations {
            let m = try #require(animations[animation.name], "\(file): animation \(animation.name)")
            let what = "\(file) animation \(animation.name)"
            #expect(near(animation.duration, latestTime(m), 1e-4), "\(what) duration")
            // Draw order keys are full permutations of the slots.
            let drawOrder = m["drawOrder"] as? [[String: Any]] ?? []
            let orders = animation.timelines.filter { $0.kind == .drawOrder }
            #expect(orders.count == (drawOrder.isEmpty ? 0 : 1), "\(what) draw order timeline")
            for t in orders {
                #expect(Int(t.frameCount) == drawOrder.count && Int(t.valueStride) == slotCount, "\(what) draw order")
                for f in 0..<Int(t.frameCount) {
                    let start = Int(t.valuesStart) + f * slotCount
                    let order = animation.ints[start..<start + slotCount].map { Int($0) }
                    #expect(order.sorted() == Array(0..<slotCount), "\(what) draw order key \(f)")
                }
            }
            // Event keys: event, values and the string/volume fallbacks.
            let events = m["events"] as? [[String: Any]] ?? []
            #expect(animation.events.count == events.count, "\(what) event keys")
            for (key, e) in zip(animation.events, events) {
                let event = data.events[Int(key.event)]
                let eventMap = (json["events"] as? [String: [String: Any]])?[event.name]
                #expect(event.name == e["name"] as? String, "\(what) event name")
                #expect(key.intValue == Int32(number(e, "int", number(eventMap, "int", 0))), "\(what) event int")
                #expect(near(key.floatValue, number(e, "float", number(eventMap, "float", 0))), "\(what) float")
                #expect(key.stringValue == e["string"] as? String ?? event.stringValue, "\(what) event string")
                #expect(near(key.time, number(e, "time", 0), 1e-4), "\(what) event time")
                if !event.audioPath.isEmpty {
                    #expect(near(key.volume, number(e, "volume", 1)) && near(key.balance, number(e, "balance", 0)))
                }
            }
            // Deform keys: full vertex arrays built from the JSON offsets.
            let deformSkins = m["attachments"] as? [String: [String: [String: [String: Any]]]] ?? [:]
            for (skinName, slots) in deformSkins {
                let skin = try #require(data.findSkin32(skinName))
                for (slotName, attachments) in slots {
                    let slot = try #require(data.findSlot32(slotName))
                    for (key, timelines) in attachments {
                        guard let keys = timelines["deform"] as? [[String: Any]] else { continue }
                        let index = try #require(
                            data.attachmentNameID(key).flatMap { data.attachment(skin: skin, slot: slot, name: $0) })
                        let t = try #require(
                            animation.timelines.first {
                                $0.kind == .deform && $0.target == slot && $0.attachment == index
                            },
                            "\(what) deform \(key)")
                        let a = data.attachments[Int(index)]
                        let length = a.isWeighted ? a.vertices.count / 3 * 2 : a.vertices.count
                        #expect(
                            Int(t.valueStride) == length && Int(t.frameCount) == keys.count, "\(what) deform \(key)")
                        for (f, k) in keys.enumerated() where f < Int(t.frameCount) {
                            var expected = [Float](repeating: 0, count: length)
                            let offset = Int(number(k, "offset", 0))
                            for (i, v) in floats(k["vertices"]).enumerated() { expected[offset + i] = v }
                            if !a.isWeighted { expected = zip(expected, a.vertices).map { $0 + $1 } }
                            let start = Int(t.valuesStart) + f * length
                            #expect(
                                near(Array(animation.frames[start..<start + length]), expected, 0.01),
                                "\(what) deform \(key) key \(f)")
                        }
                    }
                }
            }
        }
    }

    @Test func truncatedAtEveryOffsetThrows() throws {
        let bytes = try BinaryFixtures.bytes("coin/coin-pro.skel")
        #expect(bytes.count > 1000)
        _ = try SkeletonBinaryReader.read(bytes: bytes, file: "coin-pro.skel", atlas: nil)
        for length in 0..<bytes.count {
            let error = loadError {
                _ = try SkeletonBinaryReader.read(bytes: Array(bytes[0..<length]), file: "coin-pro.skel", atlas: nil)
            }
            guard let error else {
                Issue.record("truncated to \(length) bytes: loaded without error")
                continue
            }
            guard case .byteOffset(let offset) = error.location else {
                Issue.record("truncated to \(length) bytes: location \(error.location) is not a byte offset")
                continue
            }
            #expect(offset >= 0 && offset <= length, "truncated to \(length) bytes: error at \(offset)")
        }
    }

    /// 5,000 corrupted loads in all: 4,000 of the small coin and 1,000 of spineboy (23 times larger).
    @Test(
        .timeLimit(.minutes(5)), arguments: [("coin/coin-pro.skel", 4_000), ("spineboy/spineboy-pro.skel", 1_000)])
    func randomCorruptionNeverTraps(_ file: String, _ iterations: Int) throws {
        let original = try BinaryFixtures.bytes(file)
        var random = SplitMix64(state: 0xB0E5_0000 &+ UInt64(original.count))
        var loaded = 0
        var failed = 0
        for _ in 0..<iterations {
            var bytes = original
            for _ in 0..<(1 + random.below(4)) {
                bytes[random.below(bytes.count)] ^= UInt8(1 + random.below(255))
            }
            do {
                _ = try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: nil)
                loaded += 1
            } catch is LoadError {
                failed += 1
            } catch {
                Issue.record("not a LoadError: \(error)")
            }
        }
        #expect(loaded + failed == iterations)
        #expect(failed > 0, "corruption was never detected")
    }

    @Test func hugeCountsAreRefusedBeforeAllocating() throws {
        var cases: [(String, [UInt8])] = []
        var strings = SkelWriter()
        strings.header()
        strings.varint(Int(Int32.max))  // string count
        cases.append(("string count", strings.bytes))
        var bones = SkelWriter()
        bones.header()
        bones.varint(0)
        bones.varint(2_000_000_000)  // bone count
        cases.append(("bone count", bones.bytes))
        var negative = SkelWriter()
        negative.header()
        negative.varint(0)
        negative.varint(-5)  // a count that decodes negative
        cases.append(("negative count", negative.bytes))
        cases.append(
            (
                "key count",
                craftedSkeleton { w in
                    noCurveTimelines(&w)
                    w.varint(1)  // attachment timelines: one skin
                    w.varint(0)
                    w.varint(1)
                    w.varint(0)
                    w.varint(1)
                    w.varint(1)  // "mesh"
                    w.byte(0)  // deform
                    w.varint(1_500_000_000)  // keys
                }
            ))
        cases.append(
            (
                "draw order keys",
                craftedSkeleton { w in
                    noCurveTimelines(&w)
                    w.varint(0)
                    w.varint(Int(Int32.max))  // draw order keys
                }
            ))
        for (what, bytes) in cases {
            let start = ContinuousClock.now
            let error = loadError { _ = try SkeletonBinaryReader.read(bytes: bytes, file: "huge.skel", atlas: nil) }
            #expect(ContinuousClock.now - start < .seconds(1), "\(what): too slow")
            #expect(error?.kind == .limitExceeded || error?.kind == .truncated, "\(what): \(String(describing: error))")
        }
    }

    @Test func expandingKeysHitTheLimit() throws {
        // A mesh of 200,000 vertices, then a deform timeline whose 1-byte keys each expand to
        // 400,000 floats: the file is small, what it would expand to is not.
        var w = SkelWriter()
        w.header()
        w.varint(1)
        w.string("mesh")
        w.varint(1)
        w.bone("root", parent: nil)
        w.varint(1)
        w.slot("slot", bone: 0)
        for _ in 0..<4 { w.varint(0) }
        w.varint(1)
        w.varint(0)
        w.varint(1)
        w.varint(1)
        w.byte(1)  // bounding box, unweighted
        w.varint(200_000)
        w.bytes += [UInt8](repeating: 0, count: 200_000 * 8)
        w.varint(0)  // no other skins
        w.varint(0)  // no events
        w.varint(1)
        w.string("anim")
        w.varint(1)
        noCurveTimelines(&w)
        w.varint(1)
        w.varint(0)
        w.varint(1)
        w.varint(0)
        w.varint(1)
        w.varint(1)
        w.byte(0)  // deform
        let keys = 2_000
        w.varint(keys)
        w.varint(0)  // beziers
        w.float(0)
        for key in 0..<keys {
            w.byte(0)  // no offsets: setup vertices
            if key < keys - 1 {
                w.float(Float(key + 1))
                w.byte(0)
            }
        }
        w.varint(0)
        w.varint(0)
        let error = loadError { _ = try SkeletonBinaryReader.read(bytes: w.bytes, file: "bomb.skel", atlas: nil) }
        #expect(error?.kind == .limitExceeded, "\(String(describing: error))")
    }

    @Test func unsupportedVersionsAreRefused() throws {
        for version in ["3.8.99", "4.1.24", "4.", "", nil] as [String?] {
            var w = SkelWriter()
            w.header(version: version)
            w.varint(0)
            let error = loadError { _ = try SkeletonBinaryReader.read(bytes: w.bytes, file: "old.skel", atlas: nil) }
            #expect(error?.kind == .unsupportedVersion, "version \(String(describing: version))")
            #expect(error?.location == .byteOffset(8))
        }
    }

    @Test func bonesMustFollowTheirParents() throws {
        var w = SkelWriter()
        w.header()
        w.varint(0)
        w.varint(2)
        w.bone("root", parent: nil)
        let at = w.bytes.count + 5
        w.bone("self", parent: 1)
        let error = loadError { _ = try SkeletonBinaryReader.read(bytes: w.bytes, file: "cycle.skel", atlas: nil) }
        #expect(error?.kind == .cycle)
        #expect(error?.location == .byteOffset(at))
    }

    @Test func outOfRangeIndicesNameTheOffset() throws {
        var w = SkelWriter()
        w.header()
        w.varint(0)
        w.varint(1)
        w.bone("root", parent: nil)
        w.varint(1)
        w.string("slot")
        let at = w.bytes.count
        w.varint(3)  // bone 3 of 1
        w.bytes += [UInt8](repeating: 0, count: 32)
        let error = loadError { _ = try SkeletonBinaryReader.read(bytes: w.bytes, file: "index.skel", atlas: nil) }
        #expect(error?.kind == .malformed)
        #expect(error?.location == .byteOffset(at))
        #expect(error?.expected.contains("0..<1") == true)
    }

    @Test func deformKeysAreFullVertexArrays() throws {
        let bytes = craftedSkeleton { w in
            noCurveTimelines(&w)
            w.varint(1)
            w.varint(0)
            w.varint(1)
            w.varint(0)
            w.varint(1)
            w.varint(1)  // "mesh"
            w.byte(0)  // deform
            w.varint(3)  // keys
            w.varint(1)  // beziers
            w.float(0)
            w.varint(0)  // key 0: setup vertices
            w.float(0.5)
            w.byte(1)  // stepped
            w.varint(2)  // key 1: 2 offsets from index 3
            w.varint(3)
            w.float(1)
            w.float(2)
            w.float(1.25)
            w.byte(2)  // bezier
            for value: Float in [0.7, 0.1, 0.8, 0.9] { w.float(value) }
            w.varint(0)  // key 2: setup vertices
            w.varint(0)  // no draw order
            w.varint(0)  // no events
        }
        let data = try SkeletonBinaryReader.read(bytes: bytes, file: "deform.skel", atlas: nil)
        let animation = try #require(data.animations.first)
        #expect(animation.duration == 1.25)
        let t = try #require(animation.timelines.first)
        #expect(t.kind == .deform && t.frameCount == 3 && t.valueStride == 6 && t.attachment == 0)
        let values = Array(animation.frames[Int(t.valuesStart)..<Int(t.valuesStart) + 18])
        #expect(values == [0, 0, 10, 0, 0, 10, 0, 0, 10, 1, 2, 10, 0, 0, 10, 0, 0, 10])
        let curves = Array(animation.curves[Int(t.curvesStart)..<Int(t.curvesStart + t.curvesCount)])
        #expect(curves.count == 3 + CurveType.bezierSize)
        #expect(curves[0] == CurveType.stepped && curves[1] == CurveType.bezier + 3 && curves[2] == CurveType.stepped)
    }

    @Test func drawOrderKeysArePermutations() throws {
        let bytes = craftedSkeleton(slots: 4) { w in
            noCurveTimelines(&w)
            w.varint(0)  // no attachment timelines
            w.varint(2)  // draw order keys
            w.float(0)
            w.varint(1)
            w.varint(2)  // slot 2 ...
            w.varint(-2)  // ... moves 2 earlier
            w.float(1)
            w.varint(0)  // setup order
            w.varint(0)  // no events
        }
        let data = try SkeletonBinaryReader.read(bytes: bytes, file: "order.skel", atlas: nil)
        let animation = try #require(data.animations.first)
        let t = try #require(animation.timelines.first)
        #expect(t.kind == .drawOrder && t.valueStride == 4 && t.frameCount == 2)
        #expect(Array(animation.ints[Int(t.valuesStart)..<Int(t.valuesStart) + 8]) == [2, 0, 1, 3, 0, 1, 2, 3])
    }

    @Test func conflictingDrawOrderIsRefused() throws {
        let bytes = craftedSkeleton(slots: 3) { w in
            noCurveTimelines(&w)
            w.varint(0)
            w.varint(1)
            w.float(0)
            w.varint(2)
            w.varint(0)
            w.varint(1)  // slot 0 to position 1
            w.varint(1)
            w.varint(0)  // slot 1 to position 1 as well
            w.varint(0)
        }
        let error = loadError { _ = try SkeletonBinaryReader.read(bytes: bytes, file: "order.skel", atlas: nil) }
        #expect(error?.kind == .malformed)
    }

    @Test func spineboyCurvesAndEvents() throws {
        let data = try SkeletonLoader.load(file: TestPaths.example("spineboy/spineboy-pro.skel"), atlas: nil)
        let walk = try #require(data.findAnimation("walk").map { data.animations[Int($0)] })
        #expect(abs(walk.duration - 1.0) < 1e-6)
        // Every bezier marker points at 18 samples inside its timeline's curves.
        var beziers = 0
        for animation in data.animations {
            for t in animation.timelines where t.kind.hasCurves {
                for f in 0..<Int(t.frameCount) {
                    let marker = animation.curves[Int(t.curvesStart) + f]
                    if marker >= CurveType.bezier {
                        beziers += 1
                        let start = Int(marker - CurveType.bezier)
                        #expect(start >= Int(t.frameCount) && start + CurveType.bezierSize <= Int(t.curvesCount))
                    }
                }
            }
        }
        #expect(beziers > 100)
        let events = data.animations.flatMap(\.events)
        #expect(events.contains { data.events[Int($0.event)].name == "footstep" })
    }
}
