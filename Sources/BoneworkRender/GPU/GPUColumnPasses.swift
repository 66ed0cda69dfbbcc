import BoneworkFormat
import BoneworkWorld

// The passes of a frame drawn from the World's columns (`GPURenderer+Columns.swift` runs them):
// the row pass, the character pass, and the copy and records pass (their scratch: ColumnFrameScratch.swift).

/// A batch of a column frame as the row pass reads it: where its flags go, and the slots that can
/// show a clipping attachment with the attachment kinds to tell (from a kind of its skeleton;
/// none when no registered kind is of it, and then no character may draw it).
struct BatchRowInfo {
    var flagStart: Int
    var clipSlots: UnsafePointer<Int32>
    var clipSlotCount: Int
    var attachmentKinds: UnsafeBufferPointer<AttachmentKind>
    /// The slot whose clips the GPU cuts and its bone (`GPURendererKind.gpuClipSlot`), -1 none.
    var gpuClipSlot: Int = -1
    var gpuClipBone: Int = -1
}

/// What the row pass finds of each row, before any character is looked at.
enum RowFlags {
    /// Showing no clipping attachment the GPU cannot cut: it can be drawn from columns.
    static let columns: UInt8 = 1
    /// Some slot has deform offsets in use.
    static let deformed: UInt8 = 2
    /// With `columns`: a clipping attachment the GPU cuts is shown in the kind's clip slot (with
    /// its bone active and no deform).
    static let clipped: UInt8 = 4
    /// With `columns`: its draw order is not the setup order (drawn as runs of slots).
    static let reordered: UInt8 = 8
}

/// The row pass of a column frame: flags every row of every batch, the rows split evenly over
/// the chunks. It reads each batch's columns in row order, so each cache line of a per-element
/// column serves the rows of its chunk together (looking the same values up per character, in
/// back-to-front order, missed the cache once per character: 40 % of the first pass).
/// `@unchecked Sendable`: chunk c writes only the flags of its own rows.
struct RowFlagJob: ParallelIterations, @unchecked Sendable {
    /// Chunk `i` (`WorkerPool`).
    func run(_ i: Int) { run(chunk: i) }

    let batches: UnsafeBufferPointer<DrawColumns>
    let info: UnsafeBufferPointer<BatchRowInfo>
    let flags: UnsafeMutablePointer<UInt8>
    let totalRows: Int
    let chunks: Int
    let tally: PackTally

    func run(chunk c: Int) {
        let start = RenderClock.threadCPU()
        let lower = totalRows &* c / chunks
        let upper = totalRows &* (c &+ 1) / chunks
        for b in 0..<batches.count {
            let d = batches.baseAddress.unsafelyUnwrapped + b
            let first = info[b].flagStart
            let from = max(lower, first)
            let to = min(upper, first &+ d.pointee.count)
            guard from < to else { continue }
            flag(d, info[b], rows: (from &- first)..<(to &- first), into: flags + first)
        }
        tally.add(cpu: RenderClock.threadCPU() &- start)
    }

    /// Flags `rows` of one batch, a chunk of the layout at a time (no division per row).
    @inline(__always)
    private func flag(
        _ d: UnsafePointer<DrawColumns>, _ info: BatchRowInfo, rows: Range<Int>, into flags: UnsafeMutablePointer<UInt8>
    ) {
        let size = d.pointee.chunkSize
        let slots = d.pointee.slotCount
        let deformSlots = d.pointee.deformFloats > 0 ? d.pointee.deformSlots : 0
        let setup = d.pointee.drawOrderIsSetup
        let attachment = d.pointee.attachment
        let lengths = d.pointee.deformLength
        let kinds = info.attachmentKinds
        let clipSlots = info.clipSlots
        let clipSlotCount = info.clipSlotCount
        var chunk = rows.lowerBound / size
        var lane = rows.lowerBound &- chunk &* size
        var row = rows.lowerBound
        while row < rows.upperBound {
            let slotBase = chunk &* size &* slots
            let deformBase = chunk &* size &* deformSlots
            while lane < size && row < rows.upperBound {
                var flag: UInt8 = setup[row] != 0 ? RowFlags.columns : RowFlags.columns | RowFlags.reordered
                for j in 0..<clipSlotCount {
                    let slot = Int(clipSlots[j])
                    let a = Int(attachment[slotBase &+ lane &+ slot &* size])
                    guard a >= 0 && a < kinds.count && kinds[a] == .clipping else { continue }
                    if slot == info.gpuClipSlot, let clip = gpuClip(d, info, row: row, lane: lane, chunk: chunk) {
                        flag |= clip
                    } else {
                        flag = 0
                    }
                    break
                }
                for j in 0..<deformSlots where lengths[deformBase &+ lane &+ j &* size] > 0 {
                    flag |= RowFlags.deformed
                    break
                }
                flags[row] = flag
                lane &+= 1
                row &+= 1
            }
            chunk &+= 1
            lane = 0
        }
    }

