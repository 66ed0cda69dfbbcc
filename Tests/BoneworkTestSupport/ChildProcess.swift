import Foundation

/// Runs the package's executables (the `bonework` tool, the examples) from tests, as a user at the
/// shell would, and captures what they print.
public enum ChildProcess {
    /// What a run printed and how it exited.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output, as UTF-8.
        public var stdout: String
        /// Everything written to standard error, as UTF-8.
        public var stderr: String
    }

    /// The build product called `name`: the build products folder holds it beside the test bundle
    /// (searched upwards from the test executable); nil when it was not built.
    public static func product(_ name: String) -> URL? {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs `executable` with `arguments`, the test's environment plus `environment`, until it
    /// exits. Standard error is drained on another thread while standard output is read, so
    /// neither pipe can fill up and stall the child, however much it prints.
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Result
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errBox = DataBox()
        let drained = DispatchGroup()
        drained.enter()
        DispatchQueue.global().async {
            errBox.data = err.fileHandleForReading.readDataToEndOfFile()
            drained.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// The standard error bytes, written by the draining thread before `leave()` and read after
/// `wait()`: the group orders the two accesses.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
