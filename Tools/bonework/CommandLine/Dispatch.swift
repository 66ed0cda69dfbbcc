import Foundation

/// A subcommand of `bonework`: its table and what runs once its arguments have parsed.
struct Subcommand: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments) throws -> Void

    /// Every subcommand, in the order `bonework --help` lists them. Those whose names share a
    /// first word (`trace pose`, `trace scenario`) form a group: `bonework trace --help` lists them.
    static let all: [Subcommand] = [
        Subcommand(spec: InspectCommand.spec, run: { try InspectCommand.run($0) }),
        Subcommand(spec: TraceCommand.spec, run: { try TraceCommand.run($0) }),
        Subcommand(spec: TraceScenarioCommand.spec, run: { try TraceScenarioCommand.run($0) }),
        Subcommand(spec: RenderCommand.spec, run: { try RenderCommand.run($0) }),
        Subcommand(spec: ViewCommand.spec, run: { try ViewCommand.run($0) }),
        Subcommand(spec: BenchCommand.spec, run: { try BenchCommand.run($0) }),
        Subcommand(spec: CrowdCommand.spec, run: { try CrowdCommand.run($0) }),
    ]
}

/// `bonework ARGUMENTS`: finds the subcommand, prints help when asked, runs it, and reports
/// what went wrong. Mistakes on the command line (`UsageError`) read
/// `bonework SUBCOMMAND: MESSAGE` and then `see 'bonework SUBCOMMAND --help'`; any other
/// failure is the first of those lines alone. Both exit with status 1.
enum Dispatch {
    /// Runs `bonework` with `arguments` (without the program's name) and returns the exit status.
    static func main(_ arguments: [String], commands: [Subcommand] = Subcommand.all) -> Int32 {
        let specs = commands.map(\.spec)
        guard let first = arguments.first else {
            print(HelpText.overview(specs))
            return 2
        }
        if CommandSpec.helpOptions.contains(first) {
            print(HelpText.overview(specs))
            return 0
        }
        if first == "help" {
            return help(Array(arguments.dropFirst()), commands: commands)
        }
        switch find(arguments, in: commands) {
        case .command(let command, let rest):
            return run(command, rest)
        case .group(let name, let members, let rest):
            if rest.first.map(CommandSpec.helpOptions.contains) ?? false {
                print(HelpText.group(name, members.map(\.spec)))
                return 0
            }
            return report(groupMistake(rest.first, members), command: name)
        case .unknown(let word):
            return report(unknownCommand(word, commands), command: nil)
        }
    }

    /// `bonework help [SUBCOMMAND...]`.
    static func help(_ words: [String], commands: [Subcommand]) -> Int32 {
        guard !words.isEmpty else {
            print(HelpText.overview(commands.map(\.spec)))
            return 0
        }
        switch find(words, in: commands) {
        case .command(let command, _):
            print(HelpText.command(command.spec))
            return 0
        case .group(let name, let members, let rest):
            guard let word = rest.first else {
                print(HelpText.group(name, members.map(\.spec)))
                return 0
            }
            return report(groupMistake(word, members), command: name)
        case .unknown(let word):
            return report(unknownCommand(word, commands), command: nil)
        }
    }

    /// Parses, answers `--help`, runs; every error becomes the report on stderr.
    static func run(_ command: Subcommand, _ arguments: [String]) -> Int32 {
        do {
            let parsed = try command.spec.parse(arguments)
            if parsed.helpRequested {
                print(HelpText.command(command.spec))
                return 0
            }
            try command.run(parsed)
            return 0
        } catch {
            return report(error, command: command.spec.name)
        }
    }

    enum Found {
        /// A subcommand, and the arguments after its name.
        case command(Subcommand, [String])
        /// The first word of a group's subcommands, them, and the arguments after that word.
        case group(String, [Subcommand], [String])
        case unknown(String)
    }

    /// The subcommand that `arguments` start with.
    static func find(_ arguments: [String], in commands: [Subcommand]) -> Found {
        let first = arguments[0]
        let members = commands.filter { $0.spec.name.split(separator: " ").first.map(String.init) == first }
        if members.count == 1, members[0].spec.name == first {
            return .command(members[0], Array(arguments.dropFirst()))
        }
        guard !members.isEmpty else { return .unknown(first) }
        if arguments.count > 1, let member = members.first(where: { $0.spec.name == "\(first) \(arguments[1])" }) {
            return .command(member, Array(arguments.dropFirst(2)))
        }
        return .group(first, members, Array(arguments.dropFirst()))
    }

    static func unknownCommand(_ word: String, _ commands: [Subcommand]) -> UsageError {
        var firstWords: [String] = []
        for command in commands {
            let word = String(command.spec.name.split(separator: " ")[0])
            if !firstWords.contains(word) { firstWords.append(word) }
        }
        return unknown(word, among: firstWords + ["help"])
    }

    /// `bonework trace` without `pose` or `scenario`, or with something else.
    static func groupMistake(_ word: String?, _ members: [Subcommand]) -> UsageError {
        let second = members.map { String($0.spec.name.split(separator: " ")[1]) }
        guard let word else { return UsageError("needs a subcommand: \(second.joined(separator: " or "))") }
        return unknown(word, among: second)
    }

    static func unknown(_ word: String, among names: [String]) -> UsageError {
        var message = "unknown subcommand '\(word)'"
        if let near = Suggestion.nearest(to: word, among: names) { message += " (did you mean \(near)?)" }
        return UsageError(message)
    }

    /// Writes the error report for `command` (nil: `bonework` itself) to stderr; returns 1.
    @discardableResult
    static func report(_ error: any Error, command: String?) -> Int32 {
        let name = command.map { "bonework \($0)" } ?? "bonework"
        var text = "\(name): \(oneLine(error))\n"
        if error is UsageError { text += "see '\(name) --help'\n" }
        FileHandle.standardError.write(Data(text.utf8))
        return 1
    }

    /// The error as one line: Foundation's file errors in the system's words, anything else
    /// as it describes itself, its lines joined with `; `.
    static func oneLine(_ error: any Error) -> String {
        if let file = error as? FileError { return file.description }
        if let file = FileError(foundation: error) { return file.description }
        let lines = "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        return lines.filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
