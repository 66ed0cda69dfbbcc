import BoneworkFormat
import BoneworkWorld

/// A frame of the GPU path packed into tables on the heap, with no GL context: the characters' rows
/// laid out as `GPURenderer.beginFrame` lays them out (`GPUFrame.layOut`), in tables of exactly the
/// sizes it would map (`GPUFrame.tableBytes`), so that a write past a character's rows is a heap
/// overflow that AddressSanitizer reports. The `play` fuzz target packs its instances through it
/// (`FuzzPlay`), and `check()` tells whether what was packed is something the GPU could draw.
///
/// Every character is of one kind, built from `geometry` and the atlas pages' premultiplied flags.
package final class GPUHeapFrame {
    /// The open frame: pack it with `GPUFrame.pack`, from one thread per chunk.
    package let frame: GPUFrame
    let kind: GPURendererKind
    private let chunks: [GPUChunk]
    private let tally: PackTally
    private let rows: UnsafeMutableBufferPointer<GPUCharacterRows>
    private let kindRefs: UnsafeMutablePointer<Unmanaged<GPURendererKind>>
    private let chunkRefs: UnsafeMutablePointer<Unmanaged<GPUChunk>>
    private let tables: [UnsafeMutableRawPointer]

    /// A frame of `count` characters of `geometry`'s skeleton in `chunkCount` chunks.
    /// - Throws: `RenderError.buffer` when the tables would need more rows than 32-bit indices
    ///   reach (as `GPURenderer.beginFrame`).
    package init(geometry: GPUSkeletonGeometry, premultiplied: [Bool], count: Int, chunks chunkCount: Int)
        throws(RenderError)
    {
        let kind = GPURendererKind(
            geometry: geometry, textures: nil, premultiplied: premultiplied, cornerBase: 0, vertexBase: 0,
            influenceBase: 0, layerBase: 0, attachmentTexelBase: 0, clipPartTexelBase: 0)
        let rows = UnsafeMutableBufferPointer<GPUCharacterRows>.allocate(capacity: max(1, count))
        let kinds = [Int32](repeating: 0, count: count)
        let layout: (boneTexels: Int, slotTexels: Int, deformFloats: Int)
        do {
            layout = try kinds.withUnsafeBufferPointer { (k) throws(RenderError) in
                try GPUFrame.layOut(k, kinds: [kind], into: rows)
            }
        } catch {
            rows.deallocate()
            throw error
        }
        let chunkCount = max(1, chunkCount)
        let chunks = (0..<chunkCount).map { _ in GPUChunk() }
        let kindRefs = UnsafeMutablePointer<Unmanaged<GPURendererKind>>.allocate(capacity: 1)
        kindRefs[0] = Unmanaged.passUnretained(kind)
        let chunkRefs = UnsafeMutablePointer<Unmanaged<GPUChunk>>.allocate(capacity: chunkCount)
        for c in 0..<chunkCount { chunkRefs[c] = Unmanaged.passUnretained(chunks[c]) }
        let bytes = GPUFrame.tableBytes(
            count: count, boneTexels: layout.boneTexels, slotTexels: layout.slotTexels,
            deformFloats: layout.deformFloats)
        // Zeroed, slot rows all ones (`.max`: nothing shown), as what packing leaves unwritten reads.
        let tables = [bytes.0, bytes.1, bytes.2, bytes.3].enumerated().map { (t, size) in
            let table = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            table.initializeMemory(as: UInt8.self, repeating: t == 1 ? 0xFF : 0, count: size)
            return table
        }
        let tally = PackTally()
        tally.reset(frame: 1)
        self.kind = kind
        self.rows = rows
        self.chunks = chunks
        self.kindRefs = kindRefs
        self.chunkRefs = chunkRefs
        self.tables = tables
        self.tally = tally
        frame = GPUFrame(
            count: count, chunkCount: chunkCount, id: 1, tally: tally, rows: UnsafePointer(rows.baseAddress!),
            kinds: UnsafePointer(kindRefs), chunks: UnsafePointer(chunkRefs),
            bones: tables[0].bindMemory(to: Float.self, capacity: bytes.0 / 4),
            slots: tables[1].bindMemory(to: UInt32.self, capacity: bytes.1 / 4),
            deform: tables[2].bindMemory(to: Float.self, capacity: bytes.2 / 4),
            characters: tables[3].bindMemory(to: Int32.self, capacity: bytes.3 / 4))
    }

    /// Chunk `c`'s draw commands and clipped corners, as packed.
    func chunkOutput(_ c: Int) -> (commands: [GPUCommand], dynamic: [UInt32]) {
        (chunks[c].commands, chunks[c].dynamic)
    }

    deinit {
        for table in tables { table.deallocate() }
        rows.deallocate()
        kindRefs.deallocate()
        chunkRefs.deallocate()
    }

    /// The first thing packed that the GPU could not draw, nil when there is none: a draw command
    /// that is empty, names a character outside the frame or corners outside the kind's static
    /// corners or its chunk's clipped ones; a character record that does not point at the
    /// character's rows; a slot row naming a region frame the skeleton lacks or deform offsets
    /// outside the character's deform area. Call after every chunk is packed.
    package func check() -> String? {
        let g = kind.geometry
        let d = g.drawData
        let count = frame.count
        for (c, chunk) in chunks.enumerated() {
            let corners = chunk.dynamic.count / 8
            for (i, command) in chunk.commands.enumerated() {
                let end = Int(command.first) + Int(command.count)
                guard command.count > 0, Int(command.character) < count,
                    end <= (command.dynamic ? corners : g.cornerCount)
                else {
                    return "chunk \(c) command \(i): \(command) (\(corners) clipped corners, \(g.cornerCount) static)"
                }
            }
        }
        let frameCount = d.framePages.count
        for k in 0..<count {
            let r = rows[k]
            let record = frame.characters + k * GPUFrame.recordWords
            guard record[0] == r.boneTexel, record[1] == r.slotTexel, record[2] == r.deformFloat else {
                return "character \(k): record \(record[0]), \(record[1]), \(record[2]) for rows \(r)"
            }
            let area = Int(r.deformFloat)..<(Int(r.deformFloat) + g.deformFloats)
            for s in 0..<d.slotCount {
                let row = frame.slots + (Int(r.slotTexel) + s) * GPUSkeletonGeometry.slotWords
                if row[0] != .max && Int(row[0]) >= frameCount {
                    return "character \(k) slot \(s): region frame \(row[0]) of \(frameCount)"
                }
                if row[3] != .max && !area.contains(Int(row[3])) {
                    return "character \(k) slot \(s): deform offsets at \(row[3]) outside \(area)"
                }
            }
        }
        return nil
    }
}
