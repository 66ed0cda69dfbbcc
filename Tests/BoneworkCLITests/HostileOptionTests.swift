import BoneworkTestSupport
import Foundation
import Testing

/// Command-line values no one means: each ends with `bonework COMMAND: what is wrong` and exit
/// status 1 before any work starts (a run would otherwise trap converting an infinite count, loop
/// for years, or allocate terabytes).
@Suite struct HostileOptionTests {
    static func expectRefused(_ args: [String], _ words: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let clock = ContinuousClock.now
        let r = try CLI.run(args)
        #expect(r.status == 1, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("bonework \(args[0])"), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(words), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(ContinuousClock.now - clock < .seconds(30), "\(args)", sourceLocation: sourceLocation)
    }

    @Test func crowdOptionsOutsideTheirRangesAreRefused() throws {
        for (args, words) in [
            (["--dt", "3e38"], "--dt"), (["--dt", "0"], "--dt"), (["--dt", "nan"], "--dt"), (["--dt", "inf"], "--dt"),
            (["--churn", "1e30"], "--churn"), (["--churn", "-1"], "--churn"), (["--churn", "nan"], "--churn"),
            (["--outfits", "1000000000000"], "--outfits"), (["--outfits", "257"], "--outfits"),
            (["--count", "-3"], "--count"), (["--frames", "-1"], "--frames"), (["--frames", "1e9"], "--frames"),
            (["--seconds", "nan"], "--seconds"), (["--seconds", "-1"], "--seconds"),
            (["--size", "1000000000x1"], "--size"),
            (["--threads", "100000"], "--threads"), (["--seed", "-1"], "--seed"),
        ] {
            try Self.expectRefused(["crowd", "--headless"] + args, words)
        }
        // A count past the memory limit is refused before spawning (ResourceLimitCommandTests).
        try Self.expectRefused(["crowd", "--headless", "--count", "100000000000", "--frames", "1"], "memory")
    }

    @Test func renderTimesAndSheetsOutsideTheirRangesAreRefused() throws {
        let skeleton = TestPaths.example("spineboy/spineboy-pro.skel")
        let atlas = TestPaths.example("spineboy/spineboy-pma.atlas")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid()).png").path
        let base = ["render", skeleton, "--atlas", atlas, "--animation", "walk", "--out", out]
        try Self.expectRefused(base + ["--time", "3e38"], "--time")
        try Self.expectRefused(base + ["--time", "1e9"], "--time")
        try Self.expectRefused(base + ["--frames", "100000", "--fps", "0.001"], "--frames")
        try Self.expectRefused(base + ["--frames", "1000", "--sheet", "--size", "16384x16384"], "--sheet")
        // A request file that is not one, before any GL context is needed.
        let request = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid()).json").path
        try Data(#"{"format": "spine-render-request-1", "size": [1000000000, 1]}"#.utf8).write(
            to: URL(fileURLWithPath: request))
        try Self.expectRefused(["render", "--request", request, "--out", out], "`skeleton`")
    }

    @Test func scenarioFilesOutsideTheirLimitsAreRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid()).scenario.json")
        try Data(
            #"{"skeleton": "spineboy/spineboy-pro.skel", "steps": [{"op": "update", "dt": 0.1, "count": 999999999}]}"#
                .utf8
        ).write(to: file)
        try Self.expectRefused(
            ["trace", "scenario", file.path, "--assets", TestPaths.examples.path], "$.steps[0].count")
    }
}
