import BoneworkConformance
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Scenario scripts with values no script writer puts there: each is a `Scenario.FormatError`
/// naming the file and the JSON path, decided when the script is parsed (before a skeleton is
/// loaded), and no script can ask for unbounded work or memory.
@Suite struct HostileScenarioTests {
    static func refusal(_ text: String, format: Int = 2) -> String? {
        let header = #"{"format": "spine-scenario-\#(format)", "skeleton": "spineboy/spineboy-pro.skel", "#
        do {
            _ = try Scenario(json: Array((header + text + "}").utf8), file: "hostile.scenario.json")
            return nil
        } catch let error as Scenario.FormatError {
            return error.description
        } catch {
            return "untyped: \(error)"
        }
    }

    @Test func hostileScenariosAreRefusedWithTheirPath() throws {
        let set = #"{"op": "setAnimation", "track": 0, "animation": "walk", "loop": true}"#
        let cases: [(steps: String, path: String)] = [
            (#"{"op": "update", "dt": 0.1, "count": 999999999}"#, "$.steps[0].count"),
            (#"{"op": "update", "dt": 0.1, "count": -5}"#, "$.steps[0].count"),
            (#"{"op": "update", "dt": 0.1, "count": 1.5}"#, "$.steps[0].count"),
            (#"{"op": "update", "dt": 1e39, "count": 1}"#, "$.steps[0].dt"),
            (#"{"op": "update", "dt": 0.1, "count": 20000, "record": "each"}"#, "$.steps[0].record"),
            (#"{"op": "update", "dt": 0.1, "count": 1, "each": [{"op": "setAnimation"}]}"#, "$.steps[0].each[0].op"),
            (#"{"op": "setAnimation", "track": -1, "animation": "walk", "loop": true}"#, "$.steps[0].track"),
            (#"{"op": "setAnimation", "track": 256, "animation": "walk", "loop": true}"#, "$.steps[0].track"),
            (
                #"{"op": "addAnimation", "track": 0, "animation": "walk", "loop": true, "delay": -1e39}"#,
                "$.steps[0].delay"
            ),
            (#"{"op": "clearTrack", "track": 100000}"#, "$.steps[0].track"),
            (#"{"op": "setTimeScale", "value": 1e300}"#, "$.steps[0].value"),
            (#"{"op": "setEntry", "field": "alpha", "value": 1}"#, "$.steps[0]"),
            (set + #", {"op": "setEntry", "field": "bogus", "value": 1}"#, "$.steps[1].field"),
            (set + #", {"op": "setEntry", "field": "loop", "value": 1}"#, "$.steps[1].value"),
            (set + #", {"op": "setEntry", "field": "alpha", "value": 1e39}"#, "$.steps[1].value"),
            (set + #", {"op": "setEntry", "field": "mixBlend", "value": "multiply"}"#, "$.steps[1].value"),
            (#"{"op": "setSkeletonColor", "color": [1, 1, 1e39, 1]}"#, "$.steps[0].color"),
            (#"{"op": "setBone", "bone": "root", "x": -1e39}"#, "$.steps[0].x"),
            (#"{"op": "physicsRotate", "x": 0, "y": 0, "degrees": 4e38}"#, "$.steps[0].degrees"),
            (#"{"op": "moonwalk"}"#, "$.steps[0].op"),
            (#"{"op": "setBone", "bone": "root", "colour": 1}"#, "$.steps[0]"),
        ]
        for (steps, path) in cases {
            let message = try #require(Self.refusal(#""steps": [\#(steps)]"#), "\(steps) was accepted")
            #expect(message.hasPrefix("hostile.scenario.json: \(path)"), "\(steps): \(message)")
        }
        // Updates are counted over the whole script, `each` ops included.
        let many = Array(repeating: #"{"op": "update", "dt": 0.1, "count": 600000}"#, count: 2)
        let total = try #require(Self.refusal(#""steps": [\#(many.joined(separator: ", "))]"#))
        #expect(total.hasPrefix("hostile.scenario.json: $.steps[1].count"), "\(total)")
        let each =
            #"{"op": "update", "dt": 0.1, "count": 300000, "each": [{"op": "moveSkeleton", "dx": 1}, {"op": "moveSkeleton", "dx": 1}, {"op": "moveSkeleton", "dx": 1}, {"op": "moveSkeleton", "dx": 1}]}"#
        #expect(Self.refusal(#""steps": [\#(each)]"#)?.hasPrefix("hostile.scenario.json: $.steps[0].count") == true)
        // Defaults and header values: float range, the format.
        #expect(Self.refusal(#""defaultMix": 1e39, "steps": []"#)?.contains("$.defaultMix") == true)
        #expect(Self.refusal(#""steps": [], "record": {"vertices": 3}"#)?.contains("$.record.vertices") == true)
        // Not JSON, truncated, nested past the parser's depth: a FormatError naming the file.
        for text in ["", "{", #"{"format": "spine-scenario-2", "steps": ["#, String(repeating: "[", count: 100_000)] {
            do {
                _ = try Scenario(json: Array(text.utf8), file: "broken.json")
                Issue.record("\(text.prefix(30)) parsed")
            } catch let error as Scenario.FormatError {
                #expect(error.description.hasPrefix("broken.json: "), "\(error)")
            }
        }
        // What the reference scenarios do parses.
        #expect(Self.refusal(#""steps": [\#(set), {"op": "update", "dt": 0.1, "count": 60, "record": "each"}]"#) == nil)
    }

    @Test func everyGoldenScenarioStaysWithinTheLimits() throws {
        var parsed = 0
        for folder in [
            TestPaths.golden.appendingPathComponent("scenarios"), TestPaths.golden.appendingPathComponent("runtime"),
        ] {
            for url in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            where url.lastPathComponent.hasSuffix(".scenario.json") {
                _ = try Scenario(file: url.path)
                parsed += 1
            }
        }
        #expect(parsed >= 30)
    }
}

extension HostileScenarioTests {
    /// The inputs `Tools/fuzz.sh scenario` kept and the named regressions: each parses or is a
    /// `Scenario.FormatError` naming its file.
    @Test func fuzzedScenariosParseOrFailNamingTheFile() throws {
        let root = TestPaths.repositoryRoot.appendingPathComponent("Tools/Fuzz")
        let files = try FuzzInputs.files(root, target: "scenario")
        #expect(files.count >= 20, "Tools/Fuzz/corpus/scenario holds only \(files.count) inputs")
        for url in files {
            do {
                _ = try Scenario(file: url.path)
            } catch let error as Scenario.FormatError {
                #expect(error.description.hasPrefix(url.path + ": "), "\(error)")
            }
        }
        for name in ["updates-past-the-work-limit", "set-entry-unknown-field"] {
            let url = root.appendingPathComponent("regressions/scenario/\(name).scenario.json")
            #expect(throws: Scenario.FormatError.self, "\(name)") { try Scenario(file: url.path) }
        }
    }
}
