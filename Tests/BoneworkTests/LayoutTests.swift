import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

@testable import Bonework

@Suite struct LayoutTests {
    let bounds = Rect(x: 0, y: 0, width: 100, height: 200)
    let view = Size(width: 400, height: 400)

    func placed(_ mode: ContentMode, _ alignment: Alignment = .center) -> Rect {
        Layout(bounds: bounds, viewSize: view, mode: mode, alignment: alignment).boundsInView
    }

    @Test func modesPlaceTheBoundsAsComputedByHand() {
        #expect(placed(.fit) == Rect(x: 100, y: 0, width: 200, height: 400))
        #expect(placed(.fill) == Rect(x: 0, y: 0, width: 400, height: 400))
        #expect(placed(.width) == Rect(x: 0, y: -200, width: 400, height: 800))
        #expect(placed(.height) == Rect(x: 100, y: 0, width: 200, height: 400))
        #expect(placed(.contain) == Rect(x: 150, y: 100, width: 100, height: 200))
        #expect(placed(.cover) == Rect(x: 0, y: -200, width: 400, height: 800))
        #expect(placed(.none) == Rect(x: 150, y: 100, width: 100, height: 200))
        // contain shrinks what is too large, like fit.
        let large = Layout(
            bounds: Rect(x: 0, y: 0, width: 800, height: 400), viewSize: view, mode: .contain, alignment: .center)
        #expect(large.boundsInView == Rect(x: 0, y: 100, width: 400, height: 200))
    }

    @Test func alignmentsPlaceTheBoundsAsComputedByHand() {
        // Fitted bounds 200 x 400 in 400 x 400: only x moves; with .contain (100 x 200) both do.
        #expect(placed(.fit, .topLeft).x == 0)
        #expect(placed(.fit, .centerRight).x == 200)
        let expected: [(Alignment, Float, Float)] = [
            (.topLeft, 0, 0), (.topCenter, 150, 0), (.topRight, 300, 0),
            (.centerLeft, 0, 100), (.center, 150, 100), (.centerRight, 300, 100),
            (.bottomLeft, 0, 200), (.bottomCenter, 150, 200), (.bottomRight, 300, 200),
        ]
        for (alignment, x, y) in expected {
            let r = placed(.contain, alignment)
            #expect(r.x == x && r.y == y, "\(alignment)")
        }
    }

    @Test func coordinateConversionRoundTrips() {
        for mode in ContentMode.allCases {
            for alignment in Alignment.allCases {
                let layout = Layout(
                    bounds: Rect(x: -37, y: 12, width: 90, height: 210), viewSize: Size(width: 320, height: 180),
                    mode: mode, alignment: alignment)
                for p in [Point(x: 0, y: 0), Point(x: 17.5, y: 99), Point(x: 320, y: 180), Point(x: -40, y: 260)] {
                    let back = layout.fromSkeletonCoordinates(layout.toSkeletonCoordinates(p))
                    #expect(abs(back.x - p.x) < 1e-3 && abs(back.y - p.y) < 1e-3, "\(mode) \(alignment) \(p)")
                }
            }
        }
        // The bounds' top-left corner (skeleton y up) is the placed rectangle's top-left (view y down).
        let fit = Layout(bounds: bounds, viewSize: view, mode: .fit, alignment: .center)
        #expect(fit.fromSkeletonCoordinates(Point(x: 0, y: 200)) == Point(x: 100, y: 0))
        #expect(fit.fromSkeletonCoordinates(Point(x: 100, y: 0)) == Point(x: 300, y: 400))
        // The world viewport of the whole view.
        let viewport = fit.worldViewport(targetSize: view)
        #expect(viewport.x == -50 && viewport.y == 0 && viewport.width == 200 && viewport.height == 200)
    }

