/// Reads Spine 4.2 skeleton JSON into a `SkeletonData`.
public enum SkeletonJSONReader {
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        throw LoadError(.malformed, file: file, at: .file, expected: "json reader", found: "not written yet")
    }
}
