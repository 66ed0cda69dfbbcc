import BoneworkFormat
import BoneworkWorld
import CGL
import Dispatch

// Drawing a crowd straight from the World's columns.
//
// Per character the CPU writes a 16-byte record and one draw command; the bone world transforms
// and slot columns of every batch in the frame are copied in bulk (one memcpy per column and
// batch, split over the packing threads) and the vertex shader derives each slot's image,
// colours and deform from them with the CPU path's rules. This is what makes a frame of 10,000
// spineboys cost about a tenth of packing every bone and slot per character (Docs/Rendering.md
// gives the figures). A character whose draw order is not the setup order, that shows a clipping
// attachment, or whose kind cannot be drawn from columns (`GPURendererKind.fromColumns`) is packed
// per bone and slot as before (`GPUFrame.writeCharacter`), in its place in the back-to-front order.

/// Where one batch's block sits in a frame's column table, and the rows it holds.
struct ColumnBlock {
    /// First word of its descriptor (a multiple of 4).
    var word: Int
    /// Rows `lo ..< hi` of the batch are copied (multiples of the chunk size; empty when unused).
    var lo: Int
    var hi: Int
}

/// Columns a frame reads where the World keeps them (`GPUColumnMemory`) instead of copying them:
/// the source number of the world transforms' buffer (0: copied; else 1 ...
/// `GPURenderer.inPlaceSources`) and the first word of columns a, b, c, d, worldX, worldY in it;
/// the same for the slot attachment column.
struct InPlaceColumns {
    var world = 0
    var words = (0, 0, 0, 0, 0, 0)
    var attachments = 0
    var attachmentWord = 0
}

/// One bulk copy of a frame: `bytes` from `source` to `target` bytes into the column table.
struct ColumnCopy {
    var source: UnsafeRawPointer
    var target: Int
    var bytes: Int
}

/// The words of a block descriptor, in order (the vertex shader reads them by these positions).
enum ColumnDescriptor {
    static let words = 44
    // 0 chunk size, 1 bones, 2 slots, 3 colour rows, 4 dark rows, 5 sequence rows, 6 deform rows,
    // 7 deform floats; then the first word of each column: 8 ... 13 a, b, c, d, worldX, worldY;
    // 14 attachment; 15 ... 18 colour r, g, b, a; 19 ... 21 dark r, g, b; 22 sequence; 23 deform
    // length; 24 where the world transforms are read (0: this block; k: in-place source k,
    // `InPlaceWorld`); 25 plan; 26 ... 29 skeleton colour; 30 slot bone; 31 slot colour row;
    // 32 dark row; 33 sequence row; 34 deform row; 35 deform offset; 36 setup colour; 37 setup
    // dark; 38 has-dark bytes; 39 active-bone bytes (plan * bones + bone); 40 where the attachment
    // column is read (as word 24); 41 ... 43 unused.
}

extension GPURenderer {
    /// Draws `rows.count` characters back to front into the bound framebuffer, straight from the
    /// World's columns: character k is row `rows[k] & 0xFFFF_FFFF` of `batches[rows[k] >> 32]`,
    /// drawn as kind `kinds[k]` (from `register`, built from the batch's skeleton). Packing runs
    /// on up to `packThreads` threads (the calling thread among them) and returns when the frame
    /// is submitted.
    ///
    /// Characters in their setup draw order that show no clipping attachment cost a record and a
    /// command each; the frame's columns are copied in bulk, the rows each batch needs. The others
    /// are packed bone by bone and slot by slot, as `pack(_:batches:rows:)` does.
    ///
    /// # Safety
    /// `batches` must be views of live batches that nothing changes during the call.
    /// - Throws: `RenderError.request` for a kind that was not registered, a row outside its
    ///   batch or a kind of another skeleton; `RenderError.buffer` when the tables cannot be
    ///   mapped or grown. Nothing is drawn then.
    @discardableResult
    public func draw(
        batches views: UnsafeBufferPointer<BatchPoseViews>, rows: UnsafeBufferPointer<UInt64>,
        kinds characterKinds: UnsafeBufferPointer<Int32>, viewport: WorldViewport
    ) throws(RenderError) -> RenderFrameStats {
        let setup = RenderClock.threadCPU()
        context.makeCurrent()
        if pending != nil { drop() }
        columnScratch.views.removeAll(keepingCapacity: true)
        columnScratch.views.append(contentsOf: views)
        return try drawColumns(RowCharacters(rows: rows, kinds: characterKinds), viewport: viewport, setup: setup)
    }

