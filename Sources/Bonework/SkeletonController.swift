import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld

/// Controls the skeleton a view shows: callbacks at fixed points of each frame, play/pause, and
/// access to the atlas, skeleton data, skeleton and animation state.
///
/// Order: `onInitialized` once when the skeleton has loaded; then every frame while playing:
/// (animation state updated and applied) `onBeforeUpdateWorldTransforms`, (world transforms)
/// `onAfterUpdateWorldTransforms`; then every drawn frame: `onBeforePaint` (shapes drawn under
/// the skeleton), (skeleton drawn) `onAfterPaint` (shapes drawn over it).
public final class SkeletonController {
    /// A lifecycle callback; an error it throws is thrown on by the call that ran it (`SkeletonView.add`,
    /// `SkeletonView.renderFrame`, `SkeletonWindow.run`).
    public typealias Callback = (SkeletonController) throws -> Void
    /// A paint callback, given a canvas in the item's layout to draw shapes or text with.
    public typealias PaintCallback = (SkeletonController, SkeletonCanvas) throws -> Void

    /// Called once, when the skeleton has loaded (set animations and skins here).
    public var onInitialized: Callback?
    /// Called every playing frame after the animation state was applied, before world transforms
    /// (set local bone poses here).
    public var onBeforeUpdateWorldTransforms: Callback?
    /// Called every playing frame after world transforms (read bone world positions here).
    public var onAfterUpdateWorldTransforms: Callback?
    /// Called every drawn frame before the skeleton is drawn: shapes drawn here lie under it.
    public var onBeforePaint: PaintCallback?
    /// Called every drawn frame after the skeleton is drawn: shapes and text drawn here lie over it.
    public var onAfterPaint: PaintCallback?
    /// Whether the drawable is disposed when the controller goes away.
    public let disposeDrawableOnDeInit: Bool

    /// The drawable once loaded; nil before (see ``loaded()``).
    public private(set) var drawable: SkeletonDrawable?
    /// The layout of the last drawn frame (view pixels <-> skeleton coordinates).
    public internal(set) var layout: Layout?
    /// Whether frames advance the animation state (``pause()`` / ``resume()``).
    public private(set) var isPlaying = true

    /// A controller with the given callbacks; `disposeDrawableOnDeInit` disposes the drawable when the
    /// controller goes away.
    public init(
        onInitialized: Callback? = nil, onBeforeUpdateWorldTransforms: Callback? = nil,
        onAfterUpdateWorldTransforms: Callback? = nil, onBeforePaint: PaintCallback? = nil,
        onAfterPaint: PaintCallback? = nil, disposeDrawableOnDeInit: Bool = true
    ) {
        self.onInitialized = onInitialized
        self.onBeforeUpdateWorldTransforms = onBeforeUpdateWorldTransforms
        self.onAfterUpdateWorldTransforms = onAfterUpdateWorldTransforms
        self.onBeforePaint = onBeforePaint
        self.onAfterPaint = onAfterPaint
        self.disposeDrawableOnDeInit = disposeDrawableOnDeInit
    }

    deinit {
        if disposeDrawableOnDeInit { drawable?.dispose() }
    }

    /// Stops updating the skeleton (the last pose is still drawn).
    public func pause() { isPlaying = false }
    /// Starts updating the skeleton again from where it was paused.
    public func resume() { isPlaying = true }

    /// The drawable; throws `BoneworkError.notLoaded` before loading finished.
    public func loaded() throws -> SkeletonDrawable {
        guard let drawable else { throw BoneworkError.notLoaded }
        return drawable
    }

    /// The loaded drawable's atlas.
    /// - Throws: `BoneworkError.notLoaded` before loading finished.
    public var atlas: Atlas { get throws { try loaded().atlas } }
    /// The loaded drawable's shared skeleton data.
    /// - Throws: `BoneworkError.notLoaded` before loading finished.
    public var skeletonData: SkeletonData { get throws { try loaded().skeletonData } }
    /// The loaded drawable's skeleton.
    /// - Throws: `BoneworkError.notLoaded` before loading finished.
    public var skeleton: Skeleton { get throws { try loaded().skeleton } }
    /// The loaded drawable's animation state.
    /// - Throws: `BoneworkError.notLoaded` before loading finished.
    public var animationState: AnimationState { get throws { try loaded().animationState } }
    /// The loaded drawable's mix durations.
    /// - Throws: `BoneworkError.notLoaded` before loading finished.
    public var animationStateData: AnimationStateData { get throws { try loaded().animationStateData } }

    /// A view point (pixels, y down, relative to the view) in skeleton coordinates; nil before the
    /// first frame is laid out.
    public func toSkeletonCoordinates(_ p: Point) -> Point? { layout?.toSkeletonCoordinates(p) }
    /// A skeleton point in view pixels (y down, relative to the view); nil before the first frame is
    /// laid out.
    public func fromSkeletonCoordinates(_ p: Point) -> Point? { layout?.fromSkeletonCoordinates(p) }

