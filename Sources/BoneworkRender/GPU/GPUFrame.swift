import BoneworkFormat
import BoneworkWorld

/// One draw command of a frame before it is submitted: a range of corners (static ones of a
/// character's skeleton, or CPU-clipped ones in its chunk's dynamic corners) drawn for one
/// character.
struct GPUCommand {
    /// Corners drawn.
    var count: UInt32
    /// First corner: global static corner, or the first of the chunk's dynamic corners.
    var first: UInt32
    /// The character (its row in the frame's character table).
    var character: UInt32
    /// Whether `first` counts in the chunk's dynamic corners.
    var dynamic: Bool
    /// The blend state it needs: 0 the shared dual-source one, 1 multiply on a straight-alpha page
    /// (`DST_COLOR, ONE_MINUS_SRC_ALPHA`, whose colour factor can exceed 1 and so has no
    /// dual-source form).
    var state: UInt8
    /// For slots clipped on the GPU: the convex parts of the clip, one instance each (0: not
    /// clipped, one instance).
    var parts: UInt32 = 0
}

/// What one packing thread writes besides the mapped tables: its characters' draw commands in
/// back-to-front order, the corners of their clipped slots (clipped on the CPU, exactly as the
/// CPU path clips), and its scratch. Reused frame after frame: once warm, packing allocates nothing.
final class GPUChunk {
    /// What packing appends to and clips with; the packing call holds one pointer to it for its
    /// whole range (one exclusivity check per call, not one per slot).
    var work = GPUPackWork()
    /// The chunk's draw commands, in order.
    var commands: [GPUCommand] { work.commands }
    /// The chunk's clipped corners.
    var dynamic: [UInt32] { work.dynamic }
    /// A region's texture coordinates for the clipper (8 floats; owned by the chunk).
    let quadUVs = UnsafeMutableBufferPointer<Float>.allocate(capacity: 8)
    /// Per slot of the character being packed (`slotCapacity` each): its drawing inputs, the
    /// variant it shows from the static geometry (`UInt32.max`: none), its range of dynamic
    /// corners and its blend state; and the character's draw order. Raw storage, not arrays: the
    /// per-slot loops read and write them without exclusivity checks.
    private(set) var slotCapacity = 0
    private(set) var slotStates = UnsafeMutablePointer<SlotDrawState>.allocate(capacity: 1)
    private(set) var order = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var variants = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private(set) var dynamicStarts = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var dynamicCounts = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private(set) var states = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    init() { quadUVs.initialize(repeating: 0) }

    deinit {
        quadUVs.deallocate()
        freeSlots()
    }

    /// Makes room for `count` slots per character (keeps the storage once it is large enough).
    @inline(__always)
    func reserveSlots(_ count: Int) {
        guard count > slotCapacity else { return }
        growSlots(count)
    }

    private func growSlots(_ count: Int) {
        freeSlots()
        slotCapacity = max(count, slotCapacity * 2)
        func filled<T>(_ value: T) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: slotCapacity)
            p.initialize(repeating: value, count: slotCapacity)
            return p
        }
        slotStates = filled(SlotDrawState())
        order = filled(0)
        variants = filled(.max)
        dynamicStarts = filled(0)
        dynamicCounts = filled(0)
        states = filled(0)
    }

    private func freeSlots() {
        slotStates.deallocate()
        order.deallocate()
        variants.deallocate()
        dynamicStarts.deallocate()
        dynamicCounts.deallocate()
        states.deallocate()
    }

    func reset() {
        work.commands.removeAll(keepingCapacity: true)
        work.dynamic.removeAll(keepingCapacity: true)
    }
}

/// A packing chunk's growing outputs and clipper (see `GPUChunk.work`).
struct GPUPackWork {
    var commands: [GPUCommand] = []
    /// Eight words per corner: x, y, u, v (float bits), light, dark, meta, 0.
    var dynamic: [UInt32] = []
    var clipper = Clipper()
    var world: [Float] = []
}

/// Where one character's rows go in the frame's tables, and its skeleton kind.
struct GPUCharacterRows {
    var kind: Int32
    /// First texel of its bones in the bone table (4 floats per texel).
    var boneTexel: Int32
    /// First texel of its slots in the slot table (one texel per slot).
    var slotTexel: Int32
    /// First float of its deform area in the deform table.
    var deformFloat: Int32