    /// Draws a crowd back to front straight from `world`'s columns (see
    /// `draw(batches:rows:kinds:viewport:)`): character k is agent `order[k]`, which is
    /// `entities[order[k]]` drawn as kind `kinds[order[k]]`. The entities are located on the
    /// packing threads.
    /// - Throws: `RenderError.request` for an agent that is not a live entity, a kind that was not
    ///   registered or a kind of another skeleton; `RenderError.buffer` as the other `draw` does.
    @discardableResult
    public func draw(
        _ world: World, entities: UnsafeBufferPointer<Entity>, kinds: UnsafeBufferPointer<Int32>,
        order: UnsafeBufferPointer<Int32>, viewport: WorldViewport
    ) throws(RenderError) -> RenderFrameStats {
        let setup = RenderClock.threadCPU()
        context.makeCurrent()
        if pending != nil { drop() }
        columnScratch.views.removeAll(keepingCapacity: true)
        for batch in world.batches { columnScratch.views.append(batch.poseViews()) }
        return try world.withEntityLocations { table throws(RenderError) in
            try drawColumns(
                AgentCharacters(table: table, entities: entities, kinds: kinds, order: order), viewport: viewport,
                setup: setup)
        }
    }

    /// The two passes of a column frame around its layout, then `submit`. `setup`: the GL
    /// thread's CPU clock when the caller started.
    private func drawColumns<Characters: ColumnCharacters>(
        _ characters: Characters, viewport: WorldViewport, setup: UInt64
    ) throws(RenderError) -> RenderFrameStats {
        let wallStart = RenderClock.wall()
        let scratch = columnScratch
        let count = characters.count
        guard count < Int(GPUFrame.clippedFlag) else {
            throw .buffer("a frame holds fewer than \(GPUFrame.clippedFlag) characters; \(count) asked")
        }
        scratch.batches.removeAll(keepingCapacity: true)
        for view in scratch.views { scratch.batches.append(view.drawColumns) }
        let chunkCount = chunks(for: count)
        scratch.batchRows.removeAll(keepingCapacity: true)
        var totalRows = 0
        for d in scratch.batches {
            var info = BatchRowInfo(
                flagStart: totalRows, clipSlots: UnsafePointer(scratch.noSlots), clipSlotCount: 0,
                attachmentKinds: UnsafeBufferPointer(start: nil, count: 0))
            if let kind = kinds.first(where: { $0.skeleton == d.skeleton }) {
                info.clipSlots = UnsafePointer(kind.clipSlots.baseAddress!)
                info.clipSlotCount = kind.clipSlotCount
                info.attachmentKinds = kind.attachmentKinds
                info.gpuClipSlot = kind.gpuClipSlot
                info.gpuClipBone = kind.gpuClipBone
            }
            scratch.batchRows.append(info)
            totalRows += d.count
        }
        scratch.reserve(characters: count, chunks: chunkCount, batches: scratch.views.count, rows: totalRows)
        if rows.count < count {
            rows.deallocate()
            rows = .allocate(capacity: max(count, rows.count * 2))
        }
        frameNumber &+= 1
        tally.reset(frame: frameNumber)
        return try scratch.batches.withUnsafeBufferPointer { batches throws(RenderError) in
            try scratch.batchRows.withUnsafeBufferPointer { info throws(RenderError) in
                let flagJob = RowFlagJob(
                    batches: batches, info: info, flags: scratch.rowFlags, totalRows: totalRows, chunks: chunkCount,
                    tally: tally)
                let job = ColumnFrameJob(
                    characters: characters, batches: batches, kindRefs: UnsafeBufferPointer(kindRefs),
                    characterRows: rows.baseAddress!, locations: scratch.locations, info: info,
                    rowFlags: scratch.rowFlags, ranges: scratch.ranges, totals: scratch.totals, chunks: chunkCount,
                    tally: tally)
                let glBefore = RenderClock.threadCPU() &- setup
                if chunkCount == 1 {
                    flagJob.run(chunk: 0)
                    scratch.rowFlagNanoseconds = tally.cpu.load(ordering: .acquiring)
                    job.classify(chunk: 0)
                } else {
                    WorkerPool.shared.perform(iterations: chunkCount, flagJob)
                    scratch.rowFlagNanoseconds = tally.cpu.load(ordering: .acquiring)
                    WorkerPool.shared.perform(iterations: chunkCount, ClassifyIterations(job: job))
                }
                let middle = RenderClock.threadCPU()
                scratch.classifyNanoseconds = tally.cpu.load(ordering: .acquiring)
                for c in 0..<chunkCount {
                    let total = scratch.totals + c * ColumnFrameScratch.totalFields
                    guard total[3] < 0 else {
                        throw Self.columnFault(ColumnFault(rawValue: total[4]) ?? .kind, total[3])
                    }
                }
                let frame = try openColumnFrame(count: count, chunks: chunkCount, wallStart: wallStart)
                let region = pending?.region ?? 0
                guard let columnBase = driver({ columns.map(region: region, bytes: pending?.columnBytes ?? 0) }) else {
                    drop()
                    throw .buffer(
                        "mapping the GPU path's column blocks failed: GL error 0x\(String(GL.firstError(), radix: 16))")
                }
                // The descriptors, one per block in use, in block order.
                var next = 0
                scratch.descriptors.withUnsafeBytes { words in
                    for block in scratch.blocks where block.hi > block.lo {
                        (columnBase + block.word * 4).copyMemory(
                            from: words.baseAddress! + next * ColumnDescriptor.words * 4,
                            byteCount: ColumnDescriptor.words * 4)
                        next += 1
                    }
                }
                pending?.beginCPU = glBefore &+ (RenderClock.threadCPU() &- middle)
                scratch.copies.withUnsafeBufferPointer { copies in
                    scratch.blocks.withUnsafeBufferPointer { blocks in
                        scratch.views.withUnsafeBufferPointer { views in
                            withUnsafeMutablePointer(to: &scratch.copyNanoseconds) { copyTime in
                                let second = ColumnPackJob(
                                    job: job, views: views, blocks: blocks, frame: frame, copies: copies,
                                    columns: columnBase, copyTime: copyTime)
                                WorkerPool.shared.perform(iterations: chunkCount + 1, second)
                            }
                        }
                    }
                }
                driver { columns.unmap(region: region) }
                let columnBytes = pending?.columnBytes ?? 0
                var stats = submit(frame, viewport: viewport)
                for c in 0..<chunkCount {
                    stats.fromColumns += scratch.totals[c * ColumnFrameScratch.totalFields + 5]
                    stats.clippedOnGPU += scratch.totals[c * ColumnFrameScratch.totalFields + 6]
                }
                stats.columnCopyNanoseconds = scratch.copyNanoseconds
                stats.classifyNanoseconds = scratch.classifyNanoseconds
                stats.rowFlagNanoseconds = scratch.rowFlagNanoseconds
                stats.columnBytes = columnBytes
                stats.inPlaceBytes = scratch.inPlaceBytes
                lastFrame = stats
                return stats
            }
        }
    }

