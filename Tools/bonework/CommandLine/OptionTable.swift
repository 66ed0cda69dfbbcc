/// One option in a subcommand's table. The table is the only place an option is declared: the
/// parser accepts exactly the table's options and the help lists every one of them.
struct OptionSpec: Sendable {
    /// How the option is written: `--count`.
    let name: String
    /// The value's placeholder in help and errors (`N`, `FILE`); nil for a flag, which takes no value.
    let placeholder: String?
    /// Whether every value given is kept, in order (read them with `ParsedArguments.all(_:)`);
    /// otherwise the last one given wins, so that a script's extra arguments override its defaults.
    let repeatable: Bool
    /// The default as help shows it (`2000`, `every core`); nil when there is none worth showing.
    let defaultValue: String?
    /// One line: what the option does.
    let meaning: String

    /// An option without a value: present or not.
    static func flag(_ name: String, _ meaning: String) -> OptionSpec {
        OptionSpec(name: name, placeholder: nil, repeatable: false, defaultValue: nil, meaning: meaning)
    }

    /// An option followed by a value: `--count 2000` (or `--count=2000`).
    static func value(
        _ name: String, _ placeholder: String, default defaultValue: String? = nil, repeatable: Bool = false,
        _ meaning: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, placeholder: placeholder, repeatable: repeatable, defaultValue: defaultValue,
            meaning: meaning)
    }

    var isFlag: Bool { placeholder == nil }

    /// The option as help and errors write it: `--count N`, or `--json` for a flag.
    var usage: String { placeholder.map { "\(name) \($0)" } ?? name }
}

/// A positional argument of a subcommand, as help describes it. The parser refuses more
/// positional arguments than the table lists; the command checks that the ones it needs are there.
struct PositionalSpec: Sendable {
    /// The placeholder: `SKELETON`.
    let name: String
    /// One line: what the argument is.
    let meaning: String
}

/// A titled list in a subcommand's help besides its options, such as the keys of its window.
struct HelpSection: Sendable {
    let title: String
    /// Each row: what to press or write, and what it does.
    let rows: [(term: String, meaning: String)]
}

/// A subcommand's command line: its options, positional arguments and help text, the single
/// source of what `bonework NAME` accepts (`parse(_:)`) and what `bonework NAME --help` prints
/// (`HelpText.command(_:)`).
struct CommandSpec: Sendable {
    /// The words that select the subcommand: `crowd`, or `trace pose`.
    let name: String
    /// One line for the list of subcommands in `bonework --help`.
    let summary: String
    /// The forms of the command line, each without the leading `bonework `.
    let synopsis: [String]
    /// What the subcommand does, a few lines of help under the synopsis.
    let description: String
    let positionals: [PositionalSpec]
    let options: [OptionSpec]
    /// Further help after the options, such as window keys.
    let sections: [HelpSection]
    /// Whole command lines, each starting with `bonework`.
    let examples: [String]

    /// `--help` and `-h` are every subcommand's own; a table may not declare them.
    static let helpOptions: Set<String> = ["--help", "-h"]

    init(
        name: String, summary: String, synopsis: [String], description: String,
        positionals: [PositionalSpec] = [], options: [OptionSpec], sections: [HelpSection] = [],
        examples: [String]
    ) {
        var seen = Set<String>()
        for option in options {
            precondition(option.name.hasPrefix("--") && option.name.count > 2, "\(name): bad option \(option.name)")
            precondition(!Self.helpOptions.contains(option.name), "\(name): \(option.name) is built in")
            precondition(seen.insert(option.name).inserted, "\(name): \(option.name) declared twice")
            precondition(!option.meaning.isEmpty, "\(name): \(option.name) has no meaning")
            precondition(!option.isFlag || !option.repeatable, "\(name): flag \(option.name) cannot repeat")
        }
        precondition(!synopsis.isEmpty && !examples.isEmpty, "\(name): help needs a synopsis and an example")
        self.name = name
        self.summary = summary
        self.synopsis = synopsis
        self.description = description
        self.positionals = positionals
        self.options = options
        self.sections = sections
        self.examples = examples
    }

    /// The table's entry for `name`, if it has one.
    func option(named name: String) -> OptionSpec? {
        options.first { $0.name == name }
    }
}
