/// Reads the 4.x `.atlas` text format.
///
/// The file is a list of pages separated by blank lines. A page starts with its image file name,
/// followed by `key: value` header lines (size, format, filter, repeat, pma, scale); then come its
/// regions, each a name line followed by `key: value` lines (bounds, offsets, rotate, index, split,
/// pad, the legacy xy/size/orig/offset, and custom `key: int, ...` values). Lines may be indented
/// with any whitespace and end in `\n`, `\r\n` or `\r`.
///
/// The reader accepts every file the reference accepts when it is well formed and computes the same
/// texture coordinates; where the reference silently reads garbage (a non-integer value, a missing
/// value, a field with no region) it throws `LoadError(.malformed)` naming the 1-based line.
public enum AtlasReader {
    /// The largest page size, region size, position or offset accepted, in pixels.
    public static let maximumDimension: Int32 = 1 << 16

    /// Reads an `.atlas` file (its pages' images are not loaded here).
    /// - Throws: `LoadError` with the line of the first bad entry, or the system's reason for I/O.
    public static func read(file: String) throws -> Atlas {
        try read(bytes: SkeletonLoader.readFile(file), file: file)
    }

    /// Reads atlas text already in memory; `file` names it in errors and is where page paths are
    /// relative to.
    /// - Throws: `LoadError` with the line of the first bad entry.
    public static func read(bytes: [UInt8], file: String) throws -> Atlas {
        // A skeleton given where the atlas belongs would otherwise read as a page named with its
        // first bytes; say what the file looks like instead.
        let content = FileContentKind.of(bytes)
        if content == .binary || content == .json {
            throw LoadError(
                .malformed, file: file, at: .line(1), expected: "atlas text (a page image name, then `size:` ...)",
                found: content.described)
        }
        var parser = AtlasParser(lines: AtlasLine.split(bytes), file: file)
        return try parser.parse()
    }
}

/// One trimmed line of an atlas file.
struct AtlasLine {
    /// 1-based line number.
    var number: Int
    /// The line without leading and trailing whitespace.
    var text: Substring
    /// Whether the line started with whitespace (field lines are indented, names are not).
    var indented: Bool

    var isBlank: Bool { text.isEmpty }

    static func split(_ bytes: [UInt8]) -> [AtlasLine] {
        var start = 0
        // A UTF-8 byte order mark is not part of the first page name.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
        var lines: [AtlasLine] = []
        var number = 1
        var index = start
        while index <= bytes.count {
            if index == bytes.count || bytes[index] == 0x0A || bytes[index] == 0x0D {
                let raw = String(decoding: bytes[start..<index], as: UTF8.self)
                let trimmed = raw.drop(while: isSpace)
                lines.append(
                    AtlasLine(
                        number: number, text: trimmed.dropLast(trailingSpaceCount(trimmed)),
                        indented: trimmed.startIndex != raw.startIndex))
                if index == bytes.count { break }
                if bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A { index += 1 }
                index += 1
                start = index
                number += 1
            } else {
                index += 1
            }
        }
        // A final newline does not open another (empty) line.
        if let last = lines.last, last.isBlank, lines.count > 1 { lines.removeLast() }
        return lines
    }

    static func isSpace(_ c: Character) -> Bool { c.isWhitespace }

    static func trailingSpaceCount(_ text: Substring) -> Int {
        var count = 0
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            guard text[index].isWhitespace else { break }
            count += 1
        }
        return count
    }
}

/// A `key: value, value, ...` line split into its parts.
struct AtlasEntry {
    var key: Substring
    var values: [Substring]
    var line: Int
    var lineText: Substring

    /// nil when the line has no colon (then it is a page or region name).
    init?(_ line: AtlasLine) {
        guard let colon = line.text.firstIndex(of: ":") else { return nil }
        key = AtlasEntry.trim(line.text[..<colon])
        values = line.text[line.text.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false)
            .map(AtlasEntry.trim)
        self.line = line.number
        lineText = line.text
    }

