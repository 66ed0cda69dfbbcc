import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// The shared example exports (`../shared` beside the repository checkout).
private enum JSONExamples {
    /// Every `.json` export as "example/file.json", sorted.
    static let files: [String] = TestPaths.skeletonFiles().filter { $0.hasSuffix(".json") }

    static func bytes(_ relative: String) throws -> [UInt8] {
        try SkeletonLoader.readFile(TestPaths.example(relative))
    }
}

/// The counts the reference reports per skeleton file (see golden/README.md).
private func featureCounts(_ data: SkeletonData) -> [String: Int] {
    let entries = data.skins.flatMap(\.entries).map { data.attachments[Int($0.attachment)] }
    func count(_ kind: AttachmentKind) -> Int { entries.filter { $0.kind == kind }.count }
    let timelines = data.animations.flatMap(\.timelines)
    func timelineCount(_ kinds: Set<TimelineKind>) -> Int { timelines.filter { kinds.contains($0.kind) }.count }
    return [
        "bones": data.bones.count, "slots": data.slots.count, "ik": data.ikConstraints.count,
        "transform": data.transformConstraints.count, "path": data.pathConstraints.count,
        "physics": data.physicsConstraints.count, "skins": data.skins.count, "animations": data.animations.count,
        "events": data.events.count, "attachments": entries.count, "region": count(.region), "mesh": count(.mesh),
        "linkedMesh": entries.filter { $0.kind == .mesh && $0.isLinkedMesh }.count, "clipping": count(.clipping),
        "boundingBox": count(.boundingBox), "pathAttachment": count(.path), "point": count(.point),
        "skinBones": data.skins.reduce(0) { $0 + $1.bones.count },
        "skinConstraints": data.skins.reduce(0) { $0 + $1.constraints.count },
        "skinRequiredBones": data.bones.filter(\.skinRequired).count,
        "nonNormalInherit": data.bones.filter { $0.inherit != .normal }.count,
        "weightedMesh": entries.filter { $0.kind == .mesh && $0.isWeighted }.count,
        "sequenceAttachments": entries.filter { $0.sequence != nil }.count,
        "maxMeshVertices": entries.filter { $0.kind == .mesh }.map(\.vertexCount).max() ?? 0,
        "totalMeshVertices": entries.filter { $0.kind == .mesh }.reduce(0) { $0 + $1.vertexCount },
        "timelines": timelines.count, "deformTimelines": timelineCount([.deform]),
        "sequenceTimelines": timelineCount([.sequence]), "drawOrderTimelines": timelineCount([.drawOrder]),
        "eventTimelines": timelineCount([.event]),
        "eventKeys": timelines.filter { $0.kind == .event }.reduce(0) { $0 + Int($1.frameCount) },
        "attachmentTimelines": timelineCount([.attachment]),
        "colorTimelines": timelineCount([.rgba, .rgb, .alpha, .rgba2, .rgb2]), "ikTimelines": timelineCount([.ik]),
        "transformTimelines": timelineCount([.transform]),
        "pathTimelines": timelineCount([.pathPosition, .pathSpacing, .pathMix]),
        "physicsTimelines": timelineCount([
            .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
            .physicsMix,
        ]),
        "physicsResetTimelines": timelineCount([.physicsReset]), "inheritTimelines": timelineCount([.inherit]),
    ]
}

private struct FNV1a {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ word: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) {
            value ^= UInt64((word >> UInt32(shift)) & 0xFF)
            value = value &* 0x100_0000_01B3
        }
    }
}

/// Reads JSON text, expecting failure; returns the error.
private func loadError(_ json: String, file: String = "test.json") -> LoadError? {
    do {
        _ = try SkeletonJSONReader.read(bytes: Array(json.utf8), file: file, atlas: nil)
        return nil
    } catch let error as LoadError {
        return error
    } catch {
        return nil
    }
}

private func load(_ json: String) throws -> SkeletonData {
    try SkeletonJSONReader.read(bytes: Array(json.utf8), file: "test.json", atlas: nil)
}

/// A small valid skeleton; `extra` is spliced in as further top-level members.
private func skeleton(_ extra: String = "", version: String = "4.2.40") -> String {
    """
    {
      "skeleton": { "hash": "abc", "spine": "\(version)" },
      "bones": [ { "name": "root" }, { "name": "hip", "parent": "root", "x": 1.5 } ],
      "slots": [
        { "name": "a", "bone": "root", "attachment": "box" },
        { "name": "b", "bone": "hip" },
        { "name": "c", "bone": "hip" }
      ],
      "skins": [ { "name": "default", "attachments": {
        "a": { "box": { "type": "boundingbox", "vertexCount": 2, "vertices": [ 0, 0, 10, 10 ] } }
      } } ],
      "events": { "step": { "int": 3, "string": "s" } }\(extra.isEmpty ? "" : ",\n" + extra)
    }
    """
}

@Suite struct JSONReaderTests {
    // MARK: Examples

    @Test func everyExampleIsPresent() {
        #expect(JSONExamples.files.count == 26, "expected 26 .json exports, found \(JSONExamples.files.count)")
    }

