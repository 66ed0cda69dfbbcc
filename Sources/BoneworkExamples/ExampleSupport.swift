import Bonework
import BoneworkFormat
import BoneworkRender
import Foundation

/// Command-line options shared by the examples: a window by default; `--headless --out DIR`
/// renders a scripted run into PNGs instead (`--frames N` overrides the frame count).
public struct ExampleOptions: Sendable {
    /// Render without a window, writing PNGs to ``outputDirectory`` instead (`--headless`).
    public var headless = false
    /// Folder the headless run writes its PNGs into (`--out DIR`); created when missing.
    public var outputDirectory: String?
    /// Number of frames to render, 1 to 100,000 (`--frames N`); nil keeps each example's default.
    public var frames: Int?
    /// Folder of the example exports (`spineboy/`, `mix-and-match/`), nil when absent.
    public var examplesDirectory: String?

    /// Options set directly, as tests do; the defaults match running with no arguments.
    public init(
        headless: Bool = false, outputDirectory: String? = nil, frames: Int? = nil,
        examplesDirectory: String? = ExampleOptions.defaultExamplesDirectory()
    ) {
        self.headless = headless
        self.outputDirectory = outputDirectory
        self.frames = frames
        self.examplesDirectory = examplesDirectory
    }

    /// Whether `--help` (or `-h`) was given: the example prints ``usage(_:)`` and exits 0.
    public var helpRequested = false

    /// One option of every example: its name, its value's placeholder (nil for a flag) and what
    /// it does, with its default. ``init(arguments:)`` accepts exactly these and ``usage(_:)``
    /// prints them, so the help cannot leave an option out.
    public struct Option: Sendable {
        /// The option as typed: `--frames`.
        public let name: String
        /// Its value's placeholder (`N`, `DIR`), nil for a flag.
        public let value: String?
        /// What it does and its default, for the help.
        public let meaning: String
    }

    /// The options every example accepts, in the order the help lists them.
    public static let options: [Option] = [
        Option(name: "--headless", value: nil, meaning: "no window: render a scripted run into PNGs (needs --out)"),
        Option(name: "--out", value: "DIR", meaning: "with --headless: the folder the PNGs are written to"),
        Option(
            name: "--frames", value: "N",
            meaning: "frames to run, 1...100000 (default: the example's own script; a window closes after N)"),
        Option(
            name: "--examples", value: "DIR",
            meaning:
                "the folder of Spine's example exports (default: $BONEWORK_EXAMPLES, else ../shared/spine-examples)"),
        Option(
            name: "--no-examples", value: nil, meaning: "use the embedded default character even when exports are there"
        ),
        Option(name: "--help", value: nil, meaning: "print this help (also -h)"),
    ]

    /// The help text of the example called `name`.
    public static func usage(_ name: String) -> String {
        let left = options.map { $0.name + ($0.value.map { " \($0)" } ?? "") }
        let width = left.map(\.count).max() ?? 0
        var lines = ["usage: \(name) [--headless --out DIR] [--frames N] [--examples DIR | --no-examples]", ""]
        lines.append("Opens a window playing the example; --headless renders its scripted run into PNGs instead.")
        lines.append("What the example shows: Tools/Examples/\(name)/README.md.")
        lines.append("")
        lines.append("Options:")
        for (text, option) in zip(left, options) {
            lines.append("  " + text.padding(toLength: width + 2, withPad: " ", startingAt: 0) + option.meaning)
        }
        lines.append("")
        lines.append("Example:")
        lines.append("  swift run \(name) --headless --out /tmp/\(name)")
        return lines.joined(separator: "\n")
    }

    /// Parses the options in ``options``; a mistake throws ``BoneworkError/invalidArgument(_:)``
    /// naming the option, and the example's report points to `--help`.
    public init(arguments: [String]) throws {
        self.init()
        var k = 0
        while k < arguments.count {
            let a = arguments[k]
            func value() throws -> String {
                guard k + 1 < arguments.count else { throw BoneworkError.invalidArgument("\(a) needs a value") }
                k += 1
                return arguments[k]
            }
            switch a {
            case "--help", "-h":
                helpRequested = true
                return
            case "--headless": headless = true
            case "--out": outputDirectory = try value()
            case "--frames":
                let text = try value()
                guard let n = Int(text), n > 0, n <= 100_000 else {
                    throw BoneworkError.invalidArgument("--frames needs an integer in 1...100000, not '\(text)'")
                }
                frames = n
            case "--examples": examplesDirectory = try value()
            case "--no-examples": examplesDirectory = nil
            default: throw BoneworkError.invalidArgument("unknown option \(a)")
            }
            k += 1
        }
        if headless && outputDirectory == nil { throw BoneworkError.invalidArgument("--headless needs --out DIR") }
    }

