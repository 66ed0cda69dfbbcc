import BoneworkExamples
import BoneworkTestSupport
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

    static func run(_ name: String, _ arguments: [String]) throws -> ChildProcess.Result {
        let executable = try #require(ChildProcess.product(name), "\(name) was not built")
        return try ChildProcess.run(executable, arguments)
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
