import BoneworkExamples
import BoneworkImage
import BoneworkTestSupport
import Foundation
import Testing

@testable import Bonework

@Suite(.serialized) struct ExampleTests {
    func options(_ name: String, examples: Bool = true) throws -> ExampleOptions {
        ExampleOptions(
            headless: true, outputDirectory: try TemporaryFiles.freshDirectory(name, prefix: "bonework-facade"),
            examplesDirectory: examples ? TestPaths.examples.path : nil)
    }

    @Test func examplesFolderIsPresent() {
        #expect(FileManager.default.fileExists(atPath: TestPaths.example("spineboy/spineboy-pro.skel")))
    }

    @Test func simpleAnimationWritesMovingFrames() async throws {
        let report = try await Examples.simpleAnimation(try options("simple"))
        #expect(report.files.count == 3)
        let frames = try report.files.map(ImageMeasures.read)
        for frame in frames {
            #expect(frame.width == 200 && frame.height == 200)
            #expect(ImageMeasures.coverage(frame) > 0.05)
        }
        #expect(ImageMeasures.differingPixels(frames[0], frames[2]) > 50)
    }

    @Test func playPauseHoldsThePoseWhilePaused() async throws {
        let report = try await Examples.playPauseAnimation(try options("playpause"))
        #expect(report.files.count == 5)
        let f = try report.files.map(ImageMeasures.read)
        #expect(ImageMeasures.differingPixels(f[0], f[1]) > 20)
        #expect(ImageMeasures.differingPixels(f[1], f[2]) == 0)
        #expect(ImageMeasures.differingPixels(f[2], f[3]) == 0)
        #expect(ImageMeasures.differingPixels(f[3], f[4]) > 20)
    }

    @Test func animationStateEventsLogsQueueAndTints() async throws {
        let report = try await Examples.animationStateEvents(try options("events"))
        let log = report.log
        func first(_ prefix: String) -> Int? { log.firstIndex { $0.hasPrefix(prefix) } }
        let walk = try #require(first("start walk"))
        let flinch = try #require(first("start flinch"))
        let run = try #require(first("start run"))
        #expect(walk < flinch && flinch < run)
        #expect(first("complete walk") != nil)
        #expect(first("end walk") != nil)
        #expect(log.contains { $0.hasPrefix("event ") && $0.contains("footstep") })
        let image = try ImageMeasures.read(try #require(report.files.last))
        let (r, g, _) = ImageMeasures.meanColor(image)
        #expect(r > g + 20, "slots tinted red: mean r \(r) g \(g)")
        let logFile = try String(
            contentsOfFile: try #require(report.files.first).replacingOccurrences(
                of: "events-0.png", with: "events.log"), encoding: .utf8)
        #expect(logFile.contains("start flinch"))
    }

    @Test func debugRenderingDrawsOverlay() async throws {
        let report = try await Examples.debugRendering(try options("debug"))
        #expect(report.usedExampleExport)
        #expect(report.measurements["bones"] == 67)
        #expect((report.measurements["meshHulls"] ?? 0) > 0)
        #expect((report.measurements["boundingBoxes"] ?? 0) > 0)
        let image = try ImageMeasures.read(report.files[0])
        // The bone origins are bright green squares.
        var green = 0
        var k = 0
        while k + 3 < image.pixels.count {
            if image.pixels[k + 1] > 200 && image.pixels[k] < 90 && image.pixels[k + 2] < 120 { green += 1 }
            k += 4
        }
        #expect(green > 100)
    }

    @Test func debugRenderingRunsWithTheDefaultCharacter() async throws {
        let report = try await Examples.debugRendering(try options("debug-default", examples: false))
        #expect(!report.usedExampleExport)
        #expect((report.measurements["bones"] ?? 0) > 10)
    }

    @Test func dressUpThumbnailsDifferPerSkin() async throws {
        let report = try await Examples.dressUp(try options("dressup"))
        #expect(report.usedExampleExport)
        let thumbs = report.files.filter { $0.contains("thumbnail-") }
        #expect(thumbs.count == 4)
        let images = try thumbs.map(ImageMeasures.read)
        for image in images {
            #expect(image.width == 64 && image.height == 64)
            #expect(ImageMeasures.coverage(image) > 0.1, "each thumbnail shows the character")
        }
        for i in 0..<images.count {
            for j in (i + 1)..<images.count {
                #expect(ImageMeasures.differingPixels(images[i], images[j]) > 30, "thumbnails \(i) and \(j) differ")
            }
        }
        let outfit = try ImageMeasures.read(try #require(report.files.last))
        #expect(ImageMeasures.coverage(outfit) > 0.1)
    }

    @Test func dressUpRunsWithTheDefaultCharacter() async throws {
        let report = try await Examples.dressUp(try options("dressup-default", examples: false))
        let images = try report.files.filter { $0.contains("thumbnail-") }.map(ImageMeasures.read)
        #expect(images.count == 2)
        #expect(ImageMeasures.differingPixels(images[0], images[1]) > 30)
        #expect(images.allSatisfy { ImageMeasures.coverage($0) > 0.1 })
    }

    @Test func ikFollowingAimsAtTheScriptedTarget() async throws {
        let report = try await Examples.ikFollowing(try options("ik"))
        #expect(report.usedExampleExport)
        #expect(report.files.count == 3)
        let worst = try #require(report.measurements["worstError"])
        #expect(worst < 3, "arm angle error \(worst) degrees")
    }

    @Test func ikFollowingMovesTheFootWithTheDefaultCharacter() async throws {
        let report = try await Examples.ikFollowing(try options("ik-default", examples: false))
        let worst = try #require(report.measurements["worstError"])
        #expect(worst < 2, "foot distance \(worst)")
    }

    @Test func disableRenderingStopsUpdatesAndDrawing() async throws {
        let report = try await Examples.disableRendering(try options("disable"))
        #expect(report.files.count == 4)
        let t = (0..<6).map { report.measurements["trackTime\($0)"] ?? -1 }
        #expect(t[1] > t[0])
        #expect(t[2] == t[1] && t[3] == t[1])
        #expect(t[4] > t[3])
    }
}
