/// Reads Spine 4.2 binary `.skel` files into a `SkeletonData`.
public enum SkeletonBinaryReader {
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        throw LoadError(.malformed, file: file, at: .file, expected: "binary reader", found: "not written yet")
    }
}
