import BoneworkFormat
import CGL

/// A skeleton kind registered with a `GPURenderer`: its geometry, where it sits in the renderer's
/// shared static store, and its pages' premultiplied flags.
final class GPURendererKind {
    let geometry: GPUSkeletonGeometry
    /// Per page of the kind's atlas: whether it holds premultiplied alpha.
    let premultiplied: [Bool]
    /// The kind's first corner, vertex and influence in the shared store, and its first layer in
    /// the page array.
    let cornerBase: Int
    let vertexBase: Int
    let influenceBase: Int
    let layerBase: Int
    /// The atlas textures the kind's pages were copied from; nil for a kind packed without GL
    /// (`GPUHeapFrame`).
    let textures: AtlasTextures?
    /// The GL names of the kind's page textures (none without GL).
    var pageNames: [GLuint] { textures?.names ?? [] }
    /// The kind's first texel in the column attachment table (two texels per attachment).
    let attachmentTexelBase: Int
    /// Whether its characters may be drawn from their batch's columns: false when a multiply slot
    /// meets a straight-alpha page (drawn with a blend state of its own) or the geometry samples a
    /// page the atlas lacks; such kinds are always packed on the CPU.
    let fromColumns: Bool
    /// Tables the packing threads read per character, owned here so that they are read without
    /// reference counting: the slots that can show a clipping attachment
    /// (`GPUSkeletonGeometry.clipSlots`), each slot's first corner (and the corner count), and per
    /// attachment its first clip part and part count (`clipPartStarts`, `clipPartCounts`).
    let clipSlots: UnsafeMutableBufferPointer<Int32>
    let slotCornerStarts: UnsafeMutableBufferPointer<Int32>
    let clipPartStarts: UnsafeMutableBufferPointer<Int32>
    let clipPartCounts: UnsafeMutableBufferPointer<Int32>
    /// Per slot: the blend state its commands need when drawn from columns (1: multiply on a
    /// straight-alpha page, `GPUCommand.state`), and whether any slot needs 1.
    let slotStates: UnsafeMutableBufferPointer<Int32>
    let splitsByState: Bool
    var clipSlotCount: Int { clipSlots.count }
    /// The kind of every attachment and the end slot of every clipping attachment (the draw
    /// data's tables).
    let attachmentKinds: UnsafeBufferPointer<AttachmentKind>
    let endSlots: UnsafeBufferPointer<Int32>
    /// The slot whose clips the GPU cuts (`GPUSkeletonGeometry.gpuClipSlot`), -1 none, and its bone.
    let gpuClipSlot: Int
    let gpuClipBone: Int
    /// The kind's first texel in the clip-part table (five texels per part).
    let clipPartTexelBase: Int
    /// The identity of the kind's `SkeletonData`: a batch drawn as this kind must be of it.
    let skeleton: ObjectIdentifier
    /// Bones, slots and attachments of the kind's skeleton.
    let boneCount: Int
    let slotCount: Int
    let attachmentCount: Int

