import BoneworkFormat
import BoneworkWorld

/// Reused scratch of column frames: once warm, a frame allocates nothing.
final class ColumnFrameScratch {
    var views: [BatchPoseViews] = []
    var batches: [DrawColumns] = []
    var blocks: [ColumnBlock] = []
    var descriptors: [UInt32] = []
    var copies: [ColumnCopy] = []
    /// The buffers this frame reads in place, by source number - 1 (descriptor words 24 and 40),
    /// and the bytes of their rows in use.
    var inPlace: [InPlaceSource] = []
    var inPlaceBytes = 0
    /// The CPU time of the last frame's bulk copy.
    var copyNanoseconds: UInt64 = 0
    /// The CPU time of the last frame's first pass (all threads).
    var classifyNanoseconds: UInt64 = 0
    /// Of `classifyNanoseconds`, the row pass (`RowFlagJob`).
    var rowFlagNanoseconds: UInt64 = 0
    /// An empty slot list (for batches of no registered kind).
    let noSlots = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// Per batch: where its rows' flags start in `rowFlags`, and what its rows may show.
    var batchRows: [BatchRowInfo] = []
    /// Per row of every batch (`batchRows[b].flagStart + row`): `RowFlags`.
    private(set) var rowFlags = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    private var rowFlagCapacity = 1
    /// Per character: `batch << 32 | row`.
    private(set) var locations = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
    private var locationCapacity = 1
    /// Per chunk and batch: the lowest and one past the highest row drawn from columns, at
    /// `ranges + c * rangeStride(batches) + b * 2`. Each chunk's entries start a cache line of their
    /// own: the classifying pass updates them per character (10,000 spineboys on 2 threads: 2.4 ms of
    /// classifying CPU with both chunks' entries on one line, 1.8 ms apart).
    private(set) var ranges = ColumnFrameScratch.lines(Int32.self, 16)
    private var rangeCapacity = 16
    /// Per chunk (`totalFields` apart, a cache line each): bone texels, slot texels and deform
    /// floats its CPU-packed characters take (then their bases), the first bad character (-1
    /// none), what was wrong with it, how many of its characters are drawn from columns and how
    /// many of those the GPU clips.
    private(set) var totals = ColumnFrameScratch.lines(Int.self, 8)
    private var totalCapacity = 1
    static let totalFields = 8

    /// Int32s between two chunks' entries of `ranges`: whole cache lines.
    static func rangeStride(batches: Int) -> Int { (batches * 2 + 15) & ~15 }

    /// `count` elements on cache-line-aligned storage.
    static func lines<T>(_ type: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
        UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<T>.stride, alignment: 64)
            .bindMemory(to: T.self, capacity: count)
    }

    func reserve(characters: Int, chunks: Int, batches: Int, rows: Int) {
        if rows > rowFlagCapacity {
            rowFlags.deallocate()
            rowFlagCapacity = max(rows, rowFlagCapacity * 2)
            rowFlags = .allocate(capacity: rowFlagCapacity)
        }
        if characters > locationCapacity {
            locations.deallocate()
            locationCapacity = max(characters, locationCapacity * 2)
            locations = .allocate(capacity: locationCapacity)
        }
        let rangeCount = chunks * Self.rangeStride(batches: batches)
        if rangeCount > rangeCapacity {
            ranges.deallocate()
            rangeCapacity = max(rangeCount, rangeCapacity * 2)
            ranges = Self.lines(Int32.self, rangeCapacity)
        }
        if chunks > totalCapacity {
            totals.deallocate()
            totalCapacity = max(chunks, totalCapacity * 2)
            totals = Self.lines(Int.self, totalCapacity * Self.totalFields)
        }
    }

    deinit {
        noSlots.deallocate()
        rowFlags.deallocate()
        locations.deallocate()
        ranges.deallocate()
        totals.deallocate()
    }
}
