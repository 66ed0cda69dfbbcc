import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

@testable import Bonework

/// Windowed runs under a virtual X display (Xvfb), when the machine has one: the examples and
/// the viewer open a GLFW window, draw a few frames and exit cleanly.
@Suite(.serialized) struct WindowTests {
    static let xvfbRun = "/usr/bin/xvfb-run"

    /// The folder holding the built executables (beside the test bundle).
    static var binaries: URL {
        let bundle = Bundle.main.bundleURL
        return bundle.pathExtension == "xctest" ? bundle.deletingLastPathComponent() : bundle
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", xvfbRun, "-a", binaries.appendingPathComponent(executable).path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BONEWORK_EXAMPLES"] = TestPaths.examples.path
        process.environment = environment
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errors = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors, as: UTF8.self))
    }

    @Test func examplesAndViewerRunInAWindow() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xvfbRun) else { return }  // no virtual display here
        for example in ["SimpleAnimation", "IKFollowing", "DressUp"] {
            let path = Self.binaries.appendingPathComponent(example).path
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(path) is built")
            let (status, errors) = try Self.run(example, ["--frames", "5"])
            #expect(status == 0, "\(example): \(errors)")
        }
        let spineboy = TestPaths.example("spineboy")
        let (status, errors) = try Self.run(
            "bonework",
            ["view", spineboy + "/spineboy-pro.skel", "--atlas", spineboy + "/spineboy-pma.atlas", "--frames", "5"])
        #expect(status == 0, "bonework view: \(errors)")
    }

    /// The crowd window under Xvfb: keys tapped with xdotool (press and release at once, shorter
    /// than a frame) each act once, as the crowd prints; the window's last frame, written by
    /// `--screenshot`, shows characters and the HUD's white text on its dark backdrop.
    @Test func crowdWindowActsOnQuickTapsAndShowsTheHUD() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.xvfbRun) else { return }  // no virtual display here
        let xdotool = "/usr/bin/xdotool"
        #expect(FileManager.default.isExecutableFile(atPath: xdotool), "xdotool is installed")
        guard FileManager.default.isExecutableFile(atPath: xdotool) else { return }
        let directory = try TemporaryFiles.freshDirectory("crowd-window")
        let shot = directory + "/crowd.png"
        let script = directory + "/taps.sh"
        let bonework = Self.binaries.appendingPathComponent("bonework").path
        try """
        #!/bin/sh
        "\(bonework)" crowd --count 300 --seconds 14 --screenshot "\(shot)" &
        pid=$!
        xdotool search --sync --name "bonework crowd" >/dev/null
        sleep 3
        for key in 2 3 p 1; do
            xdotool search --name "bonework crowd" windowfocus --sync key "$key"
            sleep 1
        done
        wait $pid
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["120", Self.xvfbRun, "-a", "-s", "-screen 0 1280x720x24", "/bin/sh", script]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)")
        for line in ["key 2: camera closeUp", "key 3: camera follow", "key P: paused", "key 1: camera overview"] {
            #expect(printed.components(separatedBy: line).count == 2, "exactly one '\(line)' in: \(printed)")
        }
        let image = try PNG.read(file: shot)
        #expect(image.width == 1280 && image.height == 720)
        // The HUD: white text pixels inside its top-left backdrop.
        var white = 0
        for y in 12..<80 {
            for x in 12..<700 {
                let p = (y * image.width + x) * 4
                if image.pixels[p] == 255 && image.pixels[p + 1] == 255 && image.pixels[p + 2] == 255 { white += 1 }
            }
        }
        #expect(white > 1000, "HUD text pixels: \(white)")
        // Characters: the crowd's colours below the HUD, not just the background.
        var colours = Set<UInt32>()
        for y in stride(from: 120, to: 720, by: 3) {
            for x in stride(from: 0, to: 1280, by: 3) {
                let p = (y * image.width + x) * 4
                colours.insert(
                    UInt32(image.pixels[p]) << 16 | UInt32(image.pixels[p + 1]) << 8 | UInt32(image.pixels[p + 2]))
            }
        }
        #expect(colours.count > 200, "distinct colours in the crowd area: \(colours.count)")
    }
}
