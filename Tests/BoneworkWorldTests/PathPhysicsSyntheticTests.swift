import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Synthetic skeletons (Tests/ReferenceTraces/skeletons) built to reach what the examples do not:
/// every path position, spacing and rotate mode, open and closed, constant-speed and not,
/// weighted and deformed paths, positions before and after the path, path timelines; every
/// physics channel combination, limits, fps, wind, gravity, mass, the global and per-constraint
/// timelines and reset keys; every sequence mode on regions and meshes. Each was traced by the
/// reference at every step, with the slots' sequence frames and texture coordinates, bounding
/// box polygons and point attachments; the replay must match all of it.
@Suite("Path, physics and sequence modes")
struct PathPhysicsSyntheticTests {
    static let root = TestPaths.referenceTraces

    static let traces = ["paths-move", "paths-still", "physics-shake", "physics-spin", "sequences-frames"]

    static func load(_ trace: String) throws -> (reference: [String: Any], data: SkeletonData) {
        let url = root.appendingPathComponent("synthetic/\(trace).json")
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(trace)")
        let skeleton = try #require(reference["skeleton"] as? String)
        #expect(skeleton.hasPrefix("synthetic/"))
        let file = root.appendingPathComponent("skeletons/" + skeleton.dropFirst("synthetic/".count))
        let atlas = try (reference["atlas"] as? String).map { try ExampleSkeletons.atlas($0) }
        return (reference, try SkeletonLoader.load(file: file.path, atlas: atlas))
    }

    @Test("the synthetic skeletons use every mode")
    func modesCovered() throws {
        let paths = try Self.load("paths-move").data
        let positionModes = Set(paths.pathConstraints.map(\.positionMode.rawValue))
        let spacingModes = Set(paths.pathConstraints.map(\.spacingMode.rawValue))
        let rotateModes = Set(paths.pathConstraints.map(\.rotateMode.rawValue))
        #expect(positionModes.count == 2 && spacingModes.count == 4 && rotateModes.count == 3)
        let pathAttachments = paths.attachments.filter { $0.kind == .path }
        #expect(Set(pathAttachments.map(\.closed)).count == 2)
        #expect(Set(pathAttachments.map(\.constantSpeed)).count == 2)
        #expect(Set(pathAttachments.map(\.isWeighted)).count == 2)
        #expect(paths.pathConstraints.contains { $0.offsetRotation != 0 })
        let kinds = Set(paths.animations.flatMap { $0.timelines.map(\.kind) })
        #expect(kinds.isSuperset(of: [.pathPosition, .pathSpacing, .pathMix, .deform]))

        let physics = try Self.load("physics-shake").data
        let constraints = physics.physicsConstraints
        #expect(constraints.contains { $0.x > 0 && $0.y > 0 })
        #expect(constraints.contains { $0.rotate > 0 && $0.shearX == 0 })
        #expect(constraints.contains { $0.shearX > 0 && $0.rotate > 0 })
        #expect(constraints.contains { $0.shearX > 0 && $0.rotate == 0 })
        #expect(constraints.contains { $0.scaleX > 0 && $0.rotate == 0 && $0.shearX == 0 })
        #expect(Set(constraints.map(\.step)).count >= 3)
        let timelines = physics.animations.flatMap(\.timelines)
        let physicsKinds: [TimelineKind] = [
            .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
            .physicsMix,
        ]
        for kind in physicsKinds {
            #expect(timelines.contains { $0.kind == kind && $0.target >= 0 }, "\(kind) on one constraint")
            #expect(timelines.contains { $0.kind == kind && $0.target < 0 }, "\(kind) global")
        }
        #expect(timelines.contains { $0.kind == .physicsReset && $0.target >= 0 })

        let sequences = try Self.load("sequences-frames").data
        let keyed = sequences.animations.flatMap(\.timelines).filter { $0.kind == .sequence }
        #expect(keyed.count == 8)
        #expect(sequences.attachments.contains { $0.kind == .mesh && $0.sequence != nil })
    }

