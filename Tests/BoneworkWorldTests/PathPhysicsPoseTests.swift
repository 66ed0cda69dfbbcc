import BoneworkFormat
import Foundation
import Testing

@testable import BoneworkWorld

/// Pose traces of the skeletons with path constraints, physics constraints and sequences, played
/// through a `World` exactly as the reference traces were made, compared within the spec
/// tolerance. A failure names the file, frame, and the first differing bone, slot or vertex.
@Suite("Path and physics poses")
struct PathPhysicsPoseTests {
    static let examples = ["hero", "mix-and-match", "stretchyman", "tank", "vine", "celestial-circus", "cloud-pot"]

    static var shared: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
    }

    /// Every pose trace of the examples above (relative to golden/poses), sorted.
    static func traceFiles() -> [String] {
        let root = shared.appendingPathComponent("golden/poses")
        var result: [String] = []
        for example in examples {
            let dir = root.appendingPathComponent(example)
            guard let e = FileManager.default.enumerator(atPath: dir.path) else { continue }
            while let item = e.nextObject() as? String {
                guard item.hasSuffix(".json") else { continue }
                let parts = item.split(separator: "/")
                // <skeleton file>/<anim>.json or <skeleton file>/skins/<skin>/<anim>.json
                if parts.count == 2 || (parts.count == 4 && parts[1] == "skins") {
                    result.append(example + "/" + item)
                }
            }
        }
        return result.sorted()
    }

    @Test("the trace list covers every example's json and skel files")
    func coverage() {
        let files = Self.traceFiles()
        for example in Self.examples {
            #expect(files.contains { $0.hasPrefix(example + "/") && $0.contains(".json/") }, "\(example) json")
            #expect(files.contains { $0.hasPrefix(example + "/") && $0.contains(".skel/") }, "\(example) skel")
        }
        #expect(files.count >= 100)
    }

    static var referenceTraces: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReferenceTraces/poses")
    }

    /// Traces of examples the golden set leaves out (Tests/ReferenceTraces/README.md).
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
        let mismatch = try PoseTraceReplay.compare(trace: Self.referenceTraces.appendingPathComponent(file))
        #expect(mismatch == nil, "\(file): \(mismatch ?? "")")
    }

    @Test("pose trace matches the reference", arguments: traceFiles())
    func trace(_ file: String) throws {
        let mismatch = try PoseTraceReplay.compare(trace: Self.shared.appendingPathComponent("golden/poses/" + file))
        #expect(mismatch == nil, "\(file): \(mismatch ?? "")")
    }
}

/// Replays one golden pose trace (spec: scenario-format.md, "Pose traces") and returns the first
/// difference, nil when every recorded frame matches.
enum PoseTraceReplay {
    nonisolated(unsafe) static var dataCache: [String: SkeletonData] = [:]
    static let lock = NSLock()

    static func load(_ skeleton: String, atlas: String?) throws -> SkeletonData {
        let root = PathPhysicsPoseTests.shared.appendingPathComponent("spine-examples")
        let key = skeleton + "|" + (atlas ?? "")
        lock.lock()
        defer { lock.unlock() }
        if let d = dataCache[key] { return d }
        let a = try atlas.map { try AtlasReader.read(file: root.appendingPathComponent($0).path) }
        let d = try SkeletonLoader.load(file: root.appendingPathComponent(skeleton).path, atlas: a)
        dataCache[key] = d
        return d
    }

    static func close(_ a: Float, _ b: Double) -> Bool {
        abs(Double(a) - b) <= 1e-3 * max(1, abs(b))
    }

    static func compare(trace url: URL) throws -> String? {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let doc = try #require(json)
        let skeleton = try #require(doc["skeleton"] as? String)
        let data = try load(skeleton, atlas: doc["atlas"] as? String)
        let world = World()
        let entity = try world.spawn(data, skin: doc["skin"] as? String)
        try world.setAnimation(entity, try #require(doc["animation"] as? String), loop: true)
        let dt = Float(try #require(doc["dt"] as? Double))
        let frames = try #require(doc["frames"] as? [[String: Any]])
        // Step 0 is the setup pose: fill its slots and world vertices as a frame would.
        let (batch, row) = try world.locate(entity)
        SlotSystem.update(batch.columns(), batch.rig.tables, range: row..<(row + 1))
        VertexSystem.update(batch.columns(), batch.rig.tables, range: row..<(row + 1))
        var step = 0
        for frame in frames {
            let target = try #require(frame["step"] as? Int)
            while step < target {
                world.update(dt)
                step += 1
            }
            let pose = try world.pose(entity)
            if let m = compare(pose, frame, data) { return "step \(target): \(m)" }
        }
        return nil
    }

    static func compare(_ pose: InstancePose, _ frame: [String: Any], _ data: SkeletonData) -> String? {
        let bones = frame["bones"] as? [[Double]] ?? []
        if bones.count != pose.bones.count { return "bone count \(pose.bones.count) != \(bones.count)" }
        for (k, expected) in bones.enumerated() {
            for (j, e) in expected.enumerated() where !close(pose.bones[k][j], e) {
                return "bone \(data.bones[k].name) [\(j)] \(pose.bones[k]) != \(expected)"
            }
        }
        let slots = frame["slots"] as? [[String: Any]] ?? []
        for (s, expected) in slots.enumerated() {
            let name = expected["attachment"] as? String
            if name != pose.attachments[s] {
                return "slot \(data.slots[s].name) attachment \(pose.attachments[s] ?? "nil") != \(name ?? "nil")"
            }
            let color = expected["color"] as? [Double] ?? []
            for (j, e) in color.enumerated() where !close(pose.colors[s][j], e) {
                return "slot \(data.slots[s].name) color \(pose.colors[s]) != \(color)"
            }
        }
        let order = frame["drawOrder"] as? [Int] ?? []
        if order != pose.drawOrder { return "draw order \(pose.drawOrder) != \(order)" }
        let vertices = frame["vertices"] as? [Any] ?? []
        for (s, v) in vertices.enumerated() {
            guard let expected = v as? [Double] else {
                if pose.vertices[s] != nil { return "slot \(data.slots[s].name) has vertices, expected none" }
                continue
            }
            guard let actual = pose.vertices[s], actual.count == expected.count else {
                return "slot \(data.slots[s].name) vertices \(pose.vertices[s]?.count ?? -1) != \(expected.count)"
            }
            for (j, e) in expected.enumerated() where !close(actual[j], e) {
                return "slot \(data.slots[s].name) vertex [\(j)] \(actual[j]) != \(e)"
            }
        }
        return nil
    }
}
