import BoneworkFormat
import BoneworkWorld
import CGL

/// The GPU side of one skeleton's `InstancedGeometry`: its static vertex, index and influence
/// buffers (uploaded once) and the per-instance tables (bone transforms, slot state) streamed
/// each frame through buffer textures. Deleted with this object.
public final class InstancedSkeletonBuffers {
    public let geometry: InstancedGeometry
    let context: GLContext
    let vertexArray: GLuint
    let vertexBuffer: GLuint
    let indexBuffer: GLuint
    let influenceBuffer: GLuint
    let influenceTexture: GLuint
    let boneBuffer: GLuint
    let boneTexture: GLuint
    let slotBuffer: GLuint
    let slotTexture: GLuint
    var boneStaging: [Float] = []
    var slotStaging: [Float] = []
    var boneCapacity = 0
    var slotCapacity = 0

    init(geometry: InstancedGeometry, context: GLContext) throws(RenderError) {
        self.geometry = geometry
        self.context = context
        context.makeCurrent()
        var vertexArray: GLuint = 0
        glGenVertexArrays(1, &vertexArray)
        var buffers = [GLuint](repeating: 0, count: 5)
        glGenBuffers(5, &buffers)
        var textures = [GLuint](repeating: 0, count: 3)
        glGenTextures(3, &textures)
        self.vertexArray = vertexArray
        (vertexBuffer, indexBuffer, influenceBuffer, boneBuffer, slotBuffer) =
            (buffers[0], buffers[1], buffers[2], buffers[3], buffers[4])
        (influenceTexture, boneTexture, slotTexture) = (textures[0], textures[1], textures[2])

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
        guard context.makeCurrent() else { return }
        var vertexArray = vertexArray
        glDeleteVertexArrays(1, &vertexArray)
        let buffers = [vertexBuffer, indexBuffer, influenceBuffer, boneBuffer, slotBuffer]
        glDeleteBuffers(GLsizei(buffers.count), buffers)
        let textures = [influenceTexture, boneTexture, slotTexture]
        glDeleteTextures(GLsizei(textures.count), textures)
    }

    /// Writes every instance's rows (`count` instances, instance k from `pose(k)`) into the
    /// staging tables and streams each table to the GPU in one buffer update; returns the bytes sent.
    @inline(__always)
    func upload<Pose: PosedSkeleton>(
        count: Int, pages: PageBindings, pose: (Int) -> Pose, stats: inout RenderFrameStats, clock: RenderClock
    ) -> Int {
        let boneFloats = geometry.drawData.boneCount * 8
        let slotFloats = geometry.drawData.slotCount * 12
        let boneCount = max(count * boneFloats, 8)
        let slotCount = max(count * slotFloats, 12)
        if boneStaging.count < boneCount { boneStaging = [Float](repeating: 0, count: boneCount) }
        if slotStaging.count < slotCount { slotStaging = [Float](repeating: 0, count: slotCount) }
        boneStaging.withUnsafeMutableBufferPointer { bones in
            slotStaging.withUnsafeMutableBufferPointer { slots in
                guard let boneBase = bones.baseAddress, let slotBase = slots.baseAddress else { return }
                for k in 0..<count {
                    geometry.writeInstance(
                        pose(k), pages: pages, bones: boneBase + k &* boneFloats, slots: slotBase + k &* slotFloats)
                }
            }
        }
        stats.fillNanoseconds = clock.elapsed()
        stream(boneStaging, count: boneCount, buffer: boneBuffer, texture: boneTexture, capacity: &boneCapacity)
        stream(slotStaging, count: slotCount, buffer: slotBuffer, texture: slotTexture, capacity: &slotCapacity)
        stats.uploadNanoseconds = clock.elapsed() &- stats.fillNanoseconds
        return (boneCount + slotCount) * 4
    }

    private func stream(_ values: [Float], count: Int, buffer: GLuint, texture: GLuint, capacity: inout Int) {
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
        values.withUnsafeBytes {
            // One update per table. The storage is (re)allocated only when it grows: refilling
            // fresh storage every frame costs page faults on drivers that keep buffers in system
            // memory; updating in place lets the driver synchronise with the previous frame.
            if $0.count > capacity {
                glBufferData(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STREAM_DRAW))
                capacity = $0.count
                glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
                glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(GL_RGBA32F), buffer)
            } else {
                glBufferSubData(GL.e(GL_TEXTURE_BUFFER), 0, GLsizeiptr(count * 4), $0.baseAddress)
            }
        }
    }
}

/// The instanced path: every instance of one skeleton drawn with one draw call per (page, blend
/// mode) group, skinned in the vertex shader from buffer textures. Same fragment stage and blend
/// functions as `BatchRenderer`.
public final class InstancedRenderer {
    let context: GLContext
    let program: ShaderProgram
    let originUniform: GLint
    let scaleUniform: GLint
    let boneCountUniform: GLint
    let slotCountUniform: GLint
    /// Draw calls issued by the last `draw`.
    public private(set) var lastDrawCalls = 0
    /// What the last `draw` cost (draw calls, CPU time, bytes uploaded).
    public private(set) var lastFrame = RenderFrameStats()

