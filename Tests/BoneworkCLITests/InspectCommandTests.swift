import BoneworkTestSupport
import Foundation
import Testing

/// Runs the built `bonework` executable the way a user does.
enum CLI {
    /// The executable sits beside the test bundle in the build products folder.
    static var executable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("bonework")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return TestPaths.repositoryRoot.appendingPathComponent(".build/debug/bonework")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
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
