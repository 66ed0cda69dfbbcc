import BoneworkConformance
import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The reference traces of what applications do to a skeleton (`../shared/golden/runtime`,
/// scenario format 2): composed skins, bones set in the callback after apply, the skeleton moved,
/// flipped, scaled and coloured, attachments and slot colours, constraint values, physics
/// impulses, world transforms with a physics mode, world vertices and bounds. Each runs on 1 and
/// 2 threads from the export its scenario names; the first differences are named (bone, slot,
/// track, event).
///
/// Only that export has a reference: the reference runtime's own traces of a `.skel` and of the
/// `.json` of the same skeleton differ (JSON rounds key times to 4 decimals, which moves events by
/// an update and poses by up to ~1.7 units; `golden/README.md`), so a `.json` run is judged by
/// the `.json` pose traces, never by these.
@Suite struct RuntimeScenarioTests {
    static let names = [
        "alien-transform-mix-colors", "celestial-circus-drag-across", "cloud-pot-physics-impulses-reset",
        "goblins-attachments-colors", "hero-weapons-composed-path-mix", "mix-and-match-compose-order-overlap",
        "mix-and-match-dressup-guide", "mix-and-match-skin-switch-mid-mix", "raptor-ik-mix-skeleton-scale",
        "spineboy-aim-follow-crosshair", "spineboy-bone-overrides-setup-pose", "spineboy-flipped-additive-aim",
        "stretchyman-ik-path-mixes", "tank-cannon-follow-treads",
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var threads: Int
        var testDescription: String { "\(name) (\(threads) thread\(threads == 1 ? "" : "s"))" }
    }

    static let cases: [Case] = names.flatMap { name in [1, 2].map { Case(name: name, threads: $0) } }

    static func scenario(_ name: String) throws -> Scenario {
        let file = TestPaths.runtimeScenarios.appendingPathComponent("\(name).scenario.json").path
        return try Scenario(json: SkeletonLoader.readFile(file), file: name)
    }

    @Test func everyReferenceScenarioIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.runtimeScenarios.path)
        let found = files.filter { $0.hasSuffix(".scenario.json") }.map { String($0.dropLast(".scenario.json".count)) }
        #expect(Set(found) == Set(Self.names))
        #expect(found.count == 14)
        for name in Self.names { #expect(try Self.scenario(name).format == 2, "\(name)") }
    }

    @Test(arguments: cases)
    func traceMatchesReference(_ c: Case) throws {
        let scenario = try Self.scenario(c.name)
        let atlas = try scenario.atlas.map { try ExampleSkeletons.atlas($0) }
        let data = try SkeletonLoader.load(file: TestPaths.example(scenario.skeleton), atlas: atlas)
        let trace = try ScenarioRunner.run(scenario, data: data, threads: c.threads)
        let actual = try #require(try JSONSerialization.jsonObject(with: Data(trace.json().utf8)) as? [String: Any])
        let expectedFile = TestPaths.runtimeScenarios.appendingPathComponent("\(c.name).expected.json")
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: expectedFile)) as? [String: Any])
        #expect(actual["format"] as? String == "spine-scenario-trace-2")
        let comparison = TraceComparison(
            expected: expected, actual: actual, bones: data.bones.map(\.name), slots: data.slots.map(\.name))
        #expect(comparison.count == 0, "\(c.testDescription): \(comparison.summary)")
        #expect(comparison.values > 2000)
    }

    // Bad input: a typed error naming what is wrong, nothing half-applied.

    static func script(_ steps: String, skeleton: String = "spineboy/spineboy-pro.skel") -> [UInt8] {
        Array(
            """
            {"format": "spine-scenario-2", "skeleton": "\(skeleton)", "atlas": "spineboy/spineboy.atlas",
             "skin": null, "defaultMix": 0, "mixes": [], "steps": [\(steps)]}
            """.utf8)
    }

    @Test func unknownFieldsAndOpsAreRefusedWithTheirPlace() throws {
        let cases: [(String, String)] = [
            (#"{"op": "setBone", "bone": "head", "rotaton": 3}"#, "$.steps[0]: unknown field 'rotaton'"),
            (#"{"op": "setIK", "constraint": "aim-ik", "bendDirection": 0}"#, "$.steps[0].bendDirection"),
            (#"{"op": "fly"}"#, "$.steps[0].op"),
            (#"{"op": "update", "dt": 0.1, "each": [{"op": "setAnimation"}]}"#, "$.steps[0].each[0].op"),
            (#"{"op": "updateWorldTransform", "physics": "fast"}"#, "$.steps[0].physics"),
        ]
        for (step, place) in cases {
            do {
                _ = try Scenario(json: Self.script(step), file: "bad")
                Issue.record("accepted \(step)")
            } catch let error as Scenario.FormatError {
                #expect(error.description.contains(place), "\(error)")
            }
        }
    }

    @Test func unknownNamesAreWorldErrorsNamingThemAndTheSkeleton() throws {
        let data = try ExampleSkeletons.spineboy()
        for (step, expected) in [
            (
                #"{"op": "setBone", "bone": "tail", "x": 1}"#,
                WorldError.noSuchName("tail", kind: "bone", skeleton: data.file)
            ),
            (
                #"{"op": "setSlotColor", "slot": "cape", "color": [1, 0, 0, 1]}"#,
                .noSuchName("cape", kind: "slot", skeleton: data.file)
            ),
            (
                #"{"op": "setIK", "constraint": "leg-ik", "mix": 0}"#,
                .noSuchName("leg-ik", kind: "ik constraint", skeleton: data.file)
            ),
            (
                #"{"op": "setPhysics", "constraint": "hair", "wind": 3}"#,
                .noSuchName("hair", kind: "physics constraint", skeleton: data.file)
            ),
            (
                #"{"op": "setAttachment", "slot": "head", "attachment": "hat"}"#,
                .noSuchAttachment("hat", slot: "head", skeleton: data.file)
            ),
        ] {
            let scenario = try Scenario(json: Self.script(step), file: "names")
            #expect(throws: expected) { try ScenarioRunner.run(scenario, data: data) }
        }
    }

    @Test func anUnknownAttachmentChangesNothing() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let e = try world.spawn(data)
        let head = try #require(data.findSlotIndex("head"))
        let before = try world.slotAttachment(e, slot: head)
        #expect(throws: WorldError.noSuchAttachment("hat", slot: "head", skeleton: data.file)) {
            try world.setAttachment(e, slot: head, name: "hat")
        }
        #expect(try world.slotAttachment(e, slot: head) == before)
        try world.setAttachment(e, slot: head, name: nil)
        #expect(try world.slotAttachment(e, slot: head) == -1)
        #expect(throws: InstanceAccessError.constraintOutOfRange(kind: "ik", data.ikConstraints.count)) {
            try world.ikConstraint(e, data.ikConstraints.count)
        }
        #expect(throws: InstanceAccessError.slotOutOfRange(-1)) { try world.setAttachment(e, slot: -1, name: "x") }
    }

    @Test func boundsCoverTheVisibleVerticesAndAreNilWithoutAny() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        let e = try world.spawn(data)
        let bounds = try #require(try world.bounds(e))
        // Every region and mesh vertex of the pose lies inside (no clipping attachment is shown in
        // the setup pose), and the box touches them.
        let all = try world.pose(e).vertices.compactMap { $0 }.flatMap { $0 }
        let xs = stride(from: 0, to: all.count, by: 2).map { all[$0] }
        let ys = stride(from: 1, to: all.count, by: 2).map { all[$0] }
        #expect(
            bounds
                == WorldBounds(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!))
        for s in 0..<data.slots.count { try world.setAttachment(e, slot: s, name: nil) }
        #expect(try world.bounds(e) == nil)
    }
}
