import BoneworkAssets
import BoneworkFormat
import Foundation

/// `bonework inspect SKELETON [--atlas ATLAS] [--json]`: a readable summary, or one JSON object
/// whose keys match the reference feature counts.
enum InspectCommand {
    static func run(_ args: [String]) throws {
        let options = try OptionParser(args, flags: ["--json", "--default"], values: ["--atlas"])
        var skeletonPath = options.positional.first
        var atlasPath = options.value("--atlas")
        if options.flag("--default") {
            skeletonPath = DefaultCharacter.skeletonPath
            atlasPath = DefaultCharacter.atlasPath
        }
        guard let skeleton = skeletonPath, options.positional.count <= 1 else {
            throw UsageError("inspect (SKELETON [--atlas ATLAS] | --default) [--json]")
        }
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
