import BoneworkFormat
import BoneworkWorld
import CGL
import Dispatch

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
