/// Edits one node of a JSON document and writes it back: the document is scanned into nodes that
/// know the byte span of their value (and of their key, for object members), an edit replaces,
/// removes or inserts whole spans, and everything else stays byte for byte as it was (numbers keep
/// their text, so the reader evaluates them as before). Neither the engine's parser (it keeps
/// where a value starts, not where it ends) nor Foundation's (it drops member order, duplicate
/// members and the numbers' text) gives the spans.
enum JSONEdits {
    enum Kind: UInt8 {
        case object, array, string, number, literal
    }

    struct Node {
        var kind: Kind
        /// Where the member starts (its key) or, for array elements and the root, the value.
        var start: Int
        var valueStart: Int
        /// Just past the value.
        var end: Int
        var parent: Int
        /// The quoted key's span (members only), else `keyStart == keyEnd`.
        var keyStart = 0
        var keyEnd = 0
        /// Children of an array or object, linked in document order (-1: none).
        var childCount = 0
        var firstChild = -1
        var lastChild = -1
        var nextSibling = -1
    }

    /// The edits and how often each is chosen (numbers outnumber every other node in an export, so
    /// each edit first chooses its kind of node).
    enum Edit: Int, CaseIterable {
        case number, string, key, remove, duplicate, empty, truncate, swap, replaceWithSibling, copyValue, literal

        static let weights = [30, 18, 5, 10, 8, 3, 4, 8, 6, 5, 3]
    }

    /// The node table of the last scan, kept for its capacity (a document of 100 KB has some
    /// 25,000 nodes: allocating them afresh for every edit cost more than the scan).
    nonisolated(unsafe) static var scratch: [Node] = []

    static func mutate(_ bytes: [UInt8], maxSize: Int, random: inout MutationRandom) -> [UInt8]? {
        var nodes = scratch
        scratch = []
        defer { scratch = nodes }
        guard scan(bytes, into: &nodes) else { return nil }
        for _ in 0..<4 {
            let edit = Edit(rawValue: random.weighted(Edit.weights)) ?? .number
            if let edited = apply(edit, bytes, nodes, random: &random), edited.count <= maxSize, edited != bytes {
                MutatorSettings.lastEdit = "json \(edit)"
                return edited
            }
        }
        return nil
    }

    // MARK: Edits

    static func apply(_ edit: Edit, _ bytes: [UInt8], _ nodes: [Node], random: inout MutationRandom) -> [UInt8]? {
        switch edit {
        case .number:
            guard let n = pick(nodes, random: &random, where: { $0.kind == .number }) else { return nil }
            return splice(bytes, n.valueStart..<n.end, with: numberText(bytes, nodes, n, random: &random))
        case .string:
            guard let n = pick(nodes, random: &random, where: { $0.kind == .string }) else { return nil }
            let role = valueRole(bytes, nodes, n)
            let text = stringText(bytes, nodes, random: &random) { valueRole(bytes, nodes, $0) == role }
            return splice(bytes, n.valueStart..<n.end, with: text)
        case .key:
            guard let n = pick(nodes, random: &random, where: { $0.keyEnd > $0.keyStart }) else { return nil }
            let role = keyRole(bytes, nodes, n)
            let text = stringText(bytes, nodes, random: &random) { keyRole(bytes, nodes, $0) == role }
            return splice(bytes, n.keyStart..<n.keyEnd, with: text)
        case .remove:
            guard let c = pick(nodes, random: &random, where: { $0.childCount > 0 }) else { return nil }
            let kids = children(of: c, in: nodes)
            return remove(bytes, nodes, children: kids, child: random.below(kids.count))
        case .duplicate:
            guard let c = pick(nodes, random: &random, where: { $0.childCount > 0 }) else { return nil }
            let kids = children(of: c, in: nodes)
            let child = nodes[kids[random.below(kids.count)]]
            return splice(
                bytes, child.end..<child.end, with: [UInt8(ascii: ",")] + Array(bytes[child.start..<child.end]))
        case .empty:
            guard let c = pick(nodes, random: &random, where: { $0.childCount > 0 }) else { return nil }
            return splice(bytes, (c.valueStart + 1)..<(c.end - 1), with: [])
        case .truncate:
            guard let c = pick(nodes, random: &random, where: { $0.childCount >= 2 }) else { return nil }
            let kids = children(of: c, in: nodes)
            let keep = random.below(kids.count)
            if keep == 0 { return splice(bytes, (c.valueStart + 1)..<(c.end - 1), with: []) }
            let lastKept = nodes[kids[keep - 1]]
            let last = nodes[kids[kids.count - 1]]
            return splice(bytes, lastKept.end..<last.end, with: [])
        case .swap:
            // Two members or elements of one container trade places (keys reordered, bones or
            // keys out of order).
            guard let c = pick(nodes, random: &random, where: { $0.childCount >= 2 }) else { return nil }
            let kids = children(of: c, in: nodes)
            let i = random.below(kids.count)
            var j = random.below(kids.count - 1)
            if j >= i { j += 1 }
            let (a, b) = (nodes[kids[min(i, j)]], nodes[kids[max(i, j)]])
            var out = Array(bytes[0..<a.start])
            out += bytes[b.start..<b.end]
            out += bytes[a.end..<b.start]
            out += bytes[a.start..<a.end]
            out += bytes[b.end...]
            return out
        case .replaceWithSibling:
            // A value takes the value of another child of its container (a key's time and values,
            // a bone's timeline, an attachment's definition).
            guard let c = pick(nodes, random: &random, where: { $0.childCount >= 2 }) else { return nil }
            let kids = children(of: c, in: nodes)
            let a = nodes[kids[random.below(kids.count)]]
            let b = nodes[kids[random.below(kids.count)]]
            return splice(bytes, a.valueStart..<a.end, with: Array(bytes[b.valueStart..<b.end]))
        case .copyValue:
            // A value takes the value of any node of the same kind elsewhere in the file.
            guard let a = pick(nodes, random: &random, where: { $0.kind == .object || $0.kind == .array }),
                let b = pick(nodes, random: &random, where: { $0.kind == a.kind })
            else { return nil }
            return splice(bytes, a.valueStart..<a.end, with: Array(bytes[b.valueStart..<b.end]))
        case .literal:
            guard let n = pick(nodes, random: &random, where: { $0.kind == .literal }) else { return nil }
            return splice(bytes, n.valueStart..<n.end, with: Array(random.pick(["true", "false", "null", "0"]).utf8))
        }
    }

