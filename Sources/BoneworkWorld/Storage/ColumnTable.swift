/// One table of a batch: `fields` columns of one element type with `perInstance` elements per
/// instance, stored in one zero-filled allocation owned by the batch. Field f of instance i,
/// element k lives at `field(f)[layout.base(i, perInstance) + k * layout.stride]`.
///
/// The table is untyped (its element size is `elementStride` bytes) so that a batch can keep all
/// its tables in one array and allocate, grow, copy, visit and free them in one loop (see
/// `BatchSchema`). Every element type it holds is `BitwiseCopyable` and starts as zero bytes.
///
/// # Safety
/// The table never reallocates on its own: the batch grows it when spawning past capacity, which
/// is the only time pointers into it change (`Batch` rebinds its `BatchColumns` and system views
/// then). `field(_:as:)` must be asked for the element type the schema declares, and the table
/// freed exactly once (`free()`, by the batch's deinit).
struct ColumnTable {
    /// Where the storage came from: a renderer's memory (`ColumnMemory`), nil for the heap.
    private(set) var owner: (any ColumnMemory)?
    let fields: Int
    let perInstance: Int
    let elementStride: Int
    let alignment: Int
    let layout: ColumnLayout
    private(set) var capacity: Int
    private(set) var storage: UnsafeMutableRawPointer

    /// A table for `capacity` instances; `memory` (for a table the schema marks `shared`) is asked
    /// for the storage first.
    init(
        _ spec: ColumnTableSpec, perInstance: Int, layout: ColumnLayout, capacity: Int,
        memory: (any ColumnMemory)? = nil
    ) {
        self.fields = spec.fields
        self.perInstance = perInstance
        self.elementStride = spec.elementStride
        self.alignment = spec.alignment
        self.layout = spec.instanceMajor ? .instanceMajor : layout
        self.capacity = capacity
        (storage, owner) = Self.allocateZeroed(
            bytes: spec.fields * perInstance * capacity * spec.elementStride, spec.alignment, memory)
    }

