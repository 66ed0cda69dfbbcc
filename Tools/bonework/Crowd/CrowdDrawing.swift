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
    /// Per drawn character: its batch and row.
    private let rows = BatchRows()
    private let culling = BackToFront(margin: CrowdDrawing.margin)
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
        rows.pack(frame, with: renderer)
        renderer.submit(frame, viewport: viewport)
        return order.count
    }

    /// The agents in view, back to front, with their kinds and pose views.
    private func cull(_ sim: CrowdSimulation, viewport: WorldViewport, everyone: Bool) throws {
        let visible = sim.x.withUnsafeBufferPointer { x in
            sim.y.withUnsafeBufferPointer { y in
                culling.run(x: x, y: y, viewport: viewport, everyone: everyone, threads: renderer.packThreads)
            }
        }
        order.removeAll(keepingCapacity: true)
        kinds.removeAll(keepingCapacity: true)
        sim.kind.withUnsafeBufferPointer { kind in
            for agent in visible {
                let a = Int(agent)
                order.append(a)
                kinds.append(kind[a])
            }
        }
        try sim.entity.withUnsafeBufferPointer { entity in
            try rows.gather(visible.count, entity: { entity[Int(visible[$0])] }, in: sim.world)
        }
    }
}
