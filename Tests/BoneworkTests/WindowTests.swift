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
}