    /// A character drawn from its batch's columns: its deform offsets' first float in the deform
    /// table when some slot of it is deformed (copied whole, every deformable slot's buffer), -1
    /// when none is.
    var columnDeform: Int32 = -1
    /// A character drawn from columns whose clip the GPU cuts.
    var clipped = false
    /// A character drawn from columns whose draw order is not the setup order.
    var reordered = false

    /// `boneTexel` of a character drawn from its batch's columns (`GPURenderer.draw(batches:...)`);
    /// `slotTexel` then holds its batch and `deformFloat` its row.
    static let fromColumns: Int32 = -1
}

/// One open frame of the GPU path (from `GPURenderer.beginFrame`): pack every character
/// `0..<count` (in the back-to-front order given) into it, from any threads, chunk by chunk, then
/// submit it. Sendable: hand copies to worker threads; chunk `c` must be packed by one thread at a
/// time, and ranges packed at the same time must not overlap. Packing has no effect once the frame
/// is submitted or dropped.
public struct GPUFrame: @unchecked Sendable {
    // @unchecked: the pointers are the renderer's mapped tables and per-frame arrays. Character i's
    // rows (at `rows[i]`) are written only by the call that packs i; chunk c's scratch only by the
    // call packing chunk c; the renderer reads the chunks only in `submit`, after every packing
    // call has returned (the caller's contract), and closes the frame there (`tally.frame`).
    /// Characters in the frame.
    public let count: Int
    /// Chunks the frame's characters may be packed in (`0..<chunkCount`).
    public let chunkCount: Int
    let id: UInt64
    let tally: PackTally
    let rows: UnsafePointer<GPUCharacterRows>
    let kinds: UnsafePointer<Unmanaged<GPURendererKind>>
    let chunks: UnsafePointer<Unmanaged<GPUChunk>>
    let bones: UnsafeMutablePointer<Float>
    let slots: UnsafeMutablePointer<UInt32>
    let deform: UnsafeMutablePointer<Float>
    let characters: UnsafeMutablePointer<Int32>

    /// Words of a character's record in the character table (two texels): where its state is, then
    /// for a character clipped on the GPU its clip's bone and first part.
    static let recordWords = 8
    /// The per-instance character number of a command drawn for the parts of a GPU clip carries
    /// this bit (its instances are the parts); frames hold fewer characters than it.
    static let clippedFlag: Int32 = 1 << 24

    /// The chunk of `chunkCount` that packs character `k` when the characters are split evenly.
    public func chunk(of k: Int) -> Int {
        chunkCount <= 1 || count == 0 ? 0 : min(chunkCount - 1, k * chunkCount / count)
    }

    /// The characters chunk `c` packs when they are split evenly in order.
    public func range(ofChunk c: Int) -> Range<Int> { (count * c / chunkCount)..<(count * (c + 1) / chunkCount) }

    /// Packs characters `range` (clamped to `0..<count`) from `pose(k)` as chunk `chunk`, on the
    /// calling thread: their bone, slot, deform and character rows, and their draw commands in
    /// order. Ranges of one chunk must be packed in increasing order; chunks in increasing order
    /// draw in increasing character order.
    public func pack<Pose: DeformedPose>(chunk: Int, range: Range<Int>, pose: (Int) -> Pose) {
        let lower = max(0, range.lowerBound)
        let upper = min(count, range.upperBound)
        guard lower < upper, chunk >= 0, chunk < chunkCount, tally.frame.load(ordering: .acquiring) == id else {
            return
        }
        let start = RenderClock.threadCPU()
        let scratch = chunks[chunk].takeUnretainedValue()
        withUnsafeMutablePointer(to: &scratch.work) { work in
            for k in lower..<upper {
                let r = rows[k]
                kinds[Int(r.kind)].withKind { kind in
                    writeCharacter(k, rows: r, kind: kind, pose: pose(k), chunk: scratch, work: work)
                }
            }
        }
        tally.add(cpu: RenderClock.threadCPU() &- start)
    }

