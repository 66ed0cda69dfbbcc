import BoneworkFormat

/// One vertex of the CPU path: world position, texture coordinates, light and dark colour
/// (`SlotVertexColors` packing). 24 bytes, the layout the vertex buffer uses.
public struct RenderVertex: Sendable, Equatable {
    /// World x.
    public var x: Float
    /// World y.
    public var y: Float
    /// Texture u, 0...1.
    public var u: Float
    /// Texture v, 0...1.
    public var v: Float
    /// The light colour, packed.
    public var light: UInt32
    /// The dark colour, packed.
    public var dark: UInt32

    /// A vertex from its fields.
    public init(x: Float, y: Float, u: Float, v: Float, light: UInt32, dark: UInt32) {
        self.x = x
        self.y = y
        self.u = u
        self.v = v
        self.light = light
        self.dark = dark
    }
}

/// A run of consecutive triangles drawn with one texture and one blend mode.
public struct DrawBatch: Sendable, Equatable {
    /// The texture to sample: a GL texture name when the list comes from a renderer's textures,
    /// otherwise whatever numbering the caller uses.
    public var texture: UInt32
    /// The blend mode the batch draws with.
    public var blendMode: BlendMode
    /// Whether the texture holds premultiplied alpha (chooses the blend functions).
    public var premultiplied: Bool
    /// The batch's range in `DrawList.indices`.
    public var indexStart: Int
    /// The batch's number of indices (three per triangle).
    public var indexCount: Int
}

/// The triangles of one frame in draw order, batched: every item appended with the same texture,
/// blend mode and alpha kind as the one before it extends the current batch. The arrays keep their
/// capacity across `removeAll()`, so a warmed-up list fills without allocating.
public struct DrawList: Sendable {
    /// Every vertex of the frame.
    public private(set) var vertices: [RenderVertex] = []
    /// Indices into `vertices`, three per triangle.
    public private(set) var indices: [UInt32] = []
    /// The batches in draw order.
    public private(set) var batches: [DrawBatch] = []

    /// An empty list.
    public init() {}

    /// Empties the list, keeping the arrays' capacity.
    public mutating func removeAll() {
        vertices.removeAll(keepingCapacity: true)
        indices.removeAll(keepingCapacity: true)
        batches.removeAll(keepingCapacity: true)
    }

    /// Triangles in the list.
    public var triangleCount: Int { indices.count / 3 }

    /// Appends one draw item: `positions` and `uvs` as `x, y` / `u, v` pairs (one pair per vertex,
    /// `vertexCount` vertices), `triangles` as indices into them. Triangles naming a missing vertex
    /// are dropped.
    public mutating func append<Index: FixedWidthInteger>(
        positions: UnsafeBufferPointer<Float>, uvs: UnsafeBufferPointer<Float>, vertexCount: Int,
        triangles: UnsafeBufferPointer<Index>, colors: SlotVertexColors,
        texture: UInt32, blendMode: BlendMode, premultiplied: Bool
    ) {
        let count = min(vertexCount, positions.count / 2, uvs.count / 2)
        guard count > 0, triangles.count >= 3 else { return }
        let base = vertices.count
        for k in 0..<count {
            vertices.append(
                RenderVertex(
                    x: positions[k * 2], y: positions[k * 2 + 1], u: uvs[k * 2], v: uvs[k * 2 + 1],
                    light: colors.light, dark: colors.dark))
        }
        let indexStart = indices.count
        var t = 0
        while t + 2 < triangles.count {
            let a = Int(triangles[t])
            let b = Int(triangles[t + 1])
            let c = Int(triangles[t + 2])
            t += 3
            guard a >= 0, b >= 0, c >= 0, a < count, b < count, c < count else { continue }
            indices.append(UInt32(truncatingIfNeeded: base + a))
            indices.append(UInt32(truncatingIfNeeded: base + b))
            indices.append(UInt32(truncatingIfNeeded: base + c))
        }
        let added = indices.count - indexStart
        guard added > 0 else {
            vertices.removeSubrange(base...)
            return
        }
        if let last = batches.last, last.texture == texture, last.blendMode == blendMode,
            last.premultiplied == premultiplied, last.indexStart + last.indexCount == indexStart
        {
            batches[batches.count - 1].indexCount += added
        } else {
            batches.append(
                DrawBatch(
                    texture: texture, blendMode: blendMode, premultiplied: premultiplied, indexStart: indexStart,
                    indexCount: added))
        }
    }

    /// Array convenience for `append(positions:uvs:vertexCount:triangles:...)`.
    public mutating func append<Index: FixedWidthInteger>(
        positions: [Float], uvs: [Float], triangles: [Index], colors: SlotVertexColors,
        texture: UInt32, blendMode: BlendMode, premultiplied: Bool = true
    ) {
        positions.withUnsafeBufferPointer { p in
            uvs.withUnsafeBufferPointer { uv in
                triangles.withUnsafeBufferPointer { t in
                    append(
                        positions: p, uvs: uv, vertexCount: p.count / 2, triangles: t, colors: colors,
                        texture: texture, blendMode: blendMode, premultiplied: premultiplied)
                }
            }
        }
    }
}
