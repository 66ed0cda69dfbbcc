import BoneworkProfiling
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkFormat

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

/// The start of one deform timeline, after the curve timelines: one skin (the default), its slot 0,
/// attachment "mesh" (name 1), and `keys` keys.
private func deformTimeline(_ w: inout SkelWriter, keys: Int) {
    w.varint(1)  // attachment timelines: one skin
    w.varint(0)  // skin 0
    w.varint(1)  // one slot
    w.varint(0)  // slot 0
    w.varint(1)  // one attachment
    w.varint(1)  // "mesh"
    w.byte(0)  // deform
    w.varint(keys)
}

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
/// Damaged and hand-made files: truncation, random corruption, huge counts, bad versions, order and
/// index errors, deform and draw order keys.
extension BinaryReaderTests {
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
        var random = SplitMix64(seed: 0xB0E5_0000 &+ UInt64(original.count))
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
                    deformTimeline(&w, keys: 1_500_000_000)
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
        let keys = 2_000
        deformTimeline(&w, keys: keys)
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
            deformTimeline(&w, keys: 3)
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
}
