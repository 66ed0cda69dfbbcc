/// What a file's first bytes say it is, so that a file given in the wrong place or under the wrong
/// extension fails with a message naming what it looks like (a binary skeleton given as the atlas,
/// a JSON export named `.skel`) instead of a reader's first confused error deep inside it.
///
/// The guess reads at most the first 512 bytes and is only used to word an error: a reader never
/// accepts or refuses a file because of it alone.
enum FileContentKind: Equatable {
    /// Text whose first character (after a byte order mark and whitespace) is `{`: a JSON document.
    case json
    /// Text whose first lines carry an atlas page header (`size:` or `format:` after a name line).
    case atlasText
    /// Other text (no control bytes besides tab, line feed and carriage return).
    case otherText
    /// Control bytes other than whitespace in the first 512 bytes: a binary format such as `.skel`
    /// or `.png`.
    case binary

    /// The guess for `bytes`.
    static func of(_ bytes: [UInt8]) -> FileContentKind {
        let head = bytes.prefix(512)
        if head.contains(where: { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) || $0 == 0x0B || $0 == 0x0C }) {
            return .binary
        }
        let firstNonSpace = head.first(where: {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        })
        if firstNonSpace == UInt8(ascii: "{") { return .json }
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefixSpaces() }
        if lines.prefix(4).contains(where: { $0.hasPrefix("size:") || $0.hasPrefix("format:") }) { return .atlasText }
        return .otherText
    }

    /// How a message names this kind, with the file it suggests: `binary data (a .skel skeleton or
    /// an image?)`.
    var described: String {
        switch self {
        case .json: return "JSON text (a .json skeleton export?)"
        case .atlasText: return "atlas text (an .atlas file?)"
        case .otherText: return "text that is not JSON"
        case .binary: return "binary data (a .skel skeleton export or an image?)"
        }
    }
}

extension Substring {
    fileprivate func trimmingPrefixSpaces() -> Substring { drop(while: { $0 == " " || $0 == "\t" }) }
}
