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
