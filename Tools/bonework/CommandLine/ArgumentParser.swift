/// A mistake on the command line. `Dispatch` prints it as `bonework SUBCOMMAND: MESSAGE`
/// followed by `see 'bonework SUBCOMMAND --help'`, and exits with status 1.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, without the `bonework SUBCOMMAND: ` prefix.
    var message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A subcommand's arguments after parsing against its `CommandSpec`. Reading an option that is
/// not in the table, or reading it the wrong way (`value` of a flag, `value` of a repeatable
/// option), is a programming mistake and stops the program: fix the table or the command.
struct ParsedArguments: Sendable {
    let spec: CommandSpec
    /// The arguments that are not options, in order (everything after `--` among them).
    private(set) var positional: [String] = []
    /// Whether `--help` or `-h` was given: nothing else was parsed then.
    private(set) var helpRequested = false
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `arguments` (those after the subcommand's name) against `spec`'s table.
    ///
    /// - `--help` or `-h` anywhere before `--` asks for help; nothing else is checked.
    /// - `--name VALUE` and `--name=VALUE` give an option its value; the value may start with `-`.
    /// - `--` ends the options: every argument after it is positional.
    /// - Any other argument that starts with `-` (except `-` itself) must be in the table.
    /// - More positional arguments than `spec.positionals` lists are refused.
    init(_ arguments: [String], spec: CommandSpec) throws {
        self.spec = spec
        if arguments.prefix(while: { $0 != "--" }).contains(where: CommandSpec.helpOptions.contains) {
            helpRequested = true
            return
        }
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--" {
                positional += arguments[i...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.option(named: name) else {
                var message = "unknown option \(name)"
                if let near = Suggestion.nearest(to: name, among: spec.options.map(\.name)) {
                    message += " (did you mean \(near)?)"
                }
                throw UsageError(message)
            }
            guard let placeholder = option.placeholder else {
                guard attached == nil else { throw UsageError("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            if let attached {
                values[name, default: []].append(attached)
            } else {
                guard i < arguments.count else { throw UsageError("\(name) needs a value (\(placeholder))") }
                values[name, default: []].append(arguments[i])
                i += 1
            }
        }
        if positional.count > spec.positionals.count {
            throw UsageError("unexpected argument '\(positional[spec.positionals.count])'")
        }
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool {
        let option = declared(name)
        precondition(option.isFlag, "\(name) takes a value in the \(spec.name) table: read it with value(_:)")
        return flags.contains(name)
    }

    /// The value of an option that is not repeatable: the last one given, nil if none was.
    func value(_ name: String) -> String? {
        let option = declared(name)
        precondition(!option.isFlag, "\(name) is a flag in the \(spec.name) table: read it with flag(_:)")
        precondition(!option.repeatable, "\(name) is repeatable in the \(spec.name) table: read it with all(_:)")
        return values[name]?.last
    }

    /// Every value given for a repeatable option, in order.
    func all(_ name: String) -> [String] {
        let option = declared(name)
        precondition(option.repeatable, "\(name) is not repeatable in the \(spec.name) table: read it with value(_:)")
        return values[name] ?? []
    }

    private func declared(_ name: String) -> OptionSpec {
        guard let option = spec.option(named: name) else {
            preconditionFailure("\(name) is not in the \(spec.name) option table")
        }
        return option
    }
}

extension CommandSpec {
    /// Parses a subcommand's arguments against this table (see `ParsedArguments.init`).
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        try ParsedArguments(arguments, spec: self)
    }
}

/// Suggestions for a mistyped name: the nearest candidate by edit distance, when it is close.
enum Suggestion {
    /// The candidate nearest to `word`, if it is at most a third of its length away (at least
    /// one edit, at most three); ties go to the earlier candidate. Leading dashes are not counted.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        func bare(_ s: String) -> String { String(s.drop { $0 == "-" }) }
        let typed = bare(word)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let name = bare(candidate)
            let limit = min(3, max(1, name.count / 3))
            let d = distance(typed, name)
            if d <= limit, d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        return best?.candidate
    }

    /// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`: the
    /// optimal string alignment distance, so that `--frmaes` is one edit from `--frames`.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // d[i][j]: distance between the first i characters of a and the first j of b.
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