    /// Packs characters `range` straight from batch columns: character k is row
    /// `rows[k] & 0xFFFF_FFFF` of `batches[rows[k] >> 32]` (no pose view is copied per character).
    ///
    /// # Safety
    /// `rows` must hold at least `count` entries naming existing rows of `batches`, whose batches
    /// nothing changes during the call.
    public func pack(
        chunk: Int, range: Range<Int>, batches: UnsafeBufferPointer<BatchPoseViews>, rows: UnsafeBufferPointer<UInt64>
    ) {
        guard rows.count >= count else { return }
        pack(chunk: chunk, range: range) {
            batches[Int(truncatingIfNeeded: rows[$0] >> 32)][Int(truncatingIfNeeded: rows[$0] & 0xFFFF_FFFF)]
        }
    }

    @inline(__always)
    func writeCharacter<Pose: DeformedPose>(
        _ index: Int, rows r: GPUCharacterRows, kind: GPURendererKind, pose: Pose, chunk: GPUChunk,
        work: UnsafeMutablePointer<GPUPackWork>
    ) {
        let geometry = kind.geometry
        let d = geometry.drawData
        let record = characters + index &* GPUFrame.recordWords
        record[0] = r.boneTexel
        record[1] = r.slotTexel
        record[2] = r.deformFloat
        record[3] = 0
        (record + 4).update(repeating: 0, count: 4)
        pose.writeBoneRows(d.boneCount, into: bones + Int(r.boneTexel) &* 4)
        let slotCount = d.slotCount
        chunk.reserveSlots(max(slotCount, pose.drawOrderCount))
        if work.pointee.world.count < d.maxVertexFloats {
            work.pointee.world = [Float](repeating: 0, count: d.maxVertexFloats)
        }
        let slotTable = slots + Int(r.slotTexel) &* GPUSkeletonGeometry.slotWords
        let inputs = chunk.slotStates
        let variants = chunk.variants
        let dynamicStarts = chunk.dynamicStarts
        let dynamicCounts = chunk.dynamicCounts
        let states = chunk.states
        if !pose.readSlots(slotCount, into: inputs) {
            for s in 0..<slotCount {
                let color = pose.slotColor(s)
                let p = inputs + s
                p.pointee.attachment = Int32(truncatingIfNeeded: pose.slotAttachment(s))
                p.pointee.sequenceIndex = Int32(truncatingIfNeeded: pose.slotSequenceIndex(s))
                p.pointee.boneActive = pose.isBoneActive(Int(d.slotBones[s])) ? 1 : 0
                p.pointee.r = color.r
                p.pointee.g = color.g
                p.pointee.b = color.b
                p.pointee.a = color.a
                if d.slotHasDark[s] {
                    let dark = pose.slotDarkColor(s)
                    p.pointee.darkR = dark.r
                    p.pointee.darkG = dark.g
                    p.pointee.darkB = dark.b
                }
            }
        }
        let order = chunk.order
        let orderCount = pose.readDrawOrder(chunk.slotCapacity, into: order).count
        for s in 0..<slotCount {
            variants[s] = .max
            dynamicCounts[s] = 0
        }
        // Pass 1: each slot's state, by the CPU path's rules, in draw order; clipped slots are
        // clipped here and drawn from dynamic corners.
        let skeletonColor = pose.skeletonColor
        for k in 0..<orderCount {
            let slot = Int(order[k])
            guard slot >= 0 && slot < slotCount else { continue }
            let out = slotTable + slot &* GPUSkeletonGeometry.slotWords
            out[0] = .max
            out[1] = 0
            out[2] = 0
            out[3] = .max
            let slotID = Int32(slot)
            let input = inputs[slot]
            let attachment = Int(input.attachment)
            guard attachment >= 0 && attachment < d.attachmentCount, input.boneActive != 0 else {
                work.pointee.clipper.clipEnd(slot: slotID)
                continue
            }
            let kindOfAttachment = d.kinds[attachment]
            if kindOfAttachment == .clipping {
                startClip(pose, slot: slot, attachment: attachment, drawData: d, work: work)
                continue
            }
            guard kindOfAttachment == .region || kindOfAttachment == .mesh, input.a != 0 else {
                work.pointee.clipper.clipEnd(slot: slotID)
                continue
            }
            let frame = d.frameIndex(attachment: attachment, sequenceIndex: Int(input.sequenceIndex))
            let page = frame >= 0 ? Int(d.framePages[frame]) : -1
            let attachmentColor = d.colors[attachment]
            guard attachmentColor.a != 0, page >= 0, page < kind.premultiplied.count else {
                work.pointee.clipper.clipEnd(slot: slotID)
                continue
            }
            let premultiplied = kind.premultiplied[page]
            states[slot] = !premultiplied && d.slotBlendModes[slot] == .multiply ? 1 : 0
            let colors = SlotVertexColors(
                skeleton: skeletonColor, slot: Color(input.r, input.g, input.b, input.a), attachment: attachmentColor,
                dark: d.slotHasDark[slot] ? Color(input.darkR, input.darkG, input.darkB, 1) : nil,
                premultiplied: premultiplied)
            if work.pointee.clipper.isClipping {
                let start = work.pointee.dynamic.count / 8
                clipSlot(
                    pose, slot: slot, attachment: attachment, frame: frame, page: page, colors: colors, kind: kind,
                    chunk: chunk, work: work)
                dynamicStarts[slot] = Int32(start)
                dynamicCounts[slot] = Int32(work.pointee.dynamic.count / 8 - start)
            } else {
                variants[slot] = UInt32(truncatingIfNeeded: frame)
                out[0] = UInt32(truncatingIfNeeded: frame)
                out[1] = colors.light
                out[2] = colors.dark
                let deformStart = geometry.slotDeformStarts[slot]
                if deformStart >= 0 {
                    writeDeform(
                        pose.deform(slot: slot), geometry: geometry, attachment: attachment,
                        into: deform + (Int(r.deformFloat) &+ Int(deformStart)), slotWord: out + 3,
                        base: Int(r.deformFloat) &+ Int(deformStart))
                }
            }
            work.pointee.clipper.clipEnd(slot: slotID)
        }
        work.pointee.clipper.clipEnd()
        // Pass 2: commands in draw order. A run of static slots grows while the next drawn slot
        // follows it in setup order with only slots showing nothing between.
        let cornerBase = UInt32(kind.cornerBase)
        let starts = geometry.slotCornerStarts
        var runFirst = -1
        var runLast = -1
        var runState: UInt8 = 0
        func flush() {
            guard runFirst >= 0 else { return }
            let first = starts[runFirst]
            let end = starts[runLast + 1]
            if end > first {
                work.pointee.commands.append(
                    GPUCommand(
                        count: UInt32(end - first), first: cornerBase + UInt32(first), character: UInt32(index),
                        dynamic: false, state: runState))
            }
            runFirst = -1
        }
        for k in 0..<orderCount {
            let slot = Int(order[k])
            guard slot >= 0 && slot < slotCount else { continue }
            if variants[slot] != .max {
                if runFirst >= 0 && slot > runLast && states[slot] == runState {
                    var clear = true
                    var between = runLast + 1
                    while between < slot {
                        if variants[between] != .max {
                            clear = false
                            break
                        }
                        between += 1
                    }
                    if clear {
                        runLast = slot
                        continue
                    }
                }
                flush()
                runFirst = slot
                runLast = slot
                runState = states[slot]
            } else if dynamicCounts[slot] > 0 {
                flush()
                let first = UInt32(dynamicStarts[slot])
                let n = UInt32(dynamicCounts[slot])
                if let last = work.pointee.commands.last, last.dynamic, last.character == UInt32(index),
                    last.first + last.count == first, last.state == states[slot]
                {
                    work.pointee.commands[work.pointee.commands.count - 1].count += n
                } else {
                    work.pointee.commands.append(
                        GPUCommand(count: n, first: first, character: UInt32(index), dynamic: true, state: states[slot])
                    )
                }
            }
        }
        flush()
    }

