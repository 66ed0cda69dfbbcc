import Foundation

/// The systems of a frame, in the order the scheduler runs them.
public enum SystemID: Int, CaseIterable, Sendable {
    /// Advancing track times, queues and mixes.
    case animationState = 0
    /// Applying the timelines to the local pose.
    case timelineApply
    /// Constraints and world transforms.
    case pose
    /// Slot images (sequences) and attachments: the draw list of the vertex system, so it runs
    /// only when `vertices` does.
    case slots
    /// World vertices of the drawn attachments.
    case vertices

    /// Number of systems (`allCases` builds an array; frames must not allocate).
    public static let count = 5

    /// A short identifier (CSV columns, JSON keys).
    public var key: String {
        switch self {
        case .animationState: return "state"
        case .timelineApply: return "apply"
        case .pose: return "pose"
        case .slots: return "slots"
        case .vertices: return "vertices"
        }
    }

    /// The system's name as tables and traces print it (`constraints + world`).
    public var name: String {
        switch self {
        case .animationState: return "animation state"
        case .timelineApply: return "timeline apply"
        case .pose: return "constraints + world"
        case .slots: return "slots"
        case .vertices: return "vertices"
        }
    }
}

/// Runs the systems over every batch each frame, on 1 to `maxThreads` threads, and profiles
/// them (`profiler`: per frame, per system, elapsed and CPU time, per chunk slices).
///
/// A batch's rows are split into at most `threads` chunks of consecutive rows, one per
/// `WorkerPool.shared` iteration, fewer when a chunk would hold less work than
/// `minimumChunkMicroseconds` (measured per batch on the previous frame; `minimumChunkRows`
/// until a frame was measured): a tiny work item does not pay for waking a thread. Each row is only ever
/// touched by the chunk that holds it and every system computes a row from that row and shared
/// read-only tables, so results are bit-identical whatever the thread count or chunking.
///
/// `Mode.interleaved` runs all systems on a block of `blockRows` rows before the next block,
/// while the block's data is in cache; `Mode.split` runs each system over all rows before the
/// next. Animation state events are delivered on the calling thread in row order either way:
/// when any listener is set, the state systems run as their own passes and deliver their events
/// before the next system starts (listeners may change instances), and only the systems after
/// them are interleaved.
public final class Scheduler {
    /// Which time `nanoseconds(_:framesAgo:)` reports (the profiler records both).
    public enum Clock: Sendable {
        /// Elapsed (monotonic) time: what a frame costs, including time a thread waited for a core.
        case wall
        /// CPU time of the threads that ran the system (steadier on a busy machine).
        case threadCPU
    }

    /// How systems are ordered over a batch's rows.
    public enum Mode: Sendable {
        /// All systems on a block of rows, then the next block.
        case interleaved
        /// Each system over every row, then the next system.
        case split
    }

    /// The most threads a frame may use: the machine's active cores.
    public static var maxThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// What the profiler measures chunks with: wall time or thread CPU time.
    public let clock: Clock
    /// The profile of the last frames.
    public let profiler: FrameProfiler
    /// Frames the profiler keeps.
    public var capacity: Int { profiler.capacity }
    /// Threads a frame uses, 1 ... `maxThreads`.
    public var threads: Int {
        didSet { threads = max(1, min(Self.maxThreads, threads)) }
    }
    /// How systems are scheduled over rows: all systems per block of rows, or system by system.
    public var mode: Mode = .interleaved
    /// Rows per block in interleaved mode (see `Mode.interleaved`).
    public var blockRows: Int = Scheduler.defaultBlockRows {
        didSet { blockRows = max(1, blockRows) }
    }
    /// The fewest rows worth a chunk of their own before a frame of the batch was measured (and
    /// always, when `minimumChunkMicroseconds` is 0).
    public var minimumChunkRows: Int = Scheduler.defaultMinimumChunkRows {
        didSet { minimumChunkRows = max(1, minimumChunkRows) }
    }
    /// The least work a chunk should hold: thread CPU time per row of the batch, measured on the
    /// previous frame, times the chunk's rows. 0 = use `minimumChunkRows` only.
    public var minimumChunkMicroseconds: Double = Scheduler.defaultMinimumChunkMicroseconds {
        didSet { minimumChunkMicroseconds = max(0, minimumChunkMicroseconds) }
    }
    /// Which systems run (all by default); a benchmark may switch some off.
    public var enabled: Set<SystemID> = Set(SystemID.allCases)
    /// How instances below full update rate draw the frames between their computed poses
    /// (batches with update rates only, see `UpdateRate`).
    public var updateRateBlend: UpdateRateBlend = .extrapolate
    /// Called on the worker threads with the world vertices of each block of rows, in draw order
    /// (a renderer's input). The buffers are reused for the next block.
    public var vertexHandler: (@Sendable (VertexBlock) -> Void)?

