import BoneworkFormat
import Dispatch

/// The animation state systems of a frame, over one batch: `update` advances every row's
/// tracks, `apply` poses every row from them. Rows are split into chunks of consecutive rows,
/// one `StateWorkspace` each; chunks may run on several threads. Events are delivered after
/// each system, on the calling thread, in row order, so listeners see the same sequence (and
/// may call operations) whatever the number of threads.
enum StateSystem {
    /// Rows per chunk below which a system runs on the calling thread only.
    static let minimumRowsPerChunk = 64

    static func update(_ batch: Batch, delta: Float, threads: Int = 1) {
        let store = batch.animationStates
        let count = batch.count
        guard count > 0 else { return }
        let chunks = chunkCount(count, threads)
        let k = store.kernel
        if chunks == 1 {
            let ws = store.workspace(0)
            for row in 0..<count { k.update(row: row, delta: delta, &ws.events) }
        } else {
            let spaces = Workspaces((0..<chunks).map { store.workspace($0) })
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let ws = spaces.items[c]
                for row in chunkRange(c, chunks, count) { k.update(row: row, delta: delta, &ws.events) }
            }
        }
        store.collect(workers: chunks)
        store.drain()
    }

    static func apply(_ batch: Batch, threads: Int = 1) {
        let store = batch.animationStates
        let count = batch.count
        guard count > 0 else { return }
        let chunks = chunkCount(count, threads)
        let k = store.kernel
        let cols = batch.columns()
        if chunks == 1 {
            let ws = store.workspace(0)
            k.apply(rows: 0..<count, cols, ws)
        } else {
            let spaces = Workspaces((0..<chunks).map { store.workspace($0) })
            let columns = ColumnsBox(cols)
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let ws = spaces.items[c]
                k.apply(rows: chunkRange(c, chunks, count), columns.cols, ws)
            }
        }
        store.collect(workers: chunks)
        store.drain()
    }

    static func chunkCount(_ rows: Int, _ threads: Int) -> Int {
        max(1, min(threads, rows / minimumRowsPerChunk))
    }

    static func chunkRange(_ c: Int, _ chunks: Int, _ rows: Int) -> Range<Int> {
        (c * rows / chunks)..<((c + 1) * rows / chunks)
    }

    /// Workspaces handed to worker threads: chunk c uses only `items[c]`.
    private final class Workspaces: @unchecked Sendable {
        let items: [StateWorkspace]
        init(_ items: [StateWorkspace]) { self.items = items }
    }

    /// Column pointers handed to worker threads: each chunk writes only its own rows.
    private struct ColumnsBox: @unchecked Sendable {
        let cols: BatchColumns
        init(_ cols: BatchColumns) { self.cols = cols }
    }
}
