/// Where a batch keeps the columns a renderer reads in place: the bones' world transforms
/// (`a`, `b`, `c`, `d`, `worldX`, `worldY`) and the slots' attachments, the bulk of what a
/// crowd's GPU draw needs per character (the tables `BatchSchema` marks `shared`). A renderer that
/// can read memory it hands out (the GPU path, with GL buffers mapped persistently) gives the
/// World a `ColumnMemory`; the batches then allocate those tables there, the systems write them
/// where the GPU reads them, and a frame copies nothing of them. Without one (the default), every
/// table lives on the heap.
///
/// The World calls `waitForReaders()` before it writes those columns (`World.update`, spawning,
/// despawning, growing, application calls that change an instance), so a GPU still drawing the
/// last frame is waited for rather than read half-written. Application code that writes the
/// columns through a `Batch` directly, outside `World`, must call it too.
///
/// # Safety
/// `allocate` must return `byteCount` zero bytes, aligned to `alignment`, that stay valid and
/// unmoved until `deallocate` is given them; both are called on the thread that mutates the World.
public protocol ColumnMemory: AnyObject {
    /// `byteCount` zero bytes aligned to at least `alignment`, or nil when none can be had (the
    /// table then lives on the heap, and a renderer copies it as it would without this memory).
    func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer?
    /// Frees what `allocate` returned.
    func deallocate(_ storage: UnsafeMutableRawPointer)
    /// Returns when nothing outside the CPU reads the memory any more.
    func waitForReaders()
}
