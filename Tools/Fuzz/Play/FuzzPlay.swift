import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import Synchronization

/// What the `play` fuzz target (Tools/Fuzz/Fuzz-play.swift) does with a skeleton that loads, kept
/// in the package so that the test replaying its regression inputs runs the same code:
///
/// - `load` resolves the skeleton against an atlas made up for it (`atlas(for:choices:)`: every
///   image it names, rotated, offset, on one to three pages);
/// - `play` spawns instances with no skin, with some of its skins and with a composed skin (for a
///   quarter of the inputs, more without a skin, up to 16: the pose system's 8-lane steps); plays
///   animations alone on track 0 and mixed into another on track 1 (crossfades of 0.1 s, alpha and
///   additive blending on some), replaced mid-mix, queued, cleared; runs frames of varied deltas
///   (0, tiny, usual, long, negative, NaN, huge) through every system, on one thread and, for half
///   of the inputs, two (chunks of one row, so that two threads really split the rows), systems
///   interleaved or one after another; and reads what the frames made: the world vertices the
///   vertex system hands out (`Scheduler.vertexHandler`), the CPU draw list with clipping
///   (`FrameBuilder`), bounds with and without clipping, and a copy of a pose.
///
/// The per-input choices (which skins, animations, deltas, thread counts) come from a digest of
/// the input (`FuzzChoices`), so that every kind is reached across a run while each input stays
/// cheap. A broken invariant throws `FuzzPlay.Finding`; `WorldError` and `AnimationStateError` are
/// answers, not findings.
public enum FuzzPlay {
    /// An invariant the frame's consumers rely on, found broken.
    public struct Finding: Error, CustomStringConvertible {
        /// What was broken.
        public var description: String
    }

    /// Frame deltas: every kind is used across a run, four per input.
    static let deltas: [Float] = [0, 1e-6, 1.0 / 60, 1.0 / 30, 0.25, 3, -0.02, .nan, 1e6, -.infinity]

    /// Resolves a read skeleton against `atlas(for:choices:)` (validation included).
    /// - Throws: `LoadError`, as the readers do.
    public static func load(_ builder: SkeletonDataBuilder, choices: inout FuzzChoices) throws -> SkeletonData {
        try builder.finish(atlas: atlas(for: builder.attachments, choices: &choices))
    }

    /// An atlas holding every image the attachments name (each sequence frame too): regions of the
    /// attachment's size (sometimes 0 or 1 pixel, as an atlas file may say), packed rotated by 0,
    /// 90, 180 or 270 degrees, with whitespace offsets, on one to three pages.
    public static func atlas(for attachments: [AttachmentData], choices: inout FuzzChoices) -> Atlas {
        let pageCount = 1 + choices.below(3)
        var pages: [AtlasPage] = []
        for p in 0..<pageCount {
            var page = AtlasPage(name: "page\(p).png")
            page.width = 1024
            page.height = p == 2 ? 256 : 1024
            page.pma = choices.chance(1, in: 2)
            pages.append(page)
        }
        var regions: [AtlasRegion] = []
        var cursor: Int32 = 0
        for a in attachments where a.kind == .region || a.kind == .mesh {
            for f in 0..<max(1, Int(a.sequence?.count ?? 1)) {
                let name = a.sequence.map { $0.path(base: a.path, frame: f) } ?? a.path
                let page = Int32(choices.below(pageCount))
                var region = AtlasRegion(name: name, page: page)
                let size = choices.below(16)
                region.width = size == 0 ? 0 : size == 1 ? 1 : Int32(min(max(abs(a.width), 2), 900))
                region.height = size == 0 ? 0 : size == 1 ? 1 : Int32(min(max(abs(a.height), 2), 900))
                region.x = cursor % 100
                region.y = (cursor / 100) % 100
                cursor &+= 7
                region.degrees = [0, 0, 90, 90, 180, 270][choices.below(6)]
                let trimmed = choices.chance(1, in: 3)
                region.offsetX = trimmed ? Float(choices.below(8)) : 0
                region.offsetY = trimmed ? Float(choices.below(8)) : 0
                region.originalWidth = Float(region.width) + (trimmed ? Float(choices.below(16)) : 0)
                region.originalHeight = Float(region.height) + (trimmed ? Float(choices.below(16)) : 0)
                // Texture coordinates as the atlas reader computes them.
                let pageWidth = Float(pages[Int(page)].width)
                let pageHeight = Float(pages[Int(page)].height)
                let (w, h) = region.degrees == 90 ? (region.height, region.width) : (region.width, region.height)
                region.u = Float(region.x) / pageWidth
                region.v = Float(region.y) / pageHeight
                region.u2 = Float(region.x + w) / pageWidth
                region.v2 = Float(region.y + h) / pageHeight
                regions.append(region)
            }
        }
        return Atlas(file: "fuzz.atlas", pages: pages, regions: regions)
    }

