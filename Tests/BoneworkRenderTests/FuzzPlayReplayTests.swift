import BoneworkFuzzPlay
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkFormat

/// Replays the `play` fuzz target's regression inputs (Tools/Fuzz/regressions/play, each named for
/// what it found) through the same code as the target (`FuzzPlay`): each must load or be refused
/// with a `LoadError`, then play, draw and take its bounds without a broken invariant, a trap or
/// an untyped error. The target's own corpus (whole exports, megabytes) stays in .build/fuzz.
@Suite("Fuzz play replay")
struct FuzzPlayReplayTests {
    static let regressions = TestPaths.repositoryRoot.appendingPathComponent("Tools/Fuzz/regressions/play")

    /// What the fuzz target does with an input (Tools/Fuzz/Fuzz-play.swift); true when it loaded.
    static func replay(_ bytes: [UInt8], file: String) throws -> Bool {
        var choices = FuzzChoices(bytes)
        let builder: SkeletonDataBuilder
        do {
            if bytes.first == UInt8(ascii: "{") {
                builder = try SkeletonJSONReader.readBuilder(bytes: bytes, file: file)
            } else {
                var parser = BinarySkeletonParser(bytes: bytes, file: file, scale: 1)
                builder = try parser.parse()
            }
        } catch let error as LoadError {
            #expect(error.file == file)
            return false
        }
        let data: SkeletonData
        do {
            data = try FuzzPlay.load(builder, choices: &choices)
        } catch let error as LoadError {
            #expect(error.file == file)
            return false
        }
        do {
            try FuzzPlay.play(data, choices: &choices)
        } catch is WorldError {
        } catch is AnimationStateError {
        }
        return true
    }

    @Test("Every play regression input loads and plays, or is refused with a typed error")
    func replayRegressions() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.regressions, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        #expect(!files.isEmpty, "Tools/Fuzz/regressions/play is empty")
        for url in files {
            let bytes = try [UInt8](Data(contentsOf: url))
            // Small files: a `.skel` that reaches the systems keeps its atlas names and a few
            // timelines (the largest, 8.4 KB, is a fuzzer's find kept as it was found).
            #expect(bytes.count <= 16384, "\(url.lastPathComponent): regression inputs are small files")
            do {
                _ = try Self.replay(bytes, file: url.lastPathComponent)
            } catch {
                Issue.record("\(url.lastPathComponent): \(error)")
            }
        }
    }

    @Test("The smallest example exports play through the fuzz target's code")
    func examplesPlay() throws {
        for name in ["spinosaurus/spinosaurus-ess.json", "coin/coin-pro.skel"] {
            let url = TestPaths.examples.appendingPathComponent(name)
            let bytes = try [UInt8](Data(contentsOf: url))
            #expect(try Self.replay(bytes, file: url.lastPathComponent), "\(name) did not load")
        }
    }
}
