import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Every example export, including kinds solved by later systems (path and physics constraints,
/// sequences, clipping): they load into batches and play every animation with every skin.
@Suite("Example skeletons")
struct ExampleSmokeTests {
    static let skeletonFiles = TestPaths.skeletonFiles()

    static func atlas(for file: String) -> String {
        let example = String(file.split(separator: "/")[0])
        let synthetic = "\(example)/\(example)-synthetic.atlas"
        if FileManager.default.fileExists(atPath: TestPaths.example(synthetic)) {
            return synthetic
        }
        return "\(example)/\(example).atlas"
    }

    @Test("The examples are present")
    func examplesPresent() {
        #expect(Self.skeletonFiles.count >= 40, "example exports not found under \(TestPaths.examples.path)")
    }

    @Test("Plays every animation with every skin, world transforms stay finite", arguments: skeletonFiles)
    func playsEverything(_ file: String) throws {
        let data = try ExampleSkeletons.load(file, atlas: Self.atlas(for: file))
        let world = World(trackCount: 2)
        var entities: [Entity] = [try world.spawn(data)]
        for skin in data.skins where skin.name != "default" {
            entities.append(try world.spawn(data, skin: skin.name))
        }
        let batch = world.batch(for: data)
        for (i, animation) in data.animations.enumerated() {
            for (n, e) in entities.enumerated() {
                try world.setAnimation(e, track: (i + n) % 2, animation.name, loop: n % 2 == 0)
            }
            for step in 0..<4 { world.update(step % 2 == 0 ? 1.0 / 30 : 0.37) }
        }
        try #require(batch.count == entities.count)
        for e in entities {
            let pose = try world.pose(e)
            for (k, bone) in pose.bones.enumerated() where !pose.inactiveBones.contains(k) {
                let finite = bone.allSatisfy { $0.isFinite }
                #expect(finite, "\(file) \(e): bone '\(data.bones[k].name)' \(bone)")
            }
        }
    }
}
