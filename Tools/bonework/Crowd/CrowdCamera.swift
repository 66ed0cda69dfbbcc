import BoneworkRender
import Foundation

/// The crowd view's camera: presets switched by keys 1-3 (overview, close-up, follow one
/// agent) with a one-second animated transition, and free pan/zoom with the mouse.
///
/// The camera is a centre and a zoom (screen pixels per world unit). A transition eases from
/// the view at the moment of switching to the preset's view, which may move (follow): it is
/// evaluated against the target's current position every frame.
struct CrowdCamera: Equatable {
    enum Preset: Int, Equatable, CaseIterable {
        case overview = 1
        case closeUp = 2
        case follow = 3
    }

    struct View: Equatable {
        var x: Float
        var y: Float
        var zoom: Float
    }

    static let transitionSeconds: Float = 1

    /// Where the camera is now.
    private(set) var view: View
    /// The preset in charge (nil: free, after panning or zooming by hand).
    private(set) var preset: Preset? = .overview
    private var from: View
    private var elapsed: Float = CrowdCamera.transitionSeconds
    /// The visible area, in pixels.
    var screenWidth: Float
    var screenHeight: Float

    init(screenWidth: Float, screenHeight: Float, halfExtent: Float) {
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        let v = Self.overview(halfExtent: halfExtent, width: screenWidth, height: screenHeight)
        view = v
        from = v
    }

    static func overview(halfExtent: Float, width: Float, height: Float) -> View {
        View(x: 0, y: 0, zoom: min(width, height) / (2 * halfExtent * 1.05))
    }

    /// Whether a transition is under way.
    var isTransitioning: Bool { preset != nil && elapsed < Self.transitionSeconds }

    /// The view a preset wants, given the followed agent's position.
    func target(_ preset: Preset, halfExtent: Float, followed: (Float, Float)?) -> View {
        let overview = Self.overview(halfExtent: halfExtent, width: screenWidth, height: screenHeight)
        switch preset {
        case .overview: return overview
        case .closeUp: return View(x: 0, y: 0, zoom: max(overview.zoom * 6, 0.8))
        case .follow:
            let (fx, fy) = followed ?? (0, 0)
            return View(x: fx, y: fy + 60, zoom: max(overview.zoom * 10, 1.5))
        }
    }

    /// Switches to a preset, starting a transition from the current view.
    mutating func select(_ p: Preset) {
        from = view
        preset = p
        elapsed = 0
    }

    /// Advances the transition (or keeps following) by `delta` seconds.
    mutating func update(delta: Float, halfExtent: Float, followed: (Float, Float)?) {
        guard let preset else { return }
        let to = target(preset, halfExtent: halfExtent, followed: followed)
        elapsed = min(Self.transitionSeconds, elapsed + delta)
        let t = elapsed / Self.transitionSeconds
        let s = t * t * (3 - 2 * t)
        // Zoom eases in log space, so the speed of a zoom looks even.
        let zoom = exp(log(from.zoom) + (log(to.zoom) - log(from.zoom)) * s)
        view = View(x: from.x + (to.x - from.x) * s, y: from.y + (to.y - from.y) * s, zoom: zoom)
    }

    /// Moves the view by a mouse drag of (dx, dy) pixels; the camera becomes free.
    mutating func pan(dx: Float, dy: Float) {
        preset = nil
        view.x -= dx / view.zoom
        view.y += dy / view.zoom
    }

    /// Zooms by `factor` keeping the world point under the cursor (pixels from the top left) fixed.
    mutating func zoom(by factor: Float, atX sx: Float, y sy: Float) {
        preset = nil
        let (wx, wy) = world(x: sx, y: sy)
        view.zoom = min(50, max(0.01, view.zoom * factor))
        view.x = wx - (sx - screenWidth / 2) / view.zoom
        view.y = wy + (sy - screenHeight / 2) / view.zoom
    }

    /// The world point at screen pixel (sx, sy) (y down on screen, up in the world).
    func world(x sx: Float, y sy: Float) -> (Float, Float) {
        (view.x + (sx - screenWidth / 2) / view.zoom, view.y - (sy - screenHeight / 2) / view.zoom)
    }

    /// The world rectangle the camera shows on its screen.
    var viewport: WorldViewport {
        WorldViewport(
            x: view.x - screenWidth / 2 / view.zoom, y: view.y - screenHeight / 2 / view.zoom,
            width: screenWidth / view.zoom, height: screenHeight / view.zoom)
    }
}
