/// Bit-for-bit comparison of floats, for results that must be identical rather than close.
public enum FloatBits {
    /// Whether `a` and `b` have the same bits, or are both NaN (of any payload): the test of a
    /// vectorised or reordered computation against the scalar one it replaces.
    @inlinable public static func same(_ a: Float, _ b: Float) -> Bool {
        a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
    }
}
