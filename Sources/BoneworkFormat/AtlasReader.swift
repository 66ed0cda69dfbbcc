/// Reads the Spine 4.x `.atlas` text format.
public enum AtlasReader {
    public static func read(file: String) throws -> Atlas {
        try read(bytes: SkeletonLoader.readFile(file), file: file)
    }

    public static func read(bytes: [UInt8], file: String) throws -> Atlas {
        throw LoadError(.malformed, file: file, at: .file, expected: "atlas reader", found: "not written yet")
    }
}
