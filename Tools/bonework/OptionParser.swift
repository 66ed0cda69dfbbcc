/// A command line mistake: printed as one line to stderr by main.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ usage: String) { description = "usage: bonework \(usage)" }
}

/// Splits arguments into positionals, boolean flags and `--name value` options; unknown options are errors.
struct OptionParser {
    private(set) var positional: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    init(_ args: [String], flags knownFlags: Set<String>, values knownValues: Set<String>) throws {
        var i = 0
        while i < args.count {
            let arg = args[i]
            if knownFlags.contains(arg) {
                flags.insert(arg)
            } else if knownValues.contains(arg) {
                guard i + 1 < args.count else { throw UsageError("\(arg) needs a value") }
                values[arg, default: []].append(args[i + 1])
                i += 1
            } else if arg.hasPrefix("--"), arg.count > 2 {
                throw UsageError("unknown option \(arg)")
            } else {
                positional.append(arg)
            }
            i += 1
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    /// The last value given for an option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value given for a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }
}
