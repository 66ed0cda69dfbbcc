/// A set of same-typed columns ("fields") with `perInstance` elements per instance, stored in one
/// allocation owned by a batch. Field f of instance i, element k lives at
/// `field(f)[layout.base(i, perInstance) + k * layout.stride]`.
///
/// The table never reallocates on its own: the batch grows it when spawning past capacity, which
/// is the only time pointers into it change. Systems fetch the field pointers once per run.
struct ColumnTable<Element: BitwiseCopyable> {
    let fields: Int
    let perInstance: Int
    let layout: ColumnLayout
    private(set) var capacity: Int
    private(set) var storage: UnsafeMutablePointer<Element>
    /// The value new elements get.
    let fill: Element

    init(fields: Int, perInstance: Int, layout: ColumnLayout, capacity: Int, fill: Element) {
        self.fields = fields
        self.perInstance = perInstance
        self.layout = layout
        self.capacity = capacity
        self.fill = fill
        let count = max(1, fields * perInstance * capacity)
        storage = .allocate(capacity: count)
        storage.initialize(repeating: fill, count: count)
    }

    /// The column of field `f` (capacity * perInstance elements).
    @inline(__always)
    func field(_ f: Int) -> UnsafeMutablePointer<Element> {
        storage + f &* capacity &* perInstance
    }

    /// Reallocates for `newCapacity` instances, keeping the first `count` instances' values.
    mutating func grow(to newCapacity: Int, keeping count: Int) {
        guard newCapacity > capacity else { return }
        let total = max(1, fields * perInstance * newCapacity)
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: total)
        fresh.initialize(repeating: fill, count: total)
        // Layout bases depend only on the instance index, not on the capacity, so each field's
        // prefix moves as one block.
        let used = min(capacity, layout.roundUp(count)) * perInstance
        for f in 0..<fields {
            (fresh + f * perInstance * newCapacity).update(from: storage + f * perInstance * capacity, count: used)
        }
        storage.deallocate()
        storage = fresh
        capacity = newCapacity
    }

    /// Copies every field of instance `source` onto instance `target`.
    func copyInstance(from source: Int, to target: Int) {
        let s = layout.base(source, perInstance: perInstance)
        let t = layout.base(target, perInstance: perInstance)
        let stride = layout.stride
        for f in 0..<fields {
            let column = field(f)
            if stride == 1 {
                (column + t).update(from: column + s, count: perInstance)
            } else {
                for k in 0..<perInstance { column[t + k * stride] = column[s + k * stride] }
            }
        }
    }

    func free() { storage.deallocate() }
}
