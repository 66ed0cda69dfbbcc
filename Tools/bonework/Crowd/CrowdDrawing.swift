import BoneworkFormat
import BoneworkRender
import BoneworkWorld

/// Draws the crowd through the GPU path (`GPURenderer`): the agents inside the view (with a
/// margin for a character's size), back to front (higher on the plane first), every kind in one
/// frame. Per frame it gathers the visible agents' pose views (no pose copy) and packs their rows
/// on `threads` threads straight into the renderer's mapped tables; once warm nothing is allocated.
final class CrowdDrawing {
    let renderer: GPURenderer
    /// The kinds' atlas textures (they back the renderer's page array until it is rebuilt).
    private var textures: [AtlasTextures] = []
    private var order: [Int] = []
    private var kinds: [Int32] = []
    private var poses: [PoseView] = []
    private var keys: [UInt64] = []
    private var batchViews: [(id: ObjectIdentifier, views: BatchPoseViews)] = []
    /// Thread CPU time the last frame's culling and ordering took, nanoseconds.
    private(set) var cullNanoseconds: UInt64 = 0
    /// How far outside the view an agent's position may be and still be drawn, world units.
    static let margin: Float = 150

    /// The profiler's row for culling and ordering (the GL thread's share of drawing).
    private let cullSystem: ApplicationSystem

    init(sim: CrowdSimulation, atlases: [Atlas], context: GLContext, threads: Int) throws {
        renderer = try GPURenderer(context: context)
        cullSystem = try sim.world.scheduler.profiler.addApplicationSystem("cull + order")
        renderer.packThreads = threads
        for (k, kind) in sim.kinds.enumerated() {
            let pages = try AtlasTextures(atlas: atlases[k], context: context)
            textures.append(pages)
            try renderer.register(GPUSkeletonGeometry(SkeletonDrawData(kind.data)), textures: pages)
        }
    }

    /// Draws the agents in `viewport` (every agent when `everyone`) into the bound framebuffer.
    /// Returns how many were drawn.
    @discardableResult
    func draw(_ sim: CrowdSimulation, viewport: WorldViewport, everyone: Bool = false) throws -> Int {
        let cullStart = RenderClock.threadCPU()
        try sim.world.scheduler.profiler.measure(cullSystem, in: .lastFrame) { () throws in
            try cull(sim, viewport: viewport, everyone: everyone)
        }
        cullNanoseconds = RenderClock.threadCPU() &- cullStart
        let frame = try kinds.withUnsafeBufferPointer { kinds throws(RenderError) in
            try renderer.beginFrame(kinds: kinds, chunks: renderer.chunks(for: kinds.count))
        }
        poses.withUnsafeBufferPointer { renderer.pack(frame, views: $0) }
        renderer.submit(frame, viewport: viewport)
        return order.count
    }

    /// The agents in view, back to front, with their kinds and pose views.
    private func cull(_ sim: CrowdSimulation, viewport: WorldViewport, everyone: Bool) throws {
        order.removeAll(keepingCapacity: true)
        let m = Self.margin
        for a in 0..<sim.count {
            let x = sim.x[a]
            let y = sim.y[a]
            if everyone
                || (x > viewport.x - m && x < viewport.x + viewport.width + m && y > viewport.y - m
                    && y < viewport.y + viewport.height + m)
            {
                order.append(a)
            }
        }
        // Back to front: sorted on (y descending, agent) packed in one integer key, no closure.
        keys.removeAll(keepingCapacity: true)
        for a in order {
            let bits = sim.y[a].bitPattern
            // Order-preserving map of the float onto unsigned integers, then reversed.
            let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
            keys.append(UInt64(~ordered) << 32 | UInt64(UInt32(truncatingIfNeeded: a)))
        }
        keys.sort()
        kinds.removeAll(keepingCapacity: true)
        poses.removeAll(keepingCapacity: true)
        batchViews.removeAll(keepingCapacity: true)
        for (k, key) in keys.enumerated() {
            let a = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
            order[k] = a
            kinds.append(sim.kind[a])
            // One column view per batch, not one per character.
            let (batch, row) = try sim.world.locate(sim.entity[a])
            let id = ObjectIdentifier(batch)
            if let cached = batchViews.first(where: { $0.id == id }) {
                poses.append(cached.views[row])
            } else {
                let views = batch.poseViews()
                batchViews.append((id, views))
                poses.append(views[row])
            }
        }
    }
}