    /// A kind whose pages are `textures` (`premultiplied` per page, and no GL names when nil).
    init(
        geometry: GPUSkeletonGeometry, textures: AtlasTextures?, premultiplied: [Bool], cornerBase: Int,
        vertexBase: Int, influenceBase: Int, layerBase: Int, attachmentTexelBase: Int, clipPartTexelBase: Int
    ) {
        self.geometry = geometry
        self.textures = textures
        self.premultiplied = premultiplied
        self.cornerBase = cornerBase
        self.vertexBase = vertexBase
        self.influenceBase = influenceBase
        self.layerBase = layerBase
        self.attachmentTexelBase = attachmentTexelBase
        self.clipPartTexelBase = clipPartTexelBase
        // Multiply on straight-alpha pages needs a blend state of its own: with every page
        // straight, its slots' commands carry that state; pages of both kinds in one atlas leave
        // the kind to CPU packing (which decides per image).
        let straight = premultiplied.contains(false)
        let mixedPages = straight && premultiplied.contains(true)
        fromColumns = geometry.pageCount <= premultiplied.count && !(geometry.hasMultiplySlot && mixedPages)
        func owned(_ values: [Int32]) -> UnsafeMutableBufferPointer<Int32> {
            let table = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, values.count))
            _ = table.initialize(from: values)
            return UnsafeMutableBufferPointer(rebasing: table[0..<values.count])
        }
        let drawData = geometry.drawData
        slotStates = owned(
            (0..<drawData.slotCount).map { straight && drawData.slotBlendModes[$0] == .multiply ? 1 : 0 })
        splitsByState = slotStates.contains(1)
        clipSlots = owned(geometry.clipSlots)
        slotCornerStarts = owned(geometry.slotCornerStarts)
        clipPartStarts = owned(geometry.clipPartStarts)
        clipPartCounts = owned(geometry.clipPartCounts)
        attachmentKinds = geometry.drawData.kinds
        endSlots = geometry.drawData.endSlots
        gpuClipSlot = Int(geometry.gpuClipSlot)
        gpuClipBone = gpuClipSlot >= 0 ? Int(geometry.drawData.slotBones[gpuClipSlot]) : -1
        skeleton = ObjectIdentifier(geometry.drawData.data)
        boneCount = geometry.drawData.boneCount
        slotCount = geometry.drawData.slotCount
        attachmentCount = geometry.drawData.attachmentCount
    }

    deinit {
        // Each table was allocated with room for at least one entry; its base is the allocation.
        for table in [clipSlots, slotCornerStarts, clipPartStarts, clipPartCounts, slotStates] {
            table.baseAddress?.deallocate()
        }
    }
}

