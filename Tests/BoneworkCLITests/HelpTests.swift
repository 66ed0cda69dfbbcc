import Foundation
import Testing

@testable import bonework

/// `--help` for every subcommand, read against the subcommand's option table: an option in the
/// table that help leaves out, or one without a meaning, fails here.
@Suite struct HelpTests {
    static let names = Subcommand.all.map(\.spec.name)

    static func spec(_ name: String) throws -> CommandSpec {
        try #require(Subcommand.all.first { $0.spec.name == name }?.spec, "no subcommand \(name)")
    }

    static func words(_ name: String) -> [String] { name.split(separator: " ").map(String.init) }

    @Test func everySubcommandIsListed() {
        #expect(Self.names == ["inspect", "trace pose", "trace scenario", "render", "view", "bench", "crowd"])
    }

    @Test(arguments: names)
    func helpNamesEveryOption(_ name: String) throws {
        let spec = try Self.spec(name)
        let r = try CLI.run(Self.words(name) + ["--help"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.hasPrefix("usage: bonework \(spec.synopsis[0])\n"))
        #expect(!spec.options.isEmpty)
        for option in spec.options {
            #expect(!option.meaning.isEmpty, "\(name) \(option.name) has no meaning")
            #expect(r.stdout.contains("  \(option.usage)  "), "\(name) --help lacks \(option.usage)")
            #expect(r.stdout.contains(option.meaning), "\(name) --help lacks the meaning of \(option.name)")
            if let value = option.defaultValue {
                #expect(r.stdout.contains("default: \(value)"), "\(name) --help lacks the default of \(option.name)")
            }
        }
        for positional in spec.positionals { #expect(r.stdout.contains("  \(positional.name)  ")) }
        #expect(r.stdout.contains("\nExamples:\n"))
        for example in spec.examples {
            #expect(example.hasPrefix("bonework ") || example.contains(" bonework "), "\(example)")
            #expect(r.stdout.contains("  \(example)\n"))
        }
    }

    /// `-h`, `--help` after other arguments (even wrong ones) and `bonework help NAME` all print the same help.
    @Test(arguments: names)
    func helpIsTheSameEveryWay(_ name: String) throws {
        let words = Self.words(name)
        let expected = try CLI.run(words + ["--help"]).stdout
        for args in [words + ["-h"], words + ["--bogus", "x", "--help"], ["help"] + words] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stdout == expected, "\(args)")
        }
    }

    @Test(arguments: ["crowd", "view"])
    func windowKeysAreExplained(_ name: String) throws {
        let r = try CLI.run([name, "--help"])
        #expect(r.stdout.contains("\nWindow keys:\n"))
        let keys =
            name == "crowd"
            ? ["1 / 2 / 3", "left drag", "mouse wheel", "P", "+ / -", "O", "Escape"]
            : [
                "left / right", "1 ... 9", "up / down", "Enter", "space", "Page Up / Page Down", "L", "R", "B", "H",
                "D",
                "Escape",
            ]
        let section = try #require(try Self.spec(name).sections.first { $0.title == "Window keys" })
        #expect(section.rows.map(\.term) == keys)
        for row in section.rows { #expect(r.stdout.contains("  \(row.term)  ") && r.stdout.contains(row.meaning)) }
    }

    @Test func overviewListsEverySubcommand() throws {
        for args in [["--help"], ["-h"], ["help"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0)
            for command in Subcommand.all {
                #expect(r.stdout.contains("  \(command.spec.name)  "), "\(args): \(command.spec.name)")
                #expect(r.stdout.contains(command.spec.summary))
            }
        }
        let bare = try CLI.run([])
        #expect(bare.status == 2)
        #expect(bare.stdout == (try CLI.run(["--help"])).stdout)
    }

    @Test func traceHelpListsBothTraces() throws {
        for args in [["trace", "--help"], ["trace", "-h"], ["help", "trace"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args)")
            #expect(r.stdout.contains("  trace pose  ") && r.stdout.contains("  trace scenario  "), "\(args)")
            #expect(r.stdout.contains("bonework trace pose REFERENCE.json"))
            #expect(r.stdout.contains("bonework trace scenario SCENARIO.json"))
        }
    }
}

/// How mistakes and failures read: `bonework SUBCOMMAND: WHAT` on stderr, a pointer to the help
/// after mistakes on the command line, exit status 1, nothing on stdout.
@Suite struct ErrorFormatTests {
    static func expectMistake(_ args: [String], _ expected: String, help: String) throws {
        let r = try CLI.run(args)
        #expect(r.status == 1, "\(args)")
        #expect(r.stdout.isEmpty, "\(args)")
        #expect(r.stderr == "\(expected)\nsee '\(help) --help'\n", "\(args)")
    }

