import BoneworkWorld

// Where each character's rows go in a frame's tables, and the tables' sizes: shared by
// `GPURenderer.beginFrame` (mapped GL buffers) and `GPUHeapFrame` (the heap), so that both lay a
// frame out the same way.
extension GPUFrame {
    /// Lays out the rows of one character per entry of `characterKinds` (an index into `kinds`),
    /// one after the other in each table, into `rows` (room for every character). Returns the
    /// texels and floats the tables need.
    /// - Throws: `RenderError.request` for a kind out of range, `.buffer` when the tables would
    ///   need more rows than 32-bit indices reach.
    static func layOut(
        _ characterKinds: UnsafeBufferPointer<Int32>, kinds: [GPURendererKind],
        into rows: UnsafeMutableBufferPointer<GPUCharacterRows>
    ) throws(RenderError) -> (boneTexels: Int, slotTexels: Int, deformFloats: Int) {
        var boneTexels = 0
        var slotTexels = 0
        var deformFloats = 0
        for k in 0..<characterKinds.count {
            let kind = Int(characterKinds[k])
            guard kind >= 0 && kind < kinds.count else {
                throw .request("character \(k) has kind \(kind), not registered")
            }
            let g = kinds[kind].geometry
            rows[k] = GPUCharacterRows(
                kind: Int32(kind), boneTexel: Int32(truncatingIfNeeded: boneTexels),
                slotTexel: Int32(truncatingIfNeeded: slotTexels),
                deformFloat: Int32(truncatingIfNeeded: deformFloats))
            boneTexels &+= g.boneTableFloats / 4
            slotTexels &+= g.drawData.slotCount
            deformFloats &+= g.deformFloats
        }
        guard boneTexels < Int(Int32.max) / 4, slotTexels < Int(Int32.max), deformFloats < Int(Int32.max) else {
            throw .buffer(
                "a frame of \(characterKinds.count) characters needs more table rows than 32-bit indices reach")
        }
        return (boneTexels, slotTexels, deformFloats)
    }

    /// Bytes of the bone, slot, deform and character tables a frame of `count` characters laid out
    /// by `layOut` packs into (16 at least each).
    static func tableBytes(count: Int, boneTexels: Int, slotTexels: Int, deformFloats: Int) -> (Int, Int, Int, Int) {
        (
            max(16, boneTexels * 16), max(16, slotTexels * 16), max(16, deformFloats * 4),
            max(16, count * GPUFrame.recordWords * 4)
        )
    }
}
