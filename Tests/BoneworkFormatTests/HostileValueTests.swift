import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

/// Values no editor writes, decided at load: each is a typed `LoadError` naming the place, never a
/// skeleton whose frames then hang or turn to NaN (`Docs/Limits.md` lists every choice).
@Suite struct HostileValueTests {
    static func jsonError(_ json: String) -> LoadError? {
        do {
            _ = try SkeletonJSONReader.read(bytes: Array(json.utf8), file: "hostile.json", atlas: nil)
            return nil
        } catch {
            return error as? LoadError
        }
    }

    static func physics(fps: String) -> String {
        #"{"bones": [{"name": "root"}], "physics": [{"name": "p", "bone": "root", "x": 1, "fps": \#(fps)}]}"#
    }

    @Test func physicsStepRatesOutsideOneByteAreRefusedWithTheirPlace() throws {
        for fps in ["1e9", "256", "0", "-5"] {
            let error = try #require(Self.jsonError(Self.physics(fps: fps)), "fps \(fps) loaded")
            #expect(error.kind == .malformed)
            #expect(error.file == "hostile.json")
            #expect("\(error.location)".contains("physics[0]"), "\(error)")
            #expect("\(error)".contains("fps"), "\(error)")
            #expect(error.expected == "physics steps per second in 1...255")
        }
        // The rates an editor writes load, the step being their inverse.
        for fps in [1, 60, 255] {
            let data = try SkeletonJSONReader.read(
                bytes: Array(Self.physics(fps: "\(fps)").utf8), file: "ok.json", atlas: nil)
            #expect(data.physicsConstraints[0].step == 1 / Float(fps))
        }
    }

    @Test func jsonNumbersPastFloatRangeAreRefusedWithTheirPath() throws {
        let cases = [
            #"{"bones": [{"name": "root", "x": 1e39}]}"#,
            #"{"bones": [{"name": "root", "rotation": -1e300}]}"#,
            #"{"skeleton": {"spine": "4.2.43", "width": 4e38}, "bones": [{"name": "root"}]}"#,
        ]
        for json in cases {
            let error = try #require(Self.jsonError(json), "loaded: \(json)")
            #expect(error.kind == .malformed)
            #expect(error.expected.contains("float range"), "\(error)")
        }
        let bone = try #require(Self.jsonError(cases[0]))
        #expect("\(bone.location)".contains("bones[0]"), "\(bone)")
    }