    /// Plays `data` as described above.
    /// - Throws: `Finding` for a broken invariant; `WorldError` or `AnimationStateError` when the
    ///   world refuses (an answer, not a finding).
    public static func play(_ data: SkeletonData, choices: inout FuzzChoices) throws {
        let findings = FindingLog()
        let scheduler = Scheduler(capacity: 4, threads: 1)
        // One row is enough for a chunk of its own: with two threads, a handful of instances split.
        scheduler.minimumChunkRows = 1
        scheduler.minimumChunkMicroseconds = 0
        scheduler.mode = choices.chance(1, in: 2) ? .interleaved : .split
        scheduler.blockRows = 1 + choices.below(4)
        scheduler.vertexHandler = { findings.check($0) }
        // A third of the inputs play with update rates: rows not posed every frame apply only their
        // events and draw from their history, or hold their pose when hidden.
        let rated = choices.chance(1, in: 3)
        let world = World(trackCount: 3, scheduler: scheduler, memoryLimit: 64 << 20, updateRates: rated)
        try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.1))

        var entities = [try world.spawn(data)]
        let skins = data.skins.count
        let firstSkin = choices.below(skins)
        for k in 0..<min(skins, 3) {
            entities.append(try world.spawn(data, skin: data.skins[(firstSkin + k) % skins].name))
        }
        if skins >= 2 {
            let parts = (0..<3).map { _ in data.skins[choices.below(skins)].name }
            let composed = try world.spawn(data)
            try world.setSkin(composed, parts: parts)
            entities.append(composed)
        }

        // A quarter of the inputs fill two chunks of 8 rows, the second with instances of one
        // plan: the pose system's 8-lane steps (physics among them) need 8 aligned rows that agree.
        if choices.chance(1, in: 4) {
            while entities.count < 16 { entities.append(try world.spawn(data)) }
        }

        let animations = data.animations.count
        if animations > 0 {
            let first = choices.below(animations)
            for (i, e) in entities.enumerated() {
                let state = try world.animationState(e)
                let a = Int32((first + i) % animations)
                let b = Int32((first + i + 1) % animations)
                try state.setAnimation(0, a, loop: i % 2 == 0)
                // Mixed into another on a second track: alpha, additive blending, reversed on some.
                let layered = try state.setAnimation(1, b, loop: true)
                try layered.setAlpha(0.5)
                if choices.chance(1, in: 3) { try layered.setMixBlend(.add) }
                if choices.chance(1, in: 4) { try layered.setReverse(true) }
                if choices.chance(1, in: 2) { try state.addAnimation(0, b, loop: false, delay: 0.05) }
            }
        }

        if rated {
            for e in entities {
                try world.setUpdateRate(e, UpdateRate(shift: choices.below(UpdateRate.all.count)))
                try world.setSignificance(e, [0, 0.5, 1, .nan, -1, 2][choices.below(6)])
                // Not drawn: between computed frames the row holds its pose instead of drawing one.
                try world.setVisible(e, choices.chance(1, in: 2))
            }
            if choices.chance(1, in: 2) {
                world.updateBudget = UpdateBudget(milliseconds: [0.001, 1, 1000][choices.below(3)])
            }
            if choices.chance(1, in: 2) { scheduler.updateRateBlend = .interpolate }
        }

        let twoThreads = choices.chance(1, in: 2)
        for frame in 0..<4 {
            scheduler.threads = twoThreads && frame >= 2 ? 2 : 1
            world.update(frame == 0 ? 1.0 / 60 : deltas[choices.below(deltas.count)])
        }
        try findings.throwFirst()
        try drawEverything(world, entities, data, choices: &choices)

        // Entries replaced mid-mix (crossfades from the playing ones), then cleared, one instance gone.
        if animations > 0 {
            let a = Int32(choices.below(animations))
            for e in entities { try world.animationState(e).setAnimation(0, a, loop: false) }
            world.update(1.0 / 60)
        }
        for e in entities.prefix(2) { try world.clearTrack(e, track: 0) }
        try world.animationState(entities[entities.count - 1]).setEmptyAnimations(mixDuration: 0.05)
        try world.despawn(entities[0])
        scheduler.threads = twoThreads ? 2 : 1
        world.update(deltas[choices.below(deltas.count)])
        try findings.throwFirst()
        try drawEverything(world, Array(entities.dropFirst()), data, choices: &choices)
    }

    /// The consumers of a pose: the CPU draw list with clipping, bounds with and without clipping,
    /// (for one instance) a full copy of the pose with every attachment's world vertices, and the
    /// GPU path's packing (`packForGPU`).
    static func drawEverything(
        _ world: World, _ entities: [Entity], _ data: SkeletonData, choices: inout FuzzChoices
    ) throws {
        let drawData = SkeletonDrawData(data)
        let pages = PageBindings.numbered(data.atlas?.pages.count ?? 0)
        var builder = FrameBuilder()
        var list = DrawList()
        let views = try entities.map { try world.poseView($0) }
        for (i, e) in entities.enumerated() {
            builder.build(views[i], drawData: drawData, pages: pages, into: &list)
            if let box = try world.bounds(e, clipping: i % 2 == 0), box.width < 0 || box.height < 0 {
                throw Finding(description: "bounds of negative size: \(box)")
            }
        }
        try check(list, pages: pages)
        if !entities.isEmpty { _ = try world.pose(entities[choices.below(entities.count)]) }
        try packForGPU(views, drawData, choices: &choices)
    }

    /// The GPU path's per-character packing of the same instances (bone rows, slot rows, deform
    /// offsets, draw commands, clipped corners) into tables on the heap of exactly the sizes the
    /// renderer maps (`GPUHeapFrame`), from the skeleton's GPU geometry, in one or two chunks;
    /// then what was packed is checked against what the GPU reads.
    static func packForGPU(_ views: [PoseView], _ drawData: SkeletonDrawData, choices: inout FuzzChoices) throws {
        let geometry = GPUSkeletonGeometry(drawData)
        let premultiplied = drawData.data.atlas?.pages.map(\.pma) ?? []
        let heap: GPUHeapFrame
        do {
            heap = try GPUHeapFrame(
                geometry: geometry, premultiplied: premultiplied, count: views.count, chunks: 1 + choices.below(2))
        } catch {
            throw Finding(description: "GPU frame of \(views.count) characters refused: \(error)")
        }
        let frame = heap.frame
        for c in 0..<frame.chunkCount { frame.pack(chunk: c, range: frame.range(ofChunk: c)) { views[$0] } }
        if let broken = heap.check() { throw Finding(description: "GPU packing: \(broken)") }
    }

    /// A draw list whose index points past its vertices, or whose batches overlap or leave indices
    /// out, would make a renderer read past its buffers.
    static func check(_ list: DrawList, pages: PageBindings) throws {
        let vertexCount = list.vertices.count
        if let index = list.indices.first(where: { Int($0) >= vertexCount }) {
            throw Finding(description: "draw list index \(index) past its \(vertexCount) vertices")
        }
        guard list.indices.count % 3 == 0 else {
            throw Finding(description: "draw list of \(list.indices.count) indices: not whole triangles")
        }
        var next = 0
        for batch in list.batches {
            guard batch.indexStart == next, batch.indexCount > 0, pages.textures.contains(batch.texture) else {
                throw Finding(description: "draw batch \(batch) after index \(next) of \(list.indices.count)")
            }
            next = batch.indexStart + batch.indexCount
        }
        guard next == list.indices.count else {
            throw Finding(description: "draw batches cover \(next) of \(list.indices.count) indices")
        }
    }
}