    /// The flag of a row showing a clipping attachment in the kind's GPU clip slot: clipped on the
    /// GPU (`RowFlags.clipped`); none when the slot's bone is inactive (the CPU path starts no clip
    /// then); nil when a deform moves the polygon (packed and clipped on the CPU).
    @inline(__always)
    private func gpuClip(_ d: UnsafePointer<DrawColumns>, _ info: BatchRowInfo, row: Int, lane: Int, chunk: Int)
        -> UInt8?
    {
        let deformRow = Int(d.pointee.slotDeformRow[info.gpuClipSlot])
        if deformRow >= 0 && d.pointee.deformFloats > 0 {
            let size = d.pointee.chunkSize
            let length = d.pointee.deformLength[chunk &* size &* d.pointee.deformSlots &+ lane &+ deformRow &* size]
            if length > 0 { return nil }
        }
        let plan = Int(d.pointee.plan[row])
        let active = d.pointee.planBoneActive[plan &* d.pointee.boneCount &+ info.gpuClipBone] != 0
        return active ? RowFlags.clipped : 0
    }
}

/// What went wrong with a character of a column frame (first one per chunk).
enum ColumnFault: Int {
    case kind = 1
    case location = 2
    case shape = 3
}

/// The characters of a column frame: character k's kind and where it lives (`batch << 32 | row`,
/// nil when it names no live instance). Read from the packing threads.
protocol ColumnCharacters: SendableMetatype {
    var count: Int { get }
    func character(_ k: Int) -> (kind: Int32, location: UInt64?)
}

/// Characters given as batch rows (`GPURenderer.draw(batches:rows:kinds:viewport:)`).
struct RowCharacters: ColumnCharacters {
    let rows: UnsafeBufferPointer<UInt64>
    let kinds: UnsafeBufferPointer<Int32>
    var count: Int { min(rows.count, kinds.count) }

    @inline(__always)
    func character(_ k: Int) -> (kind: Int32, location: UInt64?) { (kinds[k], rows[k]) }
}

/// Characters given as agents in order (`GPURenderer.draw(_:entities:kinds:order:viewport:)`),
/// located in the world's entity table on the packing threads.
struct AgentCharacters: ColumnCharacters {
    let table: EntityLocations
    let entities: UnsafeBufferPointer<Entity>
    let kinds: UnsafeBufferPointer<Int32>
    let order: UnsafeBufferPointer<Int32>
    var count: Int { order.count }

    @inline(__always)
    func character(_ k: Int) -> (kind: Int32, location: UInt64?) {
        let a = Int(order[k])
        guard a >= 0 && a < entities.count && a < kinds.count else { return (-1, nil) }
        return (kinds[a], table.locate(entities[a]))
    }
}

/// The classifying pass of a column frame as a `WorkerPool` loop: chunk `i` per iteration.
struct ClassifyIterations<Characters: ColumnCharacters>: ParallelIterations, @unchecked Sendable {
    let job: ColumnFrameJob<Characters>
    func run(_ i: Int) { job.classify(chunk: i) }
}

/// A buffer of `GPUColumnMemory` a frame reads in place, and its two views.
struct InPlaceSource {
    var buffer: UInt32
    var floats: UInt32
    var words: UInt32
}

/// One column frame's work for the packing threads. `@unchecked Sendable`: chunk c reads the
/// batches' columns (unchanged while the frame is drawn: the caller waits), writes only its own
/// characters' rows and locations, its own range and total entries, and (in the second pass) its
/// characters' records and commands; one iteration of the second pass does every bulk copy.
struct ColumnFrameJob<Characters: ColumnCharacters>: @unchecked Sendable {
    let characters: Characters
    let batches: UnsafeBufferPointer<DrawColumns>
    let kindRefs: UnsafeBufferPointer<Unmanaged<GPURendererKind>>
    let characterRows: UnsafeMutablePointer<GPUCharacterRows>
    let locations: UnsafeMutablePointer<UInt64>
    let info: UnsafeBufferPointer<BatchRowInfo>
    let rowFlags: UnsafePointer<UInt8>
    let ranges: UnsafeMutablePointer<Int32>
    let totals: UnsafeMutablePointer<Int>
    let chunks: Int
    let tally: PackTally

