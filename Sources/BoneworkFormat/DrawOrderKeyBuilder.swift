/// Builds the keys of a draw order timeline the way both readers decode them: a key lists some
/// slots, in ascending slot order, each with an offset from its setup position; the listed slots
/// move to `setup position + offset` and every other slot keeps its relative order in the
/// positions left free. `order` holds `slotCount` entries per key, -1 until placed.
///
/// The readers validate each slot and position (and throw with their own file places) before
/// calling `place`; the builder only does the arithmetic.
struct DrawOrderKeyBuilder {
    let slotCount: Int
    /// The next slot in setup order not yet placed or set aside.
    private(set) var original = 0
    private var unchanged: [Int32]
    private var unchangedCount = 0

    init(slotCount: Int) {
        self.slotCount = slotCount
        unchanged = [Int32](repeating: 0, count: slotCount)
    }

    /// Starts a new key.
    mutating func begin() {
        original = 0
        unchangedCount = 0
    }

    /// Sets aside the slots before `slot` (they keep their relative order); `slot` must be
    /// `>= original` and `< slotCount`.
    mutating func skip(to slot: Int) {
        while original != slot {
            unchanged[unchangedCount] = Int32(original)
            unchangedCount += 1
            original += 1
        }
    }

    /// Puts the slot `original` (the one just skipped to) at `position` of the key at `base`.
    mutating func place(at position: Int, _ order: inout [Int32], base: Int) {
        order[base + position] = Int32(original)
        original += 1
    }

    /// Fills the key's free positions with the set-aside slots, in setup order.
    mutating func finish(_ order: inout [Int32], base: Int) {
        skip(to: slotCount)
        var position = slotCount - 1
        while position >= 0 {
            if order[base + position] == -1 {
                unchangedCount -= 1
                order[base + position] = unchanged[unchangedCount]
            }
            position -= 1
        }
    }
}
