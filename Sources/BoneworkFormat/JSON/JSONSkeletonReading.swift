/// The state of one skeleton JSON read: the parsed document, the builder being filled and the
/// name tables the reference looks names up in (first definition wins, as in the reference).
/// Field accessors follow the reference's typing: floats come from numbers, integers from numbers
/// (truncated) or booleans, booleans from booleans, numbers, `"true"` or null. Anything else is a
/// `LoadError` naming the JSON path.
struct JSONSkeletonReading {
    let doc: JSONDocument
    let file: String
    let scale: Float
    var builder: SkeletonDataBuilder

    var boneIDs: [String: Int32] = [:]
    var slotIDs: [String: Int32] = [:]
    var ikIDs: [String: Int32] = [:]
    var transformIDs: [String: Int32] = [:]
    var pathIDs: [String: Int32] = [:]
    var physicsIDs: [String: Int32] = [:]
    var skinIDs: [String: Int32] = [:]
    var eventIDs: [String: Int32] = [:]
    var nextSequenceID: Int32 = 0
    /// Values expanded from short keys so far: deform vectors (keys times the attachment's deform
    /// length) and draw order permutations (keys times the slot count).
    var expandedValues = 0
    /// Sequence frames declared so far (each becomes a resolved image).
    var sequenceFrames = 0

    /// Most expanded values a file may demand (256 MiB of floats), so that many tiny keys on a
    /// large mesh or skeleton cannot demand gigabytes. Real exports stay orders of magnitude below.
    static let maxExpandedValues = 1 << 26
    /// Most sequence frames a file may declare.
    static let maxSequenceFrames = 1 << 20
    /// Most digits a sequence frame number may be padded to.
    static let maxSequenceDigits: Int32 = 32

    /// `expandedValues` and `sequenceFrames` may not exceed these (see `LoadBudget`).
    let expandedBudget: Int
    let sequenceFrameBudget: Int

    init(document: JSONDocument, file: String, scale: Float, fileSize: Int) {
        doc = document
        self.file = file
        self.scale = scale
        builder = SkeletonDataBuilder(file: file)
        builder.sourceBytes = fileSize
        expandedBudget = LoadBudget.expandedValues(fileSize: fileSize, cap: Self.maxExpandedValues)
        sequenceFrameBudget = LoadBudget.resolvedFrames(fileSize: fileSize, cap: Self.maxSequenceFrames)
    }

    // MARK: Errors

    func error(
        _ kind: LoadError.Kind, _ node: Int32, member: String? = nil, expected: String, found: String
    ) -> LoadError {
        LoadError(kind, file: file, at: .jsonPath(doc.path(node, member: member)), expected: expected, found: found)
    }

    func typeError(_ node: Int32, expected: String) -> LoadError {
        error(.malformed, node, expected: expected, found: doc.describe(node))
    }

    func missing(_ object: Int32, _ key: StaticString, expected: String) -> LoadError {
        error(.malformed, object, member: "\(key)", expected: expected, found: "nothing")
    }

    func unknown(_ node: Int32, member: String? = nil, _ what: String, _ name: String) -> LoadError {
        error(.unknownName, node, member: member, expected: "the name of a defined \(what)", found: "'\(name)'")
    }

    /// Accounts for `count` expanded values (`keys` times `stride`) demanded by the timeline at `node`.
    mutating func reserveExpanded(keys: Int, stride: Int, at node: Int32, _ what: String) throws {
        let (count, overflow) = keys.multipliedReportingOverflow(by: stride)
        guard !overflow, count <= expandedBudget - expandedValues else {
            throw error(
                .limitExceeded, node, expected: "at most \(expandedBudget) \(what) values in a file of this size",
                found: "\(keys) keys of \(stride) values after \(expandedValues) others")
        }
        expandedValues += count
    }

    // MARK: Shapes

    func requireObject(_ node: Int32, _ what: String = "an object") throws {
        guard doc.type(node) == .object else { throw typeError(node, expected: what) }
    }

    func requireArray(_ node: Int32, _ what: String = "an array") throws {
        guard doc.type(node) == .array else { throw typeError(node, expected: what) }
    }

    /// A member that must be an array when present; absent or null reads as nil.
    func optionalArray(_ object: Int32, _ key: StaticString) throws -> Int32? {
        guard let node = doc.member(object, key), doc.type(node) != .null else { return nil }
        try requireArray(node)
        return node
    }

    func requiredArray(_ object: Int32, _ key: StaticString) throws -> Int32 {
        guard let node = try optionalArray(object, key) else { throw missing(object, key, expected: "an array") }
        return node
    }

    /// A member that must be an object when present; absent or null reads as nil.
    func optionalObject(_ object: Int32, _ key: StaticString) throws -> Int32? {
        guard let node = doc.member(object, key), doc.type(node) != .null else { return nil }
        try requireObject(node)
        return node
    }

    // MARK: Scalars

    /// A number value narrowed to float, as the reference stores every number. A number past
    /// float range (which narrows to infinity) is refused: no editor writes one, and an infinite
    /// value would turn every pose it reaches into NaN.
    @inline(__always) func floatValue(_ node: Int32) throws -> Float {
        guard doc.type(node) == .number else { throw typeError(node, expected: "a number") }
        let value = Float(doc.number(node))
        guard value.isFinite else { throw typeError(node, expected: "a number in float range (|x| < 3.4e38)") }
        return value
    }