/// The first broken invariant the vertex handler saw (it runs on the frame's worker threads).
final class FindingLog: Sendable {
    private let first = Mutex<String?>(nil)

    /// Every draw the vertex system hands out lies inside its block's vertex buffer and belongs
    /// to one of the block's rows; each vertex is read, so that AddressSanitizer sees the range.
    func check(_ block: VertexBlock) {
        var sum: Float = 0
        for draw in block.draws {
            guard block.rows.contains(Int(draw.row)), draw.offset >= 0, draw.count >= 0,
                Int(draw.offset) + Int(draw.count) <= block.vertices.count
            else {
                first.withLock {
                    $0 = $0 ?? "vertex draw \(draw) outside rows \(block.rows), \(block.vertices.count) floats"
                }
                return
            }
            for i in Int(draw.offset)..<Int(draw.offset + draw.count) { sum += block.vertices[i] }
        }
        keep(sum)
    }

    /// Keeps the optimizer from dropping the reads that produced `value`.
    @_optimize(none) private func keep(_ value: Float) {}

    func throwFirst() throws {
        if let message = first.withLock({ $0 }) { throw FuzzPlay.Finding(description: message) }
    }
}

/// Deterministic choices drawn from an input: a SplitMix64 sequence seeded by the input's length
/// and its last 64 bytes (cheap for inputs of 100 KB; an edit that changes neither keeps the same
/// choices, and a reproducer makes the same ones).
public struct FuzzChoices {
    private var state: UInt64

    /// The choices for `bytes`.
    public init(_ bytes: [UInt8]) {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        for b in bytes.suffix(64) { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        state = h
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (0 when `bound` is 0).
    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(next() % UInt64(bound)) : 0 }

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool { below(denominator) < numerator }
}
