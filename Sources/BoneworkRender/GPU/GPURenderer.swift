import BoneworkFormat
import BoneworkWorld
import CGL
import Dispatch

/// The GPU path: a crowd of characters of any mix of skeleton kinds, skins and animations, drawn
/// back to front with one draw call per frame where GL 4.3's `glMultiDrawArraysIndirect` exists.
///
/// What stays on the GPU, per registered kind (`register(_:textures:)`): every image's vertices as
/// bone influences, triangles as corners slot by slot in setup order, and the atlas pages as layers
/// of one texture array. What the CPU writes per character and frame (`GPUFrame.pack`, on any
/// threads, straight into mapped memory): bone transforms, slot state (shown image, colours, deform),
/// deform offsets of deformed meshes, and its draw commands: one per run of slots that follow each
/// other in setup order in its current draw order, so each character is painted whole, slot by slot
/// in its own draw order, before the next. Clipped slots are clipped on the CPU (the CPU path's
/// clipper) and drawn from per-frame corners at their place in the order. All four blend modes
/// share one blend state through dual-source blending (`src0`, `src1` per fragment; see the
/// fragment shader), so nothing changes state between characters.
///
/// Where `glMultiDrawArraysIndirect` is missing (GL 3.3) the same commands are issued one by one
/// (`submission` says which ran).
public final class GPURenderer {
    /// Called with 1 before and 0 after the GL calls in which the driver does a frame's work
    /// (unmapping and uploading the tables, the draw call, the timer query, the fence), on the GL
    /// thread, for tools that count what the driver allocates or spends apart from the renderer's
    /// own work (`bonework crowd` counts allocations with it). nil: nothing is called.
    public var driverCalls: (@convention(c) (Int32) -> Void)? = nil
    /// How a frame's commands reach GL.
    public enum Submission: String, Sendable {
        /// One `glMultiDrawArraysIndirect` call per frame (GL 4.3).
        case multiDrawIndirect = "multi-draw indirect"
        /// One `glDrawArrays` per command (GL 3.3).
        case drawPerCommand = "draw per command"
    }

    /// How this renderer submits.
    public let submission: Submission
    /// Threads `draw` packs characters on, 1 ... `Scheduler.maxThreads`.
    public var packThreads: Int = 1 {
        didSet { packThreads = max(1, min(Scheduler.maxThreads, packThreads)) }
    }
    /// The fewest characters worth a packing thread of their own.
    public var minimumPackRows: Int = 256 {
        didSet { minimumPackRows = max(1, minimumPackRows) }
    }
    /// Frames between two GPU timer queries (1: every frame). Beginning a `GL_TIME_ELAPSED` query
    /// cost the GL thread 120–170 µs per frame on llvmpipe (the driver flushes there), more than
    /// the rest of a 10,000-character submission, so by default one frame in 16 is timed and
    /// `RenderFrameStats.gpuNanoseconds` carries the latest timed frame.
    public var gpuTimerInterval = 16 {
        didSet { gpuTimerInterval = max(1, gpuTimerInterval) }
    }
    /// What the last frame cost (draw calls, commands, CPU times, bytes written).
    public internal(set) var lastFrame = RenderFrameStats()
    /// Why the last frame drew nothing, if it failed.
    public private(set) var lastError: RenderError? = nil

    /// Where a `World` drawn by this renderer keeps its bones' world transforms so that frames
    /// read them in place instead of copying them (`world.columnMemory = renderer.columnMemory`);
    /// nil where the context cannot map buffers persistently (`ARB_buffer_storage`) or has too
    /// few vertex texture units for one more buffer texture (frames copy them then).
    public let columnMemory: GPUColumnMemory?
    /// Buffers of `columnMemory` one frame reads in place (columns beyond them are copied).
    let inPlaceSources: Int

    let context: GLContext
    let program: ShaderProgram
    var uniforms: [String: GLint] = [:]
    var kinds: [GPURendererKind] = []
    var kindRefs = UnsafeMutableBufferPointer<Unmanaged<GPURendererKind>>.allocate(capacity: 1)

    // The static store: every kind's vertices, influences, corners and column attachment
    // records, and the page array.
    let vertexArray: GLuint
    let staticBuffers: [GLuint]  // vertices, influences, corners, attachments, clip parts
    let staticTextures: [GLuint]
    var staticCorners = 0
    let pageArray: GLuint
    var layerInfo: [Float] = []
    var arraySize = (width: 1, height: 1)

