import BoneworkFormat
import BoneworkWorld
import CGL
import Dispatch

// Longer than 500 lines for now: the GL side of the instanced path (buffers, streaming modes,
// shaders, draw calls) in one place; the GPU-path rework splits it by concern.

/// How the per-instance tables reach GL.
public enum InstancedStreaming: Sendable, Hashable {
    /// Persistent, coherent mapping (`ARB_buffer_storage`) when the context has it, else mapped ranges.
    case automatic
    /// Each table's storage is mapped once, persistently and coherently; rows are written straight
    /// into it. Needs `ARB_buffer_storage` (core in GL 4.4).
    case persistent
    /// Each frame maps its region of each table (`glMapBufferRange`, unsynchronized: the region's
    /// fence says when the GPU is done with it) and unmaps it before drawing. GL 3.3 core.
    case mappedRanges
}

/// The GPU side of one skeleton's `InstancedGeometry`: its static vertex, index and influence
/// buffers (uploaded once) and the per-instance tables (bone transforms, slot state) streamed each
/// frame through buffer textures. Deleted with this object.
///
/// Each table's storage holds `regions` regions used in turn, one per frame; a fence set after a
/// frame's draw calls guards its region until the GPU has read it. Rows are written straight into
/// mapped GL memory (`InstancedFrame`): nothing is copied on the GL thread.
public final class InstancedSkeletonBuffers {
    /// The static geometry the buffers hold.
    public let geometry: InstancedGeometry
    /// The streaming method in use (never `.automatic`).
    public let streaming: InstancedStreaming
    let context: GLContext
    let vertexArray: GLuint
    let vertexBuffer: GLuint
    let indexBuffer: GLuint
    let influenceBuffer: GLuint
    let influenceTexture: GLuint
    let boneTexture: GLuint
    let slotTexture: GLuint
    /// The streamed tables' buffers (0 until the first frame; replaced when they grow).
    private(set) var boneBuffer: GLuint = 0
    private(set) var slotBuffer: GLuint = 0
    /// Regions per table: frames that may be in flight while the next is written.
    static let regions = 3
    /// Bytes of one region of each table.
    private(set) var boneRegionBytes = 0
    private(set) var slotRegionBytes = 0
    private var boneMapping: UnsafeMutableRawPointer? = nil
    private var slotMapping: UnsafeMutableRawPointer? = nil
    private var fences: [GLsync?] = [GLsync?](repeating: nil, count: InstancedSkeletonBuffers.regions)
    private var nextRegion = 0
    /// The region the last submitted frame drew from, not fenced yet (see `fence(region:)`).
    private var unfenced: Int? = nil
    private var frameNumber: UInt64 = 0
    /// The frame begun and not yet submitted.
    private(set) var pending: PendingFrame? = nil
    /// Shared with the frames' writers: the open frame and its packing tally.
    let tally = PackTally()
    /// The pages' premultiplied flags for the open frame (read by the packing threads).
    private var premultiplied: UnsafeMutableBufferPointer<Bool>
    /// The largest buffer texture the driver takes, in texels.
    let maxTexels: Int

    struct PendingFrame {
        var id: UInt64
        var region: Int
        var count: Int
        var pages: PageBindings
        var wallStart: UInt64
        var beginCPU: UInt64
        var mapWall: UInt64
    }

