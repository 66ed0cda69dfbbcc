import BoneworkConformance
import BoneworkFormat
import BoneworkWorld

/// `bonework trace scenario SCENARIO.json --assets DIR`: runs an animation state scenario on
/// one instance and prints its trace (format spine-scenario-trace-1). Paths in the script are
/// relative to DIR. `--local` adds each frame's local pose (a diagnostic, not part of the format).
enum TraceScenarioCommand {
    static func run(_ args: [String]) throws {
        let options = try OptionParser(args, flags: ["--local"], values: ["--assets"])
        guard let file = options.positional.first, options.positional.count == 1 else {
            throw UsageError("trace scenario SCENARIO.json --assets DIR")
        }
        let assets = options.value("--assets") ?? "."
        let scenario = try Scenario(json: SkeletonLoader.readFile(file), file: file)
        let trace = try ScenarioRunner.run(scenario, assets: assets)
        print(trace.json(local: options.flag("--local")), terminator: "")
    }
}
