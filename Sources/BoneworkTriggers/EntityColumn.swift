import BoneworkWorld

/// A column with one element per entity index (`Entity.index`), growing on demand. Entity
/// indices are reused after a despawn, so the column stays about as long as the most instances
/// alive at once. Frames read and write it through `base` without bounds checks or ARC.
struct EntityColumn<T: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<T>
    private(set) var capacity: Int
    let fill: T
    /// Elements per entity.
    let stride: Int

    init(fill: T, stride: Int = 1, capacity: Int = 64) {
        self.fill = fill
        self.stride = max(1, stride)
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity * self.stride)
        base.initialize(repeating: fill, count: self.capacity * self.stride)
    }

    func free() { base.deallocate() }

    /// Makes room for entity index `index`.
    mutating func reserve(_ index: Int) {
        guard index >= capacity else { return }
        var newCapacity = capacity
        while newCapacity <= index { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<T>.allocate(capacity: newCapacity * stride)
        grown.initialize(from: base, count: capacity * stride)
        (grown + capacity * stride).initialize(repeating: fill, count: (newCapacity - capacity) * stride)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    subscript(_ index: Int) -> T {
        get { index < capacity ? base[index * stride] : fill }
        nonmutating set { base[index * stride] = newValue }
    }
}
