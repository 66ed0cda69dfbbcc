import BoneworkFormat
import BoneworkWorld
import CGL
import Dispatch

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