    static func columnFault(_ fault: ColumnFault, _ k: Int) -> RenderError {
        switch fault {
        case .kind: .request("character \(k) has a kind that was not registered")
        case .location:
            .request("character \(k) is not a live instance (a stale entity, or a batch or row that does not exist)")
        case .shape: .request("character \(k) is drawn as a kind of another skeleton (bone or slot counts differ)")
        }
    }

    /// Lays out the frame (GL thread, between the passes): each batch's block and copies, the
    /// CPU-packed characters' bases per chunk; then grows and maps the tables and writes the block
    /// descriptors.
    private func openColumnFrame(count: Int, chunks chunkCount: Int, wallStart: UInt64) throws(RenderError)
        -> GPUFrame
    {
        let scratch = columnScratch
        let batchCount = scratch.batches.count
        // CPU-packed characters: chunk bases.
        var boneTexels = 0
        var slotTexels = 0
        var deformFloats = 0
        for c in 0..<chunkCount {
            let total = scratch.totals + c * ColumnFrameScratch.totalFields
            (total[0], boneTexels) = (boneTexels, boneTexels + total[0])
            (total[1], slotTexels) = (slotTexels, slotTexels + total[1])
            (total[2], deformFloats) = (deformFloats, deformFloats + total[2])
        }
        guard boneTexels < Int(Int32.max) / 4, slotTexels < Int(Int32.max), deformFloats < Int(Int32.max) else {
            throw .buffer("a frame of \(count) characters needs more table rows than 32-bit indices reach")
        }
        // Blocks: the rows of each batch some chunk draws from columns, whole chunks.
        scratch.blocks.removeAll(keepingCapacity: true)
        scratch.copies.removeAll(keepingCapacity: true)
        scratch.descriptors.removeAll(keepingCapacity: true)
        scratch.inPlace.removeAll(keepingCapacity: true)
        scratch.inPlaceBytes = 0
        var word = 0
        for b in 0..<batchCount {
            var lo = Int.max
            var hi = -1
            for c in 0..<chunkCount {
                let range = scratch.ranges + c * ColumnFrameScratch.rangeStride(batches: batchCount) + b * 2
                lo = min(lo, Int(range[0]))
                hi = max(hi, Int(range[1]))
            }
            let d = scratch.batches[b]
            guard hi > lo else {
                scratch.blocks.append(ColumnBlock(word: 0, lo: 0, hi: 0))
                continue
            }
            let size = max(1, d.chunkSize)
            lo = lo / size * size
            hi = (hi + size - 1) / size * size
            scratch.blocks.append(ColumnBlock(word: word, lo: lo, hi: hi))
            let place = inPlace(d, scratch: scratch)
            if place.world > 0 { scratch.inPlaceBytes += (hi - lo) * d.boneCount * 24 }
            if place.attachments > 0 { scratch.inPlaceBytes += (hi - lo) * d.slotCount * 4 }
            word = Self.layoutBlock(d, lo: lo, hi: hi, at: word, inPlace: place, scratch: scratch)
        }
        guard word < Int(Int32.max) else {
            throw .buffer("a frame's column blocks need more words than 32-bit indices reach")
        }
        let columnBytes = max(16, word * 4)
        let frame = try beginFrame(
            count: count, chunks: chunkCount, boneTexels: boneTexels, slotTexels: slotTexels,
            deformFloats: deformFloats, columnBytes: columnBytes, wallStart: wallStart)
        return frame
    }

