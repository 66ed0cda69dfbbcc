import BoneworkTestSupport
import Foundation
import Testing

@Suite(.serialized) struct CrowdCommandTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("crowd-test-\(getpid())-\(name)").path
    }

    @Test func headlessRunWithChurnLosesNothingAndWritesExports() throws {
        let csv = Self.temporary("run.csv")
        let trace = Self.temporary("run.json")
        let chart = Self.temporary("run.png")
        let shot = Self.temporary("shot.png")
        defer { for f in [csv, trace, chart, shot] { try? FileManager.default.removeItem(atPath: f) } }
        let r = try CLI.run([
            "crowd", "--headless", "--count", "200", "--frames", "40", "--churn", "120", "--csv", csv, "--trace",
            trace, "--chart", chart, "--screenshot", shot,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        // 120 per second over 40 frames of 1/60 s: 80 replaced.
        #expect(
            r.stdout.contains("spawned 280 - despawned 80 = 200; alive 200 (world 200); invalid handles 0 -> none lost")
        )
        for row in ["churn", "steering", "triggers", "animation state", "timeline apply", "vertices", "total"] {
            #expect(r.stdout.contains("\n\(row) "), "missing row \(row)")
        }
        #expect(r.stdout.contains("40 frames, 200 instances"))
        #expect(r.stdout.contains("median CPU frame time: "))
        #expect(r.stderr.contains("40/40 frames"))
        let lines = try String(contentsOfFile: csv, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 41)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace)))
        #expect((json as? [String: Any])?["traceEvents"] is [Any])
        let png = try Data(contentsOf: URL(fileURLWithPath: chart))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        // The last frame, drawn offscreen: the whole (small) crowd is in view, in one draw call.
        #expect(r.stdout.contains("(200 characters in view, 1 draw calls)"))
        let frame = try Data(contentsOf: URL(fileURLWithPath: shot))
        #expect(frame.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(frame.count > 20_000)
    }

    @Test func composedOutfitsAreCompiledOncePerOutfitAndChangeAtRunTime() throws {
        let r = try CLI.run([
            "crowd", "--headless", "--count", "400", "--frames", "120", "--skeleton",
            TestPaths.example("mix-and-match/mix-and-match-pro.skel"), "--atlas",
            TestPaths.example("mix-and-match/mix-and-match.atlas"), "--outfits", "12",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first { $0.hasPrefix("outfits: ") })
        // At most one plan per distinct outfit, however many agents wear it.
        #expect(line.contains("mix-and-match-pro 12 of 12"), "\(line)")
        #expect(!line.hasSuffix("; 0 outfit changes"), "\(line)")
        #expect(r.stdout.contains("\nregroup rows "), "the regroup is timed in the table")
        #expect(r.stdout.contains("none lost"))
        let bad = try CLI.run(["crowd", "--headless", "--outfits", "0"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("bonework crowd: --outfits"), "\(bad.stderr)")
    }

    @Test func extraSkeletonsJoinTheCrowd() throws {
        let r = try CLI.run([
            "crowd", "--headless", "--count", "60", "--frames", "10", "--skeleton",
            TestPaths.example("spineboy/spineboy-pro.skel"), "--atlas",
            TestPaths.example("spineboy/spineboy.atlas"),
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("of 2 kinds (bonebot, spineboy-pro)"))
        #expect(r.stdout.contains("none lost"))
    }

    /// A mistake on the command line: what is wrong, then where the help is; exit status 1.
    @Test func mistakesNameTheCommandAndPointToHelp() throws {
        for args in [
            ["crowd", "--count", "-3"], ["crowd", "--atlas", "a.atlas"], ["crowd", "--frames", "0"],
            ["crowd", "--churn", "fast"], ["crowd", "--bogus"],
        ] {
            let r = try CLI.run(args)
            #expect(r.status == 1, "\(args)")
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3 && lines[2].isEmpty, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("bonework crowd: "), "\(args): \(r.stderr)")
            #expect(lines.count > 1 && lines[1] == "see 'bonework crowd --help'", "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        let missing = try CLI.run(["crowd", "--headless", "--skeleton", "/nonexistent/x.json", "--frames", "1"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "bonework crowd: cannot read /nonexistent/x.json: No such file or directory\n")
    }

    @Test func budgetedCrowdFiresTheFullRateRunsEventsAndCountsRates() throws {
        let r = try CLI.run([
            "crowd", "--headless", "--count", "400", "--frames", "90", "--churn", "60", "--budget-ms", "0.5",
            "--compare-full-rate",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let rates = r.stdout.split(separator: "\n").first { $0.hasPrefix("update rates: engine CPU") } ?? ""
        // A budget below any rate's cost puts the characters at the slowest rates (what is left
        // of the slowest rate's cost buys a few the next rate up).
        #expect(rates.contains("1/1: 0, 1/2: 0, 1/4: 0,"), "\(rates)")
        #expect(r.stdout.contains("\nupdate rates "), "the choice is timed in the table")
        let comparison = r.stdout.split(separator: "\n").first { $0.hasPrefix("full-rate comparison:") } ?? ""
        #expect(comparison.contains("events and trigger changes identical on every frame"), "\(comparison)")
        #expect(!comparison.contains(": 0 character-frames"), "\(comparison)")
        #expect(r.stdout.contains("none lost"))
        for args in [
            ["crowd", "--headless", "--budget-ms", "0"], ["crowd", "--headless", "--budget-ms", "nan"],
            ["crowd", "--headless", "--budget-ms", "5", "--lod-slowest", "3"],
            ["crowd", "--headless", "--budget-ms", "5", "--lod-blend", "cubic"],
            ["crowd", "--headless", "--compare-full-rate"],
        ] {
            let bad = try CLI.run(args)
            #expect(bad.status == 1, "\(args)")
            #expect(bad.stderr.hasPrefix("bonework crowd: --"), "\(args): \(bad.stderr)")
        }
    }
}