    static func trim(_ s: Substring) -> Substring {
        let head = s.drop(while: { $0.isWhitespace })
        return head.dropLast(AtlasLine.trailingSpaceCount(head))
    }
}

/// Walks the lines of one atlas file and builds its pages and regions.
struct AtlasParser {
    let lines: [AtlasLine]
    let file: String
    var position = 0
    var pages: [AtlasPage] = []
    var regions: [AtlasRegion] = []

    static let pageFieldNames: Set<Substring> = ["size", "format", "filter", "repeat", "pma", "scale"]
    static let regionFieldNames: Set<Substring> = [
        "bounds", "offsets", "rotate", "index", "split", "pad", "xy", "size", "orig", "offset",
    ]
    static let formatNames: Set<Substring> = [
        "Alpha", "Intensity", "LuminanceAlpha", "RGB565", "RGBA4444", "RGB888", "RGBA8888",
    ]

    init(lines: [AtlasLine], file: String) {
        self.lines = lines
        self.file = file
    }

    mutating func parse() throws -> Atlas {
        while position < lines.count && lines[position].isBlank { position += 1 }
        // Leading `key: value` lines form a file header, which carries nothing Bonework reads.
        // A page or region field there means the page name is missing.
        while position < lines.count, let entry = AtlasEntry(lines[position]) {
            if AtlasParser.pageFieldNames.contains(entry.key) || AtlasParser.regionFieldNames.contains(entry.key) {
                throw malformed(
                    entry.line, expected: "a page image name before any page or region field",
                    found: "`\(entry.lineText)`")
            }
            position += 1
        }
        guard position < lines.count else {
            throw malformed(
                lines.last?.number ?? 1, expected: "a page image name", found: "end of file without any page")
        }
        while position < lines.count {
            if lines[position].isBlank {
                position += 1
                continue
            }
            try parsePage()
            while position < lines.count && !lines[position].isBlank {
                try parseRegion()
            }
        }
        return Atlas(file: file, pages: pages, regions: regions)
    }

    // MARK: Pages

    mutating func parsePage() throws {
        let nameLine = lines[position]
        if let entry = AtlasEntry(nameLine),
            AtlasParser.pageFieldNames.contains(entry.key) || AtlasParser.regionFieldNames.contains(entry.key)
        {
            throw malformed(
                nameLine.number, expected: "a page image name after the blank line", found: "`\(nameLine.text)`")
        }
        var page = AtlasPage(name: String(nameLine.text))
        position += 1
        while position < lines.count, let entry = AtlasEntry(lines[position]) {
            try apply(entry, to: &page)
            position += 1
        }
        if position < lines.count { try rejectMissingColon(lines[position]) }
        guard page.width > 0 && page.height > 0 else {
            throw malformed(
                nameLine.number, expected: "a `size: width, height` line for page `\(page.name)`", found: "none")
        }
        pages.append(page)
    }

    func apply(_ entry: AtlasEntry, to page: inout AtlasPage) throws {
        switch entry.key {
        case "size":
            let size = try integers(entry, count: 2, range: 1...AtlasReader.maximumDimension)
            page.width = size[0]
            page.height = size[1]
        case "format":
            let value = try single(entry)
            guard AtlasParser.formatNames.contains(value) else {
                throw malformed(
                    entry.line,
                    expected: "a pixel format (\(AtlasParser.formatNames.sorted().joined(separator: ", ")))",
                    found: "`\(value)`")
            }
            page.format = String(value)
        case "filter":
            let values = try strings(entry, count: 2)
            page.minFilter = try filter(values[0], entry)
            page.magFilter = try filter(values[1], entry)
        case "repeat":
            let value = try single(entry)
            switch value {
            case "x": (page.uWrap, page.vWrap) = (.repeat, .clampToEdge)
            case "y": (page.uWrap, page.vWrap) = (.clampToEdge, .repeat)
            case "xy": (page.uWrap, page.vWrap) = (.repeat, .repeat)
            case "none": (page.uWrap, page.vWrap) = (.clampToEdge, .clampToEdge)
            default: throw malformed(entry.line, expected: "`x`, `y`, `xy` or `none` for `repeat`", found: "`\(value)`")
            }
        case "pma":
            page.pma = try boolean(entry)
        case "scale":
            let value = try single(entry)
            guard let scale = Float(String(value)), scale.isFinite, scale > 0 else {
                throw malformed(entry.line, expected: "a positive number for `scale`", found: "`\(value)`")
            }
            page.scale = scale
        default:
            // Unknown page fields are skipped, as the reference does, so newer exports still load.
            break
        }
    }

