import BoneworkConformance
import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// A reference pose trace with its one-instance replay, for tests that replay it with several
/// instances in other worlds (threads, layouts) and want each instance to match both the
/// reference and, bit for bit, the one-instance replay.
struct ReplayedPoseTrace {
    let file: PoseGoldens.File
    let data: SkeletonData
    let skin: String?
    let animation: String
    let loop: Bool
    let steps: Int
    let dt: Double
    let wanted: Set<Int>
    let singleByStep: [Int: InstancePose]
    let framesByStep: [Int: [String: Any]]

    init(_ file: PoseGoldens.File) throws {
        self.file = file
        let url = TestPaths.poses.appendingPathComponent(file.path)
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(file.path)")
        let skeleton = try #require(reference["skeleton"] as? String)
        animation = try #require(reference["animation"] as? String)
        steps = try #require(reference["steps"] as? Int)
        dt = try #require(reference["dt"] as? Double)
        let frames = try #require(reference["frames"] as? [[String: Any]])
        data = try ExampleSkeletons.load(skeleton, atlas: reference["atlas"] as? String)
        skin = reference["skin"] as? String
        loop = reference["loop"] as? Bool ?? true
        wanted = Set(frames.compactMap { $0["step"] as? Int })
        let single = try PoseTrace(
            data: data, skin: skin, animation: animation, loop: loop, delta: Float(dt), steps: steps
        )
        .run(recording: wanted)
        singleByStep = Dictionary(single.map { ($0.step, $0.pose) }, uniquingKeysWith: { a, _ in a })
        framesByStep = Dictionary(
            frames.compactMap { f in (f["step"] as? Int).map { ($0, f) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Spawns `count` instances in `world`, plays the trace's animation on all of them and checks
    /// every instance at every recorded step; `label` names the configuration in failures.
    func replay(in world: World, count: Int, label: String) throws {
        let entities = try (0..<count).map { _ in try world.spawn(data, skin: skin) }
        func check(_ step: Int) throws {
            guard wanted.contains(step) else { return }
            let expected = try #require(singleByStep[step])
            let frame = try #require(framesByStep[step])
            for (n, e) in entities.enumerated() {
                let pose = try world.pose(e)
                if let difference = PoseComparison.firstDifference(expected: frame, actual: pose, data: data) {
                    Issue.record("\(file.path) \(label) step \(step), instance \(n): \(difference)")
                }
                let same = ParallelTraceTests.bits(pose) == ParallelTraceTests.bits(expected)
                #expect(same, "\(file.path) \(label) step \(step), instance \(n): bits differ")
            }
        }
        try check(0)
        for e in entities { try world.setAnimation(e, track: 0, animation, loop: loop) }
        if steps > 0 {
            for step in 1...steps {
                world.update(Float(dt))
                try check(step)
            }
        }
    }
}
