import Foundation

/// Reads a skeleton file, choosing the reader by extension (`.json`, `.skel`), else by content:
/// JSON starts with `{` after whitespace, anything else is read as the binary format.
public enum SkeletonLoader {
    /// Reads a skeleton file, `.json` or `.skel` by its extension (others by their content), its
    /// attachments' regions looked up in `atlas` (nil: no regions, e.g. for inspection).
    /// - Throws: `LoadError` naming the file, the place in it, what was expected and what was found.
    public static func load(file: String, atlas: Atlas?) throws -> SkeletonData {
        let bytes = try readFile(file)
        return try load(bytes: bytes, file: file, atlas: atlas)
    }

    /// Reads skeleton data already in memory; `file` names it in errors and chooses the reader by its
    /// extension (a `.json` name with binary content, or the reverse, is refused saying so).
    /// - Throws: `LoadError` as ``load(file:atlas:)``.
    public static func load(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        if file.hasSuffix(".json") {
            // A binary export renamed `.json` would otherwise read as "invalid JSON at byte 0".
            let content = FileContentKind.of(bytes)
            if content == .binary || content == .atlasText {
                throw LoadError(
                    .malformed, file: file, at: .byteOffset(0), expected: "JSON text (a .json skeleton export)",
                    found: content.described + (content == .binary ? "; if it is a .skel export, name it .skel" : ""))
            }
            return try SkeletonJSONReader.read(bytes: bytes, file: file, atlas: atlas)
        }
        if file.hasSuffix(".skel") {
            // The binary reader would take a JSON export's text as a hash and a version string.
            let content = FileContentKind.of(bytes)
            if content != .binary {
                throw LoadError(
                    .malformed, file: file, at: .byteOffset(0), expected: "binary skeleton data (a .skel export)",
                    found: content.described + (content == .json ? "; name the file .json to read it as JSON" : ""))
            }
            return try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: atlas)
        }
        let firstNonSpace = bytes.first(where: {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        })
        if firstNonSpace == UInt8(ascii: "{") {
            return try SkeletonJSONReader.read(bytes: bytes, file: file, atlas: atlas)
        }
        let content = FileContentKind.of(bytes)
        if content == .atlasText || content == .otherText {
            throw LoadError(
                .malformed, file: file, at: .byteOffset(0),
                expected: "a skeleton export (.json text or .skel binary data)", found: content.described)
        }
        return try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: atlas)
    }

    /// Reads a whole file into memory, with a typed error naming it on failure and giving the
    /// system's reason: `found cannot open: No such file or directory`.
    public static func readFile(_ file: String) throws -> [UInt8] {
        try readFile(file, limit: nil)
    }

    /// Reads a whole file of at most `limit` bytes (nil: any size). A longer file, or a device
    /// that never ends (`/dev/zero`), is refused after `limit + 1` bytes have been read, not
    /// read into memory whole.
    /// - Throws: `LoadError` (`.io`, or `.limitExceeded` naming the limit).
    public static func readFile(_ file: String, limit: Int?) throws -> [UInt8] {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else {
            throw LoadError(
                .io, file: file, at: .file, expected: "a readable file",
                found: "cannot open: \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            guard let limit else { return [UInt8](try handle.readToEnd() ?? Data()) }
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                throw LoadError(
                    .limitExceeded, file: file, at: .file, expected: "a file of at most \(limit) bytes",
                    found: "more")
            }
            return [UInt8](data)
        } catch let error as LoadError {
            throw error
        } catch {
            throw LoadError(.io, file: file, at: .file, expected: "a readable file", found: "\(error)")
        }
    }
}
