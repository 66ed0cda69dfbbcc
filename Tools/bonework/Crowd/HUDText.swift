/// The crowd HUD's lines as ASCII bytes in storage made once: a frame's text is formatted into it
/// (literals, whole numbers, fixed-point numbers, names) without allocating, and drawn from it.
/// A line longer than `lineBytes` is cut; lines past `maxLines` are dropped.
final class HUDText {
    static let maxLines = 24
    static let lineBytes = 120
    private let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: HUDText.maxLines * HUDText.lineBytes)
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: HUDText.maxLines)
    /// Lines written since `clear` (the last one may be empty).
    private(set) var count = 0

    init() { clear() }

    deinit {
        bytes.deallocate()
        lengths.deallocate()
    }

    /// Empties the text: one empty line.
    func clear() {
        count = 1
        lengths[0] = 0
    }

    /// Starts a new line.
    func newLine() {
        guard count < Self.maxLines else { return }
        lengths[count] = 0
        count += 1
    }

    /// Line `i`'s bytes, valid until the text changes.
    func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + i * Self.lineBytes, count: lengths[i])
    }

    /// Bytes on the current line.
    var currentLength: Int { lengths[count - 1] }

    func append(byte: UInt8) {
        let n = lengths[count - 1]
        guard n < Self.lineBytes else { return }
        bytes[(count - 1) * Self.lineBytes + n] = byte
        lengths[count - 1] = n + 1
    }

    func append(_ text: StaticString) {
        text.withUTF8Buffer { for b in $0 { append(byte: b) } }
    }

    /// A string's UTF-8 bytes (a native string's bytes are read in place).
    func append(_ text: String) {
        var text = text
        text.withUTF8 { for b in $0 { append(byte: b) } }
    }

    /// Spaces up to `column` bytes on the current line.
    func pad(to column: Int) {
        while currentLength < column { append(byte: 0x20) }
    }

    func append(_ value: Int) {
        if value < 0 { append(byte: 0x2D) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            append(byte: UInt8(truncatingIfNeeded: magnitude / divisor % 10) + 0x30)
            divisor /= 10
        }
    }

    /// `value` rounded to `decimals` places (0 to 6); "nan" or "inf" when not finite.
    func append(_ value: Double, decimals: Int) {
        guard value.isFinite else {
            append(value.isNaN ? "nan" : "inf")
            return
        }
        let decimals = max(0, min(6, decimals))
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else {
            append("big")
            return
        }
        let units = Int(scaled)
        let whole = units / Int(scale)
        var fraction = units % Int(scale)
        if value < 0 && units != 0 { append(byte: 0x2D) }
        append(whole)
        guard decimals > 0 else { return }
        append(byte: 0x2E)
        var divisor = Int(scale) / 10
        while divisor > 0 {
            append(byte: UInt8(truncatingIfNeeded: fraction / divisor) + 0x30)
            fraction %= divisor
            divisor /= 10
        }
    }

    /// Whether line `i` holds the same bytes as `other`'s line `j`.
    func lineEquals(_ i: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let mine = line(i)
        return mine.count == other.count && mine.elementsEqual(other)
    }
}