    /// Which of batch `d`'s columns the GPU reads in place (`InPlaceColumns`): those in the
    /// renderer's `columnMemory` while the frame has a source left for their buffer (sources are
    /// handed out batch by batch; the others are copied).
    private func inPlace(_ d: DrawColumns, scratch: ColumnFrameScratch) -> InPlaceColumns {
        var place = InPlaceColumns()
        guard let memory = columnMemory, inPlaceSources > 0 else { return place }
        /// The source of the allocation holding `pointer` (added to the frame's), or nil.
        func source(_ k: Int) -> Int? {
            let a = memory.allocations[k]
            if let used = scratch.inPlace.firstIndex(where: { $0.buffer == a.buffer }) { return used + 1 }
            guard scratch.inPlace.count < inPlaceSources else { return nil }
            scratch.inPlace.append(InPlaceSource(buffer: a.buffer, floats: a.floats, words: a.words))
            return scratch.inPlace.count
        }
        if let (k, a) = memory.locate(UnsafeRawPointer(d.worldA)) {
            func word(_ column: UnsafePointer<Float>) -> Int? {
                guard let (other, w) = memory.locate(UnsafeRawPointer(column)), other == k else { return nil }
                return w
            }
            if let b = word(d.worldB), let c = word(d.worldC), let dd = word(d.worldD), let x = word(d.worldX),
                let y = word(d.worldY), let s = source(k)
            {
                place.world = s
                place.words = (a, b, c, dd, x, y)
            }
        }
        if let (k, w) = memory.locate(UnsafeRawPointer(d.attachment)), let s = source(k) {
            place.attachments = s
            place.attachmentWord = w
        }
        return place
    }