    @Test("replay matches the reference at every step", arguments: traces)
    func replay(_ trace: String) throws {
        let (reference, data) = try Self.load(trace)
        let frames = try #require(reference["frames"] as? [[String: Any]])
        let steps = try #require(reference["steps"] as? Int)
        try #require(frames.count == steps + 1)
        let world = World(trackCount: 1)
        let entity = try world.spawn(data, skin: reference["skin"] as? String)
        let delta = Float(try #require(reference["dt"] as? Double))
        for (step, frame) in frames.enumerated() {
            if step == 1 {
                try world.setAnimation(entity, track: 0, try #require(reference["animation"] as? String), loop: true)
            }
            if step > 0 { world.update(delta) }
            #expect(frame["step"] as? Int == step)
            let pose = try world.pose(entity)
            if let difference = PoseComparison.firstDifference(expected: frame, actual: pose, data: data)
                ?? Self.extrasDifference(frame, world, entity, data)
            {
                Issue.record("\(trace) step \(step): \(difference)")
                return
            }
        }
    }

    /// Sequence frames, texture coordinates, bounding boxes and points against the reference frame.
    static func extrasDifference(_ frame: [String: Any], _ world: World, _ entity: Entity, _ data: SkeletonData)
        -> String?
    {
        guard let (batch, row) = try? world.locate(entity) else { return "entity lost" }
        let cols = batch.columns()
        let r = cols.rows(row)
        let rig = batch.rig.tables
        if let indices = frame["sequenceIndex"] as? [Int] {
            for (s, expected) in indices.enumerated() where Int(cols.sequenceIndex(rig, r, slot: s)) != expected {
                return
                    "slot '\(data.slots[s].name)' sequence index: expected \(expected), got \(cols.sequenceIndex(rig, r, slot: s))"
            }
        }
        if let uvs = frame["uvs"] as? [Any] {
            for (s, value) in uvs.enumerated() {
                guard let expected = value as? [Double] else { continue }
                let image = SlotSystem.imageFrame(
                    SlotColumns(cols), rig, r, slot: s, attachment: Int(cols.attachment[r.slot(s)]))
                guard image >= 0 else { return "slot '\(data.slots[s].name)': no image" }
                let f = data.attachmentFrames[Int(image)]
                let ours: [Float]
                if f.meshUVStart >= 0 {
                    let start = Int(f.meshUVStart)
                    ours = Array(data.meshUVs[start..<min(data.meshUVs.count, start + expected.count)])
                } else {
                    ours = (0..<8).map { f.uvs[$0] }
                }
                if ours.count != expected.count
                    || zip(ours, expected).contains(where: { !PoseComparison.close($0, $1) })
                {
                    return "slot '\(data.slots[s].name)' uvs: expected \(expected), got \(ours)"
                }
            }
        }
        if let boxes = frame["boundingBoxes"] as? [[String: Any]] {
            let ours = batch.boundingBoxes(row: row)
            if ours.count != boxes.count { return "bounding boxes: expected \(boxes.count), got \(ours.count)" }
            for (box, mine) in zip(boxes, ours) {
                let vertices = box["vertices"] as? [Double] ?? []
                if box["slot"] as? Int != mine.slot || vertices.count != mine.vertices.count
                    || zip(mine.vertices, vertices).contains(where: { !PoseComparison.close($0, $1) })
                {
                    return "bounding box of slot \(mine.slot): expected \(vertices), got \(mine.vertices)"
                }
            }
        }
        if let points = frame["points"] as? [[String: Any]] {
            let ours = batch.pointAttachments(row: row)
            if ours.count != points.count { return "points: expected \(points.count), got \(ours.count)" }
            for (point, mine) in zip(points, ours) {
                let x = point["x"] as? Double ?? .nan
                let y = point["y"] as? Double ?? .nan
                let rotation = point["rotation"] as? Double ?? .nan
                if point["slot"] as? Int != mine.slot || !PoseComparison.close(mine.x, x)
                    || !PoseComparison.close(mine.y, y) || !PoseComparison.close(mine.rotation, rotation)
                {
                    return "point of slot \(mine.slot): expected (\(x), \(y), \(rotation)), got \(mine)"
                }
            }
        }
        return nil
    }
}