    func filter(_ value: Substring, _ entry: AtlasEntry) throws -> TextureFilter {
        guard let filter = TextureFilter(rawValue: String(value)) else {
            throw malformed(entry.line, expected: "a texture filter name such as `Linear`", found: "`\(value)`")
        }
        return filter
    }

    // MARK: Regions

    mutating func parseRegion() throws {
        let nameLine = lines[position]
        try rejectMissingColon(nameLine)
        let pageIndex = pages.count - 1
        let page = pages[pageIndex]
        var region = AtlasRegion(name: String(nameLine.text), page: Int32(pageIndex))
        var hasPosition = false
        var hasSize = false
        position += 1
        while position < lines.count, let entry = AtlasEntry(lines[position]) {
            try apply(entry, to: &region, hasPosition: &hasPosition, hasSize: &hasSize)
            position += 1
        }
        guard hasPosition && hasSize else {
            throw malformed(
                nameLine.number, expected: "a `bounds: x, y, width, height` line for region `\(region.name)`",
                found: hasPosition ? "a position without a size" : hasSize ? "a size without a position" : "none")
        }
        if region.originalWidth == 0 && region.originalHeight == 0 {
            region.originalWidth = Float(region.width)
            region.originalHeight = Float(region.height)
        }
        // Texture coordinates: a region packed at 90 degrees occupies height x width pixels.
        // Sums stay far from overflow: every operand is at most maximumDimension.
        let pageWidth = Float(page.width)
        let pageHeight = Float(page.height)
        region.u = Float(region.x) / pageWidth
        region.v = Float(region.y) / pageHeight
        if region.degrees == 90 {
            region.u2 = Float(region.x + region.height) / pageWidth
            region.v2 = Float(region.y + region.width) / pageHeight
        } else {
            region.u2 = Float(region.x + region.width) / pageWidth
            region.v2 = Float(region.y + region.height) / pageHeight
        }
        regions.append(region)
    }

    /// Names start at the beginning of a line; an indented line without a colon where a name is
    /// expected is a field that lost its colon.
    func rejectMissingColon(_ line: AtlasLine) throws {
        if line.indented && !line.isBlank && !line.text.contains(":") {
            throw malformed(
                line.number, expected: "`key: value` (a colon after the field name)", found: "`\(line.text)`")
        }
    }