    /// Chosen by measurement on this project's 2-core machine (Benchmarks/CHUNKING.md): blocks
    /// under 16 rows pay for their clock readings (two per system per block), blocks of 128
    /// spineboy-sized rows (about 1 MB of columns) were as fast as any; two threads first beat one
    /// at roughly 150–250 µs of work per frame (section 3 over several runs; the crossover moves
    /// with the other tenants' load), lost below.
    public static let defaultBlockRows = 128
    /// The default ``minimumChunkRows``.
    public static let defaultMinimumChunkRows = 16
    /// The default ``minimumChunkMicroseconds`` (two threads beat one from about 150 µs of work).
    public static let defaultMinimumChunkMicroseconds = 80.0

    private var scratch: [VertexScratch] = []
    /// Per batch index: thread CPU nanoseconds per row on the last frame (0 = not measured).
    private var costPerRow: [Double] = []
    private var poseScratch: [PoseScratch] = []

    /// A scheduler running frames on `threads` threads (clamped to 1 ... ``maxThreads``), its profiler
    /// keeping `capacity` frames measured with `clock`.
    public init(capacity: Int = 256, clock: Clock = .wall, threads: Int = 1) {
        self.clock = clock
        self.threads = max(1, min(Self.maxThreads, threads))
        profiler = FrameProfiler(capacity: capacity, slicesPerFrame: 64 * SystemID.count, maxChunks: 64)
        #if DEBUG
            if let conflict = SystemAccess.parallelConflicts() { preconditionFailure("Scheduler: \(conflict)") }
        #endif
    }

    /// Frames run so far.
    public var frames: Int { profiler.frames }

    /// Nanoseconds system `system` took in the frame `back` frames ago (0 = the last frame),
    /// summed over the threads that ran it, on `clock`.
    public func nanoseconds(_ system: SystemID, framesAgo back: Int = 0) -> UInt64? {
        clock == .wall ? profiler.wall(system, framesAgo: back) : profiler.cpu(system, framesAgo: back)
    }

    /// Instances posed in the frame `back` frames ago.
    public func instances(framesAgo back: Int = 0) -> Int? {
        profiler.frame(framesAgo: back)?.instances
    }

    /// The chunks `rows` rows of a batch not measured yet are split into.
    public func chunkCount(rows: Int) -> Int {
        chunkCount(rows: rows, costPerRow: 0)
    }

    /// The chunks `rows` rows are split into when each costs `costPerRow` nanoseconds (0 = unknown).
    func chunkCount(rows: Int, costPerRow: Double) -> Int {
        var minimum = minimumChunkRows
        if costPerRow > 0 && minimumChunkMicroseconds > 0 {
            let rowsForWork = (minimumChunkMicroseconds * 1000 / costPerRow).rounded(.up)
            minimum = rowsForWork < Double(Int.max / 2) ? max(1, Int(rowsForWork)) : Int.max / 2
        }
        return max(1, min(threads, min(profiler.maxChunks, rows / minimum)))
    }

    /// The delta a frame advances by: a non-finite one (NaN, ±infinity) advances nothing, as
    /// track and skeleton times that became NaN or infinite could never recover. Finite deltas,
    /// negative ones included, pass as the reference takes them.
    @inline(__always)
    static func frameDelta(_ delta: Float) -> Float { delta.isFinite ? delta : 0 }

