/// The help pages, written from the subcommands' tables: `bonework --help` (the subcommands),
/// `bonework trace --help` (a group's subcommands) and `bonework NAME --help` (one subcommand).
enum HelpText {
    /// `bonework --help`: every subcommand with its summary.
    static func overview(_ commands: [CommandSpec]) -> String {
        var lines = ["usage: bonework COMMAND [options]", "", "Commands:"]
        lines += table(commands.map { ($0.name, $0.summary) })
        lines += [
            "",
            "Run 'bonework COMMAND --help' or 'bonework help COMMAND' for a command's options and examples.",
        ]
        return lines.joined(separator: "\n")
    }

    /// `bonework GROUP --help` for subcommands that share their first word (`trace pose`, `trace scenario`).
    static func group(_ name: String, _ commands: [CommandSpec]) -> String {
        var lines = commands.enumerated().map { k, spec in
            (k == 0 ? "usage: " : "       ") + "bonework \(spec.synopsis[0])"
        }
        lines += ["", "Commands:"]
        lines += table(commands.map { ($0.name, $0.summary) })
        lines += ["", "Run 'bonework \(name) COMMAND --help' for a command's options and examples."]
        return lines.joined(separator: "\n")
    }

    /// `bonework NAME --help`: synopsis, description, arguments, every option of the table
    /// (placeholder, meaning, default, whether it repeats), further sections and examples.
    static func command(_ spec: CommandSpec) -> String {
        var lines = ["usage: bonework \(spec.synopsis[0])"]
        lines += spec.synopsis.dropFirst().map { "       bonework \($0)" }
        lines += ["", spec.description]
        if !spec.positionals.isEmpty {
            lines += ["", "Arguments:"]
            lines += table(spec.positionals.map { ($0.name, $0.meaning) })
        }
        lines += ["", "Options:"]
        var rows = spec.options.map { option in
            var notes: [String] = []
            if option.repeatable { notes.append("repeatable") }
            if let value = option.defaultValue { notes.append("default: \(value)") }
            let meaning = notes.isEmpty ? option.meaning : "\(option.meaning) (\(notes.joined(separator: "; ")))"
            return (option.usage, meaning)
        }
        rows.append(("-h, --help", "print this help"))
        lines += table(rows)
        for section in spec.sections {
            lines += ["", "\(section.title):"]
            lines += table(section.rows.map { ($0.term, $0.meaning) })
        }
        lines += ["", "Examples:"]
        lines += spec.examples.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }

    /// Two columns, the second aligned two spaces after the widest first one.
    static func table(_ rows: [(String, String)]) -> [String] {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { term, meaning in
            "  " + term + String(repeating: " ", count: width - term.count) + "  " + meaning
        }
    }
}
