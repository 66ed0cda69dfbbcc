import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

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

/// Synthetic skeletons: number evaluation, the parser, hostile values and reference semantics.
extension JSONReaderTests {
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
