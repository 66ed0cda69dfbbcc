import BoneworkFormat
import BoneworkRender
import BoneworkWorld

/// How a skeleton's bounds are scaled into a view.
public enum ContentMode: Sendable, Equatable, CaseIterable {
    /// As large as fits whole, keeping proportions.
    case fit
    /// Stretched to fill the view exactly (proportions not kept).
    case fill
    /// The bounds' width equals the view's.
    case width
    /// The bounds' height equals the view's.
    case height
    /// Like `fit`, but never enlarged.
    case contain
    /// As small as covers the whole view, keeping proportions.
    case cover
    /// Unscaled (one skeleton unit per view pixel).
    case none
}

/// Where the scaled bounds sit in the view (x: -1 left ... 1 right; y: -1 top ... 1 bottom).
public enum Alignment: Sendable, Equatable, CaseIterable {
    /// The bounds' top-left corner at the view's.
    case topLeft
    /// Centred horizontally, at the top.
    case topCenter
    /// The bounds' top-right corner at the view's.
    case topRight
    /// Centred vertically, at the left edge.
    case centerLeft
    /// Centred both ways.
    case center
    /// Centred vertically, at the right edge.
    case centerRight
    /// The bounds' bottom-left corner at the view's.
    case bottomLeft
    /// Centred horizontally, at the bottom.
    case bottomCenter
    /// The bounds' bottom-right corner at the view's.
    case bottomRight

    /// Where along x the content sits in the view: -1 left, 0 centre, 1 right.
    public var x: Float {
        switch self {
        case .topLeft, .centerLeft, .bottomLeft: -1
        case .topCenter, .center, .bottomCenter: 0
        case .topRight, .centerRight, .bottomRight: 1
        }
    }
    /// Where along y the content sits in the view: -1 top, 0 centre, 1 bottom.
    public var y: Float {
        switch self {
        case .topLeft, .topCenter, .topRight: -1
        case .centerLeft, .center, .centerRight: 0
        case .bottomLeft, .bottomCenter, .bottomRight: 1
        }
    }
}

/// The mapping between skeleton coordinates (y up) and view pixels (y down, origin top-left) for
/// bounds placed in a view with a mode and an alignment.
public struct Layout: Sendable, Equatable {
    /// The skeleton-coordinate rectangle being shown.
    public var bounds: Rect
    /// The size in pixels of the view (or of the item's frame in it).
    public var viewSize: Size
    /// Offset of the view's rectangle inside a larger target (pixels, y down).
    public var origin: Point
    /// View pixels per skeleton unit along x.
    public var scaleX: Float
    /// View pixels per skeleton unit along y.
    public var scaleY: Float
    /// Top-left of the scaled bounds in view pixels.
    public var boundsInView: Rect

    /// Places `bounds` in a view of `viewSize` as `mode` scales it and `alignment` aligns it;
    /// `origin` offsets the view inside a larger target.
    public init(
        bounds: Rect, viewSize: Size, mode: ContentMode, alignment: Alignment, origin: Point = Point(x: 0, y: 0)
    ) {
        self.bounds = bounds
        self.viewSize = viewSize
        self.origin = origin
        let bw = bounds.width > 0 ? bounds.width : 1
        let bh = bounds.height > 0 ? bounds.height : 1
        let fx = viewSize.width / bw
        let fy = viewSize.height / bh
        var sx: Float
        var sy: Float
        switch mode {
        case .fit: sx = min(fx, fy); sy = sx
        case .fill: sx = fx; sy = fy
        case .width: sx = fx; sy = fx
        case .height: sx = fy; sy = fy
        case .contain: sx = min(1, min(fx, fy)); sy = sx
        case .cover: sx = max(fx, fy); sy = sx
        case .none: sx = 1; sy = 1
        }
        if !sx.isFinite || sx <= 0 { sx = 1 }
        if !sy.isFinite || sy <= 0 { sy = 1 }
        scaleX = sx
        scaleY = sy
        let w = bw * sx
        let h = bh * sy
        boundsInView = Rect(
            x: (viewSize.width - w) * (alignment.x + 1) / 2, y: (viewSize.height - h) * (alignment.y + 1) / 2,
            width: w, height: h)
    }

    /// A skeleton point in view pixels (relative to the view's own top-left).
    public func fromSkeletonCoordinates(_ p: Point) -> Point {
        Point(
            x: boundsInView.x + (p.x - bounds.x) * scaleX,
            y: boundsInView.y + (bounds.y + max(bounds.height, 0) - p.y) * scaleY)
    }

    /// A view pixel position (relative to the view's own top-left) in skeleton coordinates.
    public func toSkeletonCoordinates(_ p: Point) -> Point {
        Point(
            x: bounds.x + (p.x - boundsInView.x) / scaleX,
            y: bounds.y + max(bounds.height, 0) - (p.y - boundsInView.y) / scaleY)
    }

    /// The world rectangle a target of `targetSize` pixels shows when this view sits at `origin`.
    public func worldViewport(targetSize: Size) -> WorldViewport {
        // Target pixel (0, targetHeight) is the bottom-left corner.
        let bottomLeft = toSkeletonCoordinates(Point(x: -origin.x, y: targetSize.height - origin.y))
        return WorldViewport(
            x: bottomLeft.x, y: bottomLeft.y, width: targetSize.width / scaleX, height: targetSize.height / scaleY)
    }
}

