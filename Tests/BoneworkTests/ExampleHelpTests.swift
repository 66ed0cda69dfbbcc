import BoneworkExamples
import Foundation
import Testing

/// Every example answers `--help` with exit status 0 and a line per option it accepts (the test
/// reads the table the examples parse, so an option left out of the help fails it), and answers a
/// mistake with one line and a pointer to the help.
@Suite struct ExampleHelpTests {
    static let names = [
        "SimpleAnimation", "PlayPauseAnimation", "AnimationStateEvents", "DebugRendering", "DressUp", "IKFollowing",
        "DisableRendering",
    ]

    /// The example's executable, in the build products folder beside the test bundle.
    static func executable(_ name: String) throws -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }

    static func run(_ name: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    @Test func theTableParsesEveryOptionItLists() throws {
        for option in ExampleOptions.options where option.name != "--help" {
            let arguments = [option.name] + (option.value.map { _ in [option.value == "N" ? "3" : "/tmp"] } ?? [])
            let parsed = try ExampleOptions(
                arguments: arguments + (option.name == "--headless" ? ["--out", "/tmp"] : []))
            #expect(!parsed.helpRequested, "\(option.name)")
        }
        #expect(try ExampleOptions(arguments: ["--help"]).helpRequested)
        #expect(try ExampleOptions(arguments: ["-h", "--bogus"]).helpRequested)
    }

    @Test(arguments: names) func helpExitsZeroAndNamesEveryOption(_ name: String) throws {
        let result = try Self.run(name, ["--help"])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix("usage: \(name) "))
        for option in ExampleOptions.options {
            let listed = "  " + option.name + (option.value.map { " \($0)" } ?? "")
            #expect(result.stdout.contains(listed + " "), "\(name) --help does not list \(option.name)")
        }
    }

    @Test func aMistakeIsOneLineAndPointsToTheHelp() throws {
        let result = try Self.run("DressUp", ["--hedless"])
        #expect(result.status == 1)
        #expect(result.stderr == "DressUp: invalid argument: unknown option --hedless\nsee 'DressUp --help'\n")
    }
}
