@testable import BoneworkFormat

/// Edits a `.skel` file value by value. The binary reader runs once with a `BinaryFieldRecorder`,
/// which notes where each value it reads lies and what it encodes; one to three of those values
/// are then rewritten in place: floats to edge values or other floats of the file, indices to
/// other entries of their table (or one past it), string references to other strings, strings
/// to other names of the file, varints and counts re-encoded at their new length, flags and
/// colours bit-flipped. Values after an edit keep their bytes, so the rest of the file still
/// reads as before. A file the reader stops in early is edited among the values read up to there.
enum SkelEdits {
    static func mutate(_ bytes: [UInt8], maxSize: Int, random: inout MutationRandom) -> [UInt8]? {
        let parsed = Parsed.of(bytes)
        let fields = parsed.fields
        guard !fields.isEmpty else { return nil }
        let context = Context(bytes: bytes, fields: fields, strings: parsed.strings)
        // Edit from the end of the file backwards, so that earlier offsets stay valid.
        let edits = random.below(4) == 0 ? 1 + random.below(3) : 1
        var chosen = Set<Int>()
        for _ in 0..<edits { chosen.insert(context.choose(random: &random)) }
        var out = bytes
        MutatorSettings.lastEdit =
            chosen.count > 1 ? "skel \(chosen.count) values" : "skel \(fields[chosen.min() ?? 0].kind)"
        for i in chosen.sorted(by: >) {
            let field = fields[i]
            let replacement = context.replacement(for: field, random: &random)
            out.replaceSubrange(field.offset..<(field.offset + field.length), with: replacement)
        }
        guard out != bytes, out.count <= maxSize else { return nil }
        // Fixed-size values that never decide what is read next: the reader would note the same
        // fields for the output, which the next edit of the chain then starts from.
        if chosen.allSatisfy({ [.float, .floats, .color, .int].contains(fields[$0].kind) }) {
            Parsed.remember(Parsed(bytes: out, fields: fields, strings: parsed.strings))
        }
        return out
    }

    /// The values the reader noted for a file, kept for the few files edited last: libFuzzer
    /// continues a chain of edits from the previous output, and goes back to the last input that
    /// loaded after a refusal (`MutationBase`), so most files to edit were seen just before.
    struct Parsed {
        var bytes: [UInt8]
        var fields: [BinaryField]
        var strings: [String]

        nonisolated(unsafe) static var recent: [Parsed] = []

        static func of(_ bytes: [UInt8]) -> Parsed {
            if let known = recent.first(where: { $0.bytes == bytes }) { return known }
            let recorded = BinaryFieldRecorder.record(bytes)
            let parsed = Parsed(bytes: bytes, fields: recorded.fields, strings: recorded.strings)
            remember(parsed)
            return parsed
        }

        static func remember(_ parsed: Parsed) {
            recent.insert(parsed, at: 0)
            if recent.count > 4 { recent.removeLast() }
        }
    }

    struct Context {
        let bytes: [UInt8]
        let fields: [BinaryField]
        let strings: [String]
        /// Field indices per kind, to draw other values of the same kind from.
        let floats: [Int]
        let names: [Int]

        init(bytes: [UInt8], fields: [BinaryField], strings: [String]) {
            self.bytes = bytes
            self.fields = fields
            self.strings = strings
            floats = fields.indices.filter { fields[$0].kind == .float }
            names = fields.indices.filter { fields[$0].kind == .string && fields[$0].length > 1 }
        }

        /// A field to edit: by kind first (values that keep the layout far more often than
        /// counts, flags and booleans, which move everything after them), then at random.
        func choose(random: inout MutationRandom) -> Int {
            // float/floats, index, stringRef, string, varint, byte/bool/color/int, count
            let group = random.weighted([40, 14, 12, 10, 10, 4, 2])
            for _ in 0..<16 {
                let i = random.below(fields.count)
                if Self.group(fields[i].kind) == group { return i }
            }
            return random.below(fields.count)
        }

        static func group(_ kind: BinaryFieldKind) -> Int {
            switch kind {
            case .float, .floats: return 0
            case .index: return 1
            case .stringRef: return 2
            case .string: return 3
            case .varint, .signedVarint: return 4
            case .byte, .bool, .color, .int: return 5
            case .count: return 6
            }
        }

