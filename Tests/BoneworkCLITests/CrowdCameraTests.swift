import Testing

@testable import bonework

@Suite struct CrowdCameraTests {
    @Test func presetsEaseOverOneSecond() {
        var camera = CrowdCamera(screenWidth: 1000, screenHeight: 500, halfExtent: 1000)
        let overview = camera.view
        #expect(overview == CrowdCamera.View(x: 0, y: 0, zoom: 500 / (2000 * 1.05)))
        camera.select(.follow)
        #expect(camera.isTransitioning)
        camera.update(delta: 0.5, halfExtent: 1000, followed: (400, -200))
        // Half way in time is half way in position (smoothstep(0.5) = 0.5), and in log zoom.
        let target = camera.target(.follow, halfExtent: 1000, followed: (400, -200))
        #expect(abs(camera.view.x - 200) < 1e-3)
        #expect(abs(camera.view.y - (-70)) < 1e-3)
        #expect(abs(camera.view.zoom - (overview.zoom * target.zoom).squareRoot()) < 1e-4)
        camera.update(delta: 0.5, halfExtent: 1000, followed: (410, -200))
        #expect(!camera.isTransitioning)
        #expect(camera.view == camera.target(.follow, halfExtent: 1000, followed: (410, -200)))
        // Following keeps the agent in view after the transition.
        camera.update(delta: 0.1, halfExtent: 1000, followed: (500, 0))
        #expect(camera.view.x == 500)
    }

    @Test func panAndZoomFreeTheCamera() {
        var camera = CrowdCamera(screenWidth: 800, screenHeight: 600, halfExtent: 300)
        camera.select(.closeUp)
        camera.update(delta: 1, halfExtent: 300, followed: nil)
        let before = camera.world(x: 100, y: 50)
        camera.zoom(by: 2, atX: 100, y: 50)
        #expect(camera.preset == nil)
        let after = camera.world(x: 100, y: 50)
        #expect(abs(before.0 - after.0) < 1e-3 && abs(before.1 - after.1) < 1e-3)
        let zoom = camera.view.zoom
        camera.pan(dx: 20, dy: 10)
        #expect(abs(camera.view.x - (after.0 - (100 - 400) / zoom - 20 / zoom)) < 1e-3)
        // A preset afterwards takes over again, from where the hand left the view.
        let free = camera.view
        camera.select(.overview)
        camera.update(delta: 0, halfExtent: 300, followed: nil)
        #expect(camera.view == free)
    }
}