    init(geometry: InstancedGeometry, context: GLContext, streaming: InstancedStreaming) throws(RenderError) {
        self.geometry = geometry
        self.context = context
        self.streaming = streaming
        premultiplied = .allocate(capacity: 8)
        premultiplied.initialize(repeating: false)
        context.makeCurrent()
        var vertexArray: GLuint = 0
        glGenVertexArrays(1, &vertexArray)
        var buffers = [GLuint](repeating: 0, count: 3)
        glGenBuffers(3, &buffers)
        var textures = [GLuint](repeating: 0, count: 3)
        glGenTextures(3, &textures)
        self.vertexArray = vertexArray
        (vertexBuffer, indexBuffer, influenceBuffer) = (buffers[0], buffers[1], buffers[2])
        (influenceTexture, boneTexture, slotTexture) = (textures[0], textures[1], textures[2])
        var limit: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_TEXTURE_BUFFER_SIZE), &limit)
        maxTexels = Int(max(limit, 65536))

        glBindVertexArray(vertexArray)
        glBindBuffer(GL.e(GL_ARRAY_BUFFER), vertexBuffer)
        geometry.vertices.withUnsafeBytes {
            glBufferData(GL.e(GL_ARRAY_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STATIC_DRAW))
        }
        glBindBuffer(GL.e(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        geometry.indices.withUnsafeBytes {
            glBufferData(GL.e(GL_ELEMENT_ARRAY_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STATIC_DRAW))
        }
        let stride = GLsizei(MemoryLayout<InstancedVertex>.stride)
        glEnableVertexAttribArray(0)
        glVertexAttribPointer(0, 2, GL.e(GL_FLOAT), GLboolean(GL_FALSE), stride, nil)
        glEnableVertexAttribArray(1)
        glVertexAttribIPointer(1, 4, GL.e(GL_INT), stride, UnsafeRawPointer(bitPattern: 8))
        glBindVertexArray(0)

        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), influenceBuffer)
        let influences = geometry.influences.isEmpty ? [Float](repeating: 0, count: 4) : geometry.influences
        influences.withUnsafeBytes {
            glBufferData(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STATIC_DRAW))
        }
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), influenceTexture)
        glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_RGBA32F), influenceBuffer)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        let error = GL.firstError()
        guard error == 0 else {
            throw .contextCreation("uploading instanced geometry: GL error 0x\(String(error, radix: 16))")
        }
    }

    deinit {
        // A frame still held somewhere must not write into storage that is going away.
        tally.frame.store(0, ordering: .sequentiallyConsistent)
        premultiplied.deallocate()
        guard context.makeCurrent() else { return }
        for case let fence? in fences { glDeleteSync(fence) }
        var vertexArray = vertexArray
        glDeleteVertexArrays(1, &vertexArray)
        // Deleting a buffer unmaps it.
        let buffers = [vertexBuffer, indexBuffer, influenceBuffer, boneBuffer, slotBuffer].filter { $0 != 0 }
        glDeleteBuffers(GLsizei(buffers.count), buffers)
        let textures = [influenceTexture, boneTexture, slotTexture]
        glDeleteTextures(GLsizei(textures.count), textures)
    }

    /// Bytes of the bone table for `count` instances, padded so that the shader's two-texel read
    /// of the last bone stays inside the region.
    func boneBytes(_ count: Int) -> Int {
        let bytes = count &* geometry.drawData.boneCount &* InstancedGeometry.boneFloats &* 4
        return (bytes &+ 15) & ~15 &+ 16
    }

    func slotBytes(_ count: Int) -> Int {
        max(16, count &* geometry.drawData.slotCount &* InstancedGeometry.slotWords &* 4)
    }

    /// Opens a frame of `count` instances (GL thread): waits for the GPU to be done with the next
    /// region, maps it (or finds it in the persistent mapping) and hands out its writer.
    func begin(count: Int, pages: PageBindings) throws(RenderError) -> InstancedFrame {
        let wallStart = RenderClock.wall()
        let cpuStart = RenderClock.threadCPU()
        context.makeCurrent()
        if pending != nil { abandon() }
        let count = max(0, count)
        let boneNeed = boneBytes(count)
        let slotNeed = slotBytes(count)
        if boneNeed > boneRegionBytes || slotNeed > slotRegionBytes {
            try grow(bone: boneNeed, slot: slotNeed)
        }
        placeFence()
        let region = nextRegion
        nextRegion = (nextRegion + 1) % Self.regions
        waitForRegion(region)
        let bones: UnsafeMutableRawPointer
        let slots: UnsafeMutableRawPointer
        if let boneBase = boneMapping, let slotBase = slotMapping {
            bones = boneBase + region &* boneRegionBytes
            slots = slotBase + region &* slotRegionBytes
        } else {
            // Unsynchronized: the region's fence has passed, the GPU no longer reads it. No
            // invalidation: it would make some drivers hand out fresh (page-faulting) memory.
            let access = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT)
            glBindBuffer(GL.e(GL_TEXTURE_BUFFER), boneBuffer)
            let b = glMapBufferRange(
                GL.e(GL_TEXTURE_BUFFER), GLintptr(region &* boneRegionBytes), GLsizeiptr(boneNeed), access)
            glBindBuffer(GL.e(GL_TEXTURE_BUFFER), slotBuffer)
            let s = glMapBufferRange(
                GL.e(GL_TEXTURE_BUFFER), GLintptr(region &* slotRegionBytes), GLsizeiptr(slotNeed), access)
            guard let b, let s else {
                unmapRanges()
                throw .buffer(
                    "mapping the per-instance tables failed: GL error 0x\(String(GL.firstError(), radix: 16))")
            }
            bones = b
            slots = s
        }
        if premultiplied.count < pages.premultiplied.count {
            premultiplied.deallocate()
            premultiplied = .allocate(capacity: pages.premultiplied.count)
            premultiplied.initialize(repeating: false)
        }
        for (k, flag) in pages.premultiplied.enumerated() { premultiplied[k] = flag }
        frameNumber &+= 1
        tally.reset(frame: frameNumber)
        let writer = InstanceTableWriter(
            bones: bones.bindMemory(to: Float.self, capacity: boneNeed / 4),
            slots: slots.bindMemory(to: UInt32.self, capacity: slotNeed / 4),
            premultiplied: UnsafeBufferPointer(rebasing: premultiplied[0..<pages.premultiplied.count]),
            boneStride: geometry.drawData.boneCount &* InstancedGeometry.boneFloats,
            slotStride: geometry.drawData.slotCount &* InstancedGeometry.slotWords)
        let mapWall = RenderClock.wall() &- wallStart
        pending = PendingFrame(
            id: frameNumber, region: region, count: count, pages: pages, wallStart: wallStart,
            beginCPU: RenderClock.threadCPU() &- cpuStart, mapWall: mapWall)
        return InstancedFrame(
            count: count, id: frameNumber, writer: writer, geometry: geometry, tally: tally)
    }

    /// Closes the open frame for writing (GL thread): later `pack` calls on it do nothing, and
    /// mapped ranges are unmapped. False when they could not be (their contents are undefined).
    func closeWriting() -> Bool {
        tally.frame.store(0, ordering: .sequentiallyConsistent)
        return unmapRanges()
    }

    /// Drops an open frame that was never submitted.
    func abandon() {
        _ = closeWriting()
        pending = nil
    }

    /// After the frame's draw calls: the region stays untouched until the GPU has read it. The
    /// fence itself is placed when the next frame begins (any point after the draw calls and
    /// before the region is written again guards it): with a threaded GL dispatch, creating a
    /// fence waits for the dispatch thread to run every queued command, which should overlap the
    /// packing of the next frame rather than lengthen this submission.
    func fence(region: Int) {
        placeFence()
        unfenced = region
        pending = nil
    }

    private func placeFence() {
        guard let region = unfenced else { return }
        if let old = fences[region] { glDeleteSync(old) }
        fences[region] = glFenceSync(GL.e(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        unfenced = nil
    }

    @discardableResult
    private func unmapRanges() -> Bool {
        guard boneMapping == nil, boneBuffer != 0 else { return true }
        var ok = true
        for buffer in [boneBuffer, slotBuffer] {
            glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
            var mapped: GLint = 0
            glGetBufferParameteriv(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_BUFFER_MAPPED), &mapped)
            if mapped != 0 && glUnmapBuffer(GL.e(GL_TEXTURE_BUFFER)) == GLboolean(GL_FALSE) { ok = false }
        }
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        return ok
    }

    private func waitForRegion(_ region: Int) {
        guard let fence = fences[region] else { return }
        GL.waitAndDelete(fence)
        fences[region] = nil
    }

    /// Replaces both tables' storage with room for at least the given bytes per region (the GPU
    /// is first allowed to finish with the old storage).
    private func grow(bone: Int, slot: Int) throws(RenderError) {
        placeFence()
        for region in 0..<Self.regions { waitForRegion(region) }
        func rounded(_ bytes: Int) -> Int { (bytes &+ bytes / 4 &+ 4095) & ~4095 }
        let boneRegion = rounded(bone)
        let slotRegion = rounded(slot)
        let largest = max(boneRegion, slotRegion).multipliedReportingOverflow(by: Self.regions)
        guard !largest.overflow, largest.partialValue / 16 <= maxTexels else {
            throw .buffer(
                "per-instance tables of \(max(bone, slot)) bytes per frame exceed the driver's buffer texture limit "
                    + "(\(maxTexels) texels in \(Self.regions) regions)")
        }
        let old = [boneBuffer, slotBuffer].filter { $0 != 0 }
        if !old.isEmpty { glDeleteBuffers(GLsizei(old.count), old) }
        boneMapping = nil
        slotMapping = nil
        var names = [GLuint](repeating: 0, count: 2)
        glGenBuffers(2, &names)
        boneBuffer = names[0]
        slotBuffer = names[1]
        boneRegionBytes = 0
        slotRegionBytes = 0
        var mappings: [UnsafeMutableRawPointer?] = []
        for (buffer, bytes) in [(boneBuffer, boneRegion), (slotBuffer, slotRegion)] {
            let total = GLsizeiptr(bytes * Self.regions)
            glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
            if streaming == .persistent {
                let flags = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)
                glBufferStorage(GL.e(GL_TEXTURE_BUFFER), total, nil, flags)
                mappings.append(glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), 0, total, flags))
            } else {
                glBufferData(GL.e(GL_TEXTURE_BUFFER), total, nil, GL.e(GL_STREAM_DRAW))
            }
        }
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), boneTexture)
        glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_RGBA32F), boneBuffer)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), slotTexture)
        glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_RGBA32UI), slotBuffer)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        let error = GL.firstError()
        if streaming == .persistent {
            guard mappings.count == 2, let b = mappings[0], let s = mappings[1], error == 0 else {
                throw .buffer(
                    "persistent mapping of the per-instance tables failed: GL error 0x\(String(error, radix: 16))")
            }
            boneMapping = b
            slotMapping = s
        } else if error != 0 {
            throw .buffer("allocating the per-instance tables failed: GL error 0x\(String(error, radix: 16))")
        }
        boneRegionBytes = boneRegion
        slotRegionBytes = slotRegion
    }
}

