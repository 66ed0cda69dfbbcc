import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld

/// One skeleton placed in a view.
public final class ViewItem {
    /// The controller of the skeleton shown.
    public let controller: SkeletonController
    /// How the bounds are scaled into the frame.
    public var mode: ContentMode
    /// Where the scaled bounds sit in the frame.
    public var alignment: Alignment
    /// What computes the bounds (on load and on `SkeletonView.refreshBounds()`).
    public var boundsProvider: any BoundsProvider
    /// The part of the view (pixels, y down) the skeleton is fitted into; nil: the whole view.
    public var frame: Rect?
    /// The bounds computed when the skeleton loaded (skeleton coordinates).
    public internal(set) var bounds: Rect

    init(
        controller: SkeletonController, mode: ContentMode, alignment: Alignment, boundsProvider: any BoundsProvider,
        frame: Rect?, bounds: Rect
    ) {
        self.controller = controller
        self.mode = mode
        self.alignment = alignment
        self.boundsProvider = boundsProvider
        self.frame = frame
        self.bounds = bounds
    }

    /// The layout of this item in a view of `viewSize`.
    public func layout(viewSize: Size) -> Layout {
        let f = frame ?? Rect(x: 0, y: 0, width: viewSize.width, height: viewSize.height)
        return Layout(
            bounds: bounds, viewSize: Size(width: f.width, height: f.height), mode: mode, alignment: alignment,
            origin: Point(x: f.x, y: f.y))
    }
}

/// A view hosting one or more skeletons, independent of where it is shown (a `SkeletonWindow`, or
/// headless images). Its GL side follows make / update / dismantle: `make` creates the renderer
/// and uploads textures once, `update` advances and draws from the current state, `dismantle`
/// releases the GL resources.
public final class SkeletonView {
    /// The skeletons shown, drawn in this order.
    public private(set) var items: [ViewItem] = []
    /// The view's size in pixels.
    public var size: Size
    /// Straight-alpha background colour (transparent by default).
    public var backgroundColor: Color
    /// When false, frames neither update nor draw the skeletons.
    public var isRendering = true
    /// The renderer once GL resources were made; nil before `make` and after `dismantle`.
    public private(set) var renderer: SkeletonRenderer?
    /// Frames updated and drawn so far.
    public private(set) var frameCount = 0

    /// An empty view of `size` pixels.
    public init(size: Size, backgroundColor: Color = Color(0, 0, 0, 0)) {
        self.size = size
        self.backgroundColor = backgroundColor
    }

    /// Loads a skeleton (asynchronously for `.http`), computes its bounds, calls the controller's
    /// `onInitialized`, and adds it to the view.
    @discardableResult
    public func add(
        _ source: SkeletonSource, controller: SkeletonController = SkeletonController(), mode: ContentMode = .fit,
        alignment: Alignment = .center, boundsProvider: any BoundsProvider = SetupPoseBounds(), frame: Rect? = nil,
        skin: String? = nil
    ) async throws -> ViewItem {
        let drawable = try await SkeletonDrawable.load(source, skin: skin)
        return try add(
            drawable, controller: controller, mode: mode, alignment: alignment, boundsProvider: boundsProvider,
            frame: frame)
    }

    /// Adds a loaded drawable.
    @discardableResult
    public func add(
        _ drawable: SkeletonDrawable, controller: SkeletonController = SkeletonController(), mode: ContentMode = .fit,
        alignment: Alignment = .center, boundsProvider: any BoundsProvider = SetupPoseBounds(), frame: Rect? = nil
    ) throws -> ViewItem {
        try drawable.checkAlive()
        let bounds = try boundsProvider.computeBounds(drawable)
        let item = ViewItem(
            controller: controller, mode: mode, alignment: alignment, boundsProvider: boundsProvider, frame: frame,
            bounds: bounds)
        try controller.initialize(drawable)
        try drawable.updateWorldTransforms()
        items.append(item)
        return item
    }

    /// Recomputes every item's bounds with its provider (e.g. after a skin change).
    public func refreshBounds() throws {
        for item in items { item.bounds = try item.boundsProvider.computeBounds(item.controller.loaded()) }
    }

    // MARK: - Lifecycle

    /// Creates the GL side in `context`: the renderer and every atlas's textures.
    public func make(context: GLContext) throws {
        guard renderer == nil else { return }
        let renderer = try SkeletonRenderer(context: context)
        for item in items { _ = try renderer.textures(for: item.controller.loaded().atlas) }
        self.renderer = renderer
    }

    /// Advances every item by `delta` and draws the frame into the bound framebuffer of
    /// `targetSize` pixels (view size times `pixelScale`).
    public func update(delta: Float, targetSize: Size) throws {
        guard isRendering else { return }
        guard let renderer else { throw BoneworkError.notLoaded }
        frameCount += 1
        for item in items {
            try item.controller.update(delta: delta)
        }
        let scale = size.width > 0 ? targetSize.width / size.width : 1
        for item in items {
            let drawable = try item.controller.loaded()
            var layout = item.layout(viewSize: size)
            item.controller.layout = layout
            // Draw at target resolution: the same layout scaled by the pixel density.
            layout = Layout(
                bounds: layout.bounds,
                viewSize: Size(width: layout.viewSize.width * scale, height: layout.viewSize.height * scale),
                mode: item.mode, alignment: item.alignment,
                origin: Point(x: layout.origin.x * scale, y: layout.origin.y * scale))
            let canvas = SkeletonCanvas(renderer: renderer, layout: layout)
            try item.controller.onBeforePaint?(item.controller, canvas)
            renderer.drawShapes(layout: layout, targetSize: targetSize)
            try renderer.draw(drawable, layout: layout, targetSize: targetSize)
            try item.controller.onAfterPaint?(item.controller, canvas)
            renderer.drawShapes(layout: layout, targetSize: targetSize)
        }
    }

    /// Releases the GL side (textures, buffers); `make` may build it again.
    public func dismantle() {
        renderer = nil
    }

    // MARK: - Headless

    /// Advances by `delta` and renders the view into an image (headless EGL, `pixelScale` pixels
    /// per view unit). Returns nil while `isRendering` is off.
    public func renderFrame(delta: Float, pixelScale: Float = 1) throws -> RenderedImage? {
        guard isRendering else { return nil }
        let width = Int((size.width * pixelScale).rounded())
        let height = Int((size.height * pixelScale).rounded())
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw BoneworkError.invalidArgument("view size \(width) x \(height)")
        }
        return try OffscreenRenderer.withShared { shared in
            if renderer == nil || renderer !== shared {
                renderer = shared
                for item in items { _ = try shared.textures(for: item.controller.loaded().atlas) }
            }
            let image = try shared.renderImage(width: width, height: height, background: backgroundColor) {
                try update(delta: delta, targetSize: Size(width: Float(width), height: Float(height)))
            }
            return RenderedImage(image)
        }
    }
}
