import BoneworkFormat

/// A JSON document with ordered object keys, printed the way the Spine editor lays out its exports:
/// top-level keys unindented, tabs below, flat objects of up to six scalar fields and arrays of
/// scalars on one line, everything else one entry per line.
indirect enum JSONValue {
    /// A number already formatted (see `Num`).
    case number(String)
    case string(String)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])

    var isScalar: Bool {
        switch self {
        case .number, .string, .bool: return true
        case .array, .object: return false
        }
    }

    /// The document as text (no trailing newline, like the editor's exports).
    func printed() -> String {
        var out = ""
        write(into: &out, indent: 0)
        return out
    }

    private func write(into out: inout String, indent: Int) {
        switch self {
        case .number(let text):
            out += text
        case .string(let text):
            out += JSONText.quote(text)
        case .bool(let value):
            out += value ? "true" : "false"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
            } else if items.allSatisfy(\.isScalar) {
                out += "[ "
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(into: &out, indent: indent + 1)
                }
                out += " ]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += String(repeating: "\t", count: indent)
                    item.write(into: &out, indent: indent + 1)
                    out += i + 1 < items.count ? ",\n" : "\n"
                }
                out += String(repeating: "\t", count: max(indent - 1, 0)) + "]"
            }
        case .object(let fields):
            if fields.isEmpty {
                out += "{}"
            } else if fields.count <= 6 && fields.allSatisfy({ $0.1.isScalar }) {
                out += "{ "
                for (i, field) in fields.enumerated() {
                    if i > 0 { out += ", " }
                    out += JSONText.quote(field.0) + ": "
                    field.1.write(into: &out, indent: indent + 1)
                }
                out += " }"
            } else {
                out += "{\n"
                for (i, field) in fields.enumerated() {
                    out += String(repeating: "\t", count: indent)
                    out += JSONText.quote(field.0) + ": "
                    field.1.write(into: &out, indent: indent + 1)
                    out += i + 1 < fields.count ? ",\n" : "\n"
                }
                out += String(repeating: "\t", count: max(indent - 1, 0)) + "}"
            }
        }
    }
}

/// Builds a JSON object field by field, leaving out values equal to their format default (the
/// editor omits them too).
struct JSONObject {
    private(set) var fields: [(String, JSONValue)] = []

    mutating func set(_ key: String, _ value: JSONValue) { fields.append((key, value)) }
    mutating func set(_ key: String, _ text: String) { fields.append((key, .string(text))) }

    /// Adds a number rounded to `decimals`, unless it rounds to `omitting`.
    mutating func set(_ key: String, _ value: Double, decimals: Int = 2, omitting: Double? = nil) {
        let text = Num.format(value, decimals: decimals)
        if let omitting, text == Num.format(omitting, decimals: decimals) { return }
        fields.append((key, .number(text)))
    }

    var value: JSONValue { .object(fields) }
}

/// Deterministic decimal formatting: round half away from zero to a fixed number of decimals,
/// then drop trailing zeros ("1.50" -> "1.5", "2.00" -> "2", "-0" -> "0").
enum Num {
    static func format(_ value: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard scaled.isFinite, abs(scaled) < 9e15 else { return "0" }
        let integer = Int64(scaled)
        if integer == 0 { return "0" }
        let negative = integer < 0
        let magnitude = negative ? -integer : integer
        var text = String(magnitude / scale)
        let fraction = magnitude % scale
        if fraction != 0 {
            var digits = String(fraction)
            while digits.count < decimals { digits = "0" + digits }
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return negative ? "-" + text : text
    }

    static func json(_ value: Double, decimals: Int = 2) -> JSONValue { .number(format(value, decimals: decimals)) }
    static func json(_ value: Int) -> JSONValue { .number(String(value)) }
}
