/// What both skeleton readers decide for values that load but that no editor writes, so that a
/// `.json` and the `.skel` of the same export agree (`Docs/Limits.md` lists every decision).
enum ValueLimits {
    /// A physics mass, in setup values (JSON `mass`; a `.skel` stores its inverse) and in mass
    /// timeline keys: the simulation multiplies by its inverse, which must be a finite number
    /// above 0 (a mass of 0 is an infinite inverse, a negative one a spring that pushes away).
    static let massExpected = "a mass above 0 (its inverse a finite float)"

    /// Whether a mass (not its inverse) is one the simulation can use: above 0, it and its
    /// inverse finite (mass timelines mix masses and store inverses, so both must be).
    @inline(__always)
    static func isUsableMass(_ mass: Float) -> Bool { mass > 0 && mass.isFinite && (1 / mass).isFinite }

    /// A physics damping is clamped to 0...1, in setup values and timeline keys. It is the part
    /// of the velocity kept per 1/60 s: the reference raises it to the power 60 * step, so a
    /// negative damping is NaN after one step and one above 1 adds energy every step until the
    /// bone's transform overflows. The editor writes 0...1 (a percentage); those are unchanged.
    @inline(__always)
    static func clampDamping(_ damping: Float) -> Float { damping < 0 ? 0 : (damping > 1 ? 1 : damping) }

    /// A bezier segment's handles are finite (checked by the float readers), but far out of range
    /// their forward differencing overflows; such a curve is refused at its place.
    static let bezierExpected = "bezier handles whose sampled curve stays within float range"

    /// A sequence key stores its mode and frame index in one float, `mode | index << 4`, which is
    /// exact while below 2^24: frame indices are refused outside 0..<2^20 (a frame number is
    /// never negative, and the reference indexes its frame list with a negative one). Indices
    /// past the sequence's count are kept: hold shows the last frame, the loops wrap, as in the
    /// reference.
    static let maxSequenceKeyIndex: Int32 = (1 << 20) - 1
    static let sequenceKeyIndexExpected = "a sequence frame index in 0...\(maxSequenceKeyIndex)"
}
