/// Reads Spine 4.2 binary `.skel` files into a `SkeletonData`.
///
/// The reader follows the reference's binary layout field by field. Input is untrusted: every
/// read is bounds-checked, every count is checked against the bytes left (and sane maxima)
/// before anything is allocated for it, every index is range-checked, and failures are
/// `LoadError`s that name the byte offset.
public enum SkeletonBinaryReader {
    /// Reads a Spine 4.2 binary export (`.skel`); `file` names it in errors.
    /// - Throws: `LoadError` with the byte offset of the first bad value.
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        try read(bytes: bytes, file: file, atlas: atlas, scale: 1)
    }

    /// `scale` multiplies positions, lengths and translations as the reference's loader scale does.
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?, scale: Float) throws -> SkeletonData {
        var parser = BinarySkeletonParser(bytes: bytes, file: file, scale: scale)
        return try parser.parse().finish(atlas: atlas)
    }
}
