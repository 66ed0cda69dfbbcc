import BoneworkTestSupport
import Foundation
import Testing

/// The tools refuse what the machine cannot hold before they start, with the world's error.
@Suite struct ResourceLimitCommandTests {
    @Test func anAbsurdCrowdEndsAtOnceWithTheMemoryError() throws {
        let clock = ContinuousClock.now
        let r = try CLI.run(["crowd", "--headless", "--count", "100000000", "--frames", "1"])
        #expect(ContinuousClock.now - clock < .seconds(20))
        #expect(r.status == 1)
        #expect(r.stderr.contains("100000000 instances need"), "\(r.stderr)")
        #expect(r.stderr.contains("more than the world's memory limit"), "\(r.stderr)")
        #expect(r.stderr.contains("bonebot.json"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    @Test func aCrowdThatFitsRuns() throws {
        let r = try CLI.run(["crowd", "--headless", "--count", "3000", "--frames", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("none lost"))
    }
}
