import BoneworkTestSupport
import Foundation
import Testing

/// `bonework render`: request renders judged by compare-image.py, frame sheets, numbered frames,
/// and bad input reported on stderr (exit 1), never a crash: one line, and for mistakes on the
/// command line a second one pointing to the help.
@Suite(.serialized) struct RenderCommandTests {
    static let spineboy = TestPaths.example("spineboy")

    static func scratch(_ name: String) throws -> String {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/bonework-render-cli/\(name)"
        try? FileManager.default.removeItem(atPath: base)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }

    /// Runs the executable with extra environment variables.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        try ChildProcess.run(CLI.executable, arguments, environment: environment)
    }

    /// Width and height from a PNG's IHDR.
    static func pngSize(_ path: String) throws -> (Int, Int) {
        let bytes = try #require(FileManager.default.contents(atPath: path))
        try #require(bytes.count >= 24)
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    /// A failure: exit status 1, exactly one line on stderr naming the problem.
    static func expectOneLineError(_ result: CLI.Result, mentioning words: [String]) {
        #expect(result.status == 1, "status \(result.status), stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "stderr is not one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("bonework render: "))
        for word in words { #expect(result.stderr.contains(word), "stderr lacks '\(word)': \(result.stderr)") }
    }

    /// A mistake on the command line: exit status 1, one line naming it, one pointing to the help.
    static func expectUsageError(_ result: CLI.Result, mentioning words: [String]) {
        #expect(result.status == 1, "status \(result.status), stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "stderr is not two lines: \(result.stderr)")
        #expect(result.stderr.hasPrefix("bonework render: "))
        #expect(lines.count > 1 && lines[1] == "see 'bonework render --help'", "\(result.stderr)")
        for word in words { #expect(lines[0].contains(word), "stderr lacks '\(word)': \(result.stderr)") }
    }

    @Test(arguments: ["spineboy-pro__portal__45", "tank-pro__shoot__5", "celestial-circus-pro__swing__30"])
    func requestRenderPassesComparison(_ name: String) throws {
        let out = try Self.scratch("request") + "/\(name).png"
        let result = try CLI.run([
            "render", "--request", TestPaths.renders.path + "/\(name).request.json", "--assets",
            TestPaths.examples.path, "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let compare = Process()
        compare.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compare.arguments = ["python3", TestPaths.compareImageTool.path, out, TestPaths.renders.path + "/\(name).png"]
        let pipe = Pipe()
        compare.standardOutput = pipe
        try compare.run()
        let verdict = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compare.waitUntilExit()
        #expect(compare.terminationStatus == 0, "\(name): \(verdict)")
    }

    @Test func sheetHasExpectedSize() throws {
        let out = try Self.scratch("sheet") + "/walk.png"
        let result = try CLI.run([
            "render", Self.spineboy + "/spineboy-pro.skel", "--atlas", Self.spineboy + "/spineboy-pma.atlas",
            "--animation", "walk", "--frames", "5", "--fps", "10", "--sheet", "--size", "64x48", "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // 5 frames: 3 columns, 2 rows.
        let (w, h) = try Self.pngSize(out)
        #expect(w == 3 * 64 && h == 2 * 48)
    }

    @Test func framesAreNumberedAndFitModesWork() throws {
        let dir = try Self.scratch("frames")
        let result = try CLI.run([
            "render", Self.spineboy + "/spineboy-pro.json", "--atlas", Self.spineboy + "/spineboy-pma.atlas",
            "--animation", "run", "--frames", "3", "--fps", "30", "--size", "40x30", "--out", dir + "/run.png",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        for k in 0..<3 {
            let (w, h) = try Self.pngSize(dir + "/run-000\(k).png")
            #expect(w == 40 && h == 30)
        }
        var sizes: [String: Int] = [:]
        for fit in ["fit", "contain", "fill", "width", "height", "cover", "none"] {
            let out = dir + "/\(fit).png"
            let r = try CLI.run([
                "render", Self.spineboy + "/spineboy-pro.skel", "--atlas", Self.spineboy + "/spineboy-pma.atlas",
                "--time", "0.25", "--animation", "walk", "--fit", fit, "--size", "96x64", "--background", "ffffffff",
                "--out", out,
            ])
            #expect(r.status == 0, "\(fit): \(r.stderr)")
            sizes[fit] = (FileManager.default.contents(atPath: out) ?? Data()).count
        }
        #expect(sizes.values.allSatisfy { $0 > 0 })
    }

    @Test func usageAndLookupErrorsAreOneLine() throws {
        let out = try Self.scratch("errors") + "/x.png"
        let skel = Self.spineboy + "/spineboy-pro.skel"
        let atlas = Self.spineboy + "/spineboy-pma.atlas"
        Self.expectUsageError(try CLI.run(["render", skel, "--out", out]), mentioning: ["SKELETON", "--atlas"])
        Self.expectUsageError(try CLI.run(["render", skel, "--atlas", atlas]), mentioning: ["--out"])
        Self.expectUsageError(
            try CLI.run(["render", skel, "--atlas", atlas, "--size", "0x5", "--out", out]), mentioning: ["--size"])
        Self.expectUsageError(
            try CLI.run(["render", skel, "--atlas", atlas, "--fit", "stretch", "--out", out]), mentioning: ["--fit"])
        Self.expectOneLineError(
            try CLI.run(["render", skel, "--atlas", atlas, "--animation", "nope", "--out", out]),
            mentioning: ["nope"])
        Self.expectUsageError(
            try CLI.run(["render", skel, "--atlas", atlas, "--background", "red", "--out", out]),
            mentioning: ["--background"])
        Self.expectOneLineError(
            try CLI.run(["render", skel, "--atlas", "/missing/x.atlas", "--out", out]),
            mentioning: ["cannot read /missing/x.atlas: No such file or directory"])
        Self.expectOneLineError(
            try CLI.run(["render", "--request", "/missing/r.json", "--assets", ".", "--out", out]),
            mentioning: ["cannot read /missing/r.json: No such file or directory"])
        Self.expectOneLineError(
            try CLI.run(["render", skel, "--atlas", atlas, "--out", "/missing/x.png"]),
            mentioning: ["cannot write /missing/x.png: No such file or directory"])
    }

    /// An atlas beside a bad page image: missing, corrupt, or not the size its `size:` line says.
    @Test(arguments: ["missing", "corrupt", "wrong size"])
    func badAtlasPageIsOneLineError(_ kind: String) throws {
        let dir = try Self.scratch("page-\(kind.replacingOccurrences(of: " ", with: "-"))")
        try FileManager.default.copyItem(
            atPath: Self.spineboy + "/spineboy-pma.atlas", toPath: dir + "/spineboy-pma.atlas")
        switch kind {
        case "corrupt":
            var bytes = try #require(FileManager.default.contents(atPath: Self.spineboy + "/spineboy-pma.png"))
            bytes = bytes.prefix(100) + Data(repeating: 0x5a, count: 400)
            try bytes.write(to: URL(fileURLWithPath: dir + "/spineboy-pma.png"))
        case "wrong size":
            // A 512 x 512 image where the atlas says 1024 x 256.
            try FileManager.default.copyItem(
                atPath: TestPaths.renders.path + "/spineboy-pro__walk__6.png", toPath: dir + "/spineboy-pma.png")
        default:
            break
        }
        let result = try CLI.run([
            "render", Self.spineboy + "/spineboy-pro.skel", "--atlas", dir + "/spineboy-pma.atlas", "--out",
            dir + "/out.png",
        ])
        let words: [String] =
            switch kind {
            case "missing": ["spineboy-pma.png", "io"]
            case "corrupt": ["spineboy-pma.png", "malformed"]
            default: ["1024x256", "512x512"]
            }
        Self.expectOneLineError(result, mentioning: words)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    /// Without any EGL vendor library there is no headless context: a typed error, no crash.
    @Test func noEGLIsOneLineError() throws {
        let out = try Self.scratch("no-egl") + "/x.png"
        let result = try Self.run(
            [
                "render", "--request", TestPaths.renders.path + "/spineboy-pro__walk__6.request.json", "--assets",
                TestPaths.examples.path, "--out", out,
            ], environment: ["__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent/egl-vendor.json"])
        Self.expectOneLineError(result, mentioning: ["EGL unavailable"])
    }
}
