import BoneworkWorld
import CGL

/// GL buffers mapped persistently, which a `World` keeps its bones' world transforms and slot
/// attachments in (`World.columnMemory`), so that the GPU path reads them where the systems wrote
/// them instead of copying them into each frame's column blocks. For 10,000 spineboys that copy
/// was 18 MB a frame, three quarters of the GPU path's CPU time (Docs/Rendering.md).
///
/// Each allocation is one buffer (`glBufferStorage`, mapped for reading and writing, persistent
/// and coherent, so the CPU reads it as plain memory) with two buffer textures on it, one reading
/// floats and one reading words.
/// A frame that read any of them leaves a fence; `waitForReaders()`, which the World calls before
/// it writes the columns, waits for it. Made by `GPURenderer.columnMemory` where the context has
/// `ARB_buffer_storage`; every call makes that context current on the calling thread, so a World
/// using it is changed on the renderer's thread.
public final class GPUColumnMemory: ColumnMemory {
    struct Allocation {
        var base: UnsafeMutableRawPointer
        var bytes: Int
        var buffer: GLuint
        /// `R32F` and `R32UI` views.
        var floats: GLuint
        var words: GLuint
    }

    let context: GLContext
    private(set) var allocations: [Allocation] = []
    private var fence: GLsync? = nil
    /// The largest buffer texture the driver reads, in bytes.
    let maxBytes: Int

    init(context: GLContext) {
        self.context = context
        context.makeCurrent()
        var limit: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_TEXTURE_BUFFER_SIZE), &limit)
        maxBytes = Int(max(limit, 65536)) * 4
    }

    deinit {
        guard context.makeCurrent() else { return }
        if let fence { GL.waitAndDelete(fence) }
        for a in allocations { release(a) }
    }

    /// A mapped buffer of `byteCount` zero bytes, or nil when the driver refuses it or a buffer
    /// texture could not address it.
    public func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        guard byteCount > 0, byteCount <= maxBytes, context.makeCurrent() else { return nil }
        _ = GL.firstError()
        var buffer: GLuint = 0
        glGenBuffers(1, &buffer)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
        let flags = GLbitfield(GL_MAP_READ_BIT | GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)
        glBufferStorage(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr(byteCount), nil, flags)
        let mapping = glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), 0, GLsizeiptr(byteCount), flags)
        var textures: [GLuint] = [0, 0]
        glGenTextures(2, &textures)
        for (texture, format) in zip(textures, [GL_R32F, GL_R32UI]) {
            glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
            glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(format), buffer)
        }
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        guard GL.firstError() == 0, let mapping, UInt(bitPattern: mapping) % UInt(max(1, alignment)) == 0 else {
            if mapping != nil {
                glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
                glUnmapBuffer(GL.e(GL_TEXTURE_BUFFER))
                glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
            }
            glDeleteTextures(2, textures)
            glDeleteBuffers(1, &buffer)
            return nil
        }
        mapping.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        allocations.append(
            Allocation(base: mapping, bytes: byteCount, buffer: buffer, floats: textures[0], words: textures[1]))
        return mapping
    }

    /// Unmaps and deletes the buffer `allocate` returned as `storage` (GL keeps it alive until
    /// the GPU has finished the frames that read it).
    public func deallocate(_ storage: UnsafeMutableRawPointer) {
        guard let k = allocations.firstIndex(where: { $0.base == storage }), context.makeCurrent() else { return }
        release(allocations.remove(at: k))
    }

    private func release(_ a: Allocation) {
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), a.buffer)
        glUnmapBuffer(GL.e(GL_TEXTURE_BUFFER))
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        var buffer = a.buffer
        glDeleteTextures(2, [a.floats, a.words])
        glDeleteBuffers(1, &buffer)
    }

    /// Waits until the GPU has finished the last frame that read this memory.
    public func waitForReaders() {
        guard let fence, context.makeCurrent() else { return }
        GL.waitAndDelete(fence)
        self.fence = nil
    }

    /// Called by the renderer after submitting a frame that read this memory.
    func frameRead() {
        if let fence { glDeleteSync(fence) }
        fence = glFenceSync(GL.e(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
    }

    /// The allocation holding `pointer` and the pointer's offset in it, in 4-byte words.
    func locate(_ pointer: UnsafeRawPointer) -> (allocation: Int, word: Int)? {
        for (k, a) in allocations.enumerated() {
            let offset = pointer - UnsafeRawPointer(a.base)
            if offset >= 0 && offset < a.bytes { return (k, offset / 4) }
        }
        return nil
    }
}
