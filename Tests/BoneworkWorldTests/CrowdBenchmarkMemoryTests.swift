import BoneworkFormat
import BoneworkProfiling
import BoneworkTestSupport
import BoneworkWorld
import Testing

/// What `bonework bench` reports per instance: the row layout's storage at any count, and the
/// measured heap growth only where fixed costs no longer dominate it.
@Suite struct CrowdBenchmarkMemoryTests {
    @Test func smallCrowdsReportStorageButNoHeapFigure() throws {
        let data = try ExampleSkeletons.spineboy()
        let count = CrowdBenchmark.minimumMeasuredCount - 1
        let bench = try CrowdBenchmark(
            data: data, workload: CrowdWorkload(animations: ["walk"], count: count), profiledFrames: 1)
        let result = bench.run(frames: 1, warmup: 0, delta: 1.0 / 60)
        #expect(result.bytesPerInstance == nil)
        #expect(result.storageBytesPerInstance == bench.world.bytesPerInstance(of: data))
        #expect(result.storageBytesPerInstance > 0)
        #expect(result.json.contains("\"bytes_per_instance\": null"))
    }

    /// From the minimum count on, the heap is measured (its value depends on whatever else the
    /// process allocates meanwhile, tests running beside this one included, so only the bench's
    /// own runs judge it).
    @Test func largeCrowdsMeasureTheHeap() throws {
        let data = try ExampleSkeletons.spineboy()
        let bench = try CrowdBenchmark(
            data: data, workload: CrowdWorkload(animations: ["walk"], count: CrowdBenchmark.minimumMeasuredCount),
            profiledFrames: 1)
        let result = bench.run(frames: 0, warmup: 0, delta: 1.0 / 60)
        #expect(result.bytesPerInstance != nil)
        #expect(!result.json.contains("\"bytes_per_instance\": null"))
    }
}