    /// Copies a slot's deform offsets into its deform area and points its slot row at them; a
    /// partial deform of a weighted mesh is padded with zero offsets (what the CPU path adds for
    /// the influences it lacks), a partial one of an unweighted mesh is not applied (as there).
    @inline(__always)
    private func writeDeform(
        _ offsets: UnsafeBufferPointer<Float>, geometry: GPUSkeletonGeometry, attachment: Int,
        into target: UnsafeMutablePointer<Float>, slotWord: UnsafeMutablePointer<UInt32>, base: Int
    ) {
        guard !offsets.isEmpty, attachment < geometry.attachmentDeformLengths.count else { return }
        let length = Int(geometry.attachmentDeformLengths[attachment])
        guard length > 0 else { return }
        if !geometry.attachmentWeighted[attachment] && offsets.count < length { return }
        let copied = min(length, offsets.count)
        if let source = offsets.baseAddress { target.update(from: source, count: copied) }
        if copied < length { (target + copied).update(repeating: 0, count: length - copied) }
        slotWord.pointee = UInt32(truncatingIfNeeded: base)
    }

    private func startClip<Pose: DeformedPose>(
        _ pose: Pose, slot: Int, attachment: Int, drawData: SkeletonDrawData, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        guard !work.pointee.clipper.isClipping else { return }
        let count = Int(drawData.vertexCounts[attachment]) * 2
        work.pointee.world.withUnsafeMutableBufferPointer { world in
            let polygon = UnsafeMutableBufferPointer(rebasing: world[0..<count])
            pose.computeWorldVertices(slot: slot, attachment: attachment, into: polygon)
            work.pointee.clipper.clipStart(
                worldPolygon: UnsafeBufferPointer(polygon), endSlot: drawData.endSlots[attachment])
        }
    }

