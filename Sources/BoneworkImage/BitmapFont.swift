/// The 5x7 bitmap font of the charts, for any code that draws short labels without a font
/// library: the viewer's on-screen text draws it as GL quads. Printable ASCII plus `µ` and `×`;
/// other characters draw as a box.
public enum BitmapFont {
    /// Pixels from the top of a line to its baseline row (every glyph is this tall).
    public static let glyphHeight = ChartFont.glyphHeight
    /// Pixels from one glyph's left edge to the next one's (5 of glyph, 1 of space).
    public static let advance = ChartFont.advance

    /// Width in font pixels of `text` on one line.
    public static func width(_ text: String) -> Int { ChartFont.width(text) }

    /// A horizontal run of lit pixels: from column `x`, `length` pixels, on row `y` (0 the top row),
    /// in font pixels from the text's top-left.
    public struct Run: Sendable, Equatable {
        /// The first lit column, in font pixels from the text's left edge.
        public var x: Int
        /// The row, 0 the top row of the line.
        public var y: Int
        /// Lit pixels in the run (1...5).
        public var length: Int

        /// A run of `length` lit pixels from column `x` on row `y`.
        public init(x: Int, y: Int, length: Int) {
            self.x = x
            self.y = y
            self.length = length
        }
    }

    /// Calls `body` with each run of lit pixels of `text`, ASCII bytes on one line (other bytes
    /// draw as a box), in the order `runs` gives them; allocates nothing.
    public static func forEachRun(_ text: UnsafeBufferPointer<UInt8>, _ body: (Run) -> Void) {
        for (k, byte) in text.enumerated() {
            for y in 0..<glyphHeight { rowRuns(ChartFont.row(byte, y), left: k * advance, y: y, body) }
        }
    }

    /// The lit pixels of `text` on one line as runs, so that a renderer draws one quad per run
    /// rather than one per pixel (about 2 runs per glyph row).
    public static func runs(_ text: String) -> [Run] {
        var runs: [Run] = []
        for (k, scalar) in text.unicodeScalars.enumerated() {
            for (y, bits) in ChartFont.rows(scalar).enumerated() {
                rowRuns(bits, left: k * advance, y: y) { runs.append($0) }
            }
        }
        return runs
    }

    /// The runs of one glyph row (`bits`, bit 4 the leftmost pixel) of the glyph at column `left`.
    private static func rowRuns(_ bits: UInt8, left: Int, y: Int, _ body: (Run) -> Void) {
        var x = 0
        while x < 5 {
            guard bits & (0x10 >> UInt8(x)) != 0 else {
                x += 1
                continue
            }
            var end = x
            while end < 5, bits & (0x10 >> UInt8(end)) != 0 { end += 1 }
            body(Run(x: left + x, y: y, length: end - x))
            x = end
        }
    }
}
