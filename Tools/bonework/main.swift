import Foundation

// `bonework SUBCOMMAND ...`: each subcommand lives in its own file as `enum XCommand` with its
// option table (`static let spec`) and `run`; `Subcommand.all` lists them and `Dispatch` finds
// the one asked for, prints help, runs it and reports errors.
exit(Dispatch.main(Array(CommandLine.arguments.dropFirst())))