    /// A minimal `.skel` header whose first float (the skeleton's x) has the bits `x`.
    static func header(x: Float) -> [UInt8] {
        var bytes: [UInt8] = []
        func word(_ u: UInt32) {
            bytes += [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
        }
        word(0x1234)
        word(0x5678)
        let version = Array("4.2.43".utf8)
        bytes.append(UInt8(version.count + 1))
        bytes += version
        word(x.bitPattern)
        for _ in 0..<4 { word(Float(0).bitPattern) }
        bytes.append(0)
        return bytes
    }

    @Test func binaryNaNsAndInfinitiesAreRefusedAtTheirByte() throws {
        let xOffset = 8 + 1 + 6
        for bad in [Float.nan, .infinity, -.infinity, Float(bitPattern: 0x7FC0_1234)] {
            do {
                _ = try SkeletonBinaryReader.read(bytes: Self.header(x: bad), file: "hostile.skel", atlas: nil)
                Issue.record("\(bad) loaded")
            } catch let error as LoadError {
                #expect(error.kind == .malformed)
                #expect(error.file == "hostile.skel")
                #expect(error.location == .byteOffset(xOffset), "\(error)")
                #expect(error.expected == "a finite float")
            }
        }
        // The same header with a finite x gets past it (and fails later, for want of the rest).
        do {
            _ = try SkeletonBinaryReader.read(bytes: Self.header(x: 1), file: "short.skel", atlas: nil)
        } catch let error as LoadError {
            #expect(error.kind == .truncated, "\(error)")
        }
    }
}

extension HostileValueTests {
    @Test func sequenceKeyIndicesOutsideTheirFloatEncodingAreRefusedByBothReaders() throws {
        let json = #"""
            {"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
             "skins": [{"name": "default", "attachments": {"s": {"r": {"sequence": {"count": 3}}}}}],
             "animations": {"a": {"attachments": {"default": {"s": {"r": {"sequence": [{"time": 0, "index": INDEX}]}}}}}}}
            """#
        for index in ["-1", "-7", "1048576", "2147483647"] {
            let error = try #require(Self.jsonError(json.replacingOccurrences(of: "INDEX", with: index)), "\(index)")
            #expect(error.location == .jsonPath("$.animations.a.attachments.default.s.r.sequence[0].index"), "\(error)")
            #expect(error.expected == ValueLimits.sequenceKeyIndexExpected)
        }
        // Past the count (3) but encodable: kept, the frame is chosen as the reference chooses it.
        let kept = try Self.json(json.replacingOccurrences(of: "INDEX", with: "1048575"))
        #expect(kept.animations[0].frames[1] == Float(1_048_575 << 4))
        for (modeAndIndex, loads) in [(-1 << 4, false), (1 << 24, false), (1_048_575 << 4 | 2, true)] {
            var w = SkelWriter.oneAttachment(named: "r") { s in
                s.byte(64)
                s.varint(3)  // count
                s.varint(1)  // start
                s.varint(0)  // digits
                s.varint(0)  // setup index
                s.floats([0, 0, 1, 1, 32, 32])
            }
            w.noEvents()
            w.animation { a in
                a.emptyTimelines(6)  // slot, bone, IK, transform, path, physics
                a.varint(1)  // one skin
                a.varint(0)  // the default skin
                a.varint(1)  // one slot
                a.varint(0)  // slot 0
                a.varint(1)  // one timeline
                a.varint(1)  // attachment "r"
                a.byte(1)  // sequence
                a.varint(1)  // one key
                a.float(0)
                a.mark("modeAndIndex")
                a.word(UInt32(bitPattern: Int32(modeAndIndex)))
                a.float(0.1)  // delay
                a.emptyTimelines(2)  // draw order, events
            }
            let error = Self.binaryError(w.bytes)
            if loads {
                #expect(error == nil, "\(String(describing: error))")
            } else {
                let error = try #require(error, "\(modeAndIndex)")
                #expect(error.location == .byteOffset(w.marks["modeAndIndex"]!), "\(error)")
                #expect(error.expected == ValueLimits.sequenceKeyIndexExpected)
            }
        }
    }
}

extension HostileValueTests {
    /// 2,000 IK constraints on the root of a chain of 2,000 bones: the update order (as the
    /// reference's update cache) updates the whole chain again after each, 4 million bone updates
    /// per instance per frame from 150 KB of JSON. Refused at load; real rigs need a fraction.
    @Test func constraintsThatUpdateTheWholeSkeletonAgainAreBudgetedAtLoad() throws {
        var bones = #"{"name": "b0"}"#
        for i in 1..<2000 { bones += #", {"name": "b\#(i)", "parent": "b\#(i - 1)"}"# }
        var ik: [String] = []
        for i in 0..<2000 { ik.append(#"{"name": "k\#(i)", "order": \#(i), "bones": ["b1"], "target": "b1999"}"#) }
        let text = #"{"bones": [\#(bones)], "ik": [\#(ik.joined(separator: ", "))]}"#
        let error = try #require(Self.jsonError(text))
        #expect(error.kind == .limitExceeded, "\(error)")
        #expect(error.found.hasPrefix("1 plans of 4002000 values"), "\(error)")
        // The same chain with its constraints on the last bone loads: each updates one bone again.
        let leaf = text.replacingOccurrences(of: #""bones": ["b1"]"#, with: #""bones": ["b1998"]"#)
        _ = try Self.json(leaf)
        // Every example export stays far below.
        let examples = try FileManager.default.contentsOfDirectory(atPath: TestPaths.examples.path)
        var loaded = 0
        for folder in examples {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.example(folder))) ?? []
            for file in files where file.hasSuffix(".skel") {
                _ = try SkeletonBinaryReader.read(
                    bytes: Array(try Data(contentsOf: URL(fileURLWithPath: TestPaths.example(folder + "/" + file)))),
                    file: file, atlas: nil)
                loaded += 1
            }
        }
        #expect(loaded >= 20)
    }
}

extension HostileValueTests {
    /// JSON has no NaN or infinity: the parser refuses the literals some writers emit, so a path
    /// spacing (or any float) from JSON is finite before the float range check even applies.
    @Test func jsonNaNAndInfinityLiteralsAreRefusedAtTheirByte() throws {
        for literal in ["NaN", "nan", "Infinity", "-Infinity", "inf", "1e999999"] {
            let json =
                #"{"bones": [{"name": "root"}], "slots": [{"name": "s", "bone": "root"}], "path": [{"name": "p", "bones": ["root"], "target": "s", "spacing": \#(literal)}]}"#
            let error = try #require(Self.jsonError(json), "\(literal) loaded")
            #expect(error.kind == .malformed, "\(error)")
        }
    }
}