    /// A failure that is not a command line mistake: one line.
    static func expectFailure(_ args: [String], _ expected: String) throws {
        let r = try CLI.run(args)
        #expect(r.status == 1, "\(args)")
        #expect(r.stdout.isEmpty, "\(args)")
        #expect(r.stderr == expected + "\n", "\(args)")
    }

    @Test func unknownOptionSuggestsTheNearest() throws {
        try Self.expectMistake(
            ["crowd", "--cout", "3"], "bonework crowd: unknown option --cout (did you mean --count?)",
            help: "bonework crowd")
        try Self.expectMistake(
            ["bench", "--frmaes", "3"], "bonework bench: unknown option --frmaes (did you mean --frames?)",
            help: "bonework bench")
        try Self.expectMistake(
            ["trace", "scenario", "x.json", "--lokal"],
            "bonework trace scenario: unknown option --lokal (did you mean --local?)", help: "bonework trace scenario")
        try Self.expectMistake(
            ["inspect", "x.skel", "--nothing-like-it"], "bonework inspect: unknown option --nothing-like-it",
            help: "bonework inspect")
    }

    @Test(arguments: HelpTests.names)
    func everySubcommandRefusesUnknownOptions(_ name: String) throws {
        try Self.expectMistake(
            HelpTests.words(name) + ["--no-such-option-here"],
            "bonework \(name): unknown option --no-such-option-here", help: "bonework \(name)")
    }

    @Test func missingValueNamesThePlaceholder() throws {
        try Self.expectMistake(
            ["crowd", "--count"], "bonework crowd: --count needs a value (N)", help: "bonework crowd")
        try Self.expectMistake(
            ["render", "x.skel", "--atlas", "a.atlas", "--out"], "bonework render: --out needs a value (FILE.png)",
            help: "bonework render")
    }

    @Test func validationMessagesKeepTheirWords() throws {
        try Self.expectMistake(
            ["crowd", "--count", "-3"], "bonework crowd: --count needs an integer >= 0, not '-3'",
            help: "bonework crowd")
        try Self.expectMistake(
            ["bench", "--mode", "fast"], "bonework bench: --mode is interleaved or split, not 'fast'",
            help: "bonework bench")
        try Self.expectMistake(
            ["bench", "stray"], "bonework bench: unexpected argument 'stray'", help: "bonework bench")
    }

    @Test func unknownSubcommandSuggestsTheNearest() throws {
        try Self.expectMistake(
            ["crwod"], "bonework: unknown subcommand 'crwod' (did you mean crowd?)", help: "bonework")
        try Self.expectMistake(["zzzzzz"], "bonework: unknown subcommand 'zzzzzz'", help: "bonework")
        try Self.expectMistake(
            ["trace", "pse"], "bonework trace: unknown subcommand 'pse' (did you mean pose?)", help: "bonework trace")
        try Self.expectMistake(
            ["trace"], "bonework trace: needs a subcommand: pose or scenario", help: "bonework trace")
        try Self.expectMistake(
            ["help", "rendr"], "bonework: unknown subcommand 'rendr' (did you mean render?)", help: "bonework")
    }

    /// Files the user names: the system's reason, in one line, for every command that reads one.
    @Test func missingFilesGiveTheSystemReason() throws {
        let missing = "/nonexistent-bonework/x.json"
        let missingAtlas = "/nonexistent-bonework/x.atlas"
        let reason = "cannot read \(missing): No such file or directory"
        for args in [
            ["inspect", missing], ["trace", "pose", missing], ["trace", "scenario", missing],
            ["render", missing, "--atlas", missingAtlas, "--out", "/tmp/x.png"],
            ["view", missing, "--atlas", missingAtlas, "--headless", "--out", "/tmp/x.png"],
            ["bench", "--skeleton", missing], ["crowd", "--headless", "--skeleton", missing],
            ["render", "--request", missing, "--out", "/tmp/x.png"],
        ] {
            let name = args[0] == "trace" ? "trace \(args[1])" : args[0]
            try Self.expectFailure(args, "bonework \(name): \(reason)")
        }
        try Self.expectFailure(
            ["crowd", "--headless", "--count", "1", "--frames", "1", "--csv", "/nonexistent-bonework/run.csv"],
            "bonework crowd: cannot write /nonexistent-bonework/run.csv: No such file or directory")
        let folder = FileManager.default.temporaryDirectory.path
        try Self.expectFailure(["inspect", folder], "bonework inspect: cannot read \(folder): Is a directory")
    }
}

/// The parser on its own, against a small table.
@Suite struct ArgumentParserTests {
    static let spec = CommandSpec(
        name: "test", summary: "a table for the parser's tests", synopsis: ["test [options] A [B]"],
        description: "Parses.",
        positionals: [PositionalSpec(name: "A", meaning: "first"), PositionalSpec(name: "B", meaning: "second")],
        options: [
            .flag("--json", "JSON"),
            .value("--count", "N", default: "1", "how many"),
            .value("--skeleton", "PATH", repeatable: true, "a skeleton"),
        ],
        examples: ["bonework test a"])

