import BoneworkWorld
import CGL

/// Batch columns and rows handed to the packing threads. `@unchecked Sendable`: the views point
/// into batch columns that the threads only read and that nothing changes while
/// `GPURenderer.pack` runs (its caller waits for it).
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

/// The column blocks of a frame drawn from batch columns: one buffer per frame in flight (a region
/// each, so a big crowd never meets the driver's texel limit with three frames' worth at once),
/// each read through three buffer textures on the same storage: floats (`R32F`), words (`R32UI`)
/// and four words at a time (`RGBA32UI`, for the block descriptors). Mapped persistently where
/// `ARB_buffer_storage` exists, else range by range.
final class StreamedColumns {
    let persistent: Bool
    private var buffers: [GLuint]
    private var views: [(floats: GLuint, words: GLuint, quads: GLuint)]
    private var capacity: [Int]
    private var mappings: [UnsafeMutableRawPointer?]
    private var mapped: [Bool]

    init(regions: Int, persistent: Bool) {
        self.persistent = persistent
        buffers = [GLuint](repeating: 0, count: regions)
        capacity = [Int](repeating: 0, count: regions)
        mappings = [UnsafeMutableRawPointer?](repeating: nil, count: regions)
        mapped = [Bool](repeating: false, count: regions)
        var names = [GLuint](repeating: 0, count: regions * 3)
        glGenTextures(GLsizei(names.count), &names)
        views = (0..<regions).map { (names[$0 * 3], names[$0 * 3 + 1], names[$0 * 3 + 2]) }
    }

    /// The region's three views (floats, words, quads of words).
    func textures(region: Int) -> (floats: GLuint, words: GLuint, quads: GLuint) { views[region] }

    /// Bytes the region can hold.
    func bytes(region: Int) -> Int { capacity[region] }

    /// Replaces the region's storage with room for at least `bytes` (the caller has waited for the
    /// GPU to finish with the region).
    func grow(region: Int, to bytes: Int) throws(RenderError) {
        if buffers[region] != 0 { glDeleteBuffers(1, &buffers[region]) }
        buffers[region] = 0
        mappings[region] = nil
        mapped[region] = false
        capacity[region] = 0
        let size = (bytes + bytes / 4 + 65535) & ~65535
        var limit: GLint = 0
        glGetIntegerv(GL.e(GL_MAX_TEXTURE_BUFFER_SIZE), &limit)
        guard size / 4 <= Int(max(limit, 65536)) else {
            throw .buffer(
                "a frame's column blocks of \(bytes) bytes exceed the driver's buffer texture limit (\(limit) texels)")
        }
        glGenBuffers(1, &buffers[region])
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffers[region])
        if persistent {
            let flags = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT)
            glBufferStorage(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr(size), nil, flags)
            mappings[region] = glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), 0, GLsizeiptr(size), flags)
        } else {
            glBufferData(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr(size), nil, GL.e(GL_STREAM_DRAW))
        }
        let (floats, words, quads) = views[region]
        for (texture, format) in [(floats, GL_R32F), (words, GL_R32UI), (quads, GL_RGBA32UI)] {
            glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
            glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(format), buffers[region])
        }
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        let error = GL.firstError()
        guard error == 0, !persistent || mappings[region] != nil else {
            throw .buffer("allocating the GPU path's column blocks failed: GL error 0x\(String(error, radix: 16))")
        }
        capacity[region] = size
    }

    /// The region's memory for `bytes` of writing (nil when it cannot be mapped).
    func map(region: Int, bytes: Int) -> UnsafeMutableRawPointer? {
        if let mapping = mappings[region] { return mapping }
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffers[region])
        let access = GLbitfield(GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_UNSYNCHRONIZED_BIT)
        let p = glMapBufferRange(GL.e(GL_TEXTURE_BUFFER), 0, GLsizeiptr(max(4, bytes)), access)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        mapped[region] = p != nil
        return p
    }

    /// Ends writing the region (unmaps a mapped range); false when the contents were lost.
    @discardableResult
    func unmap(region: Int) -> Bool {
        guard mapped[region] else { return true }
        mapped[region] = false
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffers[region])
        let ok = glUnmapBuffer(GL.e(GL_TEXTURE_BUFFER)) != GLboolean(GL_FALSE)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        return ok
    }

    func delete() {
        for region in buffers.indices where buffers[region] != 0 { glDeleteBuffers(1, &buffers[region]) }
        let names = views.flatMap { [$0.floats, $0.words, $0.quads] }
        glDeleteTextures(GLsizei(names.count), names)
    }
}