/// The instanced path: every instance of one skeleton drawn with one draw call per (page, blend
/// mode) group, skinned in the vertex shader from buffer textures. Same fragment stage and blend
/// functions as `BatchRenderer`.
///
/// A frame has three steps: `beginFrame` (GL thread: maps the per-instance tables), packing
/// (`InstancedFrame.pack`, from any threads, each instance written once), and `submit` (GL
/// thread: unmaps, sets state, issues the draw calls). `draw` does all three, packing on
/// `packThreads` threads.
public final class InstancedRenderer {
    let context: GLContext
    let program: ShaderProgram
    let originUniform: GLint
    let scaleUniform: GLint
    let boneCountUniform: GLint
    let slotCountUniform: GLint
    let boneBaseUniform: GLint
    let slotBaseUniform: GLint
    /// How per-instance tables reach GL in buffers prepared from now on (never `.automatic`).
    public let streaming: InstancedStreaming
    /// Threads `draw` packs a batch's instances on, 1 ... `Scheduler.maxThreads`.
    public var packThreads: Int = 1 {
        didSet { packThreads = max(1, min(Scheduler.maxThreads, packThreads)) }
    }
    /// The fewest instances worth a packing thread of their own (a spineboy packs in about 1 µs;
    /// waking a thread costs tens of µs).
    public var minimumPackRows: Int = 256 {
        didSet { minimumPackRows = max(1, minimumPackRows) }
    }
    /// Draw calls issued by the last frame.
    public private(set) var lastDrawCalls = 0
    /// What the last frame cost (draw calls, CPU times, bytes written).
    public private(set) var lastFrame = RenderFrameStats()
    /// Why the last `draw` drew nothing, if it failed to open its frame.
    public private(set) var lastError: RenderError? = nil