    static func mistake(_ args: [String]) -> String? {
        do {
            _ = try spec.parse(args)
            return nil
        } catch {
            return (error as? UsageError)?.message ?? "not a UsageError: \(error)"
        }
    }

    @Test func flagsValuesAndPositionals() throws {
        let p = try Self.spec.parse(["a", "--json", "--count", "3", "-", "--count=5"])
        #expect(p.positional == ["a", "-"])
        #expect(p.flag("--json"))
        #expect(p.value("--count") == "5", "the last value wins")
        #expect(!p.helpRequested)
        let none = try Self.spec.parse([])
        #expect(!none.flag("--json") && none.value("--count") == nil && none.all("--skeleton").isEmpty)
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        let p = try Self.spec.parse(["--skeleton", "x.skel", "a", "--skeleton=y.json", "--skeleton", "z.skel"])
        #expect(p.all("--skeleton") == ["x.skel", "y.json", "z.skel"])
        #expect(p.positional == ["a"])
    }

    @Test func valuesMayStartWithADash() throws {
        #expect(try Self.spec.parse(["--count", "-3"]).value("--count") == "-3")
        #expect(try Self.spec.parse(["--count", "--json"]).value("--count") == "--json")
    }

    @Test func doubleDashEndsTheOptions() throws {
        let p = try Self.spec.parse(["--json", "--", "--count", "-h"])
        #expect(p.positional == ["--count", "-h"])
        #expect(p.flag("--json"))
        #expect(!p.helpRequested)
        #expect(Self.mistake(["--", "a", "b", "c"]) == "unexpected argument 'c'")
    }

    @Test func helpAnywhereStopsParsing() throws {
        for args in [["--help"], ["-h"], ["a", "b", "c", "--bogus", "--count", "-h"], ["--count", "--help"]] {
            #expect(try Self.spec.parse(args).helpRequested, "\(args)")
        }
    }

    @Test func mistakes() {
        #expect(Self.mistake(["--cuont", "3"]) == "unknown option --cuont (did you mean --count?)")
        #expect(Self.mistake(["--skeletons", "x"]) == "unknown option --skeletons (did you mean --skeleton?)")
        #expect(Self.mistake(["--verbose"]) == "unknown option --verbose")
        #expect(Self.mistake(["-x"]) == "unknown option -x")
        #expect(Self.mistake(["--count"]) == "--count needs a value (N)")
        #expect(Self.mistake(["--json=yes"]) == "--json takes no value")
        #expect(Self.mistake(["a", "b", "c"]) == "unexpected argument 'c'")
    }

    /// The table is the only way in: reading an option it does not declare, or reading one the
    /// wrong way, stops the program.
    @Test func readingOutsideTheTableStops() async {
        await #expect(processExitsWith: .failure) {
            _ = try ArgumentParserTests.spec.parse([]).value("--undeclared")
        }
        await #expect(processExitsWith: .failure) {
            _ = try ArgumentParserTests.spec.parse([]).value("--skeleton")
        }
        await #expect(processExitsWith: .failure) {
            _ = try ArgumentParserTests.spec.parse([]).flag("--count")
        }
    }

    @Test func editDistance() {
        #expect(Suggestion.distance("cout", "count") == 1)
        #expect(Suggestion.distance("frmaes", "frames") == 1, "a swap of neighbours is one edit")
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("same", "same") == 0)
        let crowd = CrowdCommand.spec.options.map(\.name)
        #expect(Suggestion.nearest(to: "--cout", among: crowd) == "--count")
        #expect(Suggestion.nearest(to: "--screnshot", among: crowd) == "--screenshot")
        #expect(Suggestion.nearest(to: "--headles", among: crowd) == "--headless")
        #expect(Suggestion.nearest(to: "--memory", among: crowd) == nil)
        #expect(Suggestion.nearest(to: "--x", among: crowd) == nil)
    }

    @Test func findsSubcommandsAndGroups() {
        switch Dispatch.find(["trace", "pose", "r.json"], in: Subcommand.all) {
        case .command(let command, let rest): #expect(command.spec.name == "trace pose" && rest == ["r.json"])
        default: Issue.record("trace pose not found")
        }
        switch Dispatch.find(["trace", "--help"], in: Subcommand.all) {
        case .group(let name, let members, let rest):
            #expect(name == "trace" && members.count == 2 && rest == ["--help"])
        default: Issue.record("trace is a group")
        }
        switch Dispatch.find(["crowd", "--count", "3"], in: Subcommand.all) {
        case .command(let command, let rest): #expect(command.spec.name == "crowd" && rest == ["--count", "3"])
        default: Issue.record("crowd not found")
        }
        if case .unknown(let word) = Dispatch.find(["nope"], in: Subcommand.all) {
            #expect(word == "nope")
        } else {
            Issue.record("nope is no subcommand")
        }
    }
}
