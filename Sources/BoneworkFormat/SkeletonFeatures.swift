/// Counts that summarize a skeleton: what `bonework inspect --json` prints. The keys and meanings
/// match the reference counts in the shared golden `features.json`.
public struct SkeletonFeatures: Sendable, Equatable {
    /// (key, count) in a stable order.
    public private(set) var counts: [(key: String, value: Int)] = []

    /// Equal when both have the same keys with the same counts in the same order.
    public static func == (lhs: SkeletonFeatures, rhs: SkeletonFeatures) -> Bool {
        lhs.counts.elementsEqual(rhs.counts) { $0.key == $1.key && $0.value == $1.value }
    }

    /// The count under `key` (`bones`, `mesh`, `clipping`...), nil for a key not counted.
    public subscript(key: String) -> Int? { counts.first(where: { $0.key == key })?.value }

    /// Counts `data`'s bones, slots, constraints, skins, attachments by kind, events and animations.
    public init(_ data: SkeletonData) {
        func add(_ key: String, _ value: Int) { counts.append((key, value)) }
        let entries = data.skins.flatMap(\.entries).map { data.attachments[Int($0.attachment)] }
        let meshes = entries.filter { $0.kind == .mesh }
        let timelines = data.animations.flatMap(\.timelines)
        func timelineCount(_ kinds: Set<TimelineKind>) -> Int { timelines.filter { kinds.contains($0.kind) }.count }

        add("bones", data.bones.count)
        add("slots", data.slots.count)
        add("ik", data.ikConstraints.count)
        add("transform", data.transformConstraints.count)
        add("path", data.pathConstraints.count)
        add("physics", data.physicsConstraints.count)
        add("skins", data.skins.count)
        add("skinBones", data.skins.reduce(0) { $0 + $1.bones.count })
        add("skinConstraints", data.skins.reduce(0) { $0 + $1.constraints.count })
        add("skinRequiredBones", data.bones.filter(\.skinRequired).count)
        add("nonNormalInherit", data.bones.filter { $0.inherit != .normal }.count)
        add("attachments", entries.count)
        add("region", entries.filter { $0.kind == .region }.count)
        add("mesh", meshes.count)
        add("weightedMesh", meshes.filter(\.isWeighted).count)
        add("linkedMesh", meshes.filter(\.isLinkedMesh).count)
        add("clipping", entries.filter { $0.kind == .clipping }.count)
        add("boundingBox", entries.filter { $0.kind == .boundingBox }.count)
        add("pathAttachment", entries.filter { $0.kind == .path }.count)
        add("point", entries.filter { $0.kind == .point }.count)
        add("sequenceAttachments", entries.filter { $0.sequence != nil }.count)
        add("maxMeshVertices", meshes.map(\.vertexCount).max() ?? 0)
        add("totalMeshVertices", meshes.reduce(0) { $0 + $1.vertexCount })
        add("events", data.events.count)
        add("animations", data.animations.count)
        add("timelines", timelines.count)
        add("deformTimelines", timelineCount([.deform]))
        add("sequenceTimelines", timelineCount([.sequence]))
        add("drawOrderTimelines", timelineCount([.drawOrder]))
        add("eventTimelines", timelineCount([.event]))
        add("eventKeys", timelines.filter { $0.kind == .event }.reduce(0) { $0 + Int($1.frameCount) })
        add("attachmentTimelines", timelineCount([.attachment]))
        add("colorTimelines", timelineCount([.rgba, .rgb, .alpha, .rgba2, .rgb2]))
        add("ikTimelines", timelineCount([.ik]))
        add("transformTimelines", timelineCount([.transform]))
        add("pathTimelines", timelineCount([.pathPosition, .pathSpacing, .pathMix]))
        add(
            "physicsTimelines",
            timelineCount([
                .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
                .physicsMix,
            ]))
        add("physicsResetTimelines", timelineCount([.physicsReset]))
        add("inheritTimelines", timelineCount([.inherit]))
    }

    /// The keys the project's contract requires to agree with the reference counts.
    public static let requiredKeys = [
        "bones", "slots", "ik", "transform", "path", "physics", "skins", "animations", "events", "attachments",
        "region", "mesh", "linkedMesh", "clipping", "boundingBox", "pathAttachment", "point",
    ]
}