    static let vertexShader = """
        #version 330 core
        layout(location = 0) in vec2 aUV;
        layout(location = 1) in ivec4 aInfo; // slot, variant, first influence, influence count
        uniform samplerBuffer uInfluences;   // bone, x, y, weight
        uniform samplerBuffer uBones;        // per instance and bone: (a, b, c, d), (worldX, worldY, 0, 0)
        uniform samplerBuffer uSlots;        // per instance and slot: (variant), light, dark
        uniform int uBoneCount;
        uniform int uSlotCount;
        uniform vec2 uOrigin;
        uniform vec2 uScale;
        out vec2 vUV;
        out vec4 vLight;
        out vec4 vDark;
        void main() {
            int slotRow = (gl_InstanceID * uSlotCount + aInfo.x) * 3;
            vUV = aUV;
            if (int(texelFetch(uSlots, slotRow).x) != aInfo.y) {
                // Not the image this slot shows: collapse the triangle outside the view.
                vLight = vec4(0.0);
                vDark = vec4(0.0);
                gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
                return;
            }
            vLight = texelFetch(uSlots, slotRow + 1);
            vDark = texelFetch(uSlots, slotRow + 2);
            vec2 world = vec2(0.0);
            int boneBase = gl_InstanceID * uBoneCount;
            for (int k = 0; k < aInfo.w; k++) {
                vec4 influence = texelFetch(uInfluences, aInfo.z + k);
                int row = (boneBase + int(influence.x)) * 2;
                vec4 m = texelFetch(uBones, row);
                vec4 t = texelFetch(uBones, row + 1);
                world += vec2(influence.y * m.x + influence.z * m.y + t.x,
                              influence.y * m.z + influence.z * m.w + t.y) * influence.w;
            }
            gl_Position = vec4((world - uOrigin) * uScale - 1.0, 0.0, 1.0);
        }
        """

    public init(context: GLContext) throws(RenderError) {
        self.context = context
        context.makeCurrent()
        program = try ShaderProgram(
            vertex: Self.vertexShader, fragment: BatchRenderer.fragmentShader, context: context)
        originUniform = program.uniform("uOrigin")
        scaleUniform = program.uniform("uScale")
        boneCountUniform = program.uniform("uBoneCount")
        slotCountUniform = program.uniform("uSlotCount")
        glUseProgram(program.name)
        glUniform1i(program.uniform("uTexture"), 0)
        glUniform1i(program.uniform("uInfluences"), 1)
        glUniform1i(program.uniform("uBones"), 2)
        glUniform1i(program.uniform("uSlots"), 3)
    }

    /// Uploads a skeleton's static geometry (once per `SkeletonData`; keep the result).
    public func prepare(_ geometry: InstancedGeometry) throws(RenderError) -> InstancedSkeletonBuffers {
        try InstancedSkeletonBuffers(geometry: geometry, context: context)
    }

    /// Draws `instances` (all of the buffers' skeleton) into `target`.
    @discardableResult
    public func draw<Pose: PosedSkeleton>(
        _ instances: [Pose], with buffers: InstancedSkeletonBuffers, pages: PageBindings,
        viewport: WorldViewport, into target: OffscreenTarget
    ) -> RenderFrameStats {
        target.bind()
        return draw(instances, with: buffers, pages: pages, viewport: viewport)
    }

    /// Draws `instances` into the bound framebuffer: one instanced draw call per group.
    @discardableResult
    public func draw<Pose: PosedSkeleton>(
        _ instances: [Pose], with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport
    ) -> RenderFrameStats {
        submit(count: instances.count, with: buffers, pages: pages, viewport: viewport) { instances[$0] }
    }

    /// Draws every instance of `batch` (the buffers' skeleton) straight from the batch's columns
    /// (`PoseView`, nothing copied but the per-instance tables) into the bound framebuffer.
    @discardableResult
    public func draw(
        batch: Batch, with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport
    ) -> RenderFrameStats {
        let views = batch.poseViews()
        return submit(count: views.count, with: buffers, pages: pages, viewport: viewport) { views[$0] }
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

    @inline(__always)
    private func submit<Pose: PosedSkeleton>(
        count: Int, with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport,
        pose: (Int) -> Pose
    ) -> RenderFrameStats {
        let clock = RenderClock()
        var stats = RenderFrameStats()
        stats.instances = count
        if count > 0 && viewport.width != 0 && viewport.height != 0 {
            encode(
                count: count, with: buffers, pages: pages, viewport: viewport, clock: clock, stats: &stats, pose: pose)
        }
        clock.finish(&stats)
        lastDrawCalls = stats.drawCalls
        lastFrame = stats
        return stats
    }

    @inline(__always)
    private func encode<Pose: PosedSkeleton>(
        count: Int, with buffers: InstancedSkeletonBuffers, pages: PageBindings, viewport: WorldViewport,
        clock: RenderClock, stats: inout RenderFrameStats, pose: (Int) -> Pose
    ) {
        context.makeCurrent()
        stats.uploadBytes = buffers.upload(count: count, pages: pages, pose: pose, stats: &stats, clock: clock)
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
            glDrawElementsInstanced(
                GL.e(GL_TRIANGLES), GLsizei(group.indexCount), GL.e(GL_UNSIGNED_INT),
                UnsafeRawPointer(bitPattern: group.indexStart * 4), GLsizei(count))
            stats.drawCalls += 1
        }
        glBindVertexArray(0)
    }
}
