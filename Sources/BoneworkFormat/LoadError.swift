/// Where in an input a problem was found.
public enum SourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// A byte offset into a binary file (or into a text file, for JSON syntax errors).
    case byteOffset(Int)
    /// A JSON path such as `$.bones[3].parent`.
    case jsonPath(String)
    /// A 1-based line of a text file such as an `.atlas`.
    case line(Int)
    /// The whole file (I/O failures, missing files).
    case file

    /// `byte 12`, `$.bones[3].parent`, `line 4` or `file`: how messages print the place.
    public var description: String {
        switch self {
        case .byteOffset(let offset): return "byte \(offset)"
        case .jsonPath(let path): return path
        case .line(let line): return "line \(line)"
        case .file: return "file"
        }
    }
}

/// Every failure while reading an atlas, a PNG page or a skeleton. It always names the file, the
/// place inside it, and what was expected versus what was found; loaders never trap on bad input
/// and never hand out a partially built object.
public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem was found (the raw value is the word messages use).
    public enum Kind: String, Sendable, Equatable {
        /// The input ended before a complete value could be read.
        case truncated
        /// A value has the wrong type, shape or range.
        case malformed
        /// The file declares a Spine version Bonework does not read.
        case unsupportedVersion
        /// A name (bone, slot, skin, attachment, atlas region...) does not exist.
        case unknownName
        /// A count or size exceeds what the remaining input or a sane maximum allows.
        case limitExceeded
        /// Bone parents form a cycle or a bone refers to itself.
        case cycle
        /// The file could not be opened or read.
        case io
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The file as it was named to the reader.
    public var file: String
    /// Where in the file (byte offset, JSON path or line).
    public var location: SourceLocation
    /// What the reader expected there, in words.
    public var expected: String
    /// What it found instead, in words (with a likely fix where there is one).
    public var found: String

    /// An error of `kind` in `file` at `location`.
    public init(_ kind: Kind, file: String, at location: SourceLocation, expected: String, found: String) {
        self.kind = kind
        self.file = file
        self.location = location
        self.expected = expected
        self.found = found
    }

    /// `FILE: PLACE: KIND: expected EXPECTED, found FOUND`, on one line.
    public var description: String {
        "\(file): \(location): \(kind.rawValue): expected \(expected), found \(found)"
    }
}
