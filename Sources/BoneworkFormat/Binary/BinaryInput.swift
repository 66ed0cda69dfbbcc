/// Upper bounds the binary reader enforces on top of "every element needs at least one byte".
/// Real exports stay far below them; they exist so that a hostile file cannot make the loader
/// allocate or compute without end.
enum BinaryLimits {
    /// Any single count read from the file (bones, keys, vertices, string bytes...).
    static let maxCount = 1 << 24
    /// Floats and ints the reader may create beyond what the file spells out: deform keys (a key
    /// of one byte expands to a whole vertex array), draw order keys (one permutation per key),
    /// and the vertex data linked meshes and sequences multiply at load.
    static let maxExpandedValues = 1 << 24
    /// Resolved images (one per region or mesh attachment, one per sequence frame).
    static let maxResolvedFrames = 1 << 20
    /// Frames of one sequence.
    static let maxSequenceFrames = 100_000
    /// Zero-padding digits of sequence frame numbers.
    static let maxSequenceDigits = 32
    /// Comparisons spent finding (slot, name) entries in skins while reading.
    static let maxSkinLookupWork = 1 << 26
}

/// A cursor over the bytes of a binary skeleton. Every read checks the remaining length first and
/// throws `LoadError(.truncated)` naming the byte offset where the value starts; nothing traps.
/// Each value read is handed to `notes` (`BinaryValueNotes`): loading notes nothing, and those
/// calls compile away; the fuzzers' mutator records them (`BinaryFieldRecorder`).
struct BinaryInput<Notes: BinaryValueNotes> {
    let bytes: [UInt8]
    let file: String
    private(set) var offset = 0
    /// The file's string table; string references index it (1-based, 0 = none).
    var strings: [String] = []
    private(set) var notes: Notes

    init(bytes: [UInt8], file: String, notes: Notes) {
        self.bytes = bytes
        self.file = file
        self.notes = notes
    }

    var remaining: Int { bytes.count &- offset }

    /// An error located at `offset` (by default where the cursor stands).
    func error(
        _ kind: LoadError.Kind, at offset: Int? = nil, expected: String, found: some CustomStringConvertible
    ) -> LoadError {
        LoadError(kind, file: file, at: .byteOffset(offset ?? self.offset), expected: expected, found: "\(found)")
    }

    private func truncated(at start: Int, _ what: String) -> LoadError {
        error(.truncated, at: start, expected: what, found: "end of file after \(bytes.count) bytes")
    }

    mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw truncated(at: offset, "a byte") }
        let value = bytes[offset]
        offset &+= 1
        note(.byte, from: offset &- 1)
        return value
    }

    mutating func readSByte() throws -> Int8 { Int8(bitPattern: try readByte()) }

    mutating func readBool() throws -> Bool {
        let value = try readByte()
        note(.bool, from: offset &- 1)
        return value != 0
    }

    /// A big-endian 32-bit integer.
    mutating func readInt() throws -> Int32 {
        guard remaining >= 4 else { throw truncated(at: offset, "a 4-byte integer") }
        let value = bigEndianWord(at: offset)
        offset &+= 4
        note(.int, from: offset &- 4)
        return Int32(bitPattern: value)
    }

    /// A float stored as its big-endian IEEE 754 bits.
    mutating func readFloat() throws -> Float {
        guard remaining >= 4 else { throw truncated(at: offset, "a 4-byte float") }
        let value = Float(bitPattern: bigEndianWord(at: offset))
        // No editor writes NaN or an infinity; either would spread into every pose it reaches.
        guard value.isFinite else { throw error(.malformed, at: offset, expected: "a finite float", found: value) }
        offset &+= 4
        note(.float, from: offset &- 4)
        return value
    }

    @inline(__always) private func bigEndianWord(at i: Int) -> UInt32 {
        UInt32(bytes[i]) << 24 | UInt32(bytes[i &+ 1]) << 16 | UInt32(bytes[i &+ 2]) << 8 | UInt32(bytes[i &+ 3])
    }

    /// A variable-length integer: 7 bits per byte, low bits first, at most 5 bytes (bits past 32
    /// are dropped). With `optimizePositive` false the value is zig-zag decoded.
    mutating func readVarint(optimizePositive: Bool = true) throws -> Int32 {
        let start = offset
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            guard offset < bytes.count else { throw truncated(at: start, "a variable-length integer") }
            let byte = bytes[offset]
            offset &+= 1
            value |= UInt32(byte & 0x7F) &<< shift
            if byte & 0x80 == 0 || shift == 28 { break }
            shift &+= 7
        }
        if !optimizePositive { value = (value >> 1) ^ (0 &- (value & 1)) }
        note(optimizePositive ? .varint : .signedVarint, from: start)
        return Int32(bitPattern: value)
    }

    /// An RGBA colour of four bytes, each divided by 255 in float.
    mutating func readColor() throws -> Color {
        guard remaining >= 4 else { throw truncated(at: offset, "a 4-byte colour") }
        let color = Color(
            Float(bytes[offset]) / 255, Float(bytes[offset &+ 1]) / 255, Float(bytes[offset &+ 2]) / 255,
            Float(bytes[offset &+ 3]) / 255)
        offset &+= 4
        note(.color, from: offset &- 4)
        return color
    }

    /// A UTF-8 string prefixed by its length plus one; length 0 is no string (nil), 1 is "".
    mutating func readString() throws -> String? {
        let start = offset
        let length = Int(try readVarint())
        if length == 0 {
            note(.string, from: start)
            return nil
        }
        guard length > 0, length <= BinaryLimits.maxCount else {
            throw error(
                .limitExceeded, at: start, expected: "a string length in 0...\(BinaryLimits.maxCount)", found: length)
        }
        let byteCount = length &- 1
        guard byteCount <= remaining else { throw truncated(at: start, "a string of \(byteCount) bytes") }
        let string = String(decoding: bytes[offset..<offset &+ byteCount], as: UTF8.self)
        offset &+= byteCount
        note(.string, from: start)
        return string
    }

    /// A reference into the string table: -1 for none, else the table index.
    mutating func readStringRefIndex() throws -> Int {
        let start = offset
        let reference = Int(try readVarint())
        guard reference >= 0, reference <= strings.count else {
            throw error(
                .malformed, at: start, expected: "a string reference in 0...\(strings.count)", found: reference)
        }
        note(.stringRef, from: start, bound: strings.count)
        return reference &- 1
    }

    /// A string from the table, nil for the null reference.
    mutating func readStringRef() throws -> String? {
        let index = try readStringRefIndex()
        return index < 0 ? nil : strings[index]
    }

    /// A count of elements that each take at least `minBytesEach` bytes of the rest of the file;
    /// refused before anything is allocated for it when the file cannot hold that many.
    mutating func readCount(_ what: String, minBytesEach: Int = 1, max: Int = BinaryLimits.maxCount) throws -> Int {
        let start = offset
        let raw = try readVarint()
        // Counts are unsigned: one that decodes negative is a count beyond 2^31.
        let count = Int(UInt32(bitPattern: raw))
        guard count <= max else {
            throw error(.limitExceeded, at: start, expected: "\(what) at most \(max)", found: count)
        }
        guard count <= remaining / Swift.max(1, minBytesEach) else {
            throw error(
                .limitExceeded, at: start,
                expected: "\(what) that fits the \(remaining) bytes left (\(minBytesEach) or more each)", found: count)
        }
        note(.count, from: start)
        return count
    }

    /// An index that must lie in `0..<count`.
    mutating func readIndex(_ what: String, count: Int) throws -> Int32 {
        let start = offset
        let index = try readVarint()
        guard index >= 0, Int(index) < count else {
            throw error(.malformed, at: start, expected: "\(what) index in 0..<\(count)", found: index)
        }
        note(.index, from: start, bound: count)
        return index
    }

    /// Appends `count` floats, each multiplied by `scale`, after one bounds check.
    mutating func readFloats(_ count: Int, scale: Float, into array: inout [Float]) throws {
        guard count >= 0, count <= remaining / 4 else { throw truncated(at: offset, "\(count) floats") }
        array.reserveCapacity(array.count &+ count)
        var i = offset
        let end = offset &+ count &* 4
        while i < end {
            let value = Float(bitPattern: bigEndianWord(at: i))
            guard value.isFinite else { throw error(.malformed, at: i, expected: "a finite float", found: value) }
            array.append(value * scale)
            i &+= 4
        }
        if count > 0 { note(.floats, from: offset, to: end, bound: count) }
        offset = end
    }

    /// Hands the value that started at `start` (and ends at `end`, by default where the cursor
    /// stands) to `notes`.
    @inline(__always) private mutating func note(
        _ kind: BinaryFieldKind, from start: Int, to end: Int? = nil, bound: Int = 0
    ) {
        notes.note(kind, from: start, to: end ?? offset, bound: bound)
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw truncated(at: offset, "\(count) bytes") }
        offset &+= count
    }
}