    /// Zero bytes from `memory` when it has them, else from the heap, and who owns them.
    private static func allocateZeroed(bytes: Int, _ alignment: Int, _ memory: (any ColumnMemory)?)
        -> (UnsafeMutableRawPointer, (any ColumnMemory)?)
    {
        let size = max(16, bytes)
        if let memory, let p = memory.allocate(byteCount: size, alignment: max(16, alignment)) { return (p, memory) }
        let p = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: max(16, alignment))
        p.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        return (p, nil)
    }

    /// Hands `storage` back to whoever allocated it.
    private static func release(_ storage: UnsafeMutableRawPointer, _ owner: (any ColumnMemory)?) {
        if let owner { owner.deallocate(storage) } else { storage.deallocate() }
    }

    /// This table's contents in storage from `memory` (nil: the heap); the old storage is freed.
    mutating func move(to memory: (any ColumnMemory)?) {
        guard memory !== owner else { return }
        let bytes = fields * perInstance * capacity * elementStride
        let (fresh, newOwner) = Self.allocateZeroed(bytes: bytes, alignment, memory)
        fresh.copyMemory(from: storage, byteCount: max(16, bytes))
        Self.release(storage, owner)
        storage = fresh
        owner = newOwner
    }

    /// Bytes of one field (capacity * perInstance elements).
    @inline(__always)
    var fieldBytes: Int { capacity &* perInstance &* elementStride }
    /// Bytes one more row of capacity takes (every field).
    var bytesPerRow: Int { fields &* perInstance &* elementStride }

    /// The column of field `f` as elements of `T` (`T`'s stride must be `elementStride`).
    @inline(__always)
    func field<T>(_ f: Int, as type: T.Type) -> UnsafeMutablePointer<T> {
        (storage + f &* fieldBytes).assumingMemoryBound(to: T.self)
    }

    /// The whole allocation, as bytes (tests compare batches bit for bit across thread counts).
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage, count: max(16, fields * perInstance * capacity * elementStride))
    }

    /// Reallocates for `newCapacity` instances, keeping the first `count` instances' values.
    mutating func grow(to newCapacity: Int, keeping count: Int) {
        guard newCapacity > capacity else { return }
        let newFieldBytes = newCapacity * perInstance * elementStride
        let (fresh, newOwner) = Self.allocateZeroed(bytes: fields * newFieldBytes, alignment, owner)
        // Layout bases depend only on the instance index, not on the capacity, so each field's
        // prefix moves as one block.
        let used = min(capacity, layout.roundUp(count)) * perInstance * elementStride
        for f in 0..<fields {
            (fresh + f * newFieldBytes).copyMemory(from: storage + f * fieldBytes, byteCount: used)
        }
        Self.release(storage, owner)
        storage = fresh
        owner = newOwner
        capacity = newCapacity
    }

    /// Copies every field of instance `source` onto instance `target`.
    func copyInstance(from source: Int, to target: Int) {
        let s = layout.base(source, perInstance: perInstance) * elementStride
        let t = layout.base(target, perInstance: perInstance) * elementStride
        let step = layout.stride * elementStride
        for f in 0..<fields {
            let column = storage + f * fieldBytes
            if layout.stride == 1 {
                (column + t).copyMemory(from: column + s, byteCount: perInstance * elementStride)
            } else {
                for k in 0..<perInstance {
                    (column + t + k * step).copyMemory(from: column + s + k * step, byteCount: elementStride)
                }
            }
        }
    }

    /// A copy of this table whose instance `i` holds this table's instance `order[i]`, for
    /// `i < order.count` (the rest zero). One pass over the storage: `Batch.regroupByPlan`
    /// reorders every table this way, instead of exchanging rows one element at a time.
    ///
    /// # Safety
    /// Every `order[i]` must be a row below this table's capacity.
    func permuted(_ order: [Int32]) -> ColumnTable {
        let fresh = ColumnTable(
            like: self, perInstance: perInstance,
            allocated: Self.allocateZeroed(bytes: fields * capacity * perInstance * elementStride, alignment, owner))
        let step = layout.stride &* elementStride
        let bytes = fieldBytes
        for f in 0..<fields {
            let source = storage + f &* bytes
            let target = fresh.storage + f &* bytes
            for (i, old) in order.enumerated() {
                let from = layout.base(Int(old), perInstance: perInstance) &* elementStride
                let to = layout.base(i, perInstance: perInstance) &* elementStride
                if layout.stride == 1 {
                    (target + to).copyMemory(from: source + from, byteCount: perInstance &* elementStride)
                } else if elementStride == 4 {
                    // Most tables hold 4-byte elements: a typed load and store per element.
                    let s = source + from
                    let t = target + to
                    for k in 0..<perInstance {
                        let offset = k &* step
                        t.storeBytes(
                            of: s.load(fromByteOffset: offset, as: UInt32.self), toByteOffset: offset, as: UInt32.self)
                    }
                } else {
                    let s = source + from
                    let t = target + to
                    for k in 0..<perInstance {
                        let offset = k &* step
                        (t + offset).copyMemory(from: s + offset, byteCount: elementStride)
                    }
                }
            }
        }
        return fresh
    }

    /// A copy of this table with `rows` elements per instance instead of `perInstance`, holding
    /// this table's elements in the first rows of every instance (the rest zero). Used when a
    /// batch adds a compact row (`Batch.ensureColorRow`).
    func widened(to rows: Int, count: Int) -> ColumnTable {
        precondition(rows >= perInstance)
        let wide = ColumnTable(
            like: self, perInstance: rows,
            allocated: Self.allocateZeroed(bytes: fields * capacity * rows * elementStride, alignment, owner))
        let step = layout.stride * elementStride
        for i in 0..<count {
            let from = layout.base(i, perInstance: perInstance) * elementStride
            let to = layout.base(i, perInstance: rows) * elementStride
            for f in 0..<fields {
                let source = storage + f * fieldBytes
                let target = wide.storage + f * wide.fieldBytes
                for k in 0..<perInstance {
                    (target + to + k * step).copyMemory(from: source + from + k * step, byteCount: elementStride)
                }
            }
        }
        return wide
    }

    private init(
        like other: ColumnTable, perInstance: Int,
        allocated: (storage: UnsafeMutableRawPointer, owner: (any ColumnMemory)?)
    ) {
        fields = other.fields
        self.perInstance = perInstance
        elementStride = other.elementStride
        alignment = other.alignment
        layout = other.layout
        capacity = other.capacity
        storage = allocated.storage
        owner = allocated.owner
    }

    func free() { Self.release(storage, owner) }
}