    func apply(_ entry: AtlasEntry, to region: inout AtlasRegion, hasPosition: inout Bool, hasSize: inout Bool)
        throws
    {
        let positions = 0...AtlasReader.maximumDimension
        let sizes = 0...AtlasReader.maximumDimension
        let offsets = -AtlasReader.maximumDimension...AtlasReader.maximumDimension
        switch entry.key {
        case "bounds":
            let v = try integers(entry, ranges: [positions, positions, sizes, sizes])
            (region.x, region.y, region.width, region.height) = (v[0], v[1], v[2], v[3])
            hasPosition = true
            hasSize = true
        case "xy":
            let v = try integers(entry, count: 2, range: positions)
            (region.x, region.y) = (v[0], v[1])
            hasPosition = true
        case "size":
            let v = try integers(entry, count: 2, range: sizes)
            (region.width, region.height) = (v[0], v[1])
            hasSize = true
        case "offsets":
            let v = try integers(entry, ranges: [offsets, offsets, sizes, sizes])
            (region.offsetX, region.offsetY) = (Float(v[0]), Float(v[1]))
            (region.originalWidth, region.originalHeight) = (Float(v[2]), Float(v[3]))
        case "offset":
            let v = try integers(entry, count: 2, range: offsets)
            (region.offsetX, region.offsetY) = (Float(v[0]), Float(v[1]))
        case "orig":
            let v = try integers(entry, count: 2, range: sizes)
            (region.originalWidth, region.originalHeight) = (Float(v[0]), Float(v[1]))
        case "rotate":
            let value = try single(entry)
            switch value {
            case "true": region.degrees = 90
            case "false": region.degrees = 0
            default:
                guard let degrees = Int32(value) else {
                    throw malformed(
                        entry.line, expected: "`true`, `false` or an integer angle in degrees for `rotate`",
                        found: "`\(value)`")
                }
                region.degrees = degrees
            }
        case "index":
            region.index = try integers(entry, count: 1, range: Int32.min...Int32.max)[0]
        case "split":
            region.splits = try integers(entry, count: 4, range: sizes)
        case "pad":
            region.pads = try integers(entry, count: 4, range: sizes)
        default:
            guard !entry.key.isEmpty else {
                throw malformed(entry.line, expected: "a field name before the colon", found: "`\(entry.lineText)`")
            }
            let values = try integers(entry, count: nil, range: Int32.min...Int32.max)
            region.values.append(AtlasCustomValue(name: String(entry.key), values: values))
        }
    }

    // MARK: Values

    func single(_ entry: AtlasEntry) throws -> Substring {
        try strings(entry, count: 1)[0]
    }

    func strings(_ entry: AtlasEntry, count: Int) throws -> [Substring] {
        guard entry.values.count == count, !entry.values.contains(where: { $0.isEmpty }) else {
            throw malformed(
                entry.line, expected: "\(count) value\(count == 1 ? "" : "s") for `\(entry.key)`",
                found: describe(entry))
        }
        return entry.values
    }

    func boolean(_ entry: AtlasEntry) throws -> Bool {
        let value = try single(entry)
        switch value {
        case "true": return true
        case "false": return false
        default: throw malformed(entry.line, expected: "`true` or `false` for `\(entry.key)`", found: "`\(value)`")
        }
    }

    /// `count` integers in `range` (any positive count when nil).
    func integers(_ entry: AtlasEntry, count: Int?, range: ClosedRange<Int32>) throws -> [Int32] {
        try integers(entry, ranges: Array(repeating: range, count: count ?? max(1, entry.values.count)))
    }

    func integers(_ entry: AtlasEntry, ranges: [ClosedRange<Int32>]) throws -> [Int32] {
        guard entry.values.count == ranges.count else {
            throw malformed(
                entry.line, expected: "\(ranges.count) integer\(ranges.count == 1 ? "" : "s") for `\(entry.key)`",
                found: describe(entry))
        }
        var result: [Int32] = []
        result.reserveCapacity(ranges.count)
        for (value, range) in zip(entry.values, ranges) {
            guard let number = Int32(value) else {
                throw malformed(
                    entry.line, expected: "integer values for `\(entry.key)`", found: "`\(value)` in \(describe(entry))"
                )
            }
            guard range.contains(number) else {
                throw malformed(
                    entry.line, expected: "`\(entry.key)` values in \(range.lowerBound)...\(range.upperBound)",
                    found: "\(number)")
            }
            result.append(number)
        }
        return result
    }

    func describe(_ entry: AtlasEntry) -> String {
        let count = entry.values.count == 1 && entry.values[0].isEmpty ? 0 : entry.values.count
        return "\(count) value\(count == 1 ? "" : "s") in `\(entry.lineText)`"
    }

    func malformed(_ line: Int, expected: String, found: String) -> LoadError {
        LoadError(.malformed, file: file, at: .line(line), expected: expected, found: found)
    }
}
