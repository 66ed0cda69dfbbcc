import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld
import Synchronization

/// Draws drawables into one GL context: one texture set per atlas (shared by every drawable of
/// it), one draw list per frame (skeletons and overlay shapes in the order added), one draw call
/// per texture/blend change.
public final class SkeletonRenderer {
    /// The GL context this renderer draws with; make it current before drawing from another thread.
    public let context: GLContext
    let batch: BatchRenderer
    private var textures: [ObjectIdentifier: (atlas: Atlas, textures: AtlasTextures)] = [:]
    let white: AtlasTextures
    private var builder = FrameBuilder()
    private(set) var list = DrawList()
    private var itemList = DrawList()
    /// What the skeletons of the last frame drew.
    public private(set) var stats = FrameStats()

    /// A renderer for `context` (which must be current): compiles the batch shaders and uploads a 1x1 white texture for shapes.
    /// - Throws: `RenderError` when the shaders or the texture cannot be created.
    public init(context: GLContext) throws {
        self.context = context
        batch = try BatchRenderer(context: context)
        var page = AtlasPage(name: "white")
        page.width = 1
        page.height = 1
        page.pma = true
        white = try AtlasTextures(
            atlas: Atlas(file: "<white>", pages: [page], regions: []),
            images: [Image(width: 1, height: 1, pixels: [255, 255, 255, 255])], context: context)
    }

    /// The textures of an atlas in this context (uploaded on first use).
    public func textures(for atlas: Atlas) throws -> AtlasTextures {
        let id = ObjectIdentifier(atlas)
        if let hit = textures[id], hit.atlas === atlas { return hit.textures }
        let made = try AtlasTextures(atlas: atlas, context: context)
        textures[id] = (atlas, made)
        return made
    }

    /// Releases every atlas's textures (they are uploaded again when next needed).
    public func releaseTextures() { textures.removeAll() }
    /// Atlases whose textures are uploaded in this context now.
    public var textureSetCount: Int { textures.count }

    /// Draws a drawable's current pose into the bound framebuffer (GL viewport over a target of
    /// `targetSize` pixels), placed by `layout`.
    public func draw(_ drawable: SkeletonDrawable, layout: Layout, targetSize: Size) throws {
        let snapshot = try drawable.snapshot()
        let pages = try textures(for: drawable.atlas).bindings
        itemList.removeAll()
        builder.build(snapshot, drawData: drawable.assets.drawData, pages: pages, into: &itemList)
        stats = builder.stats
        batch.draw(itemList, viewport: layout.worldViewport(targetSize: targetSize))
    }

    /// Draws the overlay shapes added since the last call (skeleton coordinates placed by `layout`).
    public func drawShapes(layout: Layout, targetSize: Size) {
        batch.draw(list, viewport: layout.worldViewport(targetSize: targetSize))
        list.removeAll()
    }

    /// Shapes waiting to be drawn.
    public var pendingShapeTriangles: Int { list.triangleCount }

    /// Adds a filled convex polygon (skeleton coordinates) in a straight-alpha colour.
    public func fill(_ points: [Point], color: Color) {
        guard points.count >= 3 else { return }
        var positions: [Float] = []
        for p in points { positions += [p.x, p.y] }
        var triangles: [UInt32] = []
        for k in 1..<(points.count - 1) { triangles += [0, UInt32(k), UInt32(k + 1)] }
        list.append(
            positions: positions, uvs: [Float](repeating: 0.5, count: positions.count), triangles: triangles,
            colors: SlotVertexColors(
                skeleton: .white, slot: color, attachment: .white, dark: nil, premultiplied: true),
            texture: white.names[0], blendMode: .normal, premultiplied: true)
    }

    /// Adds a line segment `width` units thick.
    public func line(_ a: Point, _ b: Point, width: Float, color: Color) {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, length.isFinite else { return }
        let nx = -dy / length * width / 2
        let ny = dx / length * width / 2
        fill(
            [
                Point(x: a.x + nx, y: a.y + ny), Point(x: b.x + nx, y: b.y + ny), Point(x: b.x - nx, y: b.y - ny),
                Point(x: a.x - nx, y: a.y - ny),
            ], color: color)
    }

    /// Renders into a new offscreen image: `body` draws (the target is bound and cleared).
    public func renderImage(width: Int, height: Int, background: Color, _ body: () throws -> Void) throws -> Image {
        let target = try OffscreenTarget(width: width, height: height, context: context)
        target.clear(
            background.r * background.a, background.g * background.a, background.b * background.a, background.a)
        target.bind()
        try body()
        return target.readImage()
    }
}

/// The process's headless renderer (EGL, no window), used by `renderToImage` and headless views;
/// one caller at a time.
public enum OffscreenRenderer {
    nonisolated(unsafe) private static var shared: SkeletonRenderer?
    private static let lock = Mutex<Void>(())

    /// Runs `body` with the shared headless renderer (created on first use).
    public static func withShared<T>(_ body: (SkeletonRenderer) throws -> T) throws -> T {
        try lock.withLock { _ in
            if shared == nil { shared = try SkeletonRenderer(context: .headless(HeadlessGLContext())) }
            guard let renderer = shared else { throw BoneworkError.notLoaded }
            renderer.context.makeCurrent()
            // Async callers hop threads: leave the context free for the next one.
            defer { if case .headless(let context) = renderer.context { context.releaseCurrent() } }
            return try body(renderer)
        }
    }
}
