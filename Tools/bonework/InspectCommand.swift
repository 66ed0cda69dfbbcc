import BoneworkAssets
import BoneworkFormat
import Foundation

/// `bonework inspect SKELETON [--atlas ATLAS] [--json]`: a readable summary, or one JSON object
/// whose keys match the reference feature counts.
enum InspectCommand {
    static let spec = CommandSpec(
        name: "inspect", summary: "summarize a skeleton file, or print its feature counts as JSON",
        synopsis: ["inspect SKELETON [--atlas ATLAS] [--json]", "inspect --default [--json]"],
        description: """
            Loads a skeleton and prints its bones, slots, constraints, skins, attachments, events and
            animations (with durations), or one JSON object whose keys match the reference feature counts.
            """,
        positionals: [PositionalSpec(name: "SKELETON", meaning: "a Spine 4.2 skeleton file: .json or .skel")],
        options: [
            .value(
                "--atlas", "ATLAS", "the skeleton's atlas: attachments find their regions, the summary counts pages"),
            .flag("--json", "print one JSON object of feature counts instead of the summary"),
            .flag("--default", "inspect the built-in default character instead of SKELETON"),
        ],
        examples: [
            "bonework inspect ../shared/spine-examples/spineboy/spineboy-pro.skel",
            "bonework inspect ../shared/spine-examples/spineboy/spineboy-pro.json --atlas "
                + "../shared/spine-examples/spineboy/spineboy.atlas --json",
            "bonework inspect --default",
        ])

    static func run(_ options: ParsedArguments) throws {
        var skeletonPath = options.positional.first
        var atlasPath = options.value("--atlas")
        if options.flag("--default") {
            skeletonPath = DefaultCharacter.skeletonPath
            atlasPath = DefaultCharacter.atlasPath
        }
        guard let skeleton = skeletonPath else { throw UsageError("needs SKELETON, or --default") }
        try FileRoles.check(skeleton: skeleton, atlas: atlasPath)
        try UserFiles.checkReadable(skeleton)
        if let atlasPath { try UserFiles.checkReadable(atlasPath) }
        let atlas = try atlasPath.map { try AtlasReader.read(file: $0) }
        let data = try SkeletonLoader.load(file: skeleton, atlas: atlas)
        let features = SkeletonFeatures(data)
        if options.flag("--json") {
            let body = features.counts.map { "  \"\($0.key)\": \($0.value)" }.joined(separator: ",\n")
            print(
                "{\n  \"file\": \(JSONText.quote(skeleton)),\n  \"version\": \(JSONText.quote(data.version)),\n\(body)\n}"
            )
            return
        }
        printSummary(data, features: features)
    }

    static func printSummary(_ data: SkeletonData, features: SkeletonFeatures) {
        func count(_ key: String) -> Int { features[key] ?? 0 }
        print("\(data.file)  (Spine \(data.version), hash \(data.hash))")
        print(
            "bones       \(data.bones.count) (\(count("skinRequiredBones")) skin-required, \(count("nonNormalInherit")) non-normal inherit)"
        )
        print("slots       \(data.slots.count)")
        print(
            "constraints ik \(data.ikConstraints.count), transform \(data.transformConstraints.count), "
                + "path \(data.pathConstraints.count), physics \(data.physicsConstraints.count)")
        print("skins       \(data.skins.count): " + data.skins.map(\.name).joined(separator: ", "))
        print(
            "attachments \(count("attachments")): region \(count("region")), mesh \(count("mesh")) "
                + "(weighted \(count("weightedMesh")), linked \(count("linkedMesh"))), clipping \(count("clipping")), "
                + "boundingBox \(count("boundingBox")), path \(count("pathAttachment")), point \(count("point")), "
                + "sequences \(count("sequenceAttachments"))")
        print("events      \(data.events.count): " + data.events.map(\.name).joined(separator: ", "))
        print("animations  \(data.animations.count)")
        for animation in data.animations {
            let duration = String(format: "%.4f", animation.duration)
            print(
                "  \(animation.name.padding(toLength: max(24, animation.name.count), withPad: " ", startingAt: 0)) \(duration) s, \(animation.timelines.count) timelines"
            )
        }
        if let atlas = data.atlas {
            print("atlas       \(atlas.pages.count) page(s), \(atlas.regions.count) regions")
        }
    }
}
