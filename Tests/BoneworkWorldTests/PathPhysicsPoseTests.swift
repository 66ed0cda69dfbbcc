import BoneworkConformance
import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Path, physics and sequence poses beyond the golden set: traces of the examples that
/// ../shared/golden/poses leaves out (the sequence-driven dragon, the physics of sack and
/// snowglobe; Tests/ReferenceTraces/README.md), replayed as the conformance test replays the
/// golden ones. The golden files with path, physics and sequences are compared by
/// `PoseConformanceTests`.
@Suite("Path and physics poses")
struct PathPhysicsPoseTests {
    static let referenceTraces = TestPaths.referenceTraces.appendingPathComponent("poses")

    /// Every trace under Tests/ReferenceTraces/poses, relative to it, sorted.
    static func referenceTraceFiles() -> [String] {
        guard let e = FileManager.default.enumerator(atPath: referenceTraces.path) else { return [] }
        var result: [String] = []
        while let item = e.nextObject() as? String {
            if item.hasSuffix(".json") && item.split(separator: "/").count == 3 { result.append(item) }
        }
        return result.sorted()
    }

    @Test("reference traces cover the sequence and physics examples without golden poses")
    func referenceCoverage() {
        let files = Self.referenceTraceFiles()
        for prefix in [
            "dragon/dragon-ess.json/", "dragon/dragon-ess.skel/", "sack/sack-pro.json/", "sack/sack-pro.skel/",
            "snowglobe/snowglobe-pro.json/", "snowglobe/snowglobe-pro.skel/",
        ] {
            #expect(files.contains { $0.hasPrefix(prefix) }, "\(prefix)")
        }
        #expect(files.count == 16)
    }

    @Test("pose trace of an example without golden poses matches the reference", arguments: referenceTraceFiles())
    func referenceTrace(_ file: String) throws {
        let url = Self.referenceTraces.appendingPathComponent(file)
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(file)")
        let frames = try #require(reference["frames"] as? [[String: Any]])
        let skeleton = try #require(reference["skeleton"] as? String)
        let data = try ExampleSkeletons.load(skeleton, atlas: reference["atlas"] as? String)
        let poses = try PoseTrace(
            data: data, skin: reference["skin"] as? String, animation: try #require(reference["animation"] as? String),
            loop: true, delta: Float(try #require(reference["dt"] as? Double)),
            steps: try #require(reference["steps"] as? Int)
        ).run(recording: Set(frames.compactMap { $0["step"] as? Int }))
        try #require(poses.count == frames.count && frames.count >= 5)
        for (frame, (step, pose)) in zip(frames, poses) {
            #expect(frame["step"] as? Int == step)
            if let difference = PoseComparison.firstDifference(expected: frame, actual: pose, data: data) {
                Issue.record("\(file) step \(step): \(difference)")
                return
            }
        }
    }
}