    /// Clips one slot's triangles against the active clip (the CPU path's clipper) and appends the
    /// result to the chunk's dynamic corners.
    private func clipSlot<Pose: DeformedPose>(
        _ pose: Pose, slot: Int, attachment: Int, frame: Int, page: Int, colors: SlotVertexColors,
        kind: GPURendererKind, chunk: GPUChunk, work: UnsafeMutablePointer<GPUPackWork>
    ) {
        let d = kind.geometry.drawData
        let vertexCount = Int(d.vertexCounts[attachment])
        let start = Int(d.triangleStarts[attachment])
        let triangles = UnsafeBufferPointer(rebasing: d.triangles[start..<(start + Int(d.triangleCounts[attachment]))])
        work.pointee.world.withUnsafeMutableBufferPointer { world in
            let uvs: UnsafeBufferPointer<Float>
            if d.kinds[attachment] == .region {
                FrameBuilder.regionWorldVertices(
                    pose.boneWorld(Int(d.slotBones[slot])), d.frameOffsets[frame], into: world)
                let frameUVs = d.frameUVs[frame]
                for i in 0..<8 { chunk.quadUVs[i] = frameUVs[i] }
                uvs = UnsafeBufferPointer(chunk.quadUVs)
            } else {
                pose.computeWorldVertices(
                    slot: slot, attachment: attachment,
                    into: UnsafeMutableBufferPointer(rebasing: world[0..<(vertexCount * 2)]))
                let uvStart = Int(d.frameMeshUVStarts[frame])
                guard uvStart >= 0, uvStart + vertexCount * 2 <= d.meshUVs.count else { return }
                uvs = UnsafeBufferPointer(rebasing: d.meshUVs[uvStart..<(uvStart + vertexCount * 2)])
            }
            let positions = UnsafeBufferPointer(rebasing: world[0..<(vertexCount * 2)])
            work.pointee.clipper.clipTriangles(vertices: positions, uvs: uvs, triangles: triangles)
        }
        let meta =
            UInt32(kind.layerBase + page) | UInt32(GPUSkeletonGeometry.blendCode(d.slotBlendModes[slot])) << 16
        let v = work.pointee.clipper.clippedVertices
        let uv = work.pointee.clipper.clippedUVs
        for index in work.pointee.clipper.clippedTriangles {
            let i = Int(index)
            guard i * 2 + 1 < v.count, i * 2 + 1 < uv.count else { continue }
            work.pointee.dynamic.append(v[i * 2].bitPattern)
            work.pointee.dynamic.append(v[i * 2 + 1].bitPattern)
            work.pointee.dynamic.append(uv[i * 2].bitPattern)
            work.pointee.dynamic.append(uv[i * 2 + 1].bitPattern)
            work.pointee.dynamic.append(colors.light)
            work.pointee.dynamic.append(colors.dark)
            work.pointee.dynamic.append(meta)
            work.pointee.dynamic.append(0)
        }
    }
}

extension Unmanaged where Instance == GPURendererKind {
    /// Runs `body` with the kind, neither retained nor released. The packing passes look a kind up
    /// per character on several threads: through `takeUnretainedValue()` the optimizer kept a
    /// retain and release per character, and two threads contending for one reference count made
    /// classifying 10,000 spineboys cost 1.45 ms of CPU against 0.34 this way.
    @inline(__always)
    func withKind<Result>(_ body: (GPURendererKind) -> Result) -> Result { _withUnsafeGuaranteedRef(body) }
}
