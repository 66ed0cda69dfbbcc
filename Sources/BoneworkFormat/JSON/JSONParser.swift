import Foundation

/// Parses JSON text into a `JSONDocument`. The parser is iterative with an explicit stack, so
/// hostile nesting cannot overflow the thread stack; it stops at `maxDepth` open containers.
/// Numbers are evaluated exactly as the reference evaluates them (digit by digit in double
/// precision, the fraction divided by a power of ten), because key times that sit on float ties
/// decide discrete results.
enum JSONParser {
    static let maxDepth = 512

    static func parse(_ bytes: [UInt8], file: String) throws -> JSONDocument {
        guard bytes.count < Int(Int32.max) else {
            throw LoadError(
                .limitExceeded, file: file, at: .file, expected: "a JSON file under 2 GiB",
                found: "\(bytes.count) bytes")
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(input: buffer, file: file)
            return try parser.run()
        }
    }

    /// The value of a JSON number as the reference computes it (see `Parser.number`), exposed for tests.
    static func referenceValue(of text: String) -> Double? {
        let bytes = Array(text.utf8)
        return try? bytes.withUnsafeBufferPointer { buffer -> Double? in
            var parser = Parser(input: buffer, file: "")
            let value = try parser.number()
            return parser.pos == buffer.count ? value : nil
        }
    }

    /// Exact powers of ten that a double holds without rounding.
    static let exactPowers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    @inline(__always) static func powerOfTen(_ exponent: Double) -> Double {
        if exponent >= 0, exponent <= 22, exponent == exponent.rounded(.towardZero) {
            return exactPowers[Int(exponent)]
        }
        return Foundation.pow(10, exponent)
    }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

private struct Parser {
    let input: UnsafeBufferPointer<UInt8>
    let file: String
    var pos = 0
    var document = JSONDocument()
    var stack: [Int32] = []

    init(input: UnsafeBufferPointer<UInt8>, file: String) {
        self.input = input
        self.file = file
    }

    mutating func run() throws -> JSONDocument {
        document.nodes.reserveCapacity(input.count / 6 + 1)
        document.text.reserveCapacity(input.count / 3 + 1)
        if input.count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { pos = 3 }
        skipSpace()
        var justOpened = try value(parent: -1, keyStart: -1, keyLength: 0)
        while let container = stack.last {
            skipSpace()
            let isObject = document.nodes[Int(container)].type == .object
            let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
            guard pos < input.count else {
                throw failure(
                    expected: justOpened
                        ? "a value or '\(Character(UnicodeScalar(close)))'"
                        : "',' or '\(Character(UnicodeScalar(close)))'")
            }
            let c = input[pos]
            if c == close {
                pos += 1
                document.nodes[Int(container)].next = Int32(document.nodes.count)
                stack.removeLast()
                justOpened = false
                continue
            }
            if !justOpened {
                guard c == UInt8(ascii: ",") else {
                    throw failure(expected: "',' or '\(Character(UnicodeScalar(close)))'")
                }
                pos += 1
                skipSpace()
            }
            var keyStart: Int32 = -1
            var keyLength: Int32 = 0
            if isObject {
                guard pos < input.count, input[pos] == quote else { throw failure(expected: "a member name in quotes") }
                (keyStart, keyLength) = try string()
                skipSpace()
                guard pos < input.count, input[pos] == UInt8(ascii: ":") else {
                    throw failure(expected: "':' after the member name")
                }
                pos += 1
                skipSpace()
            }
            document.nodes[Int(container)].count += 1
            justOpened = try value(parent: container, keyStart: keyStart, keyLength: keyLength)
        }
        skipSpace()
        guard pos == input.count else { throw failure(expected: "the end of the input after the root value") }
        return document
    }

    /// An error at the current position: truncated when the input ended, malformed otherwise.
    func failure(expected: String) -> LoadError {
        if pos >= input.count {
            return LoadError(
                .truncated, file: file, at: .byteOffset(input.count), expected: expected, found: "the end of the input")
        }
        let c = input[pos]
        let found =
            (c >= 0x21 && c < 0x7F)
            ? "'\(Character(UnicodeScalar(c)))'" : "byte 0x\(String(c, radix: 16, uppercase: true))"
        return LoadError(.malformed, file: file, at: .byteOffset(pos), expected: expected, found: found)
    }

    @inline(__always) mutating func skipSpace() {
        while pos < input.count {
            let c = input[pos]
            guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
            pos += 1
        }
    }

    /// Parses one value and appends its node. Returns true when it opened a container, whose
    /// children the caller's loop reads next.
    mutating func value(parent: Int32, keyStart: Int32, keyLength: Int32) throws -> Bool {
        guard pos < input.count else { throw failure(expected: "a value") }
        let offset = Int32(pos)
        var node = JSONNode(type: .null, parent: parent, offset: offset)
        node.keyStart = keyStart
        node.keyLength = keyLength
        let index = Int32(document.nodes.count)
        node.next = index + 1
        var opened = false
        switch input[pos] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < JSONParser.maxDepth else {
                throw LoadError(
                    .limitExceeded, file: file, at: .byteOffset(pos),
                    expected: "at most \(JSONParser.maxDepth) nested arrays and objects", found: "deeper nesting")
            }
            node.type = input[pos] == UInt8(ascii: "{") ? .object : .array
            pos += 1
            stack.append(index)
            opened = true
        case quote:
            node.type = .string
            (node.textStart, node.textLength) = try string()
        case UInt8(ascii: "t"):
            try literal("true")
            node.type = .true
        case UInt8(ascii: "f"):
            try literal("false")
            node.type = .false
        case UInt8(ascii: "n"):
            try literal("null")
            node.type = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            node.type = .number
            node.number = try number()
        default:
            throw failure(expected: "a value")
        }
        document.nodes.append(node)
        return opened
    }