/// Computes the rectangle (skeleton coordinates) a view fits and aligns.
public protocol BoundsProvider {
    /// The rectangle, in skeleton coordinates, to fit for `drawable` (computed when it is added to
    /// a view and on `SkeletonView.refreshBounds()`).
    func computeBounds(_ drawable: SkeletonDrawable) throws -> Rect
}

/// The bounds of the skeleton in its setup pose, wearing its current skin.
public struct SetupPoseBounds: BoundsProvider {
    /// The setup-pose bounds provider.
    public init() {}
    /// The bounds of a fresh instance of `drawable`'s data in the setup pose, wearing its skin.
    /// - Throws: `BoneworkError.disposed` for a disposed drawable.
    public func computeBounds(_ drawable: SkeletonDrawable) throws -> Rect {
        try drawable.checkAlive()
        let probe = try Probe(drawable, skin: nil)
        return try Bounds.of(probe.world, probe.entity)
    }
}

/// Fixed bounds.
public struct RawBounds: BoundsProvider {
    /// The rectangle returned, in skeleton coordinates.
    public var rect: Rect
    /// Fixed bounds from the minimum corner and the size, in skeleton coordinates.
    public init(x: Float, y: Float, width: Float, height: Float) {
        rect = Rect(x: x, y: y, width: width, height: height)
    }
    /// ``rect``, whatever the drawable.
    public func computeBounds(_ drawable: SkeletonDrawable) throws -> Rect { rect }
}

/// The union of the bounds over every frame (sampled every `stepTime` seconds) of the given
/// animations, wearing the given skins added together (an empty list: the current skin).
public struct SkinAndAnimationBounds: BoundsProvider {
    /// The animations sampled (empty: the setup pose only).
    public var animations: [String]
    /// The skins worn while sampling, added together (empty: the drawable's current skin).
    public var skins: [String]
    /// Seconds between samples; smaller catches short extremes at more cost.
    public var stepTime: Float

    /// Bounds over one animation (nil: the setup pose).
    public init(animation: String? = nil, skins: [String] = [], stepTime: Float = 0.1) {
        self.init(animations: animation.map { [$0] } ?? [], skins: skins, stepTime: stepTime)
    }
    /// Bounds over several animations, their union.
    public init(animations: [String], skins: [String] = [], stepTime: Float = 0.1) {
        self.animations = animations
        self.skins = skins
        self.stepTime = stepTime
    }

    /// Samples every animation from 0 to its duration every ``stepTime`` seconds on a probe instance
    /// (the drawable itself is not changed) and returns the union of the poses' bounds.
    /// - Throws: `BoneworkError.unknownAnimation` or `WorldError.noSuchSkin` for names the skeleton lacks.
    public func computeBounds(_ drawable: SkeletonDrawable) throws -> Rect {
        try drawable.checkAlive()
        guard stepTime > 0, stepTime.isFinite else { throw BoneworkError.invalidArgument("stepTime \(stepTime)") }
        let data = drawable.skeletonData
        var skin: Skin? = nil
        if !skins.isEmpty {
            let combined = Skin(name: "bounds", for: data)
            for name in skins { try combined.addSkin(name) }
            skin = combined
        }
        let probe = try Probe(drawable, skin: skin)
        var result = try Bounds.of(probe.world, probe.entity)
        for name in animations {
            guard let index = data.findAnimation(name) else { throw BoneworkError.unknownAnimation(name) }
            let duration = data.animations[Int(index)].duration
            try probe.drawable.world.setToSetupPose(probe.entity)
            let state = try probe.drawable.animationState
            try state.setAnimation(0, name, loop: false)
            // Clamped before converting: a key time near the float maximum (which loads) makes
            // the ratio infinite, and converting that to an integer would trap.
            let ratio = (duration / stepTime).rounded(.up)
            let steps = ratio >= 10_000 ? 10_000 : (ratio >= 1 ? Int(ratio) : 1)
            for k in 0...steps {
                try probe.drawable.update(delta: k == 0 ? 0 : stepTime)
                result = Bounds.union(result, try Bounds.of(probe.world, probe.entity))
            }
        }
        return result
    }
}

/// A throwaway drawable of the same skeleton in the setup pose with a skin.
struct Probe {
    let drawable: SkeletonDrawable
    var world: World { drawable.world }
    var entity: Entity { drawable.entity }

    init(_ source: SkeletonDrawable, skin: Skin?) throws {
        drawable = try SkeletonDrawable(assets: source.assets)
        let skeleton = try drawable.skeleton
        if let skin {
            try skeleton.setSkin(skin)
        } else if let custom = source.customSkin {
            try skeleton.setSkin(custom)
        } else if let index = try source.world.skinIndex(source.entity) {
            try skeleton.setSkin(source.skeletonData.skins[Int(index)].name)
        }
        try drawable.updateWorldTransforms()
    }
}

enum Bounds {
    /// The reference's skeleton bounds of an instance's current pose (`World.bounds`: slots of
    /// inactive bones skipped, region and mesh vertices clipped by clipping attachments); an empty
    /// rect at the origin when no vertex counts.
    static func of(_ world: World, _ entity: Entity) throws -> Rect {
        guard let b = try world.bounds(entity) else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        return Rect(x: b.x, y: b.y, width: b.width, height: b.height)
    }

    static func union(_ a: Rect, _ b: Rect) -> Rect {
        if a.width <= 0 && a.height <= 0 { return b }
        if b.width <= 0 && b.height <= 0 { return a }
        let x = min(a.x, b.x)
        let y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }
}
