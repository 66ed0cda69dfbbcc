import Foundation

/// Locates the shared reference folder (`../shared` beside the repository checkout).
enum SharedFixtures {
    /// The repository root, found from this source file's path.
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shared = repoRoot.deletingLastPathComponent().appendingPathComponent("shared")
    static let examples = shared.appendingPathComponent("spine-examples")
    static let golden = shared.appendingPathComponent("golden")

    /// Every skeleton file (.json and .skel) in the examples folder, as "example/file" paths, sorted.
    static func skeletonFiles() -> [String] {
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

    /// The straight-alpha atlas the reference traces use for an example folder: `<folder>.atlas`,
    /// or the folder's synthetic atlas when the export ships none.
    static func atlasPath(forSkeleton relative: String) -> String? {
        let folder = String(relative.split(separator: "/")[0])
        let dir = examples.appendingPathComponent(folder)
        let preferred = dir.appendingPathComponent("\(folder).atlas").path
        if FileManager.default.fileExists(atPath: preferred) { return preferred }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.sorted().first(where: { $0.hasSuffix("-synthetic.atlas") }).map {
            dir.appendingPathComponent($0).path
        }
    }

    /// The reference feature counts, keyed by "example/file".
    static func features() throws -> [String: [String: Int]] {
        let data = try Data(contentsOf: golden.appendingPathComponent("features.json"))
        let object = try JSONSerialization.jsonObject(with: data)
        guard let files = object as? [String: [String: Any]] else { return [:] }
        return files.mapValues { entry in entry.compactMapValues { ($0 as? NSNumber)?.intValue } }
    }
}