    /// Runs one frame over `batches`, advancing animations by `delta` seconds.
    public func run(_ batches: [Batch], delta: Float) {
        let delta = Self.frameDelta(delta)
        let systems = FrameSystems(enabled)
        profiler.beginFrame()
        var instances = 0
        var used = 0
        for batch in batches { batch.clearEvents() }
        while costPerRow.count < batches.count { costPerRow.append(0) }
        for (index, batch) in batches.enumerated() where batch.count > 0 {
            let store = batch.animationStates
            cost = 0
            if mode == .interleaved && !store.hasListeners {
                // Rows may rest only where update and apply run back to back (`RestColumns`).
                var rest: RestColumns? = nil
                if systems.state && systems.apply && batch.updateRates && letsRowsRest {
                    rest = store.beginRestFrame(delta: delta, rates: batch.views.rates.updateRate)
                } else {
                    store.wakeAll()
                }
                let chunks = runPass(batch, index, systems, delta: delta, stages: .all, rest: rest)
                store.collect(workers: 2 * chunks)
                store.drain()
            } else {
                store.wakeAll()
                if systems.state { runDelivering(batch, index, systems, delta: delta, stages: .state) }
                if systems.apply && batch.count > 0 {
                    runDelivering(batch, index, systems, delta: delta, stages: .apply)
                }
                // Listeners may have spawned or despawned instances: rows are counted again.
                if batch.count > 0 {
                    if mode == .interleaved {
                        runPass(batch, index, systems, delta: delta, stages: .pose)
                    } else {
                        runPass(batch, index, systems, delta: delta, stages: .poseOnly)
                        // The slots pass also empties the draw lists when the slot system is off.
                        if systems.slots || systems.vertices {
                            runPass(batch, index, systems, delta: delta, stages: .slots)
                        }
                        if systems.vertices { runPass(batch, index, systems, delta: delta, stages: .vertices) }
                    }
                }
            }
            if batch.count > 0 { costPerRow[index] = Double(cost) / Double(batch.count) }
            instances += batch.count
            used += 1
        }
        profiler.endFrame(instances: instances, batches: used)
    }

    /// Runs one frame for the rows `rows` of `batch` only, on the calling thread: the same
    /// systems and code as `run(_:delta:)`, as separate passes, with `afterApply` called between
    /// timeline apply and world transforms (where application code changes the local pose). The
    /// application API updates one drawable this way while others share its world.
    public func run(_ batch: Batch, rows: Range<Int>, delta: Float, afterApply: (() -> Void)? = nil) {
        let delta = Self.frameDelta(delta)
        let systems = FrameSystems(enabled)
        profiler.beginFrame()
        batch.clearEvents()
        batch.animationStates.wakeAll()
        // Listeners and the callback may despawn rows: each pass takes the rows still there.
        if systems.state {
            runDelivering(batch, 0, systems, delta: delta, stages: .state, rows: rows.clamped(to: 0..<batch.count))
        }
        if systems.apply {
            runDelivering(batch, 0, systems, delta: delta, stages: .apply, rows: rows.clamped(to: 0..<batch.count))
        }
        afterApply?()
        let remaining = rows.clamped(to: 0..<batch.count)
        if !remaining.isEmpty { runPass(batch, 0, systems, delta: delta, stages: .pose, rows: remaining) }
        profiler.endFrame(instances: remaining.count, batches: 1)
    }

    /// A state or apply pass, then its events delivered on the calling thread in row order
    /// (update events before apply events).
    private func runDelivering(
        _ batch: Batch, _ index: Int, _ systems: FrameSystems, delta: Float, stages: Stages,
        rows: Range<Int>? = nil
    ) {
        if let rows, rows.isEmpty { return }
        let chunks = runPass(batch, index, systems, delta: delta, stages: stages, rows: rows)
        batch.animationStates.collect(workers: 2 * chunks)
        batch.animationStates.drain()
    }

    /// Whether rows of batches with update rates may rest (`RestColumns`); tests compare with a
    /// world whose rows never do.
    var letsRowsRest = true

    /// Thread CPU nanoseconds the current batch's passes took so far this frame.
    private var cost: UInt64 = 0

