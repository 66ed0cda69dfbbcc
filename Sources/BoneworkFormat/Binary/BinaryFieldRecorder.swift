/// What one value read from a `.skel` file is, as `BinaryFieldRecorder` notes it.
enum BinaryFieldKind: UInt8, Sendable {
    /// One byte (flags, a blend or inherit mode byte, colour bytes read one by one).
    case byte
    /// One byte read as a boolean.
    case bool
    /// A big-endian 32-bit integer.
    case int
    /// A big-endian IEEE 754 float.
    case float
    /// A variable-length integer (7 bits per byte, low first).
    case varint
    /// A zig-zag encoded variable-length integer.
    case signedVarint
    /// Four colour bytes.
    case color
    /// A string: its varint length plus one, then its UTF-8 bytes.
    case string
    /// A varint reference into the string table: 0 for none, else index + 1 (`bound`: entries).
    case stringRef
    /// A varint count of the elements that follow.
    case count
    /// A varint index into a table of `bound` entries.
    case index
    /// `bound` consecutive floats.
    case floats
}

/// One value read from a `.skel` file: where its bytes lie and what they encode.
/// Stored in 16 bytes (an export notes about one value per three bytes of file), so for files
/// under 2 GiB: the recorder serves tools that edit small files.
struct BinaryField: Sendable, Equatable {
    private var storedOffset: Int32
    private var storedLength: Int32
    private var storedBound: Int32
    var kind: BinaryFieldKind

    init(offset: Int, length: Int, kind: BinaryFieldKind, bound: Int) {
        storedOffset = Int32(truncatingIfNeeded: offset)
        storedLength = Int32(truncatingIfNeeded: length)
        storedBound = Int32(truncatingIfNeeded: bound)
        self.kind = kind
    }

    /// The offset of its first byte.
    var offset: Int { Int(storedOffset) }
    /// How many bytes it takes.
    var length: Int { Int(storedLength) }
    /// `.index`: the table size; `.stringRef`: the string table's size; `.floats`: the float
    /// count; 0 otherwise.
    var bound: Int { Int(storedBound) }
}

/// Receives each value a `BinaryInput` reads: where its bytes lie and what they encode.
protocol BinaryValueNotes {
    mutating func note(_ kind: BinaryFieldKind, from start: Int, to end: Int, bound: Int)
}

/// Notes nothing: what every load uses. The parser is specialized for it, so that its calls
/// compile away.
struct NoBinaryValueNotes: BinaryValueNotes {
    @inline(__always) func note(_ kind: BinaryFieldKind, from start: Int, to end: Int, bound: Int) {}
}

extension BinarySkeletonParser where Notes == NoBinaryValueNotes {
    /// A parser that notes nothing (every load).
    init(bytes: [UInt8], file: String, scale: Float) {
        self.init(bytes: bytes, file: file, scale: scale, notes: NoBinaryValueNotes())
    }
}

/// Notes every value a `BinaryInput` reads, in reading order, for tools that edit a `.skel` file
/// value by value (the fuzzers' structure-aware mutator, Tools/Fuzz). Loading never uses one. A
/// value type, held by the input: noting is a plain append, without the dynamic exclusivity
/// check a class's stored array would pay on every value.
struct BinaryFieldRecorder: BinaryValueNotes {
    /// The values read so far, in reading order (an offset may repeat when the reader reads a byte
    /// twice, never for one value).
    private(set) var fields: [BinaryField] = []

    init(capacity: Int = 0) { fields.reserveCapacity(capacity) }

    /// Notes the value that started at `start` and ended at `end`. A composite read (a string, a
    /// count, an index) first reads its varint through the plain reader: the composite replaces
    /// that note, so each value is noted once, with its most precise kind.
    mutating func note(_ kind: BinaryFieldKind, from start: Int, to end: Int, bound: Int) {
        if let last = fields.last, last.offset == start { fields.removeLast() }
        fields.append(BinaryField(offset: start, length: end &- start, kind: kind, bound: bound))
    }

    /// Reads `bytes` as a `.skel` file, noting every value: the values read before the reader
    /// stopped (all of them when it loads), the string table, and the error that stopped it.
    /// Specialized here, so that callers outside the module get the reader's optimized code.
    static func record(_ bytes: [UInt8]) -> (fields: [BinaryField], strings: [String], error: LoadError?) {
        // Exports take three to four bytes per value.
        let recorder = BinaryFieldRecorder(capacity: bytes.count / 4)
        var parser = BinarySkeletonParser(bytes: bytes, file: "recorded.skel", scale: 1, notes: recorder)
        do {
            _ = try parser.parse()
            return (parser.input.notes.fields, parser.input.strings, nil)
        } catch {
            return (parser.input.notes.fields, parser.input.strings, error as? LoadError)
        }
    }
}