    /// Takes a loaded drawable and calls `onInitialized`.
    public func initialize(_ drawable: SkeletonDrawable) throws {
        self.drawable = drawable
        try onInitialized?(self)
    }

    /// One frame's update: advance, apply, world transforms, with the two update callbacks.
    /// Does nothing while paused.
    public func update(delta: Float) throws {
        guard isPlaying else { return }
        let drawable = try loaded()
        try drawable.update(
            delta: delta, beforeWorldTransforms: { try self.onBeforeUpdateWorldTransforms?(self) },
            afterWorldTransforms: { try self.onAfterUpdateWorldTransforms?(self) })
    }
}

/// Draws shapes in skeleton coordinates during `onBeforePaint` / `onAfterPaint`.
public struct SkeletonCanvas {
    let renderer: SkeletonRenderer
    /// The item's layout this frame: skeleton coordinates to view pixels and back.
    public let layout: Layout

    /// Skeleton units per view pixel (for shapes of a fixed on-screen size).
    public var pixel: Float { 1 / max(layout.scaleX, 1e-6) }

    /// A line from `a` to `b` (skeleton coordinates), `width` skeleton units thick (default: 2 pixels).
    public func line(_ a: Point, _ b: Point, width: Float? = nil, color: Color) {
        renderer.line(a, b, width: width ?? pixel * 2, color: color)
    }
    /// A filled convex polygon (skeleton coordinates).
    public func fill(_ polygon: [Point], color: Color) { renderer.fill(polygon, color: color) }
    /// A closed outline.
    public func polygon(_ points: [Point], width: Float? = nil, color: Color) {
        guard points.count >= 2 else { return }
        for k in 0..<points.count { line(points[k], points[(k + 1) % points.count], width: width, color: color) }
    }
    /// The outline of `r` (skeleton coordinates).
    public func rect(_ r: Rect, width: Float? = nil, color: Color) {
        polygon(
            [
                Point(x: r.x, y: r.y), Point(x: r.maxX, y: r.y), Point(x: r.maxX, y: r.maxY),
                Point(x: r.x, y: r.maxY),
            ], width: width, color: color)
    }
    /// Draws `text` in the bitmap font (`BitmapFont`) at a fixed size on screen: `x`, `y` are view
    /// pixels from the view's top-left to the text's top-left, each font pixel `scale` view pixels
    /// (2: 10x14-pixel glyphs, readable at 1280x720). Lines are split at `\n`, each
    /// `lineHeight(scale:)` apart. One quad per run of lit pixels.
    public func text(_ text: String, x: Float, y: Float, scale: Float = 2, color: Color) {
        for (row, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let top = y + Float(row) * Self.lineHeight(scale: scale)
            for run in BitmapFont.runs(String(line)) {
                let x0 = x + Float(run.x) * scale
                let y0 = top + Float(run.y) * scale
                let x1 = x0 + Float(run.length) * scale
                let y1 = y0 + scale
                fill(
                    [
                        layout.toSkeletonCoordinates(Point(x: x0, y: y0)),
                        layout.toSkeletonCoordinates(Point(x: x1, y: y0)),
                        layout.toSkeletonCoordinates(Point(x: x1, y: y1)),
                        layout.toSkeletonCoordinates(Point(x: x0, y: y1)),
                    ], color: color)
            }
        }
    }

    /// View pixels from one line of ``text(_:x:y:scale:color:)`` to the next: the glyph and a
    /// 3-pixel gap, both times `scale`.
    public static func lineHeight(scale: Float) -> Float { Float(BitmapFont.glyphHeight + 3) * scale }

    /// A filled rectangle given in view pixels from the view's top-left (a backdrop for text).
    public func fillViewRect(x: Float, y: Float, width: Float, height: Float, color: Color) {
        fill(
            [
                layout.toSkeletonCoordinates(Point(x: x, y: y)),
                layout.toSkeletonCoordinates(Point(x: x + width, y: y)),
                layout.toSkeletonCoordinates(Point(x: x + width, y: y + height)),
                layout.toSkeletonCoordinates(Point(x: x, y: y + height)),
            ], color: color)
    }

    /// A filled square of `size` pixels centred on `p`.
    public func dot(_ p: Point, size: Float = 6, color: Color) {
        let h = size * pixel / 2
        fill(
            [
                Point(x: p.x - h, y: p.y - h), Point(x: p.x + h, y: p.y - h), Point(x: p.x + h, y: p.y + h),
                Point(x: p.x - h, y: p.y + h),
            ], color: color)
    }
}
