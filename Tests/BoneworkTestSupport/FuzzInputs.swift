import Foundation

/// The inputs a fuzz target kept: `corpus/TARGET` (re-minimised by every `Tools/fuzz.sh` run)
/// plus the named regressions in `regressions/TARGET` (never rewritten), sorted by name.
public enum FuzzInputs {
    /// The files under `root` (Tools/Fuzz) for `target`; a missing folder contributes nothing.
    public static func files(_ root: URL, target: String) throws -> [URL] {
        let fileManager = FileManager.default
        var urls: [URL] = []
        for folder in ["corpus", "regressions"] {
            let dir = root.appendingPathComponent(folder).appendingPathComponent(target)
            urls += (try? fileManager.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)) ?? []
        }
        return urls.filter { !$0.lastPathComponent.hasPrefix(".") }.sorted {
            $0.lastPathComponent < $1.lastPathComponent
        }
    }
}