    /// Runs `stages` of the frame over all rows of `batch`, in chunks (on several threads when
    /// there are enough rows), and records the chunks' times.
    /// `only` limits the pass to those rows, on one chunk (`run(_:rows:delta:afterApply:)`).
    @discardableResult
    private func runPass(
        _ batch: Batch, _ index: Int, _ systems: FrameSystems, delta: Float, stages: Stages,
        rows only: Range<Int>? = nil, rest: RestColumns? = nil
    ) -> Int {
        let first = only?.lowerBound ?? 0
        let rows = only?.count ?? batch.count
        let chunks =
            only != nil ? 1 : chunkCount(rows: rows, costPerRow: index < costPerRow.count ? costPerRow[index] : 0)
        let store = batch.animationStates
        // Workspaces: chunk c updates into c and applies into chunks + c, so collecting
        // 0 ..< 2 chunks delivers update events before apply events, each in row order.
        _ = store.workspace(2 * chunks - 1)
        let rig = batch.rig
        while scratch.count < chunks { scratch.append(VertexScratch()) }
        while poseScratch.count < chunks { poseScratch.append(PoseScratch()) }
        // A split pass lists a whole chunk's draws before the vertex pass reads them.
        let listRows = stages.vertices ? min(blockRows, rows) : (rows + chunks - 1) / chunks + batch.layout.chunkSize
        let rated = batch.updateRates && (stages.apply || stages.pose)
        for c in 0..<chunks {
            scratch[c].reserve(rig, rows: min(blockRows, rows), listRows: listRows)
            poseScratch[c].reserve(rig.tables, stride: batch.layout.stride)
            if rated { poseScratch[c].reserveDue(min(blockRows, rows)) }
        }
        let work = PassWork(
            views: batch.views, rig: rig.tables, kernel: store.kernel, store: store, scratch: scratch,
            poseScratch: poseScratch, timer: profiler.timer, systems: systems, stages: stages, delta: delta,
            first: first, rows: rows, chunks: chunks,
            chunkAlign: batch.layout.chunkSize, block: blockRows, batchIndex: index, handler: vertexHandler,
            rated: rated, frame: profiler.frames, blend: updateRateBlend, rest: rated ? rest : nil)
        #if DEBUG
            if let problem = work.rangeProblem() { preconditionFailure("Scheduler: \(problem)") }
        #endif
        if chunks == 1 {
            work.run(chunk: 0)
        } else {
            WorkerPool.shared.perform(iterations: chunks, work)
        }
        cost &+= profiler.commitPass(chunks: chunks, batch: index)
        return chunks
    }
}

/// Which systems a frame runs (read once per frame from `Scheduler.enabled`).
struct FrameSystems {
    var state: Bool
    var apply: Bool
    var pose: Bool
    var slots: Bool
    var vertices: Bool

    init(_ enabled: Set<SystemID>) {
        state = enabled.contains(.animationState)
        apply = enabled.contains(.timelineApply)
        pose = enabled.contains(.pose)
        vertices = enabled.contains(.vertices)
        // The slot system lists each block's draws for the vertex system and nothing else reads
        // the list (the GPU path classifies slots from the columns): without vertices it is not
        // run. In the GPU path's crowd it was 0.07 µs per character per frame of nothing.
        slots = enabled.contains(.slots) && vertices
    }
}

/// The stages one pass runs over each block of rows.
struct Stages {
    var state = false
    var apply = false
    /// Advances the skeleton clock and (when enabled) runs constraints and world transforms.
    var pose = false
    var slots = false
    var vertices = false

    static let all = Stages(state: true, apply: true, pose: true, slots: true, vertices: true)
    static let state = Stages(state: true)
    static let apply = Stages(apply: true)
    static let pose = Stages(pose: true, slots: true, vertices: true)
    static let poseOnly = Stages(pose: true)
    static let slots = Stages(slots: true)
    static let vertices = Stages(vertices: true)
}

/// Everything the workers of one pass read: each system's column view (`SystemViews`; each chunk
/// writes only its own rows, `rangeProblem()` and `SystemAccess.parallelConflicts()` check it in
/// debug builds), the rig's tables, the animation state kernel and workspaces (chunk c owns workspaces c and
/// chunks + c), per-chunk vertex scratch, and the profiler's chunk records (chunk c writes
/// record c).
private struct PassWork: ParallelIterations, @unchecked Sendable {
    /// Chunk `i` (`WorkerPool`).
    func run(_ i: Int) { run(chunk: i) }