    /// A one-slot skeleton: a 100 x 50 region at (10, 20) on the root; skin "big" holds a 200 x 100
    /// one under the same key; animation "move" slides the root 100 to the right over 1 s.
    static func boxSkeleton() throws -> SkeletonDrawable {
        let dir = try TemporaryFiles.freshDirectory("box", prefix: "bonework-facade")
        try PNG.write(Image(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)), to: dir + "/box.png")
        try "box.png\nsize: 4,4\nfilter: Linear,Linear\nbox\nbounds: 0,0,4,4\n".write(
            toFile: dir + "/box.atlas", atomically: true, encoding: .utf8)
        let json = """
            {"skeleton":{"spine":"4.2.00"},"bones":[{"name":"root"}],
             "slots":[{"name":"box","bone":"root","attachment":"box"}],
             "skins":[{"name":"default","attachments":{"box":{"box":{"x":10,"y":20,"width":100,"height":50}}}},
                      {"name":"big","attachments":{"box":{"box":{"x":10,"y":20,"width":200,"height":100}}}}],
             "animations":{"move":{"bones":{"root":{"translate":[{"time":0,"x":0},{"time":1,"x":100}]}}}}}
            """
        try json.write(toFile: dir + "/box.json", atomically: true, encoding: .utf8)
        let data = try SkeletonDataPool.shared.load(skeleton: dir + "/box.json", atlas: dir + "/box.atlas")
        return try SkeletonDrawable(assets: SkeletonAssets.shared(data))
    }

    static func near(_ a: Rect, _ b: Rect) -> Bool {
        abs(a.x - b.x) < 1e-3 && abs(a.y - b.y) < 1e-3 && abs(a.width - b.width) < 1e-3
            && abs(a.height - b.height) < 1e-3
    }

    @Test func boundsProvidersMatchHandComputedRectangles() throws {
        let drawable = try Self.boxSkeleton()
        let setup = try SetupPoseBounds().computeBounds(drawable)
        #expect(Self.near(setup, Rect(x: -40, y: -5, width: 100, height: 50)), "\(setup)")
        #expect(
            try RawBounds(x: 1, y: 2, width: 3, height: 4).computeBounds(drawable)
                == Rect(x: 1, y: 2, width: 3, height: 4))
        let moving = try SkinAndAnimationBounds(animation: "move").computeBounds(drawable)
        #expect(abs(moving.x + 40) < 1e-3 && abs(moving.width - 200) < 1e-3)
        #expect(abs(moving.y + 5) < 1e-3 && abs(moving.height - 50) < 1e-3)
        let big = try SkinAndAnimationBounds(skins: ["big"]).computeBounds(drawable)
        #expect(Self.near(big, Rect(x: -90, y: -30, width: 200, height: 100)), "\(big)")
        #expect(throws: BoneworkError.unknownAnimation("nope")) {
            try SkinAndAnimationBounds(animation: "nope").computeBounds(drawable)
        }
        // The probe did not disturb the drawable.
        let current = try drawable.skeleton.bounds()
        #expect(Self.near(current, Rect(x: -40, y: -5, width: 100, height: 50)), "\(current)")
    }

    /// A key time near the float maximum loads (it is finite); sampling that animation is capped at
    /// 10,000 steps, and the step count is clamped before it becomes an integer (it used to trap).
    @Test func boundsOfAnAnimationAsLongAsTheFloatMaximumAreSampledAtTheCap() throws {
        let dir = try TemporaryFiles.freshDirectory("long", prefix: "bonework-facade")
        try PNG.write(Image(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)), to: dir + "/box.png")
        try "box.png\nsize: 4,4\nfilter: Linear,Linear\nbox\nbounds: 0,0,4,4\n".write(
            toFile: dir + "/box.atlas", atomically: true, encoding: .utf8)
        let json = """
            {"skeleton":{"spine":"4.2.00"},"bones":[{"name":"root"}],
             "slots":[{"name":"box","bone":"root","attachment":"box"}],
             "skins":[{"name":"default","attachments":{"box":{"box":{"width":100,"height":50}}}}],
             "animations":{"long":{"bones":{"root":{"translate":[{"time":0,"x":0},{"time":3.4e38,"x":100}]}}}}}
            """
        try json.write(toFile: dir + "/long.json", atomically: true, encoding: .utf8)
        let data = try SkeletonDataPool.shared.load(skeleton: dir + "/long.json", atlas: dir + "/box.atlas")
        let drawable = try SkeletonDrawable(assets: SkeletonAssets.shared(data))
        _ = try SkinAndAnimationBounds(animation: "long", stepTime: 1e-30).computeBounds(drawable)
    }

    @Test func defaultCharacterSetupBoundsStandOnTheGround() async throws {
        let drawable = try await SkeletonDrawable.load(.defaultCharacter, skin: "blue")
        let b = try SetupPoseBounds().computeBounds(drawable)
        #expect(b.height > 250 && b.height < 400)
        #expect(abs(b.y) < 30)
    }
}
