import Foundation

/// Reads a skeleton file, choosing the reader by extension (`.json`, `.skel`), else by content:
/// JSON starts with `{` after whitespace, anything else is read as the binary format.
public enum SkeletonLoader {
    public static func load(file: String, atlas: Atlas?) throws -> SkeletonData {
        let bytes = try readFile(file)
        return try load(bytes: bytes, file: file, atlas: atlas)
    }

    public static func load(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        if file.hasSuffix(".json") { return try SkeletonJSONReader.read(bytes: bytes, file: file, atlas: atlas) }
        if file.hasSuffix(".skel") { return try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: atlas) }
        let firstNonSpace = bytes.first(where: {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        })
        if firstNonSpace == UInt8(ascii: "{") {
            return try SkeletonJSONReader.read(bytes: bytes, file: file, atlas: atlas)
        }
        return try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: atlas)
    }

    /// Reads a whole file into memory, with a typed error naming it on failure.
    public static func readFile(_ file: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw LoadError(.io, file: file, at: .file, expected: "a readable file", found: "cannot open")
        }
        defer { try? handle.close() }
        do {
            let data = try handle.readToEnd() ?? Data()
            return [UInt8](data)
        } catch {
            throw LoadError(.io, file: file, at: .file, expected: "a readable file", found: "\(error)")
        }
    }
}