    static let vertexShader = """
        #version 330 core
        layout(location = 0) in vec2 aUV;
        layout(location = 1) in ivec4 aInfo; // slot, variant, first influence, influence count
        uniform samplerBuffer uInfluences;   // bone, x, y, weight
        uniform samplerBuffer uBones;        // per instance and bone 6 floats: a, b, c, d, worldX, worldY
        uniform usamplerBuffer uSlots;       // per instance and slot: variant, light RGBA8, dark RGBA8, 0
        uniform int uBoneCount;
        uniform int uSlotCount;
        uniform int uBoneBase;               // first texel of this frame's region of each table
        uniform int uSlotBase;
        uniform vec2 uOrigin;
        uniform vec2 uScale;
        out vec2 vUV;
        out vec4 vLight;
        out vec4 vDark;
        vec4 unpackColor(uint c) {
            return vec4((uvec4(c) >> uvec4(0u, 8u, 16u, 24u)) & 255u) / 255.0;
        }
        void main() {
            uvec4 slot = texelFetch(uSlots, uSlotBase + gl_InstanceID * uSlotCount + aInfo.x);
            vUV = aUV;
            if (slot.x != uint(aInfo.y)) {
                // Not the image this slot shows: collapse the triangle outside the view.
                vLight = vec4(0.0);
                vDark = vec4(0.0);
                gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
                return;
            }
            vLight = unpackColor(slot.y);
            vDark = unpackColor(slot.z);
            vec2 world = vec2(0.0);
            int boneBase = gl_InstanceID * uBoneCount;
            for (int k = 0; k < aInfo.w; k++) {
                vec4 influence = texelFetch(uInfluences, aInfo.z + k);
                int first = (boneBase + int(influence.x)) * 6; // float index, always even
                int texel = uBoneBase + (first >> 2);
                vec4 p = texelFetch(uBones, texel);
                vec4 q = texelFetch(uBones, texel + 1);
                vec4 m;
                vec2 t;
                if ((first & 2) == 0) {
                    m = p;
                    t = q.xy;
                } else {
                    m = vec4(p.zw, q.xy);
                    t = q.zw;
                }
                world += vec2(influence.y * m.x + influence.z * m.y + t.x,
                              influence.y * m.z + influence.z * m.w + t.y) * influence.w;
            }
            gl_Position = vec4((world - uOrigin) * uScale - 1.0, 0.0, 1.0);
        }
        """