    // Streamed per frame.
    let bones: StreamedTable
    let slots: StreamedTable
    let deform: StreamedTable
    let characters: StreamedTable
    /// The four tables in one list, made once (bones, slots, deform, characters).
    let streamed: [StreamedTable]
    /// The column blocks of characters drawn from their batches' columns, one buffer per region.
    let columns: StreamedColumns
    /// Scratch of frames drawn from columns (`draw(batches:rows:kinds:viewport:)`).
    let columnScratch = ColumnFrameScratch()
    let dynamicBuffer: GLuint
    let dynamicTexture: GLuint
    let indirectBuffer: GLuint
    let iotaBuffer: GLuint
    var iotaCount = 0
    var dynamicBytes = 0
    var indirectBytes = 0
    var fences: [GLsync?] = [nil, nil, nil]
    /// One `GL_TIME_ELAPSED` query per region, and whether it was issued and not read yet.
    var timerQueries: [GLuint] = [0, 0, 0]
    var timerPending: [Bool] = [false, false, false]
    var lastGPUNanoseconds: UInt64 = 0
    var nextRegion = 0
    var frameNumber: UInt64 = 0
    let tally = PackTally()
    var chunks: [GPUChunk] = []
    var chunkRefs = UnsafeMutableBufferPointer<Unmanaged<GPUChunk>>.allocate(capacity: 1)
    var rows = UnsafeMutableBufferPointer<GPUCharacterRows>.allocate(capacity: 1)
    var staging: [UInt32] = []
    /// Per staged command: its blend state (`GPUCommand.state`).
    var stagingStates: [UInt8] = []
    var pending: Pending? = nil
    /// The largest page-array layer count the fragment shader's layer table holds.
    static let maxLayers = 64
    /// Buffers of `columnMemory` one frame reads in place, at most (two texture units each after
    /// `textureUnits`): two per batch (world transforms, slot attachments), so four batches.
    static let maxInPlaceSources = 8
    /// The samplers in texture-unit order (unit k samples the k-th).
    static let textureUnits = [
        "uPages", "uVertices", "uInfluences", "uCorners", "uDynamic", "uCharacters", "uBones", "uSlots", "uDeform",
        "uAttachments", "uColumns", "uColumnWords", "uColumnQuads", "uClipParts",
    ]

    struct Pending {
        var id: UInt64
        var region: Int
        var count: Int
        var wallStart: UInt64
        var beginCPU: UInt64
        var bytes: Int
        /// Bytes of column blocks the frame writes (0: every character is packed on the CPU).
        var columnBytes: Int
    }

