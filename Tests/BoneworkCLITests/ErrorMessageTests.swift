import BoneworkTestSupport
import Foundation
import Testing

/// The messages a user meets when a command line goes wrong, word for word: each names the file,
/// what was expected and what was found, gives the system's reason for an I/O error and the likely
/// fix where there is one (swapped arguments, the wrong extension, the names there are). A
/// successful render says what it wrote. Every message here is the whole of stderr.
@Suite(.serialized) struct ErrorMessageTests {
    static let spineboy = TestPaths.example("spineboy")
    static let skel = spineboy + "/spineboy-pro.skel"
    static let json = spineboy + "/spineboy-pro.json"
    static let atlas = spineboy + "/spineboy-pma.atlas"
    static let png = spineboy + "/spineboy-pma.png"
    static let animations = "aim, death, hoverboard, idle, idle-turn, jump, portal, run, run-to-idle, shoot, walk"

    static func scratch(_ name: String) throws -> String {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/bonework-error-cli/\(name)"
        try? FileManager.default.removeItem(atPath: base)
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        return base
    }

    /// A copy of `source` under another name, as a user's misnamed file.
    static func copy(_ source: String, as name: String) throws -> String {
        let path = try scratch("copies-\(name)") + "/\(name)"
        try FileManager.default.copyItem(atPath: source, toPath: path)
        return path
    }

