import BoneworkTestSupport
import CAllocationCounter
import Foundation
import Testing

/// Steady frames of the crowd allocate nothing outside GL driver and window-system calls, counted
/// by the `bonework` tool's own malloc (`CAllocationCounter`) on every thread. Measured on the
/// release build, what users run (a debug build's unspecialized generic code allocates);
/// `Tools/test.sh` builds it before the tests.
@Suite(.serialized) struct CrowdAllocationTests {
    static var release: URL { TestPaths.repositoryRoot.appendingPathComponent(".build/release/bonework") }

    /// The allocation line the crowd prints, and its count outside driver calls.
    static func outside(_ stdout: String) -> (line: String, count: String?) {
        let line = stdout.split(separator: "\n").first { $0.hasPrefix("allocations per steady frame") }.map(String.init)
        guard let line, let colon = line.range(of: "): "), let space = line[colon.upperBound...].firstIndex(of: " ")
        else { return (line ?? "(no allocation line)", nil) }
        return (line, String(line[colon.upperBound..<space]))
    }

    /// Unoptimised: the optimiser deletes a `malloc` whose block is only freed (the tests are built
    /// with optimisation, Tools/test-targets.sh), and this test needs the calls to happen.
    @Test @_optimize(none) func theCounterCountsInThisProcess() {
        let before = bonework_allocation_count()
        if before < 0 { return }  // a sanitizer's allocator: the tool says "not counted"
        let p = malloc(24)
        free(p)
        #expect(bonework_allocation_count() - before >= 1)
        bonework_driver_section(1)
        let q = malloc(24)
        bonework_driver_section(0)
        free(q)
        #expect(bonework_driver_allocation_count() >= 1)
    }

    @Test func headlessRenderedSteadyFramesAllocateNothing() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.release.path),
            "no release build: swift build -c release --product bonework (Tools/test.sh builds it)")
        let r = try ChildProcess.run(
            Self.release,
            [
                "crowd", "--headless", "--render", "--size", "320x180", "--count", "300", "--frames", "150", "--churn",
                "0",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        let (line, count) = Self.outside(r.stdout)
        #expect(line.hasPrefix("allocations per steady frame (90 frames after 60): "), "\(line)")
        #expect(count == "0", "\(line)")
    }

    @Test func windowSteadyFramesAllocateNothing() throws {
        let xvfbRun = "/usr/bin/xvfb-run"
        guard FileManager.default.isExecutableFile(atPath: xvfbRun) else { return }  // no virtual display here
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.release.path),
            "no release build: swift build -c release --product bonework (Tools/test.sh builds it)")
        let r = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            [
                "120", xvfbRun, "-a", "-s", "-screen 0 1280x720x24", Self.release.path, "crowd", "--count", "300",
                "--frames", "150",
            ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("window: 150 frames drawn"), "\(r.stdout)")
        let (line, count) = Self.outside(r.stdout)
        #expect(line.hasPrefix("allocations per steady frame (90 frames after 60): "), "\(line)")
        #expect(count == "0", "\(line)")
    }
}
