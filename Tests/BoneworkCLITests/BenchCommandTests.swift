import BoneworkTestSupport
import Foundation
import Testing

/// `bonework bench` as a user runs it: the per-system figures it reports follow the systems it runs.
@Suite struct BenchCommandTests {
    /// Microseconds per skeleton-frame of each system, from `bench --json`.
    static func systems(_ extra: [String]) throws -> [String: Double] {
        let result = try CLI.run(["bench", "--count", "16", "--frames", "3", "--warmup", "1", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let perSystem = try #require(object["us_per_skeleton_frame"] as? [String: Double], "\(result.stdout)")
        return perSystem
    }

    /// `--gpu-tables` leaves skinning to the GPU path: the vertex system does not run, the pose
    /// system (which writes the tables) does; without it both run.
    @Test func gpuTablesRunEverySystemButTheVertices() throws {
        let tables = try Self.systems(["--gpu-tables"])
        #expect(tables["vertices"] == 0, "\(tables)")
        #expect((tables["pose"] ?? 0) > 0, "\(tables)")
        #expect((tables["apply"] ?? 0) > 0, "\(tables)")
        let full = try Self.systems([])
        #expect((full["vertices"] ?? 0) > 0, "\(full)")
    }

    /// Printed as a table, the run says where the tables were written.
    @Test func gpuTablesSayWhereTheTablesLive() throws {
        let result = try CLI.run(["bench", "--count", "16", "--frames", "2", "--warmup", "0", "--gpu-tables"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("GPU tables: "), "\(result.stdout)")
        #expect(result.stdout.contains("no CPU vertices"), "\(result.stdout)")
    }
}
