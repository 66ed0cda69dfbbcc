import BoneworkFormat
import Testing

@testable import BoneworkWorld

@Suite("Compiled tables")
struct CompiledTablesTests {
    @Test("A compiled timeline's kind is its raw value reinterpreted, for every kind")
    func timelineKindLayout() {
        #expect(CompiledTimeline.kindLayoutHolds)
        for kind in TimelineKind.allCases {
            let t = CompiledTimeline(
                kindRaw: kind.rawValue, stride: Int32(kind.frameStride), target: 0, attachment: -1, frameCount: 1,
                frames: 0, curves: 0, curvesCount: 0, values: 0, valueStride: 0)
            #expect(t.kind == kind)
        }
    }

    @Test("The setup table's local 2×2 is what the transform computes from the setup values")
    func localSetupTable() throws {
        var bones: [BoneData] = []
        for (rotation, scaleX, scaleY, shearX, shearY) in [
            (Float(0), Float(1), Float(1), Float(0), Float(0)), (33.5, 0.75, -1.25, 0, 0), (-170, 2, 0.5, 12, -7),
            (90, 1, 1, 0, 0),
        ] {
            var bone = BoneData(name: "b\(bones.count)", parent: -1)
            bone.rotation = rotation
            bone.scaleX = scaleX
            bone.scaleY = scaleY
            bone.shearX = shearX
            bone.shearY = shearY
            bones.append(bone)
        }
        let table = BoneTransform.LocalSetup.table(bones)
        try #require(table.count == bones.count * BoneTransform.LocalSetup.stride)
        for (k, bone) in bones.enumerated() {
            let t = Array(table[(k * BoneTransform.LocalSetup.stride)...].prefix(BoneTransform.LocalSetup.stride))
            #expect(t[0...4] == [bone.rotation, bone.scaleX, bone.scaleY, bone.shearX, bone.shearY][...])
            let degRad = SpineMath.degRad
            let a = SpineMath.cos((bone.rotation + bone.shearX) * degRad) * bone.scaleX
            let b = SpineMath.cos((bone.rotation + 90 + bone.shearY) * degRad) * bone.scaleY
            let c = SpineMath.sin((bone.rotation + bone.shearX) * degRad) * bone.scaleX
            let d = SpineMath.sin((bone.rotation + 90 + bone.shearY) * degRad) * bone.scaleY
            #expect(t[5...8] == [a, b, c, d][...])
        }
    }
}