    /// A node satisfying `condition`, tried at random positions then searched from one.
    static func pick(_ nodes: [Node], random: inout MutationRandom, where condition: (Node) -> Bool) -> Node? {
        for _ in 0..<8 {
            let n = nodes[random.below(nodes.count)]
            if condition(n) { return n }
        }
        let start = random.below(nodes.count)
        for k in 0..<nodes.count where condition(nodes[(start + k) % nodes.count]) {
            return nodes[(start + k) % nodes.count]
        }
        return nil
    }

    /// Removes a child with the comma that separates it from a neighbour.
    static func remove(_ bytes: [UInt8], _ nodes: [Node], children kids: [Int], child i: Int) -> [UInt8] {
        let child = nodes[kids[i]]
        if kids.count == 1 { return splice(bytes, child.start..<child.end, with: []) }
        if i + 1 < kids.count { return splice(bytes, child.start..<nodes[kids[i + 1]].start, with: []) }
        return splice(bytes, nodes[kids[i - 1]].end..<child.end, with: [])
    }

    /// The indices of a container's children, in document order.
    static func children(of c: Node, in nodes: [Node]) -> [Int] {
        var kids: [Int] = []
        kids.reserveCapacity(c.childCount)
        var k = c.firstChild
        while k >= 0 {
            kids.append(k)
            k = nodes[k].nextSibling
        }
        return kids
    }

    static func splice(_ bytes: [UInt8], _ range: Range<Int>, with replacement: [UInt8]) -> [UInt8] {
        var out = bytes
        out.replaceSubrange(range, with: replacement)
        return out
    }

    /// A number near an edge, another number of the file, or this one changed arithmetically.
    static func numberText(_ bytes: [UInt8], _ nodes: [Node], _ n: Node, random: inout MutationRandom) -> [UInt8] {
        let current = Double(String(decoding: bytes[n.valueStart..<n.end], as: UTF8.self)) ?? 0
        var value: Double
        switch random.below(6) {
        case 0, 1: value = Double(random.pick(EdgeValues.floats))
        case 2: value = Double(random.pick(EdgeValues.integers))
        case 3:
            if let other = pick(nodes, random: &random, where: { $0.kind == .number }) {
                return Array(bytes[other.valueStart..<other.end])
            }
            value = 0
        case 4: value = current + Double(random.pick([1, -1, 0.5, -0.5, 0.001, 360, -360]))
        default: value = current * Double(random.pick([2, -1, 0.5, 10, 1000, 1e-3, 0]))
        }
        // A few past float range on purpose (the reader refuses them with their path).
        if random.below(64) == 0 { value = random.pick([1e39, -1e39, 1e300]) }
        guard value.isFinite else { return Array("0".utf8) }
        if value == value.rounded(), abs(value) < 1e15 { return Array(String(Int64(value)).utf8) }
        return Array("\(value)".utf8)
    }