    mutating func literal(_ word: StaticString) throws {
        let length = word.utf8CodeUnitCount
        for i in 0..<length {
            guard pos < input.count, input[pos] == word.utf8Start[i] else {
                throw failure(expected: "'\(word)'")
            }
            pos += 1
        }
    }

    /// The reference's number evaluation: integer digits accumulated as `result * 10 + digit`,
    /// fraction digits accumulated the same way and divided by 10^count, the sign applied, then
    /// the exponent applied by multiplying or dividing by 10^exponent; all in double.
    mutating func number() throws -> Double {
        var negative = false
        if pos < input.count, input[pos] == UInt8(ascii: "-") {
            negative = true
            pos += 1
        }
        var result = 0.0
        var digits = 0
        while pos < input.count, input[pos] &- 48 < 10 {
            result = result * 10 + Double(input[pos] &- 48)
            pos += 1
            digits += 1
        }
        if pos < input.count, input[pos] == UInt8(ascii: ".") {
            pos += 1
            var fraction = 0.0
            var fractionDigits = 0
            while pos < input.count, input[pos] &- 48 < 10 {
                fraction = fraction * 10 + Double(input[pos] &- 48)
                pos += 1
                fractionDigits += 1
            }
            result += fraction / JSONParser.powerOfTen(Double(fractionDigits))
            digits += fractionDigits
        }
        guard digits > 0 else { throw failure(expected: "a digit") }
        if negative { result = -result }
        if pos < input.count, input[pos] == UInt8(ascii: "e") || input[pos] == UInt8(ascii: "E") {
            pos += 1
            var exponentNegative = false
            if pos < input.count, input[pos] == UInt8(ascii: "-") {
                exponentNegative = true
                pos += 1
            } else if pos < input.count, input[pos] == UInt8(ascii: "+") {
                pos += 1
            }
            var exponent = 0.0
            var exponentDigits = 0
            while pos < input.count, input[pos] &- 48 < 10 {
                exponent = exponent * 10 + Double(input[pos] &- 48)
                pos += 1
                exponentDigits += 1
            }
            guard exponentDigits > 0 else { throw failure(expected: "an exponent digit") }
            let power = JSONParser.powerOfTen(exponent)
            result = exponentNegative ? result / power : result * power
        }
        return result
    }

    /// Reads a quoted string at `pos`, decoding escapes into the document's text pool.
    mutating func string() throws -> (Int32, Int32) {
        let start = Int32(document.text.count)
        pos += 1  // opening quote
        var runStart = pos
        while true {
            guard pos < input.count else { throw failure(expected: "'\"' closing the string") }
            let c = input[pos]
            if c == quote {
                document.text.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<pos]))
                pos += 1
                return (start, Int32(document.text.count) - start)
            }
            if c != backslash {
                pos += 1
                continue
            }
            document.text.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<pos]))
            pos += 1
            guard pos < input.count else { throw failure(expected: "an escaped character") }
            let escaped = input[pos]
            pos += 1
            switch escaped {
            case UInt8(ascii: "b"): document.text.append(0x08)
            case UInt8(ascii: "f"): document.text.append(0x0C)
            case UInt8(ascii: "n"): document.text.append(0x0A)
            case UInt8(ascii: "r"): document.text.append(0x0D)
            case UInt8(ascii: "t"): document.text.append(0x09)
            case UInt8(ascii: "u"): try unicodeEscape()
            default: document.text.append(escaped)  // \" \\ \/ and anything else: the character itself
            }
            runStart = pos
        }
    }

    /// `\uXXXX` (already past the `u`), with surrogate pairs; invalid code points are dropped as
    /// the reference drops them.
    mutating func unicodeEscape() throws {
        var code = try hex4()
        if code == 0 || (code >= 0xDC00 && code <= 0xDFFF) { return }
        if code >= 0xD800 && code <= 0xDBFF {
            guard pos + 1 < input.count, input[pos] == backslash, input[pos + 1] == UInt8(ascii: "u") else { return }
            pos += 2
            let low = try hex4()
            guard low >= 0xDC00 && low <= 0xDFFF else { return }
            code = 0x10000 + (((code & 0x3FF) << 10) | (low & 0x3FF))
        }
        guard let scalar = Unicode.Scalar(code) else { return }
        document.text.append(contentsOf: scalar.utf8)
    }

    mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard pos < input.count else { throw failure(expected: "four hex digits after \\u") }
            let c = input[pos]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: throw failure(expected: "four hex digits after \\u")
            }
            value = value << 4 | UInt32(digit)
            pos += 1
        }
        return value
    }
}
