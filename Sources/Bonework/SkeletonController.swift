import BoneworkFormat
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
    /// A lifecycle callback; an error it throws stops the frame and is rethrown by the call that ran it (`update(delta:)`, `initialize(_:)`, the view's frame).
    public typealias Callback = (SkeletonController) throws -> Void
    /// A paint callback: draws with the canvas in skeleton coordinates; errors propagate as for ``Callback``.
    public typealias PaintCallback = (SkeletonController, SkeletonCanvas) throws -> Void

    /// Runs once, when the drawable has loaded (start animations and set skins here).
    public var onInitialized: Callback?
    /// Runs every played frame after the animation state was applied and before world transforms (set local bone poses here, e.g. to follow a pointer).
    public var onBeforeUpdateWorldTransforms: Callback?
    /// Runs every played frame after world transforms (read or override world positions here).
    public var onAfterUpdateWorldTransforms: Callback?
    /// Runs every drawn frame before the skeleton is drawn: its shapes end up under the skeleton.
    public var onBeforePaint: PaintCallback?
    /// Runs every drawn frame after the skeleton is drawn: its shapes end up over it (e.g. ``DebugRenderer``).
    public var onAfterPaint: PaintCallback?
    /// Whether the drawable is disposed when the controller goes away.
    public let disposeDrawableOnDeInit: Bool

    /// The drawable this controller drives, nil until ``initialize(_:)`` (until the view finished loading).
    public private(set) var drawable: SkeletonDrawable?
    /// The layout of the last drawn frame (view pixels <-> skeleton coordinates).
    public internal(set) var layout: Layout?
    /// Whether frames advance the skeleton; false between ``pause()`` and ``resume()``.
    public private(set) var isPlaying = true

    /// A controller with the given callbacks (each may be nil and set later).
    /// - Parameters:
    ///   - disposeDrawableOnDeInit: Whether the drawable is disposed (its instance despawned) when the
    ///     controller is deinitialised; pass false to keep a shared drawable alive.
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
    /// Starts updating the skeleton again from its current pose (no time passes for the paused span).
    public func resume() { isPlaying = true }

    /// The drawable; throws `BoneworkError.notLoaded` before loading finished.
    public func loaded() throws -> SkeletonDrawable {
        guard let drawable else { throw BoneworkError.notLoaded }
        return drawable
    }

    /// The loaded atlas. - Throws: `BoneworkError.notLoaded` before loading finished.
    public var atlas: Atlas { get throws { try loaded().atlas } }
    /// The loaded skeleton data (shared, immutable). - Throws: `BoneworkError.notLoaded` before loading finished.
    public var skeletonData: SkeletonData { get throws { try loaded().skeletonData } }
    /// The drawable's skeleton: bones, slots, skins. - Throws: `BoneworkError.notLoaded` before loading finished, `BoneworkError.disposed` after the drawable was disposed.
    public var skeleton: Skeleton { get throws { try loaded().skeleton } }
    /// The drawable's animation state (tracks, listeners). - Throws: `BoneworkError.notLoaded` before loading finished.
    public var animationState: AnimationState { get throws { try loaded().animationState } }
    /// The mix durations the animation state uses (set them before the first animation plays). - Throws: `BoneworkError.notLoaded` before loading finished.
    public var animationStateData: AnimationStateData { get throws { try loaded().animationStateData } }

    /// A view point (pixels, y down, relative to the view) in skeleton coordinates; nil before the
    /// first frame is laid out.
    public func toSkeletonCoordinates(_ p: Point) -> Point? { layout?.toSkeletonCoordinates(p) }
    /// A skeleton point in view pixels (y down, relative to the view); nil before the first frame is laid out.
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
    /// The layout of the frame being drawn (skeleton coordinates <-> view pixels).
    public let layout: Layout

    /// Skeleton units per view pixel (for shapes of a fixed on-screen size).
    public var pixel: Float { 1 / max(layout.scaleX, 1e-6) }

    /// A line from `a` to `b` (skeleton coordinates); `width` is in skeleton units, nil: 2 view pixels.
    public func line(_ a: Point, _ b: Point, width: Float? = nil, color: Color) {
        renderer.line(a, b, width: width ?? pixel * 2, color: color)
    }
    /// A filled convex polygon (skeleton coordinates, at least 3 points; fewer draw nothing).
    public func fill(_ polygon: [Point], color: Color) { renderer.fill(polygon, color: color) }
    /// A closed outline.
    public func polygon(_ points: [Point], width: Float? = nil, color: Color) {
        guard points.count >= 2 else { return }
        for k in 0..<points.count { line(points[k], points[(k + 1) % points.count], width: width, color: color) }
    }
    /// The outline of `r` (skeleton coordinates); `width` as for ``line(_:_:width:color:)``.
    public func rect(_ r: Rect, width: Float? = nil, color: Color) {
        polygon(
            [
                Point(x: r.x, y: r.y), Point(x: r.maxX, y: r.y), Point(x: r.maxX, y: r.maxY),
                Point(x: r.x, y: r.maxY),
            ], width: width, color: color)
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
