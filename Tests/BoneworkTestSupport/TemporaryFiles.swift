import Foundation

/// Scratch space for tests that write files.
public enum TemporaryFiles {
    /// A new, empty folder in the system's temporary directory, named
    /// `<prefix>-<name>-<process id>-<random number>` so that tests running at the same time, in
    /// this process or another, never share one. Returns its path.
    public static func freshDirectory(_ name: String, prefix: String = "bonework") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
