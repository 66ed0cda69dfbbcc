import BoneworkConformance
import BoneworkFormat
import BoneworkWorld
import Foundation

/// `bonework trace scenario SCENARIO.json --assets DIR`: runs a scenario on one instance and
/// prints its trace (format spine-scenario-trace-1, or -2 for a format 2 script). Paths in the
/// script are relative to DIR. `--local` adds each frame's local pose (a diagnostic, not part of
/// the format).
enum TraceScenarioCommand {
    static let spec = CommandSpec(
        name: "trace scenario", summary: "print our trace for a scenario script (formats 1 and 2)",
        synopsis: ["trace scenario SCENARIO.json --assets DIR [--local]"],
        description: """
            Runs a scenario on one instance and prints its trace: every listener event with its
            update, and the requested frames' poses. Format spine-scenario-1 drives the animation
            state (trace format spine-scenario-trace-1); spine-scenario-2 adds what applications do
            to a skeleton (composed skins, bones, placement and colour, attachments, constraint
            values, physics impulses, ops run after apply in every update) and, when asked, world
            vertices and bounds (trace format spine-scenario-trace-2).
            """,
        positionals: [
            PositionalSpec(
                name: "SCENARIO.json", meaning: "a scenario script (golden/scenarios or golden/runtime/*.scenario.json)"
            )
        ],
        options: [
            .value("--assets", "DIR", default: ".", "the folder the script's skeleton and atlas paths are relative to"),
            .flag("--local", "add each recorded frame's local pose (a diagnostic, not part of the format)"),
        ],
        examples: [
            "bonework trace scenario ../shared/golden/scenarios/spineboy-hold-previous.scenario.json "
                + "--assets ../shared/spine-examples",
            "bonework trace scenario ../shared/golden/runtime/mix-and-match-dressup-guide.scenario.json "
                + "--assets ../shared/spine-examples",
        ])

    static func run(_ options: ParsedArguments) throws {
        guard let file = options.positional.first else { throw UsageError("needs SCENARIO.json") }
        let assets = options.value("--assets") ?? "."
        try UserFiles.checkReadable(file)
        let scenario = try Scenario(file: file)
        // The script's files, checked here so that a wrong --assets reads in the system's words.
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : (assets as NSString).appendingPathComponent(path)
        }
        try UserFiles.checkReadable(resolve(scenario.skeleton))
        if let atlas = scenario.atlas { try UserFiles.checkReadable(resolve(atlas)) }
        let trace = try ScenarioRunner.run(scenario, assets: assets)
        print(trace.json(local: options.flag("--local")), terminator: "")
    }
}