    var count: Int { characters.count }

    func range(ofChunk c: Int) -> Range<Int> { (count &* c / chunks)..<(count &* (c &+ 1) / chunks) }

    /// First pass: locates and checks chunk c's characters, decides which are drawn from columns
    /// (and the rows each batch must copy) and lays out the CPU-packed ones chunk-locally.
    func classify(chunk c: Int) {
        let start = RenderClock.threadCPU()
        let batchCount = batches.count
        let range = ranges + c &* ColumnFrameScratch.rangeStride(batches: batchCount)
        for b in 0..<batchCount {
            range[b &* 2] = Int32.max
            range[b &* 2 &+ 1] = -1
        }
        let total = totals + c &* ColumnFrameScratch.totalFields
        var boneTexels = 0
        var slotTexels = 0
        var deformFloats = 0
        var fromColumns = 0
        var clipped = 0
        total[3] = -1
        for k in self.range(ofChunk: c) {
            let (kindIndex, location) = characters.character(k)
            guard kindIndex >= 0 && Int(kindIndex) < kindRefs.count else {
                fault(total, k, .kind)
                continue
            }
            guard let location else {
                fault(total, k, .location)
                continue
            }
            let b = Int(truncatingIfNeeded: location >> 32)
            let row = Int(truncatingIfNeeded: location & 0xFFFF_FFFF)
            // Through a pointer: the columns' description is some 50 words, not worth a copy per character.
            let d = batches.baseAddress.unsafelyUnwrapped + b
            guard b < batchCount, row < d.pointee.count else {
                fault(total, k, .location)
                continue
            }
            locations[k] = location
            let kindRef = kindRefs[Int(kindIndex)]
            let (skeleton, kindFromColumns) = kindRef.withKind { ($0.skeleton, $0.fromColumns) }
            guard skeleton == d.pointee.skeleton else {
                fault(total, k, .shape)
                continue
            }
            let flags = rowFlags[info[b].flagStart &+ row]
            if kindFromColumns && flags & RowFlags.columns != 0 {
                var r = GPUCharacterRows(
                    kind: kindIndex, boneTexel: GPUCharacterRows.fromColumns, slotTexel: 0, deformFloat: 0)
                r.clipped = flags & RowFlags.clipped != 0
                r.reordered = flags & RowFlags.reordered != 0
                if r.clipped { clipped &+= 1 }
                // Deform offsets are copied per character, only for those some of whose slots
                // are deformed now (most frames of most characters have none).
                if flags & RowFlags.deformed != 0 {
                    r.columnDeform = Int32(truncatingIfNeeded: deformFloats)
                    deformFloats &+= d.pointee.deformFloats
                }
                characterRows[k] = r
                range[b &* 2] = min(range[b &* 2], Int32(row))
                range[b &* 2 &+ 1] = max(range[b &* 2 &+ 1], Int32(row &+ 1))
                fromColumns &+= 1
            } else {
                characterRows[k] = GPUCharacterRows(
                    kind: kindIndex, boneTexel: Int32(truncatingIfNeeded: boneTexels),
                    slotTexel: Int32(truncatingIfNeeded: slotTexels),
                    deformFloat: Int32(truncatingIfNeeded: deformFloats))
                kindRef.withKind { kind in
                    boneTexels &+= kind.geometry.boneTableFloats / 4
                    slotTexels &+= kind.slotCount
                    deformFloats &+= kind.geometry.deformFloats
                }
            }
        }
        total[0] = boneTexels
        total[1] = slotTexels
        total[2] = deformFloats
        total[5] = fromColumns
        total[6] = clipped
        tally.add(cpu: RenderClock.threadCPU() &- start)
    }

    private func fault(_ total: UnsafeMutablePointer<Int>, _ k: Int, _ fault: ColumnFault) {
        characterRows[k] = GPUCharacterRows(kind: -1, boneTexel: 0, slotTexel: 0, deformFloat: 0)
        if total[3] < 0 {
            total[3] = k
            total[4] = fault.rawValue
        }
    }
}

/// The second pass of a column frame: iteration 0 does the frame's bulk copies, iteration c + 1
/// writes chunk c's characters' records and commands, packing on the CPU those that need it.
/// `@unchecked Sendable` as `ColumnFrameJob`: the copies' targets and the chunks' characters are
/// disjoint.
struct ColumnPackJob<Characters: ColumnCharacters>: ParallelIterations, @unchecked Sendable {
    /// Iteration `i` (`WorkerPool`).
    func run(_ i: Int) { run(iteration: i) }