    /// An instanced renderer in `context`, streaming per-instance tables as `streaming` says
    /// (`.automatic`: the fastest the driver offers).
    /// - Throws: `RenderError.shader` when its shaders do not compile.
    public init(context: GLContext, streaming: InstancedStreaming = .automatic) throws(RenderError) {
        self.context = context
        context.makeCurrent()
        switch streaming {
        case .automatic: self.streaming = GL.hasBufferStorage() ? .persistent : .mappedRanges
        case .persistent:
            guard GL.hasBufferStorage() else {
                throw .buffer("persistent mapping needs ARB_buffer_storage, which this context lacks")
            }
            self.streaming = .persistent
        case .mappedRanges: self.streaming = .mappedRanges
        }
        program = try ShaderProgram(
            vertex: Self.vertexShader, fragment: BatchRenderer.fragmentShader, context: context)
        originUniform = program.uniform("uOrigin")
        scaleUniform = program.uniform("uScale")
        boneCountUniform = program.uniform("uBoneCount")
        slotCountUniform = program.uniform("uSlotCount")
        boneBaseUniform = program.uniform("uBoneBase")
        slotBaseUniform = program.uniform("uSlotBase")
        glUseProgram(program.name)
        glUniform1i(program.uniform("uTexture"), 0)
        glUniform1i(program.uniform("uInfluences"), 1)
        glUniform1i(program.uniform("uBones"), 2)
        glUniform1i(program.uniform("uSlots"), 3)
    }

