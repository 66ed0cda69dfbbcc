import Foundation

// `bonework <command> ...`: each subcommand lives in its own file as `enum XCommand { static func run }`.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: bonework <command> [options]
      inspect SKELETON [--atlas ATLAS] [--json]   summarize a skeleton file
      trace pose REFERENCE.json --assets DIR      print our pose trace for a reference trace
      trace scenario SCENARIO.json --assets DIR   print our AnimationState scenario trace
      render SKELETON --atlas ATLAS [--skin S] [--animation A] [--time T | --frames N --fps F [--sheet]]
             [--size WxH] [--background RRGGBBAA] [--fit fit|contain|fill|width|height|cover|none] --out FILE.png
                                                  render frames headless to PNG (numbered, or one contact sheet)
      render --request REQUEST.json --assets DIR --out FILE.png
                                                  render a render request exactly
      view SKELETON --atlas ATLAS [--skin S] [--animation A] [--headless --out FILE.png]
                                                  skeleton viewer (keys: arrows, space, PgUp/PgDn, L, B, D, R)
      bench --count N --frames F [options]        time a crowd frame by frame (see bench --help)
      crowd [--count N] [--frames N] [--churn R]  a steered crowd with value-driven animations (see crowd --help)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bonework: \(message)\n".utf8))
    exit(1)
}

guard let command = arguments.first else {
    print(usage)
    exit(2)
}
do {
    let rest = Array(arguments.dropFirst())
    switch command {
    case "inspect": try InspectCommand.run(rest)
    case "trace": try TraceCommand.run(rest)
    case "render": try RenderCommand.run(rest)
    case "view": try ViewCommand.run(rest)
    case "bench": try BenchCommand.run(rest)
    case "crowd": try CrowdCommand.run(rest)
    case "help", "--help", "-h": print(usage)
    default: fail("unknown command '\(command)'\n\(usage)")
    }
} catch {
    fail("\(error)")
}
