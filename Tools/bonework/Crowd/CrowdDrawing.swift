import BoneworkFormat
import BoneworkRender
import BoneworkWorld
import CAllocationCounter

/// Draws the crowd through the GPU path (`GPURenderer`): the agents inside the view (with a
/// margin for a character's size), back to front (higher on the plane first), every kind in one
/// frame, straight from the World's columns: the renderer locates the visible agents and writes
/// their records on `threads` threads; the world transforms are read where the pose system wrote
/// them (the World keeps them in the renderer's `columnMemory`), the other columns are copied in
/// bulk; an agent whose draw order or clip needs it is packed slot by slot. Once warm nothing is
/// allocated.
final class CrowdDrawing {
    let renderer: GPURenderer
    /// The kinds' atlas textures (they back the renderer's page array until it is rebuilt).
    private var textures: [AtlasTextures] = []
    /// The visible agents of the last frame, back to front.
    private var visible = UnsafeBufferPointer<Int32>(start: nil, count: 0)
    private let culling = BackToFront(margin: CrowdDrawing.margin)
    /// CPU time the last frame's culling and ordering took on every thread, nanoseconds.
    private(set) var cullNanoseconds: UInt64 = 0
    /// How far outside the view an agent's position may be and still be drawn, world units.
    static let margin: Float = 150

    /// The profiler's row for culling and ordering (the GL thread's share of drawing).
    private let cullSystem: ApplicationSystem

    init(sim: CrowdSimulation, atlases: [Atlas], context: GLContext, threads: Int) throws {
        renderer = try GPURenderer(context: context)
        sim.world.columnMemory = renderer.columnMemory
        cullSystem = try sim.world.scheduler.profiler.addApplicationSystem("cull + order")
        renderer.packThreads = threads
        renderer.driverCalls = { bonework_driver_section($0) }
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
        sim.world.scheduler.profiler.measure(cullSystem, in: .lastFrame) {
            visible = sim.x.withUnsafeBufferPointer { x in
                sim.y.withUnsafeBufferPointer { y in
                    culling.run(x: x, y: y, viewport: viewport, everyone: everyone, threads: renderer.packThreads)
                }
            }
        }
        cullNanoseconds = culling.lastCPUNanoseconds
        try sim.entity.withUnsafeBufferPointer { entities throws(RenderError) in
            try sim.kind.withUnsafeBufferPointer { kinds throws(RenderError) in
                _ = try renderer.draw(sim.world, entities: entities, kinds: kinds, order: visible, viewport: viewport)
            }
        }
        return visible.count
    }
}