        func replacement(for field: BinaryField, random: inout MutationRandom) -> [UInt8] {
            let old = Array(bytes[field.offset..<(field.offset + field.length)])
            switch field.kind {
            case .float:
                return Self.bigEndian(newFloat(old, random: &random))
            case .floats:
                // One of the run's floats.
                var out = old
                let at = 4 * random.below(field.bound)
                out.replaceSubrange(
                    at..<(at + 4), with: Self.bigEndian(newFloat(Array(old[at..<(at + 4)]), random: &random)))
                return out
            case .int:
                var out = old
                out[random.below(4)] ^= UInt8(1) << UInt8(random.below(8))
                return out
            case .byte:
                switch random.below(4) {
                case 0: return [old[0] ^ (UInt8(1) << UInt8(random.below(8)))]
                case 1: return [random.pick([0, 1, 2, 3, 4, 5, 6, 7, 0x7F, 0x80, 0xFF])]
                default: return [UInt8(truncatingIfNeeded: random.next())]
                }
            case .bool:
                return [old[0] == 0 ? 1 : random.below(8) == 0 ? 2 : 0]
            case .color:
                var out = old
                switch random.below(3) {
                case 0: out[3] = random.pick([0, 1, 0x80, 0xFF])
                case 1: out[random.below(4)] = UInt8(truncatingIfNeeded: random.next())
                default: out = [0, 0, 0, 0]
                }
                return out
            case .varint, .count:
                let value = Int64(Self.decodeVarint(old))
                return Self.varint(UInt32(truncatingIfNeeded: newInteger(value, random: &random)))
            case .signedVarint:
                let raw = Self.decodeVarint(old)
                let value = Int64(Int32(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
                let n = Int32(truncatingIfNeeded: newInteger(value, random: &random))
                return Self.varint(UInt32(bitPattern: (n << 1) ^ (n >> 31)))
            case .index:
                // Another entry of the table, mostly; its size (one past the end) or -1 now and then.
                let value: Int64
                switch random.below(10) {
                case 0: value = Int64(field.bound)
                case 1: value = -1
                default: value = Int64(random.below(field.bound))
                }
                return Self.varint(UInt32(truncatingIfNeeded: value))
            case .stringRef:
                // 0 = no string, else an entry of the table (or one past it).
                let value = random.below(16) == 0 ? field.bound + 1 : random.below(field.bound + 1)
                return Self.varint(UInt32(value))
            case .string:
                return newString(random: &random)
            }
        }

        func newFloat(_ old: [UInt8], random: inout MutationRandom) -> Float {
            let current = Float(
                bitPattern: UInt32(old[0]) << 24 | UInt32(old[1]) << 16 | UInt32(old[2]) << 8 | UInt32(old[3]))
            switch random.below(8) {
            case 0, 1, 2: return random.pick(EdgeValues.floats)
            case 3, 4:
                guard !floats.isEmpty else { return 0 }
                let f = fields[random.pick(floats)]
                let b = bytes[f.offset..<(f.offset + 4)]
                return Float(bitPattern: b.reduce(0) { $0 << 8 | UInt32($1) })
            case 5: return current + random.pick([1, -1, 0.5, 0.001, 360, -360])
            case 6: return current * random.pick([2, -1, 0.5, 10, 1000, 1e-3, 0])
            default:
                // Non-finite now and then: the reader refuses them at their byte.
                return random.below(8) == 0 ? random.pick([.nan, .infinity, -.infinity]) : -current
            }
        }

        /// Small values most often: varints hold modes, orders and indices as well as counts.
        func newInteger(_ value: Int64, random: inout MutationRandom) -> Int64 {
            switch random.below(8) {
            case 0, 1: return random.pick(EdgeValues.integers)
            case 2, 3: return value + random.pick([1, -1, 2, -2])
            case 7: return value * 2
            default: return Int64(random.below(5))
            }
        }

        func newString(random: inout MutationRandom) -> [UInt8] {
            var text: [UInt8]
            switch random.below(10) {
            case 0: return [0]  // none
            case 1: text = []
            case 2: text = Array("unknown".utf8)
            case 3, 4:
                guard !strings.isEmpty else { return [1] }
                text = Array(random.pick(strings).utf8)
            default:
                guard !names.isEmpty else { return [1] }
                let f = fields[random.pick(names)]
                let old = Array(bytes[f.offset..<(f.offset + f.length)])
                let prefix = Self.varintLength(old)
                text = Array(old[prefix...])
            }
            if random.below(8) == 0 { text.append(UInt8(ascii: "2")) }
            return Self.varint(UInt32(text.count + 1)) + text
        }

        static func bigEndian(_ value: Float) -> [UInt8] {
            let bits = value.bitPattern
            return [
                UInt8(bits >> 24), UInt8(truncatingIfNeeded: bits >> 16), UInt8(truncatingIfNeeded: bits >> 8),
                UInt8(truncatingIfNeeded: bits),
            ]
        }

        /// The reader's varint: 7 bits per byte, low bits first, at most 5 bytes.
        static func varint(_ value: UInt32) -> [UInt8] {
            var v = value
            var out: [UInt8] = []
            while v >= 0x80 {
                out.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            out.append(UInt8(v))
            return out
        }

        static func decodeVarint(_ bytes: [UInt8]) -> UInt32 {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            for b in bytes.prefix(5) {
                value |= UInt32(b & 0x7F) &<< shift
                if b & 0x80 == 0 { break }
                shift += 7
            }
            return value
        }

        static func varintLength(_ bytes: [UInt8]) -> Int {
            var n = 0
            for b in bytes.prefix(5) {
                n += 1
                if b & 0x80 == 0 { break }
            }
            return n
        }
    }
}