    /// Appends batch `d`'s descriptor (to `scratch.descriptors`) and copies for rows `lo ..< hi`
    /// from word `word`; returns the word after the block. `inPlace`: the columns read from their
    /// source instead of copied.
    private static func layoutBlock(
        _ d: DrawColumns, lo: Int, hi: Int, at word: Int, inPlace: InPlaceColumns,
        scratch: ColumnFrameScratch
    ) -> Int {
        let rows = hi - lo
        var target = (word + ColumnDescriptor.words) * 4
        let first = scratch.descriptors.count
        scratch.descriptors.append(contentsOf: repeatElement(0, count: ColumnDescriptor.words))
        func put(_ k: Int, _ value: Int) { scratch.descriptors[first + k] = UInt32(truncatingIfNeeded: value) }
        func add(_ k: Int, _ source: UnsafeRawPointer, bytes: Int) {
            put(k, target / 4)
            if bytes > 0 { scratch.copies.append(ColumnCopy(source: source, target: target, bytes: bytes)) }
            target += (bytes + 15) & ~15
        }
        func element<T>(_ k: Int, _ column: UnsafePointer<T>, _ n: Int) {
            add(k, UnsafeRawPointer(column + lo * n), bytes: rows * n * 4)
        }
        func instance<T>(_ k: Int, _ column: UnsafePointer<T>) {
            add(k, UnsafeRawPointer(column + lo), bytes: rows * 4)
        }
        func table<T>(_ k: Int, _ column: UnsafePointer<T>, _ count: Int) {
            add(k, UnsafeRawPointer(column), bytes: count * MemoryLayout<T>.stride)
        }
        put(0, d.chunkSize)
        put(1, d.boneCount)
        put(2, d.slotCount)
        put(3, d.colorSlots)
        put(4, d.darkSlots)
        put(5, d.sequenceSlots)
        put(6, d.deformSlots)
        put(7, d.deformFloats)
        /// A per-element column read from source `source` at `first` (row lo, as a copied block
        /// would start with it), or copied when `source` is 0.
        func shared<T>(_ k: Int, _ column: UnsafePointer<T>, _ n: Int, source: Int, first: Int) {
            if source > 0 { put(k, first + lo * n) } else { element(k, column, n) }
        }
        let w = inPlace.words
        shared(8, d.worldA, d.boneCount, source: inPlace.world, first: w.0)
        shared(9, d.worldB, d.boneCount, source: inPlace.world, first: w.1)
        shared(10, d.worldC, d.boneCount, source: inPlace.world, first: w.2)
        shared(11, d.worldD, d.boneCount, source: inPlace.world, first: w.3)
        shared(12, d.worldX, d.boneCount, source: inPlace.world, first: w.4)
        shared(13, d.worldY, d.boneCount, source: inPlace.world, first: w.5)
        shared(14, d.attachment, d.slotCount, source: inPlace.attachments, first: inPlace.attachmentWord)
        put(24, inPlace.world)
        put(40, inPlace.attachments)
        element(15, d.colorR, d.colorSlots)
        element(16, d.colorG, d.colorSlots)
        element(17, d.colorB, d.colorSlots)
        element(18, d.colorA, d.colorSlots)
        element(19, d.darkR, d.darkSlots)
        element(20, d.darkG, d.darkSlots)
        element(21, d.darkB, d.darkSlots)
        element(22, d.sequenceIndex, d.sequenceSlots)
        element(23, d.deformLength, d.deformSlots)
        instance(25, d.plan)
        instance(26, d.skeletonR)
        instance(27, d.skeletonG)
        instance(28, d.skeletonB)
        instance(29, d.skeletonA)
        table(30, d.slotBone, d.slotCount)
        table(31, d.slotColorRow, d.slotCount)
        table(32, d.slotDarkRow, d.slotCount)
        table(33, d.slotSequenceRow, d.slotCount)
        table(34, d.slotDeformRow, d.slotCount)
        table(35, d.slotDeformOffset, d.slotCount + 1)
        table(36, d.slotSetupColor, d.slotCount * 4)
        table(37, d.slotSetupDark, d.slotCount * 3)
        table(38, d.slotHasDark, d.slotCount)
        table(39, d.planBoneActive, d.planCount * d.boneCount)
        return target / 4
    }
}
