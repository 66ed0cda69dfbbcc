import Foundation

/// Where the tests find their inputs: the repository checkout and the shared reference folder
/// (`../shared` beside the checkout, see its DESIGN.md and golden/README.md).
public enum TestPaths {
    /// The repository root, found from this source file's path
    /// (`Tests/BoneworkTestSupport/TestPaths.swift`).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Bonework's own extra reference traces, `Tests/ReferenceTraces` in the repository.
    public static let referenceTraces = repositoryRoot.appendingPathComponent("Tests/ReferenceTraces")

    /// The shared reference folder, `../shared` beside the repository checkout.
    public static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")

    /// The example exports (skeletons, atlases and page images), `shared/spine-examples`.
    public static let examples = shared.appendingPathComponent("spine-examples")

    /// The reference runtime's outputs, `shared/golden`.
    public static let golden = shared.appendingPathComponent("golden")

    /// The reference feature counts per skeleton file, `shared/golden/features.json`.
    public static let featuresFile = golden.appendingPathComponent("features.json")

    /// The reference renders and their requests, `shared/golden/renders`.
    public static let renders = golden.appendingPathComponent("renders")

    /// The reference pose traces, `shared/golden/poses`.
    public static let poses = golden.appendingPathComponent("poses")

    /// The reference animation-state scenarios and their traces, `shared/golden/scenarios`.
    public static let scenarios = golden.appendingPathComponent("scenarios")

    /// Reference traces of what applications do to a skeleton (format 2 scenarios).
    public static let runtimeScenarios = golden.appendingPathComponent("runtime")

    /// The reference scenarios of the second scenario format (runtime API calls) and their
    /// traces, `shared/golden/runtime`.
    public static let runtime = golden.appendingPathComponent("runtime")

    /// The shared comparison tools, `shared/tools`.
    public static let tools = shared.appendingPathComponent("tools")

    /// The image judge every render test uses, `shared/tools/compare-image.py`.
    public static let compareImageTool = tools.appendingPathComponent("compare-image.py")

    /// The path of `relative` (such as "spineboy/spineboy-pro.skel") in the examples folder.
    public static func example(_ relative: String) -> String {
        examples.appendingPathComponent(relative).path
    }

    /// Every skeleton file (.json and .skel) in the examples folder, as "example/file" paths,
    /// sorted by folder and then by name; empty when the folder is missing.
    public static func skeletonFiles() -> [String] {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        var files: [String] = []
        for folder in folders.sorted() {
            let names =
                (try? FileManager.default.contentsOfDirectory(atPath: examples.appendingPathComponent(folder).path))
                ?? []
            for name in names.sorted() where name.hasSuffix(".json") || name.hasSuffix(".skel") {
                files.append("\(folder)/\(name)")
            }
        }
        return files
    }

    /// The straight-alpha atlas the reference traces use for the example folder of `relative`
    /// ("example/file"): `<folder>.atlas`, or the folder's synthetic atlas when the export ships
    /// none; nil when there is neither.
    public static func atlasPath(forSkeleton relative: String) -> String? {
        let folder = String(relative.split(separator: "/")[0])
        let dir = examples.appendingPathComponent(folder)
        let preferred = dir.appendingPathComponent("\(folder).atlas").path
        if FileManager.default.fileExists(atPath: preferred) { return preferred }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().first(where: { $0.hasSuffix("-synthetic.atlas") }).map {
            dir.appendingPathComponent($0).path
        }
    }

    /// A file the tests cannot use as it is.
    public struct FixtureError: Error, CustomStringConvertible {
        /// What is wrong, naming the file.
        public var description: String
    }

    /// The reference feature counts (`golden/features.json`), keyed by "example/file" and then by
    /// count name. Throws when the file cannot be read or is not an object of objects.
    public static func features() throws -> [String: [String: Int]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: featuresFile))
        guard let files = object as? [String: [String: Any]] else {
            throw FixtureError(description: "\(featuresFile.path) is not an object of objects")
        }
        return files.mapValues { entry in entry.compactMapValues { ($0 as? NSNumber)?.intValue } }
    }
}