    let views: SystemViews
    let rig: RigTables
    let kernel: StateKernel
    unowned(unsafe) let store: AnimationStateStore
    let scratch: [VertexScratch]
    let poseScratch: [PoseScratch]
    let timer: ChunkTimer
    let systems: FrameSystems
    let stages: Stages
    let delta: Float
    /// The pass covers rows `first ..< first + rows`.
    let first: Int
    let rows: Int
    let chunks: Int
    let chunkAlign: Int
    let block: Int
    let batchIndex: Int
    let handler: (@Sendable (VertexBlock) -> Void)?
    /// The batch has update rates: each block marks the rows computed this frame first
    /// (`UpdateRateColumns.fillDue`), apply and pose skip the others, which draw from their history.
    let rated: Bool
    /// The frame's number (the update rates' phase).
    let frame: Int
    let blend: UpdateRateBlend
    /// Rows may rest this frame (`RestColumns`): a pass of all stages over a batch with update
    /// rates, state and apply both enabled.
    let rest: RestColumns?

    /// Rows of chunk `c`: an even split, with boundaries on whole layout chunks so that two
    /// threads never write the same cache line of a chunked column.
    func range(_ c: Int) -> Range<Int> {
        if chunks == 1 { return first..<(first + rows) }
        func boundary(_ k: Int) -> Int {
            if k >= chunks { return rows }
            let raw = k * rows / chunks
            return min(rows, (raw + chunkAlign / 2) / chunkAlign * chunkAlign)
        }
        return (first + boundary(c))..<(first + boundary(c + 1))
    }

    /// Why the chunks' rows could race, or nil: they must be disjoint, cover the pass's rows in
    /// order, and meet on whole layout chunks (two threads never write one element group).
    func rangeProblem() -> String? {
        var next = first
        for c in 0..<chunks {
            let r = range(c)
            if r.lowerBound != next { return "chunk \(c) starts at row \(r.lowerBound), not \(next)" }
            if c > 0 && chunks > 1 && r.lowerBound % chunkAlign != 0 && r.lowerBound != first + rows {
                return "chunk \(c) starts at row \(r.lowerBound), inside a layout chunk of \(chunkAlign)"
            }
            next = r.upperBound
        }
        return next == first + rows ? nil : "the chunks end at row \(next), not \(first + rows)"
    }

    func run(chunk c: Int) {
        let range = range(c)
        timer.begin(c, rows: range)
        defer { timer.end(c) }
        guard !range.isEmpty else { return }
        let updateSpace = store.workspace(c)
        let applySpace = store.workspace(chunks + c)
        let out = scratch[c]
        let pose = poseScratch[c]
        var cursor = 0
        if stages.slots { out.drawCount = 0 }
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(range.upperBound, start + block)
            var due: UnsafeMutablePointer<UInt8>? = nil
            if rated {
                views.rates.fillDue(start..<end, frame: frame, into: pose.due)
                due = pose.due
            }
            if stages.state && systems.state {
                if let rest, let due {
                    kernel.update(rows: start..<end, delta: delta, due: due, rest: rest, &updateSpace.events)
                } else {
                    for row in start..<end { kernel.update(row: row, delta: delta, &updateSpace.events) }
                }
                timer.mark(c, .animationState)
            }
            if stages.apply && systems.apply {
                kernel.apply(rows: start..<end, views.apply, applySpace, due: due, rest: rest)
                timer.mark(c, .timelineApply)
            }
            if stages.pose {
                // The skeleton clock (read by physics) advances between apply and world transforms.
                for i in start..<end { views.pose.time[i] += delta }
                if systems.pose {
                    if let due {
                        PoseSystem.update(views.pose, rig, range: start..<end, scratch: pose, due: due)
                        views.rates.finish(start..<end, due: due, delta: delta, blend: blend)
                    } else {
                        PoseSystem.update(views.pose, rig, range: start..<end, scratch: pose)
                    }
                }
                timer.mark(c, .pose)
            }
            if stages.slots && systems.slots {
                if stages.vertices {
                    out.drawCount = 0
                    cursor = 0
                }
                SlotSystem.update(views.slots, rig, range: start..<end, into: out)
                timer.mark(c, .slots)
            }
            if stages.vertices && systems.vertices {
                let first = cursor
                while cursor < out.drawCount && Int(out.draws[cursor].row) < end { cursor += 1 }
                VertexSystem.update(views.vertices, rig, draws: first..<cursor, into: out)
                timer.mark(c, .vertices)
                if let handler {
                    handler(out.block(batch: batchIndex, rows: start..<end, draws: first..<cursor))
                    timer.skip(c)
                }
            }
            start = end
        }
    }
}