    /// Mostly another string in the same role (`sameRole`: the value of a member of the same
    /// name, or a key inside a container of the same name, so that a bone's name is swapped for
    /// another bone's), else any string of the file (names, the format's own words), one made
    /// unknown, or an empty one.
    static func stringText(
        _ bytes: [UInt8], _ nodes: [Node], random: inout MutationRandom, sameRole: (Node) -> Bool
    ) -> [UInt8] {
        let n: Node?
        switch random.below(32) {
        case 0: return Array("\"\"".utf8)
        case 1: return Array("\"unknown\"".utf8)
        case 2, 3: n = pick(nodes, random: &random, where: { $0.kind == .string || $0.keyEnd > $0.keyStart })
        default:
            n = pick(nodes, random: &random) { ($0.kind == .string || $0.keyEnd > $0.keyStart) && sameRole($0) }
        }
        guard let n else { return Array("\"\"".utf8) }
        let useKey = n.keyEnd > n.keyStart && (n.kind != .string || random.below(2) == 0)
        var text = useKey ? Array(bytes[n.keyStart..<n.keyEnd]) : Array(bytes[n.valueStart..<n.end])
        // A near miss now and then: same name, one more character.
        if random.below(16) == 0 { text.insert(UInt8(ascii: "2"), at: text.count - 1) }
        return text
    }

    /// A string value's role: its member's key, or for an array element its array's key.
    static func valueRole(_ bytes: [UInt8], _ nodes: [Node], _ n: Node) -> ArraySlice<UInt8>? {
        guard n.kind == .string else { return nil }
        if n.keyEnd > n.keyStart { return bytes[n.keyStart..<n.keyEnd] }
        guard n.parent >= 0 else { return nil }
        let p = nodes[n.parent]
        return p.keyEnd > p.keyStart ? bytes[p.keyStart..<p.keyEnd] : nil
    }

    /// A key's role: the key of the object it is in.
    static func keyRole(_ bytes: [UInt8], _ nodes: [Node], _ n: Node) -> ArraySlice<UInt8>? {
        guard n.keyEnd > n.keyStart, n.parent >= 0 else { return nil }
        let p = nodes[n.parent]
        return p.keyEnd > p.keyStart ? bytes[p.keyStart..<p.keyEnd] : nil
    }

    // MARK: Scanning

    /// Fills `nodes` with the document's nodes in document order (0 is the root); false when it is
    /// not JSON.
    static func scan(_ bytes: [UInt8], into nodes: inout [Node]) -> Bool {
        nodes.removeAll(keepingCapacity: true)
        var stack: [Int] = []
        var pos = 0
        func skipSpace() {
            while pos < bytes.count,
                bytes[pos] == 0x20 || bytes[pos] == 0x0A || bytes[pos] == 0x0D || bytes[pos] == 0x09
            {
                pos += 1
            }
        }
        /// Moves past a string starting at `pos` (its opening quote); false when it never closes.
        func skipString() -> Bool {
            pos += 1
            while pos < bytes.count {
                if bytes[pos] == UInt8(ascii: "\\") {
                    pos += 2
                } else if bytes[pos] == UInt8(ascii: "\"") {
                    pos += 1
                    return true
                } else {
                    pos += 1
                }
            }
            return false
        }
        /// Scans one value at `pos` into a node; containers stay open on the stack.
        func value(start: Int, keyStart: Int, keyEnd: Int) -> Bool {
            guard pos < bytes.count else { return false }
            let parent = stack.last ?? -1
            var node = Node(
                kind: .literal, start: start, valueStart: pos, end: pos, parent: parent, keyStart: keyStart,
                keyEnd: keyEnd)
            let index = nodes.count
            switch bytes[pos] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                node.kind = bytes[pos] == UInt8(ascii: "{") ? .object : .array
                pos += 1
                stack.append(index)
            case UInt8(ascii: "\""):
                node.kind = .string
                guard skipString() else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                node.kind = .number
                pos += 1
                while pos < bytes.count, Self.isNumberByte(bytes[pos]) { pos += 1 }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                while pos < bytes.count, bytes[pos] >= UInt8(ascii: "a"), bytes[pos] <= UInt8(ascii: "z") { pos += 1 }
            default:
                return false
            }
            node.end = pos
            nodes.append(node)
            if parent >= 0 {
                if nodes[parent].lastChild >= 0 {
                    nodes[nodes[parent].lastChild].nextSibling = index
                } else {
                    nodes[parent].firstChild = index
                }
                nodes[parent].lastChild = index
                nodes[parent].childCount += 1
            }
            return true
        }
        skipSpace()
        guard value(start: pos, keyStart: 0, keyEnd: 0) else { return false }
        while let container = stack.last {
            skipSpace()
            guard pos < bytes.count else { return false }
            let isObject = nodes[container].kind == .object
            if bytes[pos] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                pos += 1
                nodes[container].end = pos
                stack.removeLast()
                continue
            }
            if nodes[container].childCount > 0 {
                guard bytes[pos] == UInt8(ascii: ",") else { return false }
                pos += 1
                skipSpace()
            }
            let start = pos
            var keyStart = 0
            var keyEnd = 0
            if isObject {
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { return false }
                keyStart = pos
                guard skipString() else { return false }
                keyEnd = pos
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { return false }
                pos += 1
                skipSpace()
            }
            guard value(start: start, keyStart: keyStart, keyEnd: keyEnd) else { return false }
        }
        return !nodes.isEmpty
    }

    static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
            || c == UInt8(ascii: "E") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    }
}
