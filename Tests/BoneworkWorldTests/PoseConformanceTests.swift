import BoneworkConformance
import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The reference pose traces in ../shared/golden/poses, and which of them this engine must match.
enum PoseGoldens {
    struct File: CustomTestStringConvertible, Sendable {
        /// Path relative to golden/poses, e.g. "spineboy/spineboy-pro.skel/walk.json".
        var path: String
        /// Why it is not compared yet (path or physics constraints, sequences), nil when it is.
        var excluded: String?
        var testDescription: String { path }
    }

    /// Every trace file, each either compared or excluded with a reason.
    static let all: [File] = {
        let features =
            (try? JSONSerialization.jsonObject(
                with: Data(contentsOf: TestPaths.featuresFile))) as? [String: Any] ?? [:]
        guard let walker = FileManager.default.enumerator(atPath: TestPaths.poses.path) else { return [] }
        var files: [File] = []
        for case let path as String in walker where path.hasSuffix(".json") {
            let parts = path.split(separator: "/")
            guard parts.count >= 3 else { continue }
            let key = "\(parts[0])/\(parts[1])"
            var reasons: [String] = []
            // Path, physics and sequence files are compared too (PathConstraintSolver,
            // PhysicsConstraintSolver); only files the feature list does not know are left out.
            if features[key] as? [String: Any] == nil { reasons.append("missing from features.json") }
            // A file that is a directory name ends in .json too ("x.json/"): keep only files.
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: TestPaths.poses.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if isDirectory.boolValue { continue }
            files.append(File(path: path, excluded: reasons.isEmpty ? nil : reasons.joined(separator: ", ")))
        }
        return files.sorted { $0.path < $1.path }
    }()

    static let compared = all.filter { $0.excluded == nil }
}

@Suite("Pose conformance")
struct PoseConformanceTests {
    @Test("The golden traces are present and accounted for")
    func goldensPresent() {
        // Missing files must fail, not shrink the parameterized test below to nothing.
        #expect(PoseGoldens.all.count >= 300, "golden pose traces not found under \(TestPaths.poses.path)")
        #expect(PoseGoldens.compared.count == PoseGoldens.all.count)
        #expect(PoseGoldens.compared.contains { $0.path.contains(".skel/") })
        #expect(PoseGoldens.compared.contains { $0.path.contains(".json/") })
        #expect(PoseGoldens.compared.contains { $0.path.contains("/skins/") })
        // Only the kinds solved by later systems are excluded.
        for file in PoseGoldens.all where file.excluded != nil {
            let reason = file.excluded ?? ""
            #expect(
                reason.contains("path") || reason.contains("physics") || reason.contains("sequence"),
                "\(file.path) excluded: \(reason)")
        }
    }

    @Test("Pose matches the reference trace", arguments: PoseGoldens.compared)
    func matchesReference(_ file: PoseGoldens.File) throws {
        let url = TestPaths.poses.appendingPathComponent(file.path)
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(file.path)")
        let skeleton = try #require(reference["skeleton"] as? String)
        let animation = try #require(reference["animation"] as? String)
        let steps = try #require(reference["steps"] as? Int)
        let dt = try #require(reference["dt"] as? Double)
        let frames = try #require(reference["frames"] as? [[String: Any]])
        let atlasPath = reference["atlas"] as? String
        let data = try ExampleSkeletons.load(skeleton, atlas: atlasPath)
        let poses = try PoseTrace(
            data: data, skin: reference["skin"] as? String, animation: animation,
            loop: reference["loop"] as? Bool ?? true, delta: Float(dt), steps: steps
        ).run(recording: Set(frames.compactMap { $0["step"] as? Int }))
        let byStep = Dictionary(poses.map { ($0.step, $0.pose) }, uniquingKeysWith: { a, _ in a })
        try #require(!frames.isEmpty)
        for frame in frames {
            let step = try #require(frame["step"] as? Int)
            let pose = try #require(byStep[step], "\(file.path): step \(step) not recorded")
            if let difference = PoseComparison.firstDifference(expected: frame, actual: pose, data: data) {
                Issue.record("\(file.path) step \(step): \(difference)")
                return
            }
        }
    }
}

/// Compares one reference frame with our pose under the spec tolerance.
enum PoseComparison {
    static func close(_ actual: Float, _ expected: Double) -> Bool {
        abs(Double(actual) - expected) <= 1e-3 * max(1, abs(expected))
    }

    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// The first difference as "what: expected X, got Y", nil when the frame matches.
    static func firstDifference(expected frame: [String: Any], actual pose: InstancePose, data: SkeletonData) -> String?
    {
        let fields = ["a", "b", "c", "d", "worldX", "worldY"]
        if let bones = frame["bones"] as? [[Any]] {
            if bones.count != pose.bones.count { return "bone count: expected \(bones.count), got \(pose.bones.count)" }
            for (k, values) in bones.enumerated() {
                for (f, value) in values.enumerated() where f < 6 {
                    guard let e = number(value) else { return "bone \(data.bones[k].name) \(fields[f]): not a number" }
                    if !close(pose.bones[k][f], e) {
                        return "bone '\(data.bones[k].name)' \(fields[f]): expected \(e), got \(pose.bones[k][f])"
                    }
                }
            }
        }
        if let slots = frame["slots"] as? [[String: Any]] {
            if slots.count != pose.attachments.count {
                return "slot count: expected \(slots.count), got \(pose.attachments.count)"
            }
            for (s, slot) in slots.enumerated() {
                let name = data.slots[s].name
                let expectedAttachment = slot["attachment"] as? String
                if expectedAttachment != pose.attachments[s] {
                    return
                        "slot '\(name)' attachment: expected \(expectedAttachment ?? "null"), got \(pose.attachments[s] ?? "null")"
                }
                if let color = slot["color"] as? [Any] {
                    for (c, value) in color.enumerated() where c < 4 {
                        guard let e = number(value), close(pose.colors[s][c], e) else {
                            return "slot '\(name)' color[\(c)]: expected \(value), got \(pose.colors[s][c])"
                        }
                    }
                }
            }
        }
        if let order = frame["drawOrder"] as? [Int], order != pose.drawOrder {
            return "drawOrder: expected \(order), got \(pose.drawOrder)"
        }
        if let vertices = frame["vertices"] as? [Any] {
            for (s, value) in vertices.enumerated() {
                let name = s < data.slots.count ? data.slots[s].name : "#\(s)"
                let ours = s < pose.vertices.count ? pose.vertices[s] : nil
                guard let expected = value as? [Any] else {
                    if ours != nil { return "slot '\(name)' vertices: expected null, got \(ours?.count ?? 0) floats" }
                    continue
                }
                guard let ours else { return "slot '\(name)' vertices: expected \(expected.count) floats, got null" }
                if ours.count != expected.count {
                    return "slot '\(name)' vertices: expected \(expected.count) floats, got \(ours.count)"
                }
                for (v, e) in expected.enumerated() {
                    guard let e = number(e), close(ours[v], e) else {
                        return "slot '\(name)' vertices[\(v)]: expected \(expected[v]), got \(ours[v])"
                    }
                }
            }
        }
        return nil
    }
}
