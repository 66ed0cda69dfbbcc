import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

/// Replays the inputs the fuzzers kept (Tools/Fuzz/corpus/READER, re-minimised by every
/// `Tools/fuzz.sh` run) through the same readers as a normal test: each must load or end in a
/// `LoadError` that names the file and a place in it. Inputs a test names stay in
/// Tools/Fuzz/regressions/READER, which fuzzing reads as seeds but never rewrites.
@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
    static let corpusRoot = TestPaths.repositoryRoot.appendingPathComponent("Tools/Fuzz/corpus")
    static let regressionRoot = corpusRoot.deletingLastPathComponent().appendingPathComponent("regressions")

    enum Reader: String, CaseIterable, Sendable {
        case atlas, json, binary

        func read(_ bytes: [UInt8], file: String) throws {
            switch self {
            case .atlas: _ = try AtlasReader.read(bytes: bytes, file: file)
            case .json: _ = try SkeletonJSONReader.read(bytes: bytes, file: file, atlas: nil)
            case .binary: _ = try SkeletonBinaryReader.read(bytes: bytes, file: file, atlas: nil)
            }
        }
    }

    /// The kept corpus plus the named regression inputs (a reader may have none of those).
    static func inputs(_ reader: Reader) throws -> [URL] {
        let fileManager = FileManager.default
        let corpus = try fileManager.contentsOfDirectory(
            at: corpusRoot.appendingPathComponent(reader.rawValue), includingPropertiesForKeys: nil)
        let regressions =
            (try? fileManager.contentsOfDirectory(
                at: regressionRoot.appendingPathComponent(reader.rawValue), includingPropertiesForKeys: nil)) ?? []
        return (corpus + regressions)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test("Every kept input loads or fails with a typed error", arguments: Reader.allCases)
    func replay(_ reader: Reader) throws {
        let files = try Self.inputs(reader)
        // A corpus that went missing would make this test pass vacuously.
        #expect(files.count >= 20, "Tools/Fuzz/corpus/\(reader.rawValue) holds only \(files.count) inputs")
        var loaded = 0
        var refused = 0
        for url in files {
            let bytes = try [UInt8](Data(contentsOf: url))
            #expect(bytes.count <= 2048, "\(url.lastPathComponent): kept inputs are small files")
            do {
                try reader.read(bytes, file: url.lastPathComponent)
                loaded += 1
            } catch let error as LoadError {
                refused += 1
                #expect(error.file == url.lastPathComponent, "\(url.lastPathComponent): error names \(error.file)")
                #expect(
                    !error.expected.isEmpty, "\(url.lastPathComponent): \(error) says nothing about what was expected")
            } catch {
                Issue.record("\(url.lastPathComponent): untyped error \(error)")
            }
        }
        #expect(loaded + refused == files.count)
    }

    /// Found by replaying the corpus with a 1 MB allocation limit: 713 bytes whose sequences would
    /// have resolved into 1.5 MB of images. The budget in proportion to the file's size refuses it.
    @Test("A small file cannot demand images far beyond its size")
    func sequenceFramesAreBudgetedBySize() throws {
        let url = Self.regressionRoot.appendingPathComponent("binary/sequence-frames-beyond-file-size.skel")
        var bytes = try [UInt8](Data(contentsOf: url))
        #expect(bytes.count == 713)
        #expect(throws: LoadError.self) { try Reader.binary.read(bytes, file: "hostile.skel") }
        // The fuzzer's input also holds NaN floats, which the reader now refuses first: each is
        // zeroed where the reader names it, so that the input still reaches its sequences.
        for _ in 0..<64 {
            do {
                try Reader.binary.read(bytes, file: "hostile.skel")
                Issue.record("loaded")
                return
            } catch let error as LoadError {
                if error.expected == "a finite float", case .byteOffset(let at) = error.location {
                    bytes.replaceSubrange(at..<(at + 4), with: [0, 0, 0, 0])
                    continue
                }
                #expect(error.kind == .limitExceeded, "\(error)")
                return
            }
        }
        Issue.record("more than 64 non-finite floats")
    }
}