    /// A GPU-path renderer in `context` (GL 3.3 core at least; multi-draw indirect where 4.3 is).
    /// - Throws: `RenderError.shader` when the shaders do not compile, `.contextCreation` when the
    ///   context lacks dual-source blending.
    public init(context: GLContext) throws(RenderError) {
        self.context = context
        context.makeCurrent()
        var major: GLint = 0
        var minor: GLint = 0
        glGetIntegerv(GL.e(GL_MAJOR_VERSION), &major)
        glGetIntegerv(GL.e(GL_MINOR_VERSION), &minor)
        submission = major > 4 || (major == 4 && minor >= 3) ? .multiDrawIndirect : .drawPerCommand
        var dualSource: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_DUAL_SOURCE_DRAW_BUFFERS), &dualSource)
        guard dualSource >= 1 else { throw .contextCreation("the GPU path needs dual-source blending (GL 3.3)") }
        let persistent = GL.hasBufferStorage()
        var vertexUnits: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS), &vertexUnits)
        // Every unit after the page array is read by the vertex shader; a source takes two.
        let spareUnits = Int(vertexUnits) - (Self.textureUnits.count - 1)
        inPlaceSources = persistent ? max(0, min(Self.maxInPlaceSources, spareUnits / 2)) : 0
        columnMemory = inPlaceSources > 0 ? GPUColumnMemory(context: context) : nil
        program = try ShaderProgram(
            vertex: Self.vertexShader(inPlaceSources: inPlaceSources), fragment: Self.fragmentShader, context: context)
        bones = StreamedTable(format: GL.e(GL_RGBA32F), texelBytes: 16, persistent: persistent)
        slots = StreamedTable(format: GL.e(GL_RGBA32UI), texelBytes: 16, persistent: persistent)
        deform = StreamedTable(format: GL.e(GL_R32F), texelBytes: 4, persistent: persistent)
        characters = StreamedTable(format: GL.e(GL_RGBA32I), texelBytes: 16, persistent: persistent)
        streamed = [bones, slots, deform, characters]
        columns = StreamedColumns(regions: 3, persistent: persistent)
        var buffers = [GLuint](repeating: 0, count: 8)
        glGenBuffers(8, &buffers)
        staticBuffers = Array(buffers[0..<5])
        (dynamicBuffer, indirectBuffer, iotaBuffer) = (buffers[5], buffers[6], buffers[7])
        var textures = [GLuint](repeating: 0, count: 7)
        glGenTextures(7, &textures)
        staticTextures = Array(textures[0..<5])
        dynamicTexture = textures[5]
        pageArray = textures[6]
        glGenQueries(GLsizei(timerQueries.count), &timerQueries)
        var vao: GLuint = 0
        glGenVertexArrays(1, &vao)
        vertexArray = vao
        for name in [
            "uVertices", "uInfluences", "uCorners", "uDynamic", "uCharacters", "uBones", "uSlots", "uDeform",
            "uStaticCorners", "uCharacterBase", "uBoneBase", "uSlotBase", "uDeformBase", "uOrigin", "uScale",
            "uPages", "uLayers", "uArraySize", "uHasMipmaps", "uAttachments", "uColumns", "uColumnWords",
            "uColumnQuads", "uClipParts",
        ] {
            uniforms[name] = program.uniform(name)
        }
        glUseProgram(program.name)
        for (k, name) in Self.textureUnits.enumerated() {
            glUniform1i(uniforms[name] ?? -1, GLint(k))
        }
        for source in 0..<inPlaceSources {
            glUniform1i(program.uniform("uSourceFloats\(source + 1)"), GLint(Self.textureUnits.count + 2 * source))
            glUniform1i(program.uniform("uSourceWords\(source + 1)"), GLint(Self.textureUnits.count + 2 * source + 1))
        }
        glBindVertexArray(vertexArray)
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), iotaBuffer)
        glVertexAttribIPointer(0, 1, GL.e(GL_INT), 4, nil)
        // One character per command: its instances are the parts of a GPU clip, which all read
        // the command's baseInstance entry (`GPUSkeletonGeometry.maxClipParts` at most).
        glVertexAttribDivisor(0, GLuint(GPUSkeletonGeometry.maxClipParts))
        glEnableVertexAttribArray(0)
        glBindVertexArray(0)
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), 0)
        let error = GL.firstError()
        guard error == 0 else {
            throw .contextCreation("setting up the GPU path: GL error 0x\(String(error, radix: 16))")
        }
    }

    deinit {
        kindRefs.deallocate()
        chunkRefs.deallocate()
        rows.deallocate()
        guard context.makeCurrent() else { return }
        for case let fence? in fences { glDeleteSync(fence) }
        glDeleteQueries(GLsizei(timerQueries.count), timerQueries)
        for table in streamed { table.delete() }
        columns.delete()
        var vao = vertexArray
        glDeleteVertexArrays(1, &vao)
        let buffers = staticBuffers + [dynamicBuffer, indirectBuffer, iotaBuffer]
        glDeleteBuffers(GLsizei(buffers.count), buffers)
        let textures = staticTextures + [dynamicTexture, pageArray]
        glDeleteTextures(GLsizei(textures.count), textures)
    }

    // MARK: - Kinds

    /// Registers a skeleton kind (once per `SkeletonData` and atlas): appends its geometry to the
    /// static store and its pages to the page array (both re-uploaded). Returns the kind's index,
    /// which `beginFrame` takes per character. A frame still open is dropped.
    /// - Throws: `RenderError.texture` when the pages cannot be copied or exceed the layer table.
    @discardableResult
    public func register(_ geometry: GPUSkeletonGeometry, textures: AtlasTextures) throws(RenderError) -> Int {
        context.makeCurrent()
        // The kind table an open frame reads is about to be replaced.
        if pending != nil { drop() }
        let layers = kinds.last.map { $0.layerBase + $0.pageNames.count } ?? 0
        guard layers + textures.names.count <= Self.maxLayers else {
            throw .texture(
                "the GPU path holds at most \(Self.maxLayers) atlas pages; \(layers + textures.names.count) asked")
        }
        let kind = GPURendererKind(
            geometry: geometry, textures: textures, premultiplied: textures.premultiplied,
            cornerBase: kinds.last.map { $0.cornerBase + $0.geometry.cornerCount } ?? 0,
            vertexBase: kinds.last.map { $0.vertexBase + $0.geometry.vertexCount } ?? 0,
            influenceBase: kinds.last.map { $0.influenceBase + $0.geometry.influences.count / 4 } ?? 0,
            layerBase: layers,
            attachmentTexelBase: kinds.last.map { $0.attachmentTexelBase + $0.attachmentCount * 2 } ?? 0,
            clipPartTexelBase: kinds.last.map {
                $0.clipPartTexelBase + $0.geometry.clipParts.count / GPUSkeletonGeometry.clipPartWords * 5
            } ?? 0)
        kinds.append(kind)
        kindRefs.deallocate()
        kindRefs = .allocate(capacity: kinds.count)
        for (k, kind) in kinds.enumerated() { kindRefs[k] = Unmanaged.passUnretained(kind) }
        uploadStore()
        try uploadPages()
        return kinds.count - 1
    }

    // MARK: - Frames

    /// Opens a frame drawing one character per entry of `kinds` (a kind index from `register`),
    /// back to front in that order, packed in up to `chunks` chunks (GL thread). Waits until the
    /// GPU is done with the frame's region of the tables, lays out each character's rows and maps
    /// them. A frame still open is dropped.
    /// - Throws: `RenderError.buffer` when the tables cannot be mapped or grown;
    ///   `RenderError.request` for a kind that was not registered.
    public func beginFrame(kinds characterKinds: UnsafeBufferPointer<Int32>, chunks chunkCount: Int = 1)
        throws(RenderError)
        -> GPUFrame
    {
        let wallStart = RenderClock.wall()
        let cpuStart = RenderClock.threadCPU()
        context.makeCurrent()
        if pending != nil { drop() }
        let count = characterKinds.count
        guard count < Int(GPUFrame.clippedFlag) else {
            throw .buffer("a frame holds fewer than \(GPUFrame.clippedFlag) characters; \(count) asked")
        }
        if rows.count < count {
            rows.deallocate()
            rows = .allocate(capacity: max(count, rows.count * 2))
        }
        let (boneTexels, slotTexels, deformFloats) = try GPUFrame.layOut(characterKinds, kinds: kinds, into: rows)
        frameNumber &+= 1
        tally.reset(frame: frameNumber)
        let frame = try beginFrame(
            count: count, chunks: chunkCount, boneTexels: boneTexels, slotTexels: slotTexels,
            deformFloats: deformFloats, columnBytes: 0, wallStart: wallStart)
        pending?.beginCPU = RenderClock.threadCPU() &- cpuStart
        return frame
    }

    /// Opens frame `frameNumber` of `count` characters whose rows are laid out (GL thread): waits
    /// until the GPU is done with the next region, grows the tables that are too small, maps them
    /// (the column blocks are mapped by the caller that needs them).
    func beginFrame(
        count: Int, chunks chunkCount: Int, boneTexels: Int, slotTexels: Int, deformFloats: Int, columnBytes: Int,
        wallStart: UInt64
    ) throws(RenderError) -> GPUFrame {
        let cpuStart = RenderClock.threadCPU()
        let chunkCount = max(1, chunkCount)
        while chunks.count < chunkCount { chunks.append(GPUChunk()) }
        if chunkRefs.count < chunkCount {
            chunkRefs.deallocate()
            chunkRefs = .allocate(capacity: chunkCount)
        }
        for c in 0..<chunkCount {
            chunks[c].reset()
            chunkRefs[c] = Unmanaged.passUnretained(chunks[c])
        }
        let region = nextRegion
        nextRegion = (nextRegion + 1) % fences.count
        let needs = GPUFrame.tableBytes(
            count: count, boneTexels: boneTexels, slotTexels: slotTexels, deformFloats: deformFloats)
        let tables = (bones, slots, deform, characters)
        if tables.0.regionBytes < needs.0 || tables.1.regionBytes < needs.1 || tables.2.regionBytes < needs.2
            || tables.3.regionBytes < needs.3
        {
            for r in fences.indices { waitForRegion(r) }
            for (table, need) in [(tables.0, needs.0), (tables.1, needs.1), (tables.2, needs.2), (tables.3, needs.3)]
            where table.regionBytes < need {
                try table.grow(to: need, regions: fences.count)
            }
        }
        driver { waitForRegion(region) }
        if columns.bytes(region: region) < columnBytes { try columns.grow(region: region, to: columnBytes) }
        guard let p0 = driver({ tables.0.map(region: region, bytes: needs.0) }),
            let p1 = driver({ tables.1.map(region: region, bytes: needs.1) }),
            let p2 = driver({ tables.2.map(region: region, bytes: needs.2) }),
            let p3 = driver({ tables.3.map(region: region, bytes: needs.3) })
        else {
            for t in streamed { t.unmap() }
            throw .buffer("mapping the GPU path's tables failed: GL error 0x\(String(GL.firstError(), radix: 16))")
        }
        pending = Pending(
            id: frameNumber, region: region, count: count, wallStart: wallStart,
            beginCPU: RenderClock.threadCPU() &- cpuStart,
            bytes: needs.0 + needs.1 + needs.2 + needs.3 + columnBytes, columnBytes: columnBytes)
        return GPUFrame(
            count: count, chunkCount: chunkCount, id: frameNumber, tally: tally, rows: UnsafePointer(rows.baseAddress!),
            kinds: UnsafePointer(kindRefs.baseAddress!), chunks: UnsafePointer(chunkRefs.baseAddress!),
            bones: p0.bindMemory(to: Float.self, capacity: needs.0 / 4),
            slots: p1.bindMemory(to: UInt32.self, capacity: needs.1 / 4),
            deform: p2.bindMemory(to: Float.self, capacity: needs.2 / 4),
            characters: p3.bindMemory(to: Int32.self, capacity: needs.3 / 4))
    }

    /// Packs every character of `frame` on up to `packThreads` threads, chunk by chunk (returns
    /// when all are written). `pose(k)` must be safe to call from several threads at once.
    public func pack<Pose: DeformedPose>(_ frame: GPUFrame, pose: @Sendable (Int) -> Pose) {
        if frame.chunkCount == 1 {
            frame.pack(chunk: 0, range: 0..<frame.count, pose: pose)
            return
        }
        WorkerPool.shared.perform(iterations: frame.chunkCount) { c in
            frame.pack(chunk: c, range: frame.range(ofChunk: c), pose: pose)
        }
    }

    /// Packs every character of `frame` straight from batch columns (character k is row
    /// `rows[k] & 0xFFFF_FFFF` of `batches[rows[k] >> 32]`) on up to `packThreads` threads.
    ///
    /// # Safety
    /// `rows` must hold at least `frame.count` entries naming existing rows of `batches`, whose
    /// batches nothing changes during the call.
    public func pack(_ frame: GPUFrame, batches: UnsafeBufferPointer<BatchPoseViews>, rows: UnsafeBufferPointer<UInt64>)
    {
        guard rows.count >= frame.count else { return }
        if frame.chunkCount == 1 {
            frame.pack(chunk: 0, range: 0..<frame.count, batches: batches, rows: rows)
            return
        }
        let list = BatchRowBuffer(batches: batches, rows: rows)
        WorkerPool.shared.perform(iterations: frame.chunkCount) { c in
            frame.pack(chunk: c, range: frame.range(ofChunk: c), batches: list.batches, rows: list.rows)
        }
    }

    /// The chunks a frame of `count` characters is worth splitting into on `packThreads` threads.
    public func chunks(for count: Int) -> Int { max(1, min(packThreads, count / minimumPackRows)) }

    /// Runs `body`, GL calls in which the driver does a frame's work, between `driverCalls(1)`
    /// and `driverCalls(0)`.
    @inline(__always) @discardableResult
    func driver<T>(_ body: () -> T) -> T {
        driverCalls?(1)
        defer { driverCalls?(0) }
        return body()
    }

    /// Draws one character per entry of `kinds` (back to front) into the bound framebuffer, packed
    /// on the calling thread from `pose(k)`: begin, pack, submit. Failures leave `lastError` set.
    @discardableResult
    public func draw<Pose: DeformedPose>(
        kinds characterKinds: [Int32], viewport: WorldViewport, pose: (Int) -> Pose
    ) -> RenderFrameStats {
        do {
            let frame = try characterKinds.withUnsafeBufferPointer { kinds throws(RenderError) in
                try beginFrame(kinds: kinds, chunks: 1)
            }
            lastError = nil
            frame.pack(chunk: 0, range: 0..<frame.count, pose: pose)
            return submit(frame, viewport: viewport)
        } catch {
            lastError = error
            lastFrame = RenderFrameStats()
            return lastFrame
        }
    }

    /// Drops an open frame that was never submitted.
    public func drop() {
        tally.frame.store(0, ordering: .sequentiallyConsistent)
        for table in streamed { _ = table.unmap() }
        pending = nil
    }

    private func waitForRegion(_ region: Int) {
        guard let fence = fences[region] else { return }
        GL.waitAndDelete(fence)
        fences[region] = nil
    }

    /// Draw commands the last frame issued (runs of slots and clipped ranges, all characters).
    public internal(set) var commandsLastFrame = 0
}
