import BoneworkWorld
import Foundation

/// Numbers as fixed-point text for the profiler's reports (tables, JSON, CSV, traces).
///
/// Written out here rather than with `String(format:)`: Foundation's formatter costs some
/// 15,000 instructions a number, and a benchmark report prints dozens of them — enough to show
/// in the instruction counts `Benchmarks/callgrind.sh` takes as the difference of two runs.
public enum DecimalText {
    /// `value` with `decimals` digits after the point (0 to 9), rounded to nearest (ties to
    /// even on the scaled value), as `%.Nf` prints it except for values within one unit in the
    /// last place of a tie. Non-finite values and magnitudes of 2^53 or more after scaling go
    /// to `String(format:)`.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        let d = max(0, min(9, decimals))
        var scale: Double = 1
        for _ in 0..<d { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrEven)
        guard value.isFinite, scaled < 9_007_199_254_740_992 else {
            return String(format: "%.\(d)f", value)
        }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var text = value < 0 || (value == 0 && value.sign == .minus) ? "-" : ""
        text += String(units / divisor)
        guard d > 0 else { return text }
        let fraction = String(units % divisor)
        text += "."
        text += String(repeating: "0", count: d - fraction.count)
        text += fraction
        return text
    }
}
