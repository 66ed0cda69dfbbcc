/// The kinds of JSON value.
enum JSONType: UInt8, Sendable {
    case null, `false`, `true`, number, string, array, object

    /// How errors describe a value of this type.
    var article: String {
        switch self {
        case .null: return "null"
        case .false: return "false"
        case .true: return "true"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One value of a parsed document. Nodes are stored in document order (pre-order), so the children
/// of a container follow it directly; `next` skips a whole subtree.
struct JSONNode: Sendable {
    var type: JSONType
    /// Children of an array or object.
    var count: Int32 = 0
    /// The index just past this node's subtree: its next sibling, if it has one.
    var next: Int32 = 0
    /// The containing array or object, -1 for the root.
    var parent: Int32
    /// Byte offset of the value in the source text.
    var offset: Int32
    /// An object member's key in `JSONDocument.text` (decoded); -1 when the node is not a member.
    var keyStart: Int32 = -1
    var keyLength: Int32 = 0
    /// A string value in `JSONDocument.text` (decoded).
    var textStart: Int32 = 0
    var textLength: Int32 = 0
    /// A number as the reference computes it, in double precision before any narrowing.
    var number: Double = 0

    init(type: JSONType, parent: Int32, offset: Int32) {
        self.type = type
        self.parent = parent
        self.offset = offset
    }
}

/// A parsed JSON document: a flat table of nodes plus the decoded text of keys and strings.
/// Objects keep their members in file order, duplicates included.
struct JSONDocument: Sendable {
    var nodes: [JSONNode] = []
    /// Decoded UTF-8 of every key and string value.
    var text: [UInt8] = []

    static let root: Int32 = 0

    @inline(__always) func type(_ node: Int32) -> JSONType { nodes[Int(node)].type }
    @inline(__always) func count(_ node: Int32) -> Int { Int(nodes[Int(node)].count) }
    @inline(__always) func number(_ node: Int32) -> Double { nodes[Int(node)].number }

    /// The first child of a container, nil when it is empty (or not a container).
    @inline(__always) func firstChild(_ node: Int32) -> Int32? {
        nodes[Int(node)].count > 0 ? node + 1 : nil
    }

    /// The sibling after `node` inside the same container, nil for the last one.
    @inline(__always) func nextSibling(_ node: Int32) -> Int32? {
        let n = nodes[Int(node)]
        guard n.parent >= 0 else { return nil }
        let parent = nodes[Int(n.parent)]
        return n.next < parent.next ? n.next : nil
    }

    /// The children of an array or object, in file order.
    func children(_ node: Int32) -> Children { Children(document: self, node: node) }

    struct Children: Sequence, IteratorProtocol {
        let document: JSONDocument
        var current: Int32
        var remaining: Int32

        init(document: JSONDocument, node: Int32) {
            self.document = document
            current = node + 1
            let n = document.nodes[Int(node)]
            remaining = (n.type == .array || n.type == .object) ? n.count : 0
        }

        mutating func next() -> Int32? {
            guard remaining > 0 else { return nil }
            let result = current
            current = document.nodes[Int(current)].next
            remaining -= 1
            return result
        }
    }

    /// Child `index` of an array; nil when out of range.
    func element(_ array: Int32, _ index: Int) -> Int32? {
        let n = nodes[Int(array)]
        guard n.type == .array, index >= 0, index < Int(n.count) else { return nil }
        // All-scalar arrays (the common case: numbers) are contiguous, so the child is direct.
        if Int(n.next) == Int(array) + 1 + Int(n.count) { return array + 1 + Int32(index) }
        var child = array + 1
        for _ in 0..<index { child = nodes[Int(child)].next }
        return child
    }

    /// The first member of `object` whose key equals `key` ignoring ASCII case (the reference
    /// looks members up this way); nil when absent or when `object` is not an object.
    func member(_ object: Int32, _ key: StaticString) -> Int32? {
        let n = nodes[Int(object)]
        guard n.type == .object, n.count > 0 else { return nil }
        let length = key.utf8CodeUnitCount
        return text.withUnsafeBufferPointer { pool in
            let wanted = UnsafeBufferPointer(start: key.utf8Start, count: length)
            var child = object + 1
            for _ in 0..<n.count {
                let c = nodes[Int(child)]
                if Int(c.keyLength) == length {
                    var i = 0
                    let base = Int(c.keyStart)
                    while i < length, Self.lower(pool[base + i]) == Self.lower(wanted[i]) { i += 1 }
                    if i == length { return child }
                }
                child = c.next
            }
            return nil
        }
    }

    @inline(__always) private static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }

    /// Whether a member's key is exactly `name` (case-sensitive).
    func keyIs(_ node: Int32, _ name: StaticString) -> Bool {
        let n = nodes[Int(node)]
        guard n.keyStart >= 0, Int(n.keyLength) == name.utf8CodeUnitCount else { return false }
        return text.withUnsafeBufferPointer { pool in
            let wanted = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
            for i in 0..<Int(n.keyLength) where pool[Int(n.keyStart) + i] != wanted[i] { return false }
            return true
        }
    }

    /// A member's key.
    func key(_ node: Int32) -> String {
        let n = nodes[Int(node)]
        guard n.keyStart >= 0 else { return "" }
        return decode(start: n.keyStart, length: n.keyLength)
    }

    /// A string node's value.
    func string(_ node: Int32) -> String {
        let n = nodes[Int(node)]
        return decode(start: n.textStart, length: n.textLength)
    }

    /// Whether a string node's value is exactly `value`.
    func stringIs(_ node: Int32, _ value: StaticString) -> Bool {
        let n = nodes[Int(node)]
        guard n.type == .string, Int(n.textLength) == value.utf8CodeUnitCount else { return false }
        return text.withUnsafeBufferPointer { pool in
            let wanted = UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount)
            for i in 0..<Int(n.textLength) where pool[Int(n.textStart) + i] != wanted[i] { return false }
            return true
        }
    }

    private func decode(start: Int32, length: Int32) -> String {
        text.withUnsafeBufferPointer { pool in
            String(decoding: UnsafeBufferPointer(rebasing: pool[Int(start)..<Int(start + length)]), as: UTF8.self)
        }
    }

    /// The JSON path of a node, e.g. `$.animations.walk.bones.torso.rotate[3]`, optionally followed
    /// by a member name that was looked for inside it.
    func path(_ node: Int32, member: String? = nil) -> String {
        var components: [String] = []
        var current = node
        while current >= 0, Int(current) < nodes.count {
            let parent = nodes[Int(current)].parent
            guard parent >= 0 else { break }
            if nodes[Int(parent)].type == .object {
                components.append(Self.memberComponent(key(current)))
            } else {
                var index = 0
                var child = parent + 1
                while child != current && child < Int32(nodes.count) {
                    child = nodes[Int(child)].next
                    index += 1
                }
                components.append("[\(index)]")
            }
            current = parent
        }
        var result = "$"
        for component in components.reversed() { result += component }
        if let member { result += Self.memberComponent(member) }
        return result
    }

    /// `.name` for plain keys, `["name"]` for keys that would read ambiguously after a dot.
    static func memberComponent(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.utf8.allSatisfy { c in
                c > 0x20 && c != UInt8(ascii: ".") && c != UInt8(ascii: "[") && c != UInt8(ascii: "]")
                    && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") && c != 0x7F
            }
        if plain { return "." + key }
        var escaped = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default:
                if scalar.value < 0x20 {
                    escaped +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return "[\"" + escaped + "\"]"
    }

    /// A short description of a node's value for error messages.
    func describe(_ node: Int32) -> String {
        let n = nodes[Int(node)]
        switch n.type {
        case .string:
            var s = string(node)
            if s.count > 40 { s = String(s.prefix(40)) + "..." }
            return "\"\(s)\""
        case .number:
            return "\(n.number)"
        default:
            return n.type.article
        }
    }
}
