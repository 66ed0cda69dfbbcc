import BoneworkTestSupport
import Foundation
import Testing

/// Runs the built `bonework` executable the way a user does.
enum CLI {
    /// The executable sits beside the test bundle in the build products folder.
    static var executable: URL {
        ChildProcess.product("bonework") ?? TestPaths.repositoryRoot.appendingPathComponent(".build/debug/bonework")
    }

    typealias Result = ChildProcess.Result

    static func run(_ arguments: [String]) throws -> Result { try ChildProcess.run(executable, arguments) }
}

@Suite struct InspectCommandTests {
    static let keys = [
        "bones", "slots", "ik", "transform", "path", "physics", "skins", "animations", "events", "attachments",
        "region", "mesh", "linkedMesh", "clipping", "boundingBox", "pathAttachment", "point",
    ]

    static var files: [String] {
        guard let data = try? Data(contentsOf: TestPaths.featuresFile),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object.keys.sorted()
    }

    @Test func referenceCountsArePresent() {
        #expect(Self.files.count == 52)
    }

    @Test(arguments: files)
    func jsonOutputAgreesWithReference(_ file: String) throws {
        let atlas = try #require(TestPaths.atlasPath(forSkeleton: file), "\(file): no atlas found")
        let result = try CLI.run([
            "inspect", TestPaths.example(file), "--atlas", atlas, "--json",
        ])
        #expect(result.status == 0, "\(file): \(result.stderr)")
        let ours = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(file): not JSON")
        let all = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: TestPaths.featuresFile)) as? [String: [String: Int]]
        )
        let reference = try #require(all[file])
        for key in Self.keys {
            #expect((ours[key] as? Int) == reference[key], "\(file): \(key)")
        }
    }

    @Test func summaryNamesTheParts() throws {
        let result = try CLI.run([
            "inspect", TestPaths.example("spineboy/spineboy-pro.skel"),
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("bones       67"))
        #expect(result.stdout.contains("walk"))
        #expect(result.stdout.contains("ik 7, transform 8"))
    }

    @Test func errorsAreOneLineOnStderrWithNonZeroExit() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bonework-cli-bad.json")
        try Data(#"{"skeleton": {"spine": "3.8.99"}, "bones": []}"#.utf8).write(to: bad)
        let result = try CLI.run(["inspect", bad.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(bad.path))
        #expect(result.stderr.contains("unsupportedVersion"))
    }

    @Test func defaultCharacterInspects() throws {
        let result = try CLI.run(["inspect", "--default", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((ours["animations"] as? Int ?? 0) >= 3)
        #expect((ours["ik"] as? Int ?? 0) >= 1)
    }
}