    /// A number truncated toward zero (booleans count as 0 and 1), as the reference reads integers.
    func intValue(_ node: Int32) throws -> Int32 {
        switch doc.type(node) {
        case .number:
            let value = doc.number(node)
            guard value.isFinite, value > -2_147_483_649, value < 2_147_483_648 else {
                throw typeError(node, expected: "an integer in 32-bit range")
            }
            return Int32(value)
        case .true: return 1
        case .false: return 0
        default: throw typeError(node, expected: "an integer")
        }
    }

    func float(_ object: Int32, _ key: StaticString, _ defaultValue: Float) throws -> Float {
        guard let node = doc.member(object, key) else { return defaultValue }
        return try floatValue(node)
    }

    func int(_ object: Int32, _ key: StaticString, _ defaultValue: Int32) throws -> Int32 {
        guard let node = doc.member(object, key) else { return defaultValue }
        return try intValue(node)
    }

    func bool(_ object: Int32, _ key: StaticString, _ defaultValue: Bool) throws -> Bool {
        guard let node = doc.member(object, key) else { return defaultValue }
        switch doc.type(node) {
        case .true: return true
        case .false, .null: return false
        case .number: return Float(doc.number(node)) != 0
        case .string: return doc.stringIs(node, "true")
        case .array, .object: throw typeError(node, expected: "a boolean")
        }
    }

    /// A string member; absent or null reads as nil.
    func string(_ object: Int32, _ key: StaticString) throws -> String? {
        guard let node = doc.member(object, key) else { return nil }
        switch doc.type(node) {
        case .string: return doc.string(node)
        case .null: return nil
        default: throw typeError(node, expected: "a string")
        }
    }

    func requiredString(_ object: Int32, _ key: StaticString) throws -> String {
        guard let value = try string(object, key) else { throw missing(object, key, expected: "a string") }
        return value
    }

    func stringValue(_ node: Int32) throws -> String {
        guard doc.type(node) == .string else { throw typeError(node, expected: "a string") }
        return doc.string(node)
    }

    /// Every element of a numeric array as float.
    func floats(_ array: Int32, scale: Float = 1) throws -> [Float] {
        var result: [Float] = []
        result.reserveCapacity(doc.count(array))
        for element in doc.children(array) { result.append(try floatValue(element) * scale) }
        return result
    }

    /// Every element of an integer array as UInt16 (triangle and edge indices).
    func shorts(_ array: Int32) throws -> [UInt16] {
        var result: [UInt16] = []
        result.reserveCapacity(doc.count(array))
        for element in doc.children(array) {
            let value = try intValue(element)
            guard value >= 0, value <= 0xFFFF else { throw typeError(element, expected: "an index in 0...65535") }
            result.append(UInt16(value))
        }
        return result
    }

    // MARK: Colours

    /// A hex colour member (`RRGGBBAA`, or `RRGGBB` with alpha 1); absent or null reads as nil.
    /// Without `alpha` only the first three channels are read (alpha is returned as 1).
    func color(_ object: Int32, _ key: StaticString, alpha: Bool) throws -> Color? {
        guard let node = doc.member(object, key), doc.type(node) != .null else { return nil }
        return try colorValue(node, alpha: alpha)
    }

    func requiredColor(_ object: Int32, _ key: StaticString, alpha: Bool) throws -> Color {
        guard let value = try color(object, key, alpha: alpha) else {
            throw missing(object, key, expected: alpha ? "an RRGGBBAA colour" : "an RRGGBB colour")
        }
        return value
    }

    func colorValue(_ node: Int32, alpha: Bool) throws -> Color {
        let expected = alpha ? "an RRGGBBAA hex colour" : "an RRGGBB hex colour"
        guard doc.type(node) == .string else { throw typeError(node, expected: expected) }
        let digits = Array(doc.string(node).utf8)
        guard digits.count == 8 || digits.count == 6 else { throw typeError(node, expected: expected) }
        var channels: (Float, Float, Float, Float) = (0, 0, 0, 1)
        for channel in 0..<(digits.count / 2) {
            guard let high = Self.hexDigit(digits[channel * 2]), let low = Self.hexDigit(digits[channel * 2 + 1]) else {
                throw typeError(node, expected: expected)
            }
            // The reference divides the integer channel by 255 in float.
            let value = Float(high * 16 + low) / Float(255)
            switch channel {
            case 0: channels.0 = value
            case 1: channels.1 = value
            case 2: channels.2 = value
            default: if alpha { channels.3 = value }
            }
        }
        return Color(channels.0, channels.1, channels.2, channels.3)
    }

    private static func hexDigit(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return Int(c - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return Int(c - UInt8(ascii: "A")) + 10
        default: return nil
        }
    }

    // MARK: Names

    /// A name looked up in one of the name tables; `node` is the value (or member) naming it.
    func lookup(_ table: [String: Int32], _ name: String, at node: Int32, member: String? = nil, _ what: String)
        throws -> Int32
    {
        guard let index = table[name] else { throw unknown(node, member: member, what, name) }
        return index
    }

    /// A name read from a string value and looked up.
    func lookupValue(_ table: [String: Int32], _ node: Int32, _ what: String) throws -> Int32 {
        try lookup(table, try stringValue(node), at: node, what)
    }

    /// A name read from a string member and looked up; the member is required.
    func lookupMember(_ table: [String: Int32], _ object: Int32, _ key: StaticString, _ what: String) throws -> Int32 {
        let name = try requiredString(object, key)
        return try lookup(table, name, at: object, member: "\(key)", what)
    }

    /// A member's key looked up as a name.
    func lookupKey(_ table: [String: Int32], _ node: Int32, _ what: String) throws -> Int32 {
        try lookup(table, doc.key(node), at: node, what)
    }
}
