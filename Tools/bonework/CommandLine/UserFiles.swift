import Foundation

/// A file named on the command line that cannot be read or written, with the system's reason:
/// `cannot read /x/y.json: No such file or directory`.
struct FileError: Error, CustomStringConvertible {
    enum Access: String, Sendable {
        case read, write
        /// Foundation did not say whether it was reading or writing.
        case access
    }

    let access: Access
    let path: String
    /// The system's reason (`strerror`), or Foundation's when it gives no system error.
    let reason: String

    var description: String { "cannot \(access.rawValue) \(path): \(reason)" }

    init(_ access: Access, _ path: String, errno code: Int32) {
        self.access = access
        self.path = path
        reason = String(cString: strerror(code))
    }

    /// A Foundation file error (`NSCocoaErrorDomain`, with the file's path), in those words; nil
    /// for any other error. `access` overrides the guess from Foundation's error code.
    init?(foundation error: any Error, access: Access? = nil, path: String? = nil) {
        let ns = error as NSError
        guard ns.domain == NSCocoaErrorDomain,
            let path = path ?? ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        else { return nil }
        self.path = path
        // Foundation's codes: 256...511 failed reads, 512...1023 failed writes.
        self.access =
            access ?? ((256..<512).contains(ns.code) ? .read : (512..<1024).contains(ns.code) ? .write : .access)
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            reason = String(cString: strerror(Int32(underlying.code)))
        } else {
            reason = ns.localizedDescription
        }
    }
}

/// The files a user names on the command line: read and written with errors in the system's
/// words (`FileError`), and checked before a command spends time on them, so that a mistyped
/// path fails at once, in those words, rather than deep in a loader or after a long run.
enum UserFiles {
    /// Throws unless `path` is a file that can be opened for reading.
    static func checkReadable(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw FileError(.read, path, errno: errno) }
        close(descriptor)
        if isFolder(path) { throw FileError(.read, path, errno: EISDIR) }
    }

    /// Throws unless a file can be created or replaced at `path`: its folder exists and may be
    /// written, and `path` itself is not a folder.
    static func checkWritable(_ path: String) throws {
        if isFolder(path) { throw FileError(.write, path, errno: EISDIR) }
        let parent = (path as NSString).deletingLastPathComponent
        guard access(parent.isEmpty ? "." : parent, W_OK | X_OK) == 0 else {
            throw FileError(.write, path, errno: errno)
        }
    }

    /// The whole file.
    static func read(_ path: String) throws -> [UInt8] {
        try checkReadable(path)
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw FileError(foundation: error, access: .read, path: path) ?? error
        }
    }

    /// Writes `text` as UTF-8, replacing the file atomically.
    static func write(_ text: String, to path: String) throws {
        do {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw FileError(foundation: error, access: .write, path: path) ?? error
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}
