import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// The example exports in the shared reference folder (`../shared` beside the checkout).
enum BinaryFixtures {
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