    /// Exit status 1 and stderr exactly `line` (one line), nothing on stdout.
    static func expectFailure(_ arguments: [String], _ line: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let result = try CLI.run(arguments)
        #expect(result.status == 1, "status \(result.status)", sourceLocation: sourceLocation)
        #expect(result.stderr == line + "\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    /// Exit status 1 and stderr exactly `line` then the pointer to the subcommand's help.
    static func expectUsage(
        _ arguments: [String], _ line: String, help: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectFailure(arguments, line + "\nsee 'bonework \(help) --help'", sourceLocation: sourceLocation)
    }

    // MARK: Files that are missing or in the wrong place

    @Test func missingFileGivesTheSystemsReason() throws {
        try Self.expectFailure(
            ["render", "/missing/boy.json", "--atlas", Self.atlas, "--out", "/tmp/x.png"],
            "bonework render: cannot read /missing/boy.json: No such file or directory")
        try Self.expectFailure(
            ["trace", "pose", "/missing/trace.json"],
            "bonework trace pose: cannot read /missing/trace.json: No such file or directory")
        try Self.expectFailure(
            ["inspect", "/missing/boy.skel"],
            "bonework inspect: cannot read /missing/boy.skel: No such file or directory")
    }

    @Test func swappedSkeletonAndAtlasAreNamedAsSwapped() throws {
        try Self.expectUsage(
            ["render", Self.atlas, "--atlas", Self.skel, "--out", "/tmp/x.png"],
            "bonework render: SKELETON \(Self.atlas) is an atlas and --atlas \(Self.skel) a skeleton: are they "
                + "swapped? Give the skeleton as SKELETON and the atlas with --atlas: \(Self.skel) --atlas \(Self.atlas)",
            help: "render")
        try Self.expectUsage(
            ["view", Self.atlas, "--atlas", Self.json, "--headless", "--out", "/tmp/x.png"],
            "bonework view: SKELETON \(Self.atlas) is an atlas and --atlas \(Self.json) a skeleton: are they "
                + "swapped? Give the skeleton as SKELETON and the atlas with --atlas: \(Self.json) --atlas \(Self.atlas)",
            help: "view")
    }

    @Test func skeletonGivenAsAtlasSaysWhereItGoes() throws {
        try Self.expectUsage(
            ["render", Self.skel, "--atlas", Self.skel, "--out", "/tmp/x.png"],
            "bonework render: --atlas \(Self.skel) is a skeleton export, expected an atlas (.atlas text); "
                + "the skeleton goes as SKELETON", help: "render")
        try Self.expectUsage(
            ["bench", "--skeleton", Self.skel, "--atlas", Self.json],
            "bonework bench: --atlas \(Self.json) is a skeleton export, expected an atlas (.atlas text); "
                + "the skeleton goes as --skeleton", help: "bench")
    }

    @Test func pageImageGivenAsAtlasPointsToTheAtlasBesideIt() throws {
        try Self.expectUsage(
            ["render", Self.skel, "--atlas", Self.png, "--out", "/tmp/x.png"],
            "bonework render: --atlas \(Self.png) is the atlas's page image, expected the atlas text (.atlas); "
                + "try --atlas \(Self.atlas)", help: "render")
    }

    @Test func atlasGivenAsSkeletonSaysWhereItGoes() throws {
        try Self.expectUsage(
            ["inspect", Self.atlas],
            "bonework inspect: SKELETON \(Self.atlas) is an atlas, expected a skeleton export (.json or .skel); "
                + "give the atlas with --atlas", help: "inspect")
        try Self.expectUsage(
            ["crowd", "--headless", "--skeleton", Self.png],
            "bonework crowd: --skeleton \(Self.png) is an image, expected a skeleton export (.json or .skel)",
            help: "crowd")
    }

    /// A binary export renamed `.atlas` reaches the atlas reader, which says what it found.
    @Test func binaryFileNamedAtlasSaysWhatItIs() throws {
        let renamed = try Self.copy(Self.skel, as: "boy.atlas")
        try Self.expectFailure(
            ["inspect", Self.skel, "--atlas", renamed],
            "bonework inspect: \(renamed): line 1: malformed: expected atlas text (a page image name, then `size:` ...), "
                + "found binary data (a .skel skeleton export or an image?)")
    }

    // MARK: Files under the wrong extension

    @Test func jsonExportNamedSkelSaysToRenameIt() throws {
        let renamed = try Self.copy(Self.json, as: "boy.skel")
        try Self.expectFailure(
            ["inspect", renamed],
            "bonework inspect: \(renamed): byte 0: malformed: expected binary skeleton data (a .skel export), "
                + "found JSON text (a .json skeleton export?); name the file .json to read it as JSON")
    }

    @Test func binaryExportNamedJSONSaysToRenameIt() throws {
        let renamed = try Self.copy(Self.skel, as: "boy.json")
        try Self.expectFailure(
            ["inspect", renamed],
            "bonework inspect: \(renamed): byte 0: malformed: expected JSON text (a .json skeleton export), "
                + "found binary data (a .skel skeleton export or an image?); if it is a .skel export, name it .skel")
    }

    @Test func atlasNamedJSONSaysItIsAnAtlas() throws {
        let renamed = try Self.copy(Self.atlas, as: "boy.json")
        try Self.expectFailure(
            ["inspect", renamed],
            "bonework inspect: \(renamed): byte 0: malformed: expected JSON text (a .json skeleton export), "
                + "found atlas text (an .atlas file?)")
    }

    @Test func outputThatIsNotPNGIsRefused() throws {
        let dir = try Self.scratch("not-png")
        try Self.expectUsage(
            ["render", Self.skel, "--atlas", Self.atlas, "--out", dir + "/a.jpg"],
            "bonework render: --out \(dir)/a.jpg: only PNG is written; name the file \(dir)/a.png", help: "render")
        try Self.expectUsage(
            ["view", Self.skel, "--atlas", Self.atlas, "--headless", "--out", dir + "/shot"],
            "bonework view: --out \(dir)/shot: only PNG is written; name the file \(dir)/shot.png", help: "view")
        try Self.expectUsage(
            ["crowd", "--headless", "--screenshot", dir + "/crowd.jpeg"],
            "bonework crowd: --screenshot \(dir)/crowd.jpeg: only PNG is written; name the file \(dir)/crowd.png",
            help: "crowd")
        try Self.expectUsage(
            ["bench", "--chart", dir + "/chart.svg"],
            "bonework bench: --chart \(dir)/chart.svg: only PNG is written; name the file \(dir)/chart.png",
            help: "bench")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    // MARK: Names the skeleton does not have

    @Test func unknownAnimationSuggestsAndListsTheAnimations() throws {
        try Self.expectFailure(
            ["render", Self.skel, "--atlas", Self.atlas, "--animation", "wlak", "--out", "/tmp/x.png"],
            "bonework render: \(Self.skel) has no animation `wlak` (did you mean `walk`?); its animations: "
                + Self.animations)
        try Self.expectFailure(
            ["view", Self.skel, "--atlas", Self.atlas, "--animation", "nope", "--headless", "--out", "/tmp/x.png"],
            "bonework view: \(Self.skel) has no animation `nope`; its animations: " + Self.animations)
        try Self.expectFailure(
            ["bench", "--skeleton", Self.skel, "--atlas", Self.atlas, "--animations", "walk,rnu", "--count", "1"],
            "bonework bench: \(Self.skel) has no animation `rnu` (did you mean `run`?); its animations: "
                + Self.animations)
    }

    @Test func unknownSkinListsTheSkins() throws {
        try Self.expectFailure(
            ["render", Self.skel, "--atlas", Self.atlas, "--skin", "defualt", "--out", "/tmp/x.png"],
            "bonework render: \(Self.skel) has no skin `defualt` (did you mean `default`?); its skins: default")
    }

    // MARK: Usage errors

    @Test func usageErrorsNameTheSubcommandAndPointToHelp() throws {
        try Self.expectUsage(["bench", "--count"], "bonework bench: --count needs a value (N)", help: "bench")
        try Self.expectUsage(
            ["render", "--frmaes", "3"], "bonework render: unknown option --frmaes (did you mean --frames?)",
            help: "render")
        try Self.expectFailure(
            ["rendr"], "bonework: unknown subcommand 'rendr' (did you mean render?)\nsee 'bonework --help'")
    }

    // MARK: What a successful render says

    @Test func renderSaysWhatItWrote() throws {
        let dir = try Self.scratch("written")
        let one = try CLI.run([
            "render", Self.skel, "--atlas", Self.atlas, "--size", "32x24", "--out", dir + "/one.png",
        ])
        #expect(one.status == 0 && one.stderr.isEmpty, "\(one.stderr)")
        #expect(one.stdout == "wrote \(dir)/one.png (32x24)\n")
        let frames = try CLI.run([
            "render", Self.skel, "--atlas", Self.atlas, "--animation", "walk", "--frames", "3", "--size", "32x24",
            "--out", dir + "/raptor.png",
        ])
        #expect(frames.status == 0 && frames.stderr.isEmpty, "\(frames.stderr)")
        #expect(frames.stdout == "wrote 3 frames (32x24): \(dir)/raptor-0000.png ... \(dir)/raptor-0002.png\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/raptor.png"))
        for k in 0..<3 { #expect(FileManager.default.fileExists(atPath: dir + "/raptor-000\(k).png")) }
        let sheet = try CLI.run([
            "render", Self.skel, "--atlas", Self.atlas, "--animation", "walk", "--frames", "3", "--sheet", "--size",
            "32x24", "--out", dir + "/sheet.png",
        ])
        #expect(sheet.status == 0 && sheet.stderr.isEmpty, "\(sheet.stderr)")
        #expect(
            sheet.stdout == "wrote \(dir)/sheet.png (64x48): a contact sheet of 3 frames, 2 columns x 2 rows of 32x24\n"
        )
    }
}