    @Test(arguments: JSONExamples.files)
    func exampleLoadsWithReferenceCounts(_ relative: String) throws {
        let data = try SkeletonJSONReader.read(bytes: try JSONExamples.bytes(relative), file: relative, atlas: nil)
        let expected = try #require(try TestPaths.features()[relative], "no reference counts for \(relative)")
        let actual = featureCounts(data)
        for key in actual.keys.sorted() {
            #expect(
                actual[key] == expected[key], "\(relative): \(key) is \(actual[key]!), reference \(expected[key] ?? -1)"
            )
        }
        #expect(data.version.hasPrefix("4.2"))
        #expect(!data.hash.isEmpty)
    }

    /// Every animation's duration is the largest last-key time, and every timeline lies in its pools.
    @Test(arguments: JSONExamples.files)
    func exampleAnimationsAreConsistent(_ relative: String) throws {
        let data = try SkeletonJSONReader.read(bytes: try JSONExamples.bytes(relative), file: relative, atlas: nil)
        for animation in data.animations {
            var duration: Float = 0
            for t in animation.timelines {
                #expect(t.frameCount > 0)
                let last = animation.frames[Int(t.framesStart) + (Int(t.frameCount) - 1) * t.kind.frameStride]
                duration = max(duration, last)
                if t.kind == .deform {
                    let a = data.attachments[Int(t.attachment)]
                    let expected = a.isWeighted ? a.vertices.count / 3 * 2 : a.vertices.count
                    #expect(Int(t.valueStride) == expected)
                }
                if t.kind == .drawOrder {
                    for f in 0..<Int(t.frameCount) {
                        let start = Int(t.valuesStart) + f * data.slots.count
                        let order = animation.ints[start..<start + data.slots.count]
                        if order.first != -1 { #expect(Set(order) == Set(0..<Int32(data.slots.count))) }
                    }
                }
            }
            #expect(animation.duration == duration, "\(relative) \(animation.name)")
        }
    }

    /// The reference traces of JSON exports record each animation's duration and the setup pose's
    /// slots: the loaded durations, setup attachments and slot colours must agree with them.
    @Test(arguments: JSONExamples.files)
    func exampleMatchesReferenceTraceSetup(_ relative: String) throws {
        let folder = TestPaths.poses.appendingPathComponent(relative)
        guard FileManager.default.fileExists(atPath: folder.path) else { return }  // some examples have no traces
        let data = try SkeletonJSONReader.read(bytes: try JSONExamples.bytes(relative), file: relative, atlas: nil)
        let traces = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var checked = 0
        for trace in traces where trace.hasSuffix(".json") {
            let object = try JSONSerialization.jsonObject(
                with: try Data(contentsOf: folder.appendingPathComponent(trace)))
            let root = try #require(object as? [String: Any])
            let name = try #require(root["animation"] as? String)
            let animation = try #require(data.findAnimation(name), "\(relative): no animation \(name)")
            let duration = try #require((root["duration"] as? NSNumber)?.doubleValue)
            #expect(abs(Double(data.animations[Int(animation)].duration) - duration) < 1e-6, "\(relative) \(name)")
            checked += 1
            guard root["skin"] is NSNull, let frames = root["frames"] as? [[String: Any]],
                let setup = frames.first, (setup["step"] as? NSNumber)?.intValue == 0,
                let slots = setup["slots"] as? [[String: Any]]
            else { continue }
            #expect(slots.count == data.slots.count)
            for (i, slot) in zip(data.slots.indices, slots) {
                let shown =
                    data.slots[i].attachmentName < 0
                    ? nil
                    : data.attachment(skin: data.defaultSkin, slot: Int32(i), name: data.slots[i].attachmentName)
                        .map { data.attachments[Int($0)].name }
                #expect(shown == slot["attachment"] as? String, "\(relative) \(name) slot \(data.slots[i].name)")
                let color = (slot["color"] as? [NSNumber])?.map(\.floatValue) ?? []
                let c = data.slots[i].color
                #expect(
                    zip(color, [c.r, c.g, c.b, c.a]).allSatisfy { abs($0 - $1) < 1e-5 } && color.count == 4,
                    "\(relative) slot \(data.slots[i].name) colour")
            }
        }
        #expect(checked > 0, "\(relative): no traces read")
    }

    /// FNV-1a digests of every animation as the reference loads it from these exports: durations,
    /// key frames, curve markers and bezier samples, deform vectors and draw orders, as float bit
    /// patterns (computed once from the reference for these files). Equal digests mean the reader
    /// reproduces the reference's numbers bit for bit.
    static let referenceTimelineDigests: [String: UInt64] = [
        "alien/alien-ess.json": 0x7E264A917AB296C3,
        "alien/alien-pro.json": 0x915462B1E638E8B4,
        "celestial-circus/celestial-circus-pro.json": 0x416C08D0C21B378D,
        "chibi-stickers/chibi-stickers.json": 0xE2296B6746313EDC,
        "cloud-pot/cloud-pot.json": 0xE5CCDF44BFB8BC2E,
        "coin/coin-pro.json": 0xDC695CE5F30B047F,
        "dragon/dragon-ess.json": 0xF7D60A753083BADB,
        "goblins/goblins-ess.json": 0xECF49259264AD121,
        "goblins/goblins-pro.json": 0xAF594D2792304A33,
        "hero/hero-ess.json": 0x3853A3F3D6EE98D6,
        "hero/hero-pro.json": 0x229FDD8ED29F4A03,
        "mix-and-match/mix-and-match-pro.json": 0xB315E9F27A58AB3A,
        "owl/owl-pro.json": 0x425DDA80F7814DFD,
        "powerup/powerup-ess.json": 0x379D5CE7B3204809,
        "powerup/powerup-pro.json": 0xE27BA41E0C5EF374,
        "raptor/raptor-pro.json": 0x56EA9D228F850542,
        "sack/sack-pro.json": 0xAFB8A260D8CDACD1,
        "snowglobe/snowglobe-pro.json": 0x51F73097A3923D58,
        "speedy/speedy-ess.json": 0xEB8F71C2277610AE,
        "spineboy/spineboy-ess.json": 0xCA1D0D2FB57B80AF,
        "spineboy/spineboy-pro.json": 0x6E3DB5D4EB19DB0D,
        "spinosaurus/spinosaurus-ess.json": 0x71EAEAA2673A461B,
        "stretchyman/stretchyman-pro.json": 0xC7E77D36E1C8B5E6,
        "tank/tank-pro.json": 0x03B7BD02865119F8,
        "vine/vine-pro.json": 0x82E61DAF6529BB22,
        "windmill/windmill-ess.json": 0x70B9AE59A3E39145,
    ]

    @Test(arguments: JSONExamples.files)
    func exampleTimelinesAreBitExact(_ relative: String) throws {
        let expected = try #require(Self.referenceTimelineDigests[relative], "no reference digest for \(relative)")
        let data = try SkeletonJSONReader.read(bytes: try JSONExamples.bytes(relative), file: relative, atlas: nil)
        var digest = FNV1a()
        for animation in data.animations {
            digest.add(animation.duration.bitPattern)
            digest.add(UInt32(animation.timelines.count))
            for t in animation.timelines {
                let frames = Int(t.frameCount) * t.kind.frameStride
                digest.add(UInt32(t.kind.rawValue))
                digest.add(UInt32(frames))
                for f in animation.frames[Int(t.framesStart)..<Int(t.framesStart) + frames] { digest.add(f.bitPattern) }
                if t.kind.hasCurves {
                    digest.add(UInt32(t.curvesCount))
                    let curves = animation.curves[Int(t.curvesStart)..<Int(t.curvesStart + t.curvesCount)]
                    for c in curves { digest.add(c.bitPattern) }
                }
                if t.kind == .deform {
                    let values = Int(t.frameCount) * Int(t.valueStride)
                    for v in animation.frames[Int(t.valuesStart)..<Int(t.valuesStart) + values] {
                        digest.add(v.bitPattern)
                    }
                }
                if t.kind == .drawOrder {
                    let n = Int(t.valueStride)
                    for f in 0..<Int(t.frameCount) {
                        let row = animation.ints[Int(t.valuesStart) + f * n..<Int(t.valuesStart) + (f + 1) * n]
                        for slot in row.first == -1 ? [-1] : Array(row) { digest.add(UInt32(bitPattern: slot)) }
                    }
                }
            }
        }
        #expect(digest.value == expected, "\(relative): timelines differ from the reference")
    }

    /// FNV-1a digests of the setup data as the reference loads it from these exports: bones,
    /// slots, constraints, events and every skin entry (in slot, name order) with its geometry,
    /// as float bit patterns and integers (computed once from the reference for these files).
    static let referenceSetupDigests: [String: UInt64] = [
        "alien/alien-ess.json": 0x5C5BABFA559EEF12,
        "alien/alien-pro.json": 0x5565FFECFA5C81F5,
        "celestial-circus/celestial-circus-pro.json": 0x12247973B6418AAE,
        "chibi-stickers/chibi-stickers.json": 0x4502CA19882194F8,
        "cloud-pot/cloud-pot.json": 0xDD58A060AC2C8305,
        "coin/coin-pro.json": 0x09D2A7C2A58B0695,
        "dragon/dragon-ess.json": 0x66499E5906FB3711,
        "goblins/goblins-ess.json": 0x31A3397F9307F087,
        "goblins/goblins-pro.json": 0xCFFAF71A947C79FF,
        "hero/hero-ess.json": 0xFE1BADFF8DD6BE3F,
        "hero/hero-pro.json": 0x4A93D9FA5A1F1621,
        "mix-and-match/mix-and-match-pro.json": 0x877417F473A9CBFB,
        "owl/owl-pro.json": 0xEA9B69B78F020E8C,
        "powerup/powerup-ess.json": 0x34806B064BAED050,
        "powerup/powerup-pro.json": 0xA38E5DF1B43B3CA3,
        "raptor/raptor-pro.json": 0xB2307013973C063C,
        "sack/sack-pro.json": 0xD6F2A32BF305B5ED,
        "snowglobe/snowglobe-pro.json": 0xC84157FD37CCA5E4,
        "speedy/speedy-ess.json": 0xF7FDAC9B088DCED9,
        "spineboy/spineboy-ess.json": 0x2F7ABBD0C2D60662,
        "spineboy/spineboy-pro.json": 0x4A8C603788BBC32F,
        "spinosaurus/spinosaurus-ess.json": 0xF5208F57A4D1D383,
        "stretchyman/stretchyman-pro.json": 0x28DDD648598B477E,
        "tank/tank-pro.json": 0xC6DEDA0FA4D2BB97,
        "vine/vine-pro.json": 0x4DF0A44D6C1DD3B0,
        "windmill/windmill-ess.json": 0x87894A12966D9142,
    ]

    @Test(arguments: JSONExamples.files)
    func exampleSetupIsBitExact(_ relative: String) throws {
        let expected = try #require(Self.referenceSetupDigests[relative], "no reference digest for \(relative)")
        let data = try SkeletonJSONReader.read(bytes: try JSONExamples.bytes(relative), file: relative, atlas: nil)
        var d = FNV1a()
        func add(_ values: Float...) { for v in values { d.add(v.bitPattern) } }
        func add<T: BinaryInteger>(_ values: [T]) { for v in values { d.add(UInt32(truncatingIfNeeded: Int(v))) } }
        func add(_ flag: Bool) { d.add(flag ? 1 : 0) }
        func add(_ c: Color) { add(c.r, c.g, c.b, c.a) }
        for b in data.bones {
            add([b.parent, Int32(b.inherit.rawValue)])
            add(b.skinRequired)
            add(b.length, b.x, b.y, b.rotation, b.scaleX, b.scaleY, b.shearX, b.shearY)
        }
        for s in data.slots {
            add([s.bone])
            add(s.color)
            if let dark = s.darkColor {
                add([1])
                add(dark)
            } else {
                add([0])
            }
            add([Int32(s.blendMode.rawValue)])
            add(s.visible)
        }
        for c in data.ikConstraints {
            add([c.order])
            add(c.skinRequired)
            add([c.bones.count] + c.bones.map(Int.init) + [Int(c.target)])
            add(c.mix, c.softness)
            add([c.bendDirection])
            add(c.compress)
            add(c.stretch)
            add(c.uniform)
        }
        for c in data.transformConstraints {
            add([c.order])
            add(c.skinRequired)
            add([c.bones.count] + c.bones.map(Int.init) + [Int(c.target)])
            add(c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY, c.offsetRotation, c.offsetX)
            add(c.offsetY, c.offsetScaleX, c.offsetScaleY, c.offsetShearY)
            add(c.relative)
            add(c.local)
        }
        for c in data.pathConstraints {
            add([c.order])
            add(c.skinRequired)
            add([c.bones.count] + c.bones.map(Int.init) + [Int(c.target)])
            add([c.positionMode.rawValue, c.spacingMode.rawValue, c.rotateMode.rawValue])
            add(c.offsetRotation, c.position, c.spacing, c.mixRotate, c.mixX, c.mixY)
        }
        for c in data.physicsConstraints {
            add([c.order])
            add(c.skinRequired)
            add([c.bone])
            add(c.x, c.y, c.rotate, c.scaleX, c.shearX, c.limit, c.step, c.inertia, c.strength, c.damping)
            add(c.massInverse, c.wind, c.gravity, c.mix)
            for flag in [
                c.inertiaGlobal, c.strengthGlobal, c.dampingGlobal, c.massGlobal, c.windGlobal, c.gravityGlobal,
                c.mixGlobal,
            ] { add(flag) }
        }
        for e in data.events {
            add([e.intValue])
            add(e.floatValue, e.volume, e.balance)
        }
        for skin in data.skins {
            add([skin.bones.count] + skin.bones.map(Int.init) + [skin.constraints.count, skin.entries.count])
            let entries = skin.entries.sorted {
                $0.slot != $1.slot
                    ? $0.slot < $1.slot
                    : Array(data.attachmentNames[Int($0.name)].utf8).lexicographicallyPrecedes(
                        Array(data.attachmentNames[Int($1.name)].utf8))
            }
            for entry in entries {
                let a = data.attachments[Int(entry.attachment)]
                add([entry.slot, Int32(a.kind.rawValue)])
                switch a.kind {
                case .region:
                    add(a.color)
                    add(a.x, a.y, a.rotation, a.scaleX, a.scaleY, a.width, a.height)
                case .mesh: add(a.color)
                case .point: add(a.x, a.y, a.rotation)
                default: break
                }
                if let sequence = a.sequence {
                    add([sequence.count, sequence.start, sequence.digits, sequence.setupIndex])
                }
                if a.kind != .region && a.kind != .point {
                    add([Int(a.worldVerticesLength), a.bones.count] + a.bones.map(Int.init) + [a.vertices.count])
                    for v in a.vertices { add(v) }
                }
                if a.kind == .mesh {
                    for v in a.regionUVs { add(v) }
                    add([a.triangles.count] + a.triangles.map(Int.init) + [Int(a.hullLength), a.edges.count])
                    add(a.edges)
                    add(a.width, a.height)
                    add(a.isLinkedMesh)
                }
                if a.kind == .path {
                    for v in a.lengths { add(v) }
                    add(a.closed)
                    add(a.constantSpeed)
                }
                if a.kind == .clipping { add([a.endSlot]) }
            }
        }
        #expect(d.value == expected, "\(relative): setup data differs from the reference")
    }

    // MARK: Numbers

    @Test func numbersFollowTheReferenceEvaluation() throws {
        // Integer part plus fraction / 10^n in double: one ulp away from a correctly rounded parse.
        let value = try #require(JSONParser.referenceValue(of: "1.7937"))
        #expect(value.bitPattern == 0x3FFC_B2FE_C56D_5CFA)
        #expect(try #require(JSONParser.referenceValue(of: "-1.7937")).bitPattern == 0xBFFC_B2FE_C56D_5CFA)
        // Decimal float midpoints where that evaluation rounds to the other float than strtof would.
        let ties: [(String, UInt32)] = [
            ("0.8081364333629608154296875", 0x3F4E_E207), ("0.5274448692798614501953125", 0x3F07_06A1),
            ("0.182650662958621978759765625", 0x3E3B_08C7),
        ]
        for (text, bits) in ties {
            let parsed = Float(try #require(JSONParser.referenceValue(of: text)))
            #expect(parsed.bitPattern == bits, "\(text)")
        }
        #expect(JSONParser.referenceValue(of: "2.5E+3") == 2500)
        #expect(JSONParser.referenceValue(of: "1e-5") == 1 / 100_000.0)
        #expect(JSONParser.referenceValue(of: "-0") == 0)
        #expect(JSONParser.referenceValue(of: "12") == 12)
        #expect(JSONParser.referenceValue(of: "1.") == 1)
        #expect(JSONParser.referenceValue(of: "-") == nil)
        #expect(JSONParser.referenceValue(of: "1e") == nil)
    }

    @Test func numbersReachTheModelThroughFloat() throws {
        let data = try load(
            skeleton().replacingOccurrences(of: "\"x\": 1.5", with: "\"x\": 0.8081364333629608154296875"))
        #expect(data.bones[1].x.bitPattern == 0x3F4E_E207)
    }

    // MARK: Parser

    @Test func objectsKeepMemberOrderAndLookUpIgnoringCase() throws {
        let doc = try JSONParser.parse(Array(#"{"b": 1, "A": [true, null, "x\u00e9\n"], "a": 3}"#.utf8), file: "t")
        let keys = doc.children(JSONDocument.root).map { doc.key($0) }
        #expect(keys == ["b", "A", "a"])
        let a = try #require(doc.member(JSONDocument.root, "a"))
        #expect(doc.type(a) == .array)  // first case-insensitive match, as the reference looks members up
        let third = try #require(doc.element(a, 2))
        #expect(doc.string(third) == "x\u{e9}\n")
        #expect(doc.path(third) == "$.A[2]")
        #expect(doc.nextSibling(third) == nil)
    }

    @Test func unicodeEscapesDecodeSurrogatePairs() throws {
        let doc = try JSONParser.parse(Array(#"["\ud83d\ude00\/\"\\"]"#.utf8), file: "t")
        #expect(doc.string(try #require(doc.element(JSONDocument.root, 0))) == "\u{1F600}/\"\\")
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: LoadError.self) { try JSONParser.parse(Array(deep.utf8), file: "deep.json") }
        let error = loadError(
            #"{"bones": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}")
        #expect(error?.kind == .limitExceeded)
        if case .byteOffset(let offset)? = error?.location {
            #expect(offset == 10 + 511)
        } else {
            Issue.record("no offset")
        }
        // 512 levels are fine for the parser.
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONParser.parse(Array(fine.utf8), file: "ok.json") }
    }

    @Test func truncatedInputIsReportedAtTheEnd() throws {
        let bytes = try JSONExamples.bytes("spineboy/spineboy-ess.json")
        let last = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        var offsets = Array(0..<400)
        offsets += stride(from: 400, to: last, by: 97)
        offsets += [last - 1, last]
        for cut in offsets {
            do {
                _ = try SkeletonJSONReader.read(bytes: Array(bytes[0..<cut]), file: "cut.json", atlas: nil)
                Issue.record("truncated at \(cut) loaded")
            } catch let error as LoadError {
                #expect(error.kind == .truncated, "cut \(cut): \(error)")
                #expect(error.location == .byteOffset(cut), "cut \(cut): \(error)")
                #expect(error.file == "cut.json")
            }
        }
    }

    @Test func syntaxErrorsNameTheByteOffset() {
        let cases: [(String, Int)] = [
            (#"{"a": 1,}"#, 8), (#"{"a" 1}"#, 5), (#"[1 2]"#, 3), (#"{"a": tru}"#, 9), (#"{"a": 1} x"#, 9),
            (#"{"a": -x}"#, 7), (#"{"a": "\uZZ00"}"#, 9), ("{'a': 1}", 1),
        ]
        for (text, offset) in cases {
            let error = loadError(text)
            #expect(error?.kind == .malformed, "\(text)")
            #expect(error?.location == .byteOffset(offset), "\(text): \(String(describing: error))")
        }
    }

    // MARK: Hostile skeletons

    @Test func validSkeletonLoads() throws {
        let data = try load(skeleton())
        #expect(data.bones.map(\.name) == ["root", "hip"])
        #expect(data.bones[1].parent == 0)
        #expect(data.slots[0].attachmentName == data.attachmentNameID("box"))
        #expect(data.defaultSkin == 0)
        #expect(data.attachments[0].worldVerticesLength == 4)
    }

    @Test func unsupportedVersionsAreRefused() {
        for version in ["3.8.99", "4.1.24", "4.3.01", ""] {
            let error = loadError(skeleton(version: version))
            #expect(error?.kind == .unsupportedVersion, "\(version)")
            #expect(error?.location == .jsonPath("$.skeleton.spine"))
        }
    }

    @Test func parentCyclesAreRefused() {
        let later = loadError(
            #"{"bones": [{"name": "root"}, {"name": "a", "parent": "b"}, {"name": "b", "parent": "root"}]}"#)
        #expect(later?.kind == .cycle)
        #expect(later?.location == .jsonPath("$.bones[1].parent"))
        let itself = loadError(#"{"bones": [{"name": "root"}, {"name": "a", "parent": "a"}]}"#)
        #expect(itself?.kind == .cycle)
        #expect(itself?.location == .jsonPath("$.bones[1].parent"))
        let rootWithParent = loadError(#"{"bones": [{"name": "root", "parent": "root"}]}"#)
        #expect(rootWithParent?.kind == .cycle)
        let nowhere = loadError(#"{"bones": [{"name": "root"}, {"name": "a", "parent": "zzz"}]}"#)
        #expect(nowhere?.kind == .unknownName)
        #expect(nowhere?.location == .jsonPath("$.bones[1].parent"))
        let secondRoot = loadError(#"{"bones": [{"name": "root"}, {"name": "a"}]}"#)
        #expect(secondRoot?.kind == .malformed)
        #expect(secondRoot?.location == .jsonPath("$.bones[1].parent"))
    }

    @Test func wrongTypesNameThePath() {
        let cases: [(String, String, String)] = [
            (#""x": 1.5"#, #""x": "far""#, "$.bones[1].x"),
            (#"{ "name": "root" }"#, #"{ "name": 7 }"#, "$.bones[0].name"),
            (#""int": 3"#, #""int": [3]"#, "$.events.step.int"),
            (#""vertexCount": 2"#, #""vertexCount": 2.5e300"#, "$.skins[0].attachments.a.box.vertexCount"),
            (
                #""vertices": [ 0, 0, 10, 10 ]"#, #""vertices": [ 0, 0, "10", 10 ]"#,
                "$.skins[0].attachments.a.box.vertices[2]"
            ),
            (#""attachment": "box""#, #""attachment": {}"#, "$.slots[0].attachment"),
        ]
        for (original, replacement, path) in cases {
            let text = skeleton().replacingOccurrences(of: original, with: replacement)
            #expect(text != skeleton(), "case \(path) did not apply")
            let error = loadError(text)
            #expect(error?.kind == .malformed, "\(path): \(String(describing: error))")
            #expect(error?.location == .jsonPath(path), "\(path): \(String(describing: error))")
        }
        let notObject = loadError("[1, 2]")
        #expect(notObject?.kind == .malformed)
        #expect(notObject?.location == .jsonPath("$"))
        let noBones = loadError(#"{"skeleton": {"spine": "4.2.1"}}"#)
        #expect(noBones?.location == .jsonPath("$.bones"))
    }

    @Test func unknownNamesAreRefused() {
        let cases: [(String, String)] = [
            (
                #""animations": {"walk": {"bones": {"torso": {"rotate": [{"time": 0}]}}}}"#,
                "$.animations.walk.bones.torso"
            ),
            (#""animations": {"walk": {"slots": {"zz": {"alpha": [{"time": 0}]}}}}"#, "$.animations.walk.slots.zz"),
            (#""animations": {"walk": {"events": [{"time": 0, "name": "jump"}]}}"#, "$.animations.walk.events[0].name"),
            (#""animations": {"walk": {"ik": {"leg": [{"time": 0}]}}}"#, "$.animations.walk.ik.leg"),
            (
                #""animations": {"walk": {"attachments": {"other": {"a": {"box": {"deform": [{}]}}}}}}"#,
                "$.animations.walk.attachments.other"
            ),
            (
                #""animations": {"walk": {"attachments": {"default": {"a": {"circle": {"deform": [{}]}}}}}}"#,
                "$.animations.walk.attachments.default.a.circle"
            ),
            (
                #""animations": {"walk": {"drawOrder": [{"offsets": [{"slot": "q", "offset": 1}]}]}}"#,
                "$.animations.walk.drawOrder[0].offsets[0].slot"
            ),
        ]
        for (extra, path) in cases {
            let error = loadError(skeleton(extra))
            #expect(error?.kind == .unknownName, "\(path): \(String(describing: error))")
            #expect(error?.location == .jsonPath(path), "\(path): \(String(describing: error))")
        }
        let slotBone = loadError(skeleton().replacingOccurrences(of: #""bone": "hip" }"#, with: #""bone": "nobody" }"#))
        #expect(slotBone?.kind == .unknownName)
        #expect(slotBone?.location == .jsonPath("$.slots[1].bone"))
        let badSkinSlot = loadError(skeleton().replacingOccurrences(of: #""a": { "box""#, with: #""nope": { "box""#))
        #expect(badSkinSlot?.kind == .unknownName)
        #expect(badSkinSlot?.location == .jsonPath("$.skins[0].attachments.nope"))
        let linked = loadError(
            skeleton().replacingOccurrences(
                of: #""a": { "box""#, with: #""a": { "m": {"type": "linkedmesh", "parent": "ghost"}, "box""#))
        #expect(linked?.kind == .unknownName)
        #expect(linked?.location == .jsonPath("$.skins[0].attachments.a.m"))
    }

    @Test func badEnumsAreRefused() {
        let cases: [(String, String, String)] = [
            (#""attachment": "box""#, #""attachment": "box", "blend": "overlay""#, "$.slots[0].blend"),
            (#""type": "boundingbox""#, #""type": "sprite""#, "$.skins[0].attachments.a.box.type"),
            (#""x": 1.5"#, #""x": 1.5, "inherit": "sometimes""#, "$.bones[1].inherit"),
        ]
        for (original, replacement, path) in cases {
            let error = loadError(skeleton().replacingOccurrences(of: original, with: replacement))
            #expect(error?.kind == .malformed, "\(path): \(String(describing: error))")
            #expect(error?.location == .jsonPath(path), "\(path): \(String(describing: error))")
        }
        let timeline = loadError(skeleton(#""animations": {"walk": {"bones": {"hip": {"wiggle": [{"time": 0}]}}}}"#))
        #expect(timeline?.location == .jsonPath("$.animations.walk.bones.hip.wiggle"))
        let curve = loadError(
            skeleton(#""animations": {"walk": {"bones": {"hip": {"rotate": [{"curve": "smooth"}, {"time": 1}]}}}}"#))
        #expect(curve?.location == .jsonPath("$.animations.walk.bones.hip.rotate[0].curve"))
        let shortCurve = loadError(
            skeleton(
                #""animations": {"walk": {"bones": {"hip": {"translate": [{"curve": [0, 0, 1, 1]}, {"time": 1}]}}}}"#))
        #expect(shortCurve?.kind == .malformed)
        #expect(shortCurve?.location == .jsonPath("$.animations.walk.bones.hip.translate[0].curve"))
        let time = loadError(skeleton(#""animations": {"walk": {"bones": {"hip": {"rotate": [{"time": "soon"}]}}}}"#))
        #expect(time?.location == .jsonPath("$.animations.walk.bones.hip.rotate[0].time"))
    }

    @Test func badGeometryIsRefused() {
        let weighted = loadError(
            skeleton().replacingOccurrences(of: "[ 0, 0, 10, 10 ]", with: "[ 1, 9, 0, 0, 1, 1, 0, 0, 0, 1 ]"))
        #expect(weighted?.kind == .malformed)
        #expect(weighted?.location == .jsonPath("$.skins[0].attachments.a.box.vertices[1]"))
        let count = loadError(skeleton().replacingOccurrences(of: #""vertexCount": 2"#, with: #""vertexCount": 9000"#))
        #expect(count?.location == .jsonPath("$.skins[0].attachments.a.box.vertexCount"))
        let deform = loadError(
            skeleton(
                #""animations": {"walk": {"attachments": {"default": {"a": {"box": {"deform": [{"offset": 3, "vertices": [1, 2]}]}}}}}}"#
            ))
        #expect(deform?.location == .jsonPath("$.animations.walk.attachments.default.a.box.deform[0].vertices"))
        let order = loadError(
            skeleton(
                #""animations": {"walk": {"drawOrder": [{"offsets": [{"slot": "c", "offset": -1}, {"slot": "a", "offset": 1}]}]}}"#
            ))
        #expect(order?.kind == .malformed)
        #expect(order?.location == .jsonPath("$.animations.walk.drawOrder[0].offsets[1].slot"))
        let clash = loadError(
            skeleton(
                #""animations": {"walk": {"drawOrder": [{"offsets": [{"slot": "a", "offset": 2}, {"slot": "b", "offset": 1}]}]}}"#
            ))
        #expect(clash?.location == .jsonPath("$.animations.walk.drawOrder[0].offsets[1].offset"))
    }

    @Test func expansionBudgetsAreEnforced() {
        // 7000 empty deform keys on a 5000-vertex bounding box would expand to 70 million floats.
        let vertices = Array(repeating: "0", count: 10_000).joined(separator: ",")
        let keys = Array(repeating: "{}", count: 7000).joined(separator: ",")
        let big = skeleton(
            #""animations": {"walk": {"attachments": {"default": {"a": {"box": {"deform": [\#(keys)]}}}}}}"#
        )
        .replacingOccurrences(
            of: #""vertexCount": 2, "vertices": [ 0, 0, 10, 10 ]"#,
            with: #""vertexCount": 5000, "vertices": [\#(vertices)]"#)
        let deform = loadError(big)
        #expect(deform?.kind == .limitExceeded)
        #expect(deform?.location == .jsonPath("$.animations.walk.attachments.default.a.box.deform"))
        // Sequences may declare about one frame per byte of the file (plus 1,024): ten 90-frame
        // sequences fit a file of this size, an 100,000-frame one does not.
        let small = (0..<10).map { #""r\#($0)": {"sequence": {"count": 90}}"# }.joined(separator: ",")
        #expect(
            loadError(skeleton().replacingOccurrences(of: #""a": { "box""#, with: #""a": { \#(small), "box""#)) == nil)
        let regions = (0..<11).map { #""r\#($0)": {"sequence": {"count": 100000}}"# }.joined(separator: ",")
        let sequences = loadError(
            skeleton().replacingOccurrences(of: #""a": { "box""#, with: #""a": { \#(regions), "box""#))
        #expect(sequences?.kind == .limitExceeded)
        #expect(sequences?.location == .jsonPath("$.skins[0].attachments.a.r0.sequence.count"))
    }

    /// Mutated exports (bytes changed, cut, duplicated; values swapped for other values) must
    /// either load or fail with a LoadError; a trap would end the test process.
    @Test func mutatedExportsNeverTrap() throws {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ n: Int) -> Int {
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % UInt64(max(n, 1)))
        }
        let sources = try ["coin/coin-pro.json", "spinosaurus/spinosaurus-ess.json", "vine/vine-pro.json"].map {
            try JSONExamples.bytes($0)
        }
        let values = [
            "-1", "1e300", "2147483648", "0", "99999", "null", "true", "\"\"", "[]", "{}", "\"root\"", "\"stepped\"",
            "[0,0,1,1]", "-0.5", "\"mesh\"", "\"linkedmesh\"", "\"clipping\"", "\"path\"", "65536",
        ].map { Array($0.utf8) }
        var outcomes: [LoadError.Kind: Int] = [:]
        var loaded = 0
        for iteration in 0..<1500 {
            var bytes = sources[iteration % sources.count]
            for _ in 0..<(1 + random(3)) where !bytes.isEmpty {
                let at = random(bytes.count)
                switch random(6) {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random(256))
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + random(32)))
                case 2:
                    let from = random(bytes.count)
                    bytes.insert(contentsOf: bytes[from..<min(bytes.count, from + random(100))], at: at)
                default:
                    // Swap the value after the next ':' for another value.
                    guard let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")) else { continue }
                    var end = colon + 1
                    while end < bytes.count,
                        ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[end])
                    {
                        end += 1
                    }
                    bytes.replaceSubrange(colon + 1..<end, with: values[random(values.count)])
                }
            }
            do {
                _ = try SkeletonJSONReader.read(bytes: bytes, file: "mutated.json", atlas: nil)
                loaded += 1
            } catch let error as LoadError {
                outcomes[error.kind, default: 0] += 1
                #expect(error.file == "mutated.json")
            }
        }
        #expect(loaded + outcomes.values.reduce(0, +) == 1500)
        #expect(outcomes[.malformed, default: 0] > 0 && outcomes[.unknownName, default: 0] > 0)
    }

    @Test func scaleMultipliesLengthsAsTheReferenceDoes() throws {
        let bytes = try JSONExamples.bytes("spineboy/spineboy-pro.json")
        let plain = try SkeletonJSONReader.read(bytes: bytes, file: "a.json", atlas: nil)
        let scaled = try SkeletonJSONReader.read(bytes: bytes, file: "a.json", atlas: nil, scale: 2)
        for (a, b) in zip(plain.bones, scaled.bones) {
            #expect(b.x == a.x * 2 && b.y == a.y * 2 && b.length == a.length * 2 && b.rotation == a.rotation)
        }
        for (a, b) in zip(plain.animations, scaled.animations) {
            for (ta, tb) in zip(a.timelines, b.timelines) where ta.kind == .translate {
                let first = Int(ta.framesStart)
                #expect(b.frames[Int(tb.framesStart) + 1] == a.frames[first + 1] * 2)
                #expect(b.frames[Int(tb.framesStart)] == a.frames[first])
            }
        }
    }

    // MARK: Semantics

    @Test func drawOrderKeysArePermutations() throws {
        let data = try load(
            skeleton(
                #""animations": {"walk": {"drawOrder": [{"offsets": [{"slot": "c", "offset": -2}]}, {"time": 0.5}, {"time": 1, "offsets": []}]}}"#
            ))
        let animation = data.animations[0]
        let t = try #require(animation.timelines.first)
        #expect(t.kind == .drawOrder)
        #expect(t.valueStride == 3)
        let start = Int(t.valuesStart)
        #expect(Array(animation.ints[start..<start + 3]) == [2, 0, 1])
        #expect(animation.ints[start + 3] == -1)  // no offsets: the setup order
        #expect(Array(animation.ints[start + 6..<start + 9]) == [0, 1, 2])
        #expect(animation.duration == 1)
    }

    @Test func deformKeysStoreFullVertexArrays() throws {
        let data = try load(
            skeleton(
                #""animations": {"walk": {"attachments": {"default": {"a": {"box": {"deform": [{"time": 0.25, "curve": "stepped"}, {"time": 0.5, "offset": 1, "vertices": [1, 2]}]}}}}}}"#
            ))
        let animation = data.animations[0]
        let t = try #require(animation.timelines.first)
        #expect(t.kind == .deform)
        #expect(t.attachment == 0)
        #expect(t.valueStride == 4)
        let start = Int(t.valuesStart)
        #expect(Array(animation.frames[start..<start + 8]) == [0, 0, 10, 10, 0, 1, 12, 10])
        #expect(animation.curves[Int(t.curvesStart)] == CurveType.stepped)
        #expect(animation.duration == 0.5)
    }

    @Test func curvesAndDefaultsFollowTheReference() throws {
        let data = try load(
            skeleton(
                #""animations": {"walk": {"bones": {"hip": {"translate": [{"x": 1, "curve": [0.25, 1, 0.75, 2, 0.25, 3, 0.75, 4]}, {"time": 2, "x": 3, "y": 5}], "scale": [{"time": 0.5}]}}, "events": [{"time": 0.75, "name": "step"}, {"time": 1.5, "name": "step", "int": 9}]}}"#
            ))
        let animation = data.animations[0]
        let translate = animation.timelines[0]
        #expect(translate.kind == .translate)
        let f = Int(translate.framesStart)
        #expect(Array(animation.frames[f..<f + 6]) == [0, 1, 0, 2, 3, 5])
        let c = Int(translate.curvesStart)
        #expect(animation.curves[c] == CurveType.bezier + 2)  // frame 0: bezier samples after 2 markers
        #expect(animation.curves[c + 1] == CurveType.stepped)
        #expect(translate.curvesCount == 2 + 2 * Int32(CurveType.bezierSize))
        let scale = animation.timelines[1]
        #expect(scale.kind == .scale)
        #expect(Array(animation.frames[Int(scale.framesStart)..<Int(scale.framesStart) + 3]) == [0.5, 1, 1])
        let events = animation.timelines[2]
        #expect(events.kind == .event)
        let first = animation.events[Int(events.valuesStart)]
        #expect(first.intValue == 3 && first.stringValue == "s" && first.volume == 1 && first.balance == 0)
        #expect(animation.events[Int(events.valuesStart) + 1].intValue == 9)
        #expect(animation.duration == 2)
    }

    @Test func transformTimelinesKeepTheFirstShearMix() throws {
        let data = try load(
            skeleton(
                #""transform": [{"name": "t", "bones": ["hip"], "target": "root", "mixY": 0.5}], "animations": {"walk": {"transform": {"t": [{"mixShearY": 0.25}, {"time": 1, "mixX": 0.5, "mixShearY": 0}]}}}"#
            ))
        #expect(data.transformConstraints[0].mixY == 0.5)
        #expect(data.transformConstraints[0].mixScaleY == 1)
        let animation = data.animations[0]
        let t = animation.timelines[0]
        let f = Int(t.framesStart)
        #expect(Array(animation.frames[f..<f + 14]) == [0, 1, 1, 1, 1, 1, 0.25, 1, 1, 0.5, 0.5, 1, 1, 0.25])
    }
}
