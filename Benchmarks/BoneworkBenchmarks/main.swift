import Foundation

// `swift run -c release BoneworkBenchmarks <load|pose|state|render|gpu|suite|chunking> [options]`: each
// benchmark lives in its own file.
let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [String: ([String]) throws -> Void] = [
    "load": LoadBenchmark.run,
    "pose": PoseBenchmark.run,
    "state": StateBenchmark.run,
    "render": RenderBenchmark.run,
    "gpu": GPUPathBenchmark.run,
    "suite": SuiteBenchmark.run,
    "chunking": ChunkingBenchmark.run,
]
guard let name = arguments.first, let run = benchmarks[name] else {
    print("usage: BoneworkBenchmarks <\(benchmarks.keys.sorted().joined(separator: "|"))> [options]")
    print("  load [EXAMPLES_DIR] [--repeats N]")
    print(PoseBenchmark.usage)
    print("  state [--instances N] [--frames F] [--skeleton FILE] [--atlas FILE] [--setup 1-4] [--wall]")
    print(RenderBenchmark.usage)
    print(GPUPathBenchmark.usage)
    print(SuiteBenchmark.usage)
    print(ChunkingBenchmark.usage)
    exit(2)
}
do {
    try run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("BoneworkBenchmarks: \(error)\n".utf8))
    exit(1)
}
