import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld

/// Draws the crowd's last frame offscreen (headless EGL, the CPU vertex path) and writes a PNG.
/// Characters are drawn back to front (higher on the plane first); the view is the camera's.
enum CrowdScreenshot {
    static func write(
        _ sim: CrowdSimulation, atlases: [Atlas], camera: CrowdCamera, to file: String, width: Int, height: Int
    ) throws -> (drawn: Int, drawCalls: Int) {
        let context = GLContext.headless(try HeadlessGLContext())
        let renderer = try BatchRenderer(context: context)
        // The textures live until the frame is read back.
        var textures: [AtlasTextures] = []
        var pages: [PageBindings] = []
        var drawData: [SkeletonDrawData] = []
        for (k, kind) in sim.kinds.enumerated() {
            textures.append(try AtlasTextures(atlas: atlases[k], context: context))
            pages.append(textures[k].bindings)
            drawData.append(SkeletonDrawData(kind.data))
        }
        let v = camera.view
        let viewport = WorldViewport(
            x: v.x - Float(width) / 2 / v.zoom, y: v.y - Float(height) / 2 / v.zoom, width: Float(width) / v.zoom,
            height: Float(height) / v.zoom)
        // Agents inside the view (with a margin for the character's size), back to front.
        let margin: Float = 150
        var order: [Int] = []
        for a in 0..<sim.count {
            let (x, y) = (sim.x[a], sim.y[a])
            if x > viewport.x - margin && x < viewport.x + viewport.width + margin && y > viewport.y - margin
                && y < viewport.y + viewport.height + margin
            {
                order.append(a)
            }
        }
        order.sort { sim.y[$0] > sim.y[$1] }
        var list = DrawList()
        var builder = FrameBuilder()
        for a in order {
            let k = Int(sim.kind[a])
            // Straight from the instance's columns: its attachments as its (possibly composed)
            // skin resolved them, no copy of the pose.
            let pose = try sim.world.poseView(sim.entity[a])
            builder.build(pose, drawData: drawData[k], pages: pages[k], into: &list)
        }
        let target = try OffscreenTarget(width: width, height: height, context: context)
        target.clear(0.16, 0.18, 0.2, 1)
        renderer.draw(list, viewport: viewport, into: target)
        try PNG.write(target.readImage(), to: file)
        withExtendedLifetime(textures) {}
        return (order.count, renderer.lastDrawCalls)
    }
}
