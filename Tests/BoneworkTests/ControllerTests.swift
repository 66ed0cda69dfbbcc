import BoneworkFormat
import Foundation
import Testing

@testable import Bonework

@Suite(.serialized) struct ControllerTests {
    final class Recorder {
        var calls: [String] = []
    }

    func makeController(_ recorder: Recorder) -> SkeletonController {
        SkeletonController(
            onInitialized: { controller in
                recorder.calls.append("initialized")
                try controller.animationState.setAnimation(0, "walk", loop: true)
            },
            onBeforeUpdateWorldTransforms: { _ in recorder.calls.append("beforeUpdateWorldTransforms") },
            onAfterUpdateWorldTransforms: { _ in recorder.calls.append("afterUpdateWorldTransforms") },
            onBeforePaint: { _, _ in recorder.calls.append("beforePaint") },
            onAfterPaint: { _, _ in recorder.calls.append("afterPaint") })
    }

    @Test func callbacksFireInTheDocumentedOrderEachFrame() async throws {
        let recorder = Recorder()
        let controller = makeController(recorder)
        let view = SkeletonView(size: Size(width: 64, height: 64))
        try await view.add(.defaultCharacter, controller: controller, skin: "blue")
        #expect(recorder.calls == ["initialized"])
        for _ in 0..<2 { _ = try view.renderFrame(delta: 1.0 / 30) }
        let frame = ["beforeUpdateWorldTransforms", "afterUpdateWorldTransforms", "beforePaint", "afterPaint"]
        #expect(recorder.calls == ["initialized"] + frame + frame)
        // Paused: no updates, still painted.
        recorder.calls.removeAll()
        controller.pause()
        #expect(!controller.isPlaying)
        _ = try view.renderFrame(delta: 1.0 / 30)
        #expect(recorder.calls == ["beforePaint", "afterPaint"])
        controller.resume()
        // Not rendering: nothing at all.
        recorder.calls.removeAll()
        view.isRendering = false
        #expect(try view.renderFrame(delta: 1.0 / 30) == nil)
        #expect(recorder.calls.isEmpty)
    }

    @Test func controllerExposesStateAndConvertsCoordinates() async throws {
        let controller = SkeletonController()
        #expect(throws: BoneworkError.notLoaded) { try controller.skeleton }
        #expect(controller.toSkeletonCoordinates(Point(x: 0, y: 0)) == nil)
        let view = SkeletonView(size: Size(width: 100, height: 80))
        let item = try await view.add(
            .defaultCharacter, controller: controller, mode: .fit, alignment: .bottomCenter,
            boundsProvider: RawBounds(x: -100, y: 0, width: 200, height: 400), skin: "blue")
        _ = try view.renderFrame(delta: 0)
        #expect(item.bounds == Rect(x: -100, y: 0, width: 200, height: 400))
        // Fit: scale 0.2, 40 x 80 placed at x 30, y 0. View point (50, 80) is skeleton (0, 0).
        let origin = try #require(controller.toSkeletonCoordinates(Point(x: 50, y: 80)))
        #expect(abs(origin.x) < 1e-4 && abs(origin.y) < 1e-4)
        let p = Point(x: 12, y: 34)
        let skeletonPoint = try #require(controller.toSkeletonCoordinates(p))
        let back = try #require(controller.fromSkeletonCoordinates(skeletonPoint))
        #expect(abs(back.x - p.x) < 1e-4 && abs(back.y - p.y) < 1e-4)
        #expect(try controller.skeletonData.bones.count > 10)
        #expect(try controller.atlas.pages.count == 1)
        #expect(try controller.animationState.getCurrent(0) == nil)
        #expect(try controller.animationStateData.defaultMix == 0)
    }

    @Test func viewLifecycleMakesUpdatesAndDismantles() async throws {
        let view = SkeletonView(size: Size(width: 64, height: 64), backgroundColor: Color(1, 1, 1, 1))
        let first = try await view.add(.defaultCharacter, frame: Rect(x: 0, y: 0, width: 32, height: 64), skin: "blue")
        try await view.add(
            .drawable(try SkeletonDrawable(sharing: try first.controller.loaded(), skin: "orange")),
            frame: Rect(x: 32, y: 0, width: 32, height: 64))
        #expect(view.items.count == 2)
        let image = try #require(try view.renderFrame(delta: 0))
        #expect(view.frameCount == 1)
        #expect(view.renderer != nil)
        // Both halves show something on the white background.
        for half in 0..<2 {
            var dark = 0
            for y in 0..<64 { for x in (half * 32)..<(half * 32 + 32) where image.pixel(x, y).0 < 200 { dark += 1 } }
            #expect(dark > 20, "half \(half)")
        }
        view.dismantle()
        #expect(view.renderer == nil)
    }
}