// The static store shared by every registered kind (vertex records, influences, corners) and the
// page array, re-uploaded when a kind is registered.
extension GPURenderer {
    func uploadStore() {
        var vertexWords: [UInt32] = []
        var influences: [Float] = []
        var corners: [UInt32] = []
        var attachments: [UInt32] = []
        var clipParts: [UInt32] = []
        for kind in kinds {
            attachments += kind.geometry.columnAttachments
            clipParts += kind.geometry.clipParts
            let g = kind.geometry
            var words = g.vertexWords
            var v = 0
            while v < words.count {
                words[v + 4] &+= UInt32(kind.influenceBase)
                words[v + 6] &+= UInt32(kind.layerBase)
                v += GPUSkeletonGeometry.vertexWordCount
            }
            vertexWords += words
            influences += g.influences
            corners += g.corners.map { $0 &+ UInt32(kind.vertexBase) }
        }
        staticCorners = corners.count
        func upload<T>(_ values: [T], buffer: GLuint, texture: GLuint, format: Int32, empty: T) {
            let list = values.isEmpty ? [empty, empty, empty, empty] : values
            glBindBuffer(GL.e(GL_TEXTURE_BUFFER), buffer)
            list.withUnsafeBytes {
                glBufferData(GL.e(GL_TEXTURE_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GL.e(GL_STATIC_DRAW))
            }
            glBindTexture(GL.e(GL_TEXTURE_BUFFER), texture)
            glTexBuffer(GL.e(GL_TEXTURE_BUFFER), GL.e(format), buffer)
        }
        upload(vertexWords, buffer: staticBuffers[0], texture: staticTextures[0], format: GL_RGBA32UI, empty: 0)
        upload(influences, buffer: staticBuffers[1], texture: staticTextures[1], format: GL_RGBA32F, empty: 0)
        upload(corners, buffer: staticBuffers[2], texture: staticTextures[2], format: GL_R32UI, empty: 0)
        upload(attachments, buffer: staticBuffers[3], texture: staticTextures[3], format: GL_RGBA32UI, empty: 0)
        upload(clipParts, buffer: staticBuffers[4], texture: staticTextures[4], format: GL_RGBA32UI, empty: 0)
        glBindBuffer(GL.e(GL_TEXTURE_BUFFER), 0)
        glBindTexture(GL.e(GL_TEXTURE_BUFFER), 0)
    }

    /// Copies every kind's page textures into layers of one texture array, padded to the largest
    /// page; each layer's table entry gives its size as a fraction of the array's, its filter
    /// (linear, nearest, mipmapped) and whether it is premultiplied.
    func uploadPages() throws(RenderError) {
        var pages: [(name: GLuint, width: Int, height: Int, filter: Float, pma: Bool)] = []
        for kind in kinds {
            for (k, name) in kind.pageNames.enumerated() {
                glBindTexture(GL.e(GL_TEXTURE_2D), name)
                var w: GLint = 0
                var h: GLint = 0
                var minFilter: GLint = 0
                var magFilter: GLint = 0
                glGetTexLevelParameteriv(GL.e(GL_TEXTURE_2D), 0, GL.e(GL_TEXTURE_WIDTH), &w)
                glGetTexLevelParameteriv(GL.e(GL_TEXTURE_2D), 0, GL.e(GL_TEXTURE_HEIGHT), &h)
                glGetTexParameteriv(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_MIN_FILTER), &minFilter)
                glGetTexParameteriv(GL.e(GL_TEXTURE_2D), GL.e(GL_TEXTURE_MAG_FILTER), &magFilter)
                let filter: Float =
                    minFilter == GL_NEAREST && magFilter == GL_NEAREST
                    ? 1 : (minFilter == GL_NEAREST || minFilter == GL_LINEAR ? 0 : 2)
                pages.append((name, Int(max(1, w)), Int(max(1, h)), filter, kind.premultiplied[k]))
            }
        }
        let width = pages.map(\.width).max() ?? 1
        let height = pages.map(\.height).max() ?? 1
        arraySize = (width, height)
        let mipmaps = pages.contains { $0.filter == 2 }
        glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), pageArray)
        glTexImage3D(
            GL.e(GL_TEXTURE_2D_ARRAY), 0, GL_RGBA8, GLsizei(width), GLsizei(height), GLsizei(max(1, pages.count)), 0,
            GL.e(GL_RGBA), GL.e(GL_UNSIGNED_BYTE), nil)
        var pixels = [UInt8]()
        let zero = [UInt8](repeating: 0, count: width * height * 4)
        glPixelStorei(GL.e(GL_PACK_ALIGNMENT), 1)
        glPixelStorei(GL.e(GL_UNPACK_ALIGNMENT), 1)
        layerInfo = []
        for (layer, page) in pages.enumerated() {
            pixels = [UInt8](repeating: 0, count: page.width * page.height * 4)
            glBindTexture(GL.e(GL_TEXTURE_2D), page.name)
            pixels.withUnsafeMutableBytes {
                glGetTexImage(GL.e(GL_TEXTURE_2D), 0, GL.e(GL_RGBA), GL.e(GL_UNSIGNED_BYTE), $0.baseAddress)
            }
            glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), pageArray)
            zero.withUnsafeBytes {
                glTexSubImage3D(
                    GL.e(GL_TEXTURE_2D_ARRAY), 0, 0, 0, GLint(layer), GLsizei(width), GLsizei(height), 1, GL.e(GL_RGBA),
                    GL.e(GL_UNSIGNED_BYTE), $0.baseAddress)
            }
            pixels.withUnsafeBytes {
                glTexSubImage3D(
                    GL.e(GL_TEXTURE_2D_ARRAY), 0, 0, 0, GLint(layer), GLsizei(page.width), GLsizei(page.height), 1,
                    GL.e(GL_RGBA), GL.e(GL_UNSIGNED_BYTE), $0.baseAddress)
            }
            layerInfo += [
                Float(page.width) / Float(width), Float(page.height) / Float(height), page.filter, page.pma ? 1 : 0,
            ]
        }
        glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), pageArray)
        let linear = GL_LINEAR
        glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_MAG_FILTER), linear)
        glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        if mipmaps {
            glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_MIN_FILTER), GL_LINEAR_MIPMAP_LINEAR)
            glGenerateMipmap(GL.e(GL_TEXTURE_2D_ARRAY))
        } else {
            glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_MIN_FILTER), linear)
            glTexParameteri(GL.e(GL_TEXTURE_2D_ARRAY), GL.e(GL_TEXTURE_MAX_LEVEL), 0)
        }
        glBindTexture(GL.e(GL_TEXTURE_2D_ARRAY), 0)
        glBindTexture(GL.e(GL_TEXTURE_2D), 0)
        let error = GL.firstError()
        guard error == 0 else {
            throw .texture("copying atlas pages into the page array: GL error 0x\(String(error, radix: 16))")
        }
        glUseProgram(program.name)
        glUniform1i(uniforms["uHasMipmaps"] ?? -1, mipmaps ? 1 : 0)
    }
}