    /// Uploads a skeleton's static geometry (once per `SkeletonData`; keep the result).
    public func prepare(_ geometry: InstancedGeometry) throws(RenderError) -> InstancedSkeletonBuffers {
        try InstancedSkeletonBuffers(geometry: geometry, context: context, streaming: streaming)
    }

    // MARK: - The three steps of a frame

    /// Opens a frame of `count` instances of the buffers' skeleton (GL thread): maps this frame's
    /// region of the per-instance tables. Pack every instance `0..<count` into the returned frame
    /// (from any threads), then `submit` it. A frame still open on the same buffers is dropped.
    public func beginFrame(
        _ buffers: InstancedSkeletonBuffers, count: Int, pages: PageBindings
    ) throws(RenderError) -> InstancedFrame {
        try buffers.begin(count: count, pages: pages)
    }

    /// Packs every instance of `views` into `frame` on up to `packThreads` threads (returns when
    /// all are written).
    public func pack(_ frame: InstancedFrame, _ views: BatchPoseViews) {
        let count = min(frame.count, views.count)
        let chunks = max(1, min(packThreads, count / minimumPackRows))
        if chunks == 1 {
            frame.pack(views, range: 0..<count)
            return
        }
        let job = PackJob(frame: frame, views: views, count: count, chunks: chunks)
        WorkerPool.shared.perform(iterations: chunks, job)
    }

    /// Closes `frame` and draws its instances into the bound framebuffer (GL thread): one
    /// instanced draw call per (page, blend mode) group. Every packing thread must have finished.
    /// A frame that is not the buffers' open one draws nothing.
    @discardableResult
    public func submit(
        _ frame: InstancedFrame, with buffers: InstancedSkeletonBuffers, viewport: WorldViewport
    ) -> RenderFrameStats {
        let wallStart = RenderClock.wall()
        let cpuStart = RenderClock.threadCPU()
        var stats = RenderFrameStats()
        guard let pending = buffers.pending, pending.id == frame.id else {
            lastDrawCalls = 0
            lastFrame = stats
            return stats
        }
        context.makeCurrent()
        stats.instances = pending.count
        stats.uploadBytes = pending.count &* buffers.geometry.bytesPerInstance
        stats.packNanoseconds = buffers.tally.cpu.load(ordering: .acquiring)
        stats.packChunks = buffers.tally.chunks.load(ordering: .acquiring)
        stats.fillNanoseconds = wallStart &- pending.wallStart &- pending.mapWall
        let closed = buffers.closeWriting()
        stats.uploadNanoseconds = pending.mapWall &+ (RenderClock.wall() &- wallStart)
        if closed && pending.count > 0 && viewport.width != 0 && viewport.height != 0 {
            encode(pending, with: buffers, viewport: viewport, stats: &stats)
        }
        buffers.fence(region: pending.region)
        let now = RenderClock.wall()
        stats.wallNanoseconds = now &- pending.wallStart
        stats.submitNanoseconds = pending.beginCPU &+ (RenderClock.threadCPU() &- cpuStart)
        stats.cpuNanoseconds = stats.submitNanoseconds &+ stats.packNanoseconds
        lastDrawCalls = stats.drawCalls
        lastFrame = stats
        return stats
    }

    // MARK: - Whole frames

    /// Draws `instances` (all of the buffers' skeleton) into `target`.
    @discardableResult
    public func draw<Pose: PosedSkeleton>(
        _ instances: [Pose], with buffers: InstancedSkeletonBuffers, pages: PageBindings,
        viewport: WorldViewport, into target: OffscreenTarget
    ) -> RenderFrameStats {
        target.bind()
        return draw(instances, with: buffers, pages: pages, viewport: viewport)
    }

    /// Draws `instances` into the bound framebuffer (packed on the calling thread).
    @discardableResult
    public func draw<Pose: PosedSkeleton>(
        _ instances: [Pose], with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport
    ) -> RenderFrameStats {
        guard let frame = open(buffers, count: instances.count, pages: pages, viewport: viewport) else {
            return lastFrame
        }
        frame.pack(range: 0..<instances.count) { instances[$0] }
        return submit(frame, with: buffers, viewport: viewport)
    }

