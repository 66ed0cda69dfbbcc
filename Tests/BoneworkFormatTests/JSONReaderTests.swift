import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// The shared example exports (`../shared` beside the repository checkout).
enum JSONExamples {
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
}
