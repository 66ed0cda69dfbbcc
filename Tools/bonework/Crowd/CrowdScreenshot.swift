import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld

/// Draws the crowd's last frame offscreen (headless EGL, the GPU path) and writes a PNG.
/// Characters are drawn back to front (higher on the plane first); the view is the camera's.
enum CrowdScreenshot {
    static func write(
        _ sim: CrowdSimulation, atlases: [Atlas], camera: CrowdCamera, to file: String, width: Int, height: Int,
        threads: Int = 1
    ) throws -> (drawn: Int, drawCalls: Int) {
        let context = GLContext.headless(try HeadlessGLContext())
        let drawing = try CrowdDrawing(sim: sim, atlases: atlases, context: context, threads: threads)
        let v = camera.view
        let viewport = WorldViewport(
            x: v.x - Float(width) / 2 / v.zoom, y: v.y - Float(height) / 2 / v.zoom, width: Float(width) / v.zoom,
            height: Float(height) / v.zoom)
        let target = try OffscreenTarget(width: width, height: height, context: context)
        target.clear(0.16, 0.18, 0.2, 1)
        let drawn = try drawing.draw(sim, viewport: viewport)
        try PNG.write(target.readImage(), to: file)
        return (drawn, drawing.renderer.lastFrame.drawCalls)
    }
}
