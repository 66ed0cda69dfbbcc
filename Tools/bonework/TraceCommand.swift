import BoneworkConformance
import BoneworkFormat
import BoneworkWorld
import Foundation

/// `bonework trace pose REFERENCE.json --assets DIR [--out FILE]`: replays a reference pose
/// trace's procedure (skeleton, atlas, skin, animation, dt, steps, recorded steps) in Bonework
/// and prints our trace in the same format, for `compare-trace.py`.
enum TraceCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let spec = CommandSpec(
        name: "trace pose", summary: "print our pose trace for a reference pose trace",
        synopsis: ["trace pose REFERENCE.json --assets DIR [--out FILE]"],
        description: """
            Replays a reference pose trace's procedure (skeleton, atlas, skin, animation, dt, steps) in
            Bonework and prints our trace of the same steps in the same format (spine-golden-pose-1), for
            compare-trace.py.
            """,
        positionals: [PositionalSpec(name: "REFERENCE.json", meaning: "a reference pose trace (golden/poses/...)")],
        options: [
            .value("--assets", "DIR", default: ".", "the folder the trace's skeleton and atlas paths are relative to"),
            .value("--out", "FILE", "write our trace to FILE instead of stdout"),
        ],
        examples: [
            "bonework trace pose ../shared/golden/poses/spineboy/spineboy-pro.json/walk.json "
                + "--assets ../shared/spine-examples",
            "bonework trace pose REFERENCE.json --assets ../shared/spine-examples --out ours.json",
        ])

    static func run(_ options: ParsedArguments) throws {
        guard let reference = options.positional.first else { throw UsageError("needs REFERENCE.json") }
        let assets = options.value("--assets") ?? "."
        let out = options.value("--out")
        if let out { try UserFiles.checkWritable(out) }
        let text = try trace(reference: reference, assets: assets)
        if let out {
            try UserFiles.write(text, to: out)
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    /// Our trace for a reference trace file, as JSON text.
    static func trace(reference: String, assets: String) throws -> String {
        let json = try JSONSerialization.jsonObject(with: Data(UserFiles.read(reference)))
        guard let ref = json as? [String: Any], let skeleton = ref["skeleton"] as? String,
            let animation = ref["animation"] as? String, let steps = ref["steps"] as? Int,
            let dt = ref["dt"] as? Double, let frames = ref["frames"] as? [[String: Any]]
        else { throw Failure(description: "\(reference): not a pose trace (skeleton, animation, dt, steps, frames)") }
        let atlasPath = ref["atlas"] as? String
        let skin = ref["skin"] as? String
        let loop = ref["loop"] as? Bool ?? true
        let base = URL(fileURLWithPath: assets)
        let skeletonFile = base.appendingPathComponent(skeleton).path
        let atlasFile = atlasPath.map { base.appendingPathComponent($0).path }
        try UserFiles.checkReadable(skeletonFile)
        if let atlasFile { try UserFiles.checkReadable(atlasFile) }
        let atlas = try atlasFile.map { try AtlasReader.read(file: $0) }
        let data = try SkeletonLoader.load(file: skeletonFile, atlas: atlas)
        let wanted = Set(frames.compactMap { $0["step"] as? Int })
        let delta = Float(dt)
        let poses = try PoseTrace(
            data: data, skin: skin, animation: animation, loop: loop, delta: delta, steps: steps
        ).run(recording: wanted)

        var s = "{\"format\": \"spine-golden-pose-1\",\n\"runtime\": \"bonework\",\n"
        s += "\"skeleton\": \(quote(skeleton)),\n\"atlas\": \(atlasPath.map(quote) ?? "null"),\n"
        s += "\"skin\": \(skin.map(quote) ?? "null"),\n\"animation\": \(quote(animation)),\n"
        s += "\"loop\": \(loop),\n\"dt\": \(number(delta)),\n\"steps\": \(steps),\n"
        let inactive = poses.first?.pose.inactiveBones ?? []
        s += "\"inactiveBones\": [\(inactive.map(String.init).joined(separator: ","))],\n\"frames\": [\n"
        for (n, (step, pose)) in poses.enumerated() {
            s += "{\"step\": \(step), \"time\": \(number(Float(step) * delta)),\n"
            s += " \"bones\": [\(pose.bones.map(numbers).joined(separator: ","))],\n"
            let slots = zip(pose.attachments, pose.colors).map { attachment, color in
                "{\"attachment\": \(attachment.map(quote) ?? "null"), \"color\": \(numbers(color))}"
            }
            s += " \"slots\": [\(slots.joined(separator: ","))],\n"
            s += " \"drawOrder\": [\(pose.drawOrder.map(String.init).joined(separator: ","))],\n"
            s += " \"vertices\": [\(pose.vertices.map { $0.map(numbers) ?? "null" }.joined(separator: ","))]}"
            s += n + 1 < poses.count ? ",\n" : "\n"
        }
        s += "]}\n"
        return s
    }

    static func number(_ v: Float) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e7 { return String(Int(v)) }
        return "\(v)"
    }

    static func numbers(_ values: [Float]) -> String { "[" + values.map(number).joined(separator: ",") + "]" }

    static func quote(_ text: String) -> String { JSONText.quote(text) }
}
