// `swift run -c release BoneworkBenchmarks <load|pose> [options]`
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "load": try LoadBenchmark.run(Array(arguments.dropFirst()))
default: print("usage: BoneworkBenchmarks load [EXAMPLES_DIR] [--repeats N]")
}