    /// Draws every instance of `batch` (the buffers' skeleton) straight from the batch's columns
    /// (`PoseView`; rows packed on `packThreads` threads into mapped GL memory) into the bound
    /// framebuffer.
    @discardableResult
    public func draw(
        batch: Batch, with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport
    ) -> RenderFrameStats {
        let views = batch.poseViews()
        guard let frame = open(buffers, count: views.count, pages: pages, viewport: viewport) else {
            return lastFrame
        }
        pack(frame, views)
        return submit(frame, with: buffers, viewport: viewport)
    }

    /// The same, into `target`.
    @discardableResult
    public func draw(
        batch: Batch, with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport,
        into target: OffscreenTarget
    ) -> RenderFrameStats {
        target.bind()
        return draw(batch: batch, with: buffers, pages: pages, viewport: viewport)
    }

    /// Begins a frame for `draw`; nil (with `lastFrame` set) when there is nothing to draw or the
    /// tables could not be mapped.
    private func open(
        _ buffers: InstancedSkeletonBuffers, count: Int, pages: PageBindings, viewport: WorldViewport
    ) -> InstancedFrame? {
        var empty = RenderFrameStats()
        empty.instances = count
        guard count > 0 && viewport.width != 0 && viewport.height != 0 else {
            lastDrawCalls = 0
            lastFrame = empty
            return nil
        }
        do {
            let frame = try beginFrame(buffers, count: count, pages: pages)
            lastError = nil
            return frame
        } catch {
            lastError = error
            lastDrawCalls = 0
            lastFrame = empty
            return nil
        }
    }

    private func encode(
        _ frame: InstancedSkeletonBuffers.PendingFrame, with buffers: InstancedSkeletonBuffers,
        viewport: WorldViewport, stats: inout RenderFrameStats
    ) {
        let pages = frame.pages
        glDisable(GL.e(GL_DEPTH_TEST))
        glDisable(GL.e(GL_CULL_FACE))
        glDisable(GL.e(GL_SCISSOR_TEST))
        glEnable(GL.e(GL_BLEND))
        glBlendEquation(GL.e(GL_FUNC_ADD))
        glUseProgram(program.name)
        glUniform2f(originUniform, viewport.x, viewport.y)
        glUniform2f(scaleUniform, 2 / viewport.width, 2 / viewport.height)
        glUniform1i(boneCountUniform, GLint(buffers.geometry.drawData.boneCount))
        glUniform1i(slotCountUniform, GLint(buffers.geometry.drawData.slotCount))
        glUniform1i(boneBaseUniform, GLint(truncatingIfNeeded: frame.region &* buffers.boneRegionBytes / 16))
        glUniform1i(slotBaseUniform, GLint(truncatingIfNeeded: frame.region &* buffers.slotRegionBytes / 16))
        glActiveTexture(GL.e(GL_TEXTURE1))
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), buffers.influenceTexture)
        glActiveTexture(GL.e(GL_TEXTURE2))
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), buffers.boneTexture)
        glActiveTexture(GL.e(GL_TEXTURE3))
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), buffers.slotTexture)
        glActiveTexture(GL.e(GL_TEXTURE0))
        glBindVertexArray(buffers.vertexArray)
        for group in buffers.geometry.groups {
            let page = Int(group.page)
            guard page >= 0 && page < pages.textures.count && page < pages.premultiplied.count else { continue }
            glBindTexture(GL.e(GL_TEXTURE_2D), pages.textures[page])
            let f = BatchRenderer.blendFactors(group.blendMode, premultiplied: pages.premultiplied[page])
            glBlendFuncSeparate(GL.e(f.0), GL.e(f.1), GL.e(f.2), GL.e(f.3))
            let before = RenderClock.threadCPU()
            glDrawElementsInstanced(
                GL.e(GL_TRIANGLES), GLsizei(group.indexCount), GL.e(GL_UNSIGNED_INT),
                UnsafeRawPointer(bitPattern: group.indexStart * 4), GLsizei(frame.count))
            stats.drawCallNanoseconds &+= RenderClock.threadCPU() &- before
            stats.drawCalls += 1
        }
        glBindVertexArray(0)
    }
}