    let job: ColumnFrameJob<Characters>
    let views: UnsafeBufferPointer<BatchPoseViews>
    let blocks: UnsafeBufferPointer<ColumnBlock>
    let frame: GPUFrame
    let copies: UnsafeBufferPointer<ColumnCopy>
    let columns: UnsafeMutableRawPointer
    /// Where iteration 0 leaves the copy's CPU time.
    let copyTime: UnsafeMutablePointer<UInt64>

    /// The copy is bound by memory bandwidth, which a second thread does not add to (measured
    /// here: 20 MB in 1.36 ms on one thread, 1.33 ms on two, i.e. twice the CPU time), so one
    /// thread copies while the others write records.
    func run(iteration: Int) {
        let start = RenderClock.threadCPU()
        if iteration == 0 {
            for copy in copies { (columns + copy.target).copyMemory(from: copy.source, byteCount: copy.bytes) }
            copyTime.pointee = RenderClock.threadCPU() &- start
        } else {
            write(chunk: iteration - 1)
        }
        job.tally.add(cpu: RenderClock.threadCPU() &- start)
    }

    private func write(chunk c: Int) {
        let total = job.totals + c &* ColumnFrameScratch.totalFields
        let scratch = frame.chunks[c].takeUnretainedValue()
        withUnsafeMutablePointer(to: &scratch.work) { work in
            for k in job.range(ofChunk: c) {
                let r = job.characterRows[k]
                guard r.kind >= 0 else { continue }
                frame.kinds[Int(r.kind)].withKind { kind in
                    write(k, r, kind, total: total, scratch: scratch, work: work)
                }
            }
        }
    }

    /// Character k's record and commands (drawn from columns), or its rows packed bone by bone.
    @inline(__always)
    private func write(
        _ k: Int, _ rows: GPUCharacterRows, _ kind: GPURendererKind, total: UnsafeMutablePointer<Int>,
        scratch: GPUChunk, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        var r = rows
        let location = job.locations[k]
        let b = Int(truncatingIfNeeded: location >> 32)
        let row = Int(truncatingIfNeeded: location & 0xFFFF_FFFF)
        if r.boneTexel == GPUCharacterRows.fromColumns {
            let block = blocks[b]
            let d = job.batches.baseAddress.unsafelyUnwrapped + b
            let record = frame.characters + k &* GPUFrame.recordWords
            record[0] = Int32(truncatingIfNeeded: block.word)
            record[1] = Int32(truncatingIfNeeded: row &- block.lo)
            record[2] = Int32(truncatingIfNeeded: kind.attachmentTexelBase)
            record[3] = 1
            (record + 4).update(repeating: 0, count: 4)
            if r.columnDeform >= 0 {
                let at = Int(r.columnDeform) &+ total[2]
                let floats = d.pointee.deformFloats
                (frame.deform + at).update(from: d.pointee.deform + row &* floats, count: floats)
                record[3] = Int32(truncatingIfNeeded: at &+ 2)
            }
            if r.reordered {
                commandsInOrder(k, kind, d, row: row, clipped: r.clipped, record: record, work: work)
            } else if r.clipped {
                commandsClipped(k, kind, d, row: row, record: record, work: work)
            } else {
                command(k, kind, from: 0, to: kind.slotCount, parts: 0, work: work)
            }
        } else {
            r.boneTexel &+= Int32(truncatingIfNeeded: total[0])
            r.slotTexel &+= Int32(truncatingIfNeeded: total[1])
            r.deformFloat &+= Int32(truncatingIfNeeded: total[2])
            frame.writeCharacter(k, rows: r, kind: kind, pose: views[b][row], chunk: scratch, work: work)
        }
    }

    /// One command drawing slots `from ..< to` (setup order) of character k, once per clip part
    /// when `parts` > 0 (0: unclipped), when they have corners.
    @inline(__always)
    private func command(
        _ k: Int, _ kind: GPURendererKind, from: Int, to: Int, parts: Int, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        guard kind.splitsByState else {
            append(k, kind, from: from, to: to, parts: parts, state: 0, work: work)
            return
        }
        // Runs of slots needing the same blend state.
        var start = from
        while start < to {
            let state = kind.slotStates[start]
            var end = start &+ 1
            while end < to && kind.slotStates[end] == state { end &+= 1 }
            append(k, kind, from: start, to: end, parts: parts, state: UInt8(state), work: work)
            start = end
        }
    }

