import BoneworkWorld
import CGL

/// Pose views handed to the packing threads. `@unchecked Sendable`: the views point into batch
/// columns that the threads only read and that nothing changes while `GPURenderer.pack` runs (its
/// caller waits for it).
struct PoseViewBuffer: @unchecked Sendable {
    let views: UnsafeBufferPointer<PoseView>
}

/// Batch columns and rows handed to the packing threads. `@unchecked Sendable` for the same
/// reason as `PoseViewBuffer`: read only, unchanged while `GPURenderer.pack` runs.
struct BatchRowBuffer: @unchecked Sendable {
    let batches: UnsafeBufferPointer<BatchPoseViews>
    let rows: UnsafeBufferPointer<UInt64>
}

/// One per-frame table of the GPU path: a buffer texture whose storage holds one region per frame
/// in flight, mapped persistently where `ARB_buffer_storage` exists, else range by range.
final class StreamedTable {
    let format: GLenum
    let texelBytes: Int
    let persistent: Bool
    let texture: GLuint
    private(set) var buffer: GLuint = 0
    private(set) var regionBytes = 0
    private var mapping: UnsafeMutableRawPointer? = nil
    private var mapped = false

    init(format: GLenum, texelBytes: Int, persistent: Bool) {
        self.format = format
        self.texelBytes = texelBytes
        self.persistent = persistent
        var name: GLuint = 0
        glGenTextures(1, &name)
        texture = name
    }

    /// The region's first texel.
    func texelBase(region: Int) -> Int { region * regionBytes / texelBytes }

    /// Replaces the storage with room for `bytes` per region (the caller has waited for the GPU).
    func grow(to bytes: Int, regions: Int) throws(RenderError) {
        if buffer != 0 { glDeleteBuffers(1, &buffer) }
        mapping = nil
        mapped = false
        regionBytes = 0
        let region = (bytes + bytes / 4 + 4095) & ~4095
        var limit: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_TEXTURE_BUFFER_SIZE), &limit)
        guard region * regions / texelBytes <= Int(max(limit, 65536)) else {
            throw .buffer(
                "a GPU-path table of \(bytes) bytes per frame exceeds the driver's buffer texture limit (\(limit) texels)"
            )
        }
        glGenBuffers(1, &buffer)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
        let total = GLsizeiptr(region * regions)
        if persistent {
            let flags = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)
            glBufferStorage(GL.e(GL_TEXTURE_BUFFER), total, nil, flags)
            mapping = glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), 0, total, flags)
        } else {
            glBufferData(GL.e(GL_TEXTURE_BUFFER), total, nil, GL.e(GL_STREAM_DRAW))
        }
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
        glTexBuffer(GL.e(GL_TEXTURE_BUFFER), format, buffer)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        let error = GL.firstError()
        guard error == 0, !persistent || mapping != nil else {
            throw .buffer("allocating a GPU-path table failed: GL error 0x\(String(error, radix: 16))")
        }
        regionBytes = region
    }

    /// The region's memory, for `bytes` of writing (nil when it cannot be mapped).
    func map(region: Int, bytes: Int) -> UnsafeMutableRawPointer? {
        if let mapping { return mapping + region * regionBytes }
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
        let access = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_UNSYNCHRONIZED_BIT)
        let p = glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), GLintptr(region * regionBytes), GLsizeiptr(bytes), access)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        mapped = p != nil
        return p
    }

    /// Ends writing (unmaps a mapped range); false when the contents were lost.
    @discardableResult
    func unmap() -> Bool {
        guard mapped else { return true }
        mapped = false
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
        let ok = glUnmapBuffer(GL.e(GL_TEXTURE_BUFFER)) != GLboolean(GL_FALSE)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        return ok
    }

    func delete() {
        if buffer != 0 { glDeleteBuffers(1, &buffer) }
        var name = texture
        glDeleteTextures(1, &name)
    }
}