    /// `$BONEWORK_EXAMPLES`, else `../shared/spine-examples` beside the package, when it exists.
    public static func defaultExamplesDirectory() -> String? {
        if let env = ProcessInfo.processInfo.environment["BONEWORK_EXAMPLES"], !env.isEmpty {
            return FileManager.default.fileExists(atPath: env) ? env : nil
        }
        // Sources/BoneworkExamples/ExampleSupport.swift -> the package root.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let candidates = [
            packageRoot.deletingLastPathComponent().appendingPathComponent("shared/spine-examples").path,
            FileManager.default.currentDirectoryPath + "/../shared/spine-examples",
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The `.file` source of an example export when present (`name/stem.atlas`, `name/file`).
    func example(_ folder: String, atlas: String, skeleton: String) -> SkeletonSource? {
        guard let root = examplesDirectory else { return nil }
        let a = "\(root)/\(folder)/\(atlas)"
        let s = "\(root)/\(folder)/\(skeleton)"
        guard FileManager.default.fileExists(atPath: a), FileManager.default.fileExists(atPath: s) else { return nil }
        return .file(atlas: a, skeleton: s)
    }

    /// Writes an image into the output folder; returns its path.
    @discardableResult
    func write(_ image: RenderedImage, _ name: String) throws -> String {
        guard let dir = outputDirectory else { throw BoneworkError.invalidArgument("no output folder") }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = "\(dir)/\(name)"
        try image.writePNG(to: path)
        return path
    }

    func writeText(_ text: String, _ name: String) throws {
        guard let dir = outputDirectory else { throw BoneworkError.invalidArgument("no output folder") }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try text.write(toFile: "\(dir)/\(name)", atomically: true, encoding: .utf8)
    }
}

/// What an example run did (for tests and the console).
public struct ExampleReport {
    /// The files written (headless), in order.
    public var files: [String] = []
    /// Lines of observations (events, positions, counts).
    public var log: [String] = []
    /// Whether the example used the example exports rather than the default character.
    public var usedExampleExport = false
    /// Named numbers the example measured (e.g. IK aim errors).
    public var measurements: [String: Double] = [:]
    /// An empty report, which the example fills in as it runs.
    public init() {}
}

/// Runs an example from `main.swift`: parses the arguments, prints errors on one line, exits 1.
public enum ExampleMain {
    /// Parses `CommandLine.arguments`, runs `body`, then prints its log lines and written files.
    ///
    /// - Parameters:
    ///   - name: The example's name, which prefixes the one-line error message.
    ///   - body: The example itself, given the parsed options.
    public static func run(_ name: String, _ body: (ExampleOptions) async throws -> ExampleReport) async {
        do {
            let options = try ExampleOptions(arguments: Array(CommandLine.arguments.dropFirst()))
            if options.helpRequested {
                print(ExampleOptions.usage(name))
                return
            }
            let report = try await body(options)
            for line in report.log { print(line) }
            for file in report.files { print("wrote \(file)") }
        } catch {
            var message = "\(name): \(error)\n"
            if case BoneworkError.invalidArgument = error { message += "see '\(name) --help'\n" }
            FileHandle.standardError.write(Data(message.utf8))
            exit(1)
        }
    }

    /// Shows `view` in a window until closed, calling `onFrame` each frame.
    static func window(
        _ title: String, _ view: SkeletonView, onFrame: ((SkeletonWindow, Float) throws -> Bool)? = nil
    ) throws {
        let window = try SkeletonWindow(title: title, view: view)
        window.onFrame = onFrame
        // `--frames N` also limits a windowed run (smoke tests under a virtual display).
        let frames = (try? ExampleOptions(arguments: Array(CommandLine.arguments.dropFirst())))?.frames
        try window.run(maxFrames: frames)
    }
}