    @inline(__always)
    private func append(
        _ k: Int, _ kind: GPURendererKind, from: Int, to: Int, parts: Int, state: UInt8,
        work: UnsafeMutablePointer<GPUPackWork>
    ) {
        let first = kind.slotCornerStarts[from]
        let end = kind.slotCornerStarts[to]
        guard end > first else { return }
        work.pointee.commands.append(
            GPUCommand(
                count: UInt32(end &- first), first: UInt32(kind.cornerBase &+ Int(first)), character: UInt32(k),
                dynamic: false, state: state, parts: UInt32(parts)))
    }

    /// The commands of a character whose draw order is not the setup order: one per run of slots
    /// that follow each other in setup order in its draw order, as the CPU path paints them. With a
    /// clip the GPU cuts, the slots drawn after the clip slot up to and including the clipping
    /// attachment's end slot are drawn once per part of the clip (not at all when it has none).
    private func commandsInOrder(
        _ k: Int, _ kind: GPURendererKind, _ d: UnsafePointer<DrawColumns>, row: Int, clipped: Bool,
        record: UnsafeMutablePointer<Int32>, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        let n = kind.slotCount
        let order = d.pointee.drawOrder + row &* n
        var clipSlot = -1
        var endSlot = -1
        var clipParts = 0
        if clipped {
            let a = clipAttachment(kind, d, row: row, record: record)
            clipSlot = kind.gpuClipSlot
            endSlot = Int(kind.endSlots[a])
            clipParts = Int(kind.clipPartCounts[a])
        }
        var inClip = false
        var runFirst = -1
        var runEnd = -1
        var runParts = 0
        for position in 0..<n {
            let slot = Int(order[position])
            guard slot >= 0 && slot < n else { continue }
            let parts = inClip ? clipParts : 0
            if inClip && clipParts == 0 {
                // Inside a clip with no area: drawn nothing.
                if runFirst >= 0 { command(k, kind, from: runFirst, to: runEnd, parts: runParts, work: work) }
                runFirst = -1
            } else if runFirst >= 0 && slot == runEnd && parts == runParts {
                runEnd = slot &+ 1
            } else {
                if runFirst >= 0 { command(k, kind, from: runFirst, to: runEnd, parts: runParts, work: work) }
                runFirst = slot
                runEnd = slot &+ 1
                runParts = parts
            }
            if slot == clipSlot && !inClip {
                inClip = true
            } else if inClip && slot == endSlot {
                inClip = false
            }
        }
        if runFirst >= 0 { command(k, kind, from: runFirst, to: runEnd, parts: runParts, work: work) }
    }

    /// The clipping attachment shown in the kind's clip slot; names the clip's bone and first part
    /// in the record's second texel.
    @inline(__always)
    private func clipAttachment(
        _ kind: GPURendererKind, _ d: UnsafePointer<DrawColumns>, row: Int, record: UnsafeMutablePointer<Int32>
    ) -> Int {
        let size = d.pointee.chunkSize
        let chunk = row / size
        let a = Int(
            d.pointee.attachment[chunk &* size &* kind.slotCount &+ (row &- chunk &* size) &+ kind.gpuClipSlot &* size])
        record[4] = Int32(truncatingIfNeeded: kind.gpuClipBone)
        record[5] = Int32(truncatingIfNeeded: kind.clipPartTexelBase &+ Int(kind.clipPartStarts[a]) &* 5)
        return a
    }

    /// The commands of a character whose clip the GPU cuts: the slots up to its clip slot, then
    /// the clipped slots (after the clip slot up to the clipping attachment's end slot, or to the
    /// last slot when the end slot is not after it) as one instance per convex part of the clip
    /// (none when the clip has no area), then the rest. Its record's second texel names the clip's
    /// bone and first part.
    @inline(__always)
    private func commandsClipped(
        _ k: Int, _ kind: GPURendererKind, _ d: UnsafePointer<DrawColumns>, row: Int,
        record: UnsafeMutablePointer<Int32>, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        let clipSlot = kind.gpuClipSlot
        let a = clipAttachment(kind, d, row: row, record: record)
        let end = Int(kind.endSlots[a])
        let last = end > clipSlot && end < kind.slotCount ? end : kind.slotCount &- 1
        command(k, kind, from: 0, to: clipSlot &+ 1, parts: 0, work: work)
        let parts = Int(kind.clipPartCounts[a])
        if parts > 0 { command(k, kind, from: clipSlot &+ 1, to: last &+ 1, parts: parts, work: work) }
        command(k, kind, from: last &+ 1, to: kind.slotCount, parts: 0, work: work)
    }
}
