import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkRender

/// Render request files with values no request writer puts there: each is a `RenderError.request`
/// naming the file and the field, decided before anything is loaded or drawn (no GL needed).
@Suite struct HostileRequestTests {
    static let valid: [String: String] = [
        "format": #""spine-render-request-1""#, "skeleton": #""spineboy/spineboy-pro.skel""#,
        "atlas": #""spineboy/spineboy-pma.atlas""#, "skin": "null", "animation": #""walk""#, "step": "12",
        "dt": "0.0333333351", "viewport": "[-872, -558, 1820, 1820]", "size": "[512, 512]",
        "background": "[0, 0, 0, 0]",
    ]

    /// The valid request with `changes` applied (nil removes the field).
    static func request(_ changes: [String: String?]) -> [UInt8] {
        var fields = valid
        for (key, value) in changes { fields[key] = value }
        let body = fields.keys.sorted().map { "\"\($0)\": \(fields[$0]!)" }.joined(separator: ", ")
        return Array("{\(body)}".utf8)
    }

    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try RenderRequest(json: bytes, file: "hostile.request.json")
            return nil
        } catch {
            guard case .request(let message) = error else { return "untyped: \(error)" }
            return message
        }
    }

    @Test func hostileRequestsAreRefusedNamingTheField() throws {
        let cases: [(changes: [String: String?], field: String)] = [
            (["size": "[1000000000, 512]"], "`size`"), (["size": "[16384, 16384]"], "`size`"),
            (["size": "[512.5, 512]"], "`size`"), (["size": "[0, 512]"], "`size`"), (["size": "[512]"], "`size`"),
            (["step": "-1"], "`step`"), (["step": "1e9"], "`step`"), (["step": "2.5"], "`step`"),
            (["step": "\"12\""], "`step`"), (["step": nil], "`step`"), (["dt": "-0.1"], "`dt`"),
            (["dt": "1e300"], "`dt`"), (["dt": "null"], "`dt`"), (["viewport": "[0, 0, 1e-300, 10]"], "`viewport`"),
            (["viewport": "[0, 0, 0, 10]"], "`viewport`"), (["viewport": "[1e39, 0, 10, 10]"], "`viewport`"),
            (["viewport": "[0, 0, 10]"], "`viewport`"), (["background": "[0, 0, 0, 2]"], "`background`"),
            (["background": "[0, 0, -1, 1]"], "`background`"), (["format": "\"spine-render-request-2\""], "`format`"),
            (["skeleton": "3"], "`skeleton`"), (["skin": "[]"], "`skin`"), (["frames": "10"], "`frames`"),
            (["steps": "10"], "`steps`"),
        ]
        for (changes, field) in cases {
            let message = try #require(Self.refusal(Self.request(changes)), "\(changes) was accepted")
            #expect(message.hasPrefix("hostile.request.json: \(field)"), "\(changes): \(message)")
        }
        // Not JSON, truncated, not an object, a NaN (not JSON either), nesting past any reason.
        let broken: [String] = [
            "", "{", #"{"format": "spine-render-request-1", "step": 1"#, "[]", "null", #"{"dt": NaN}"#,
            String(repeating: "[", count: 100_000), "\u{FF}\u{FE}",
        ]
        for text in broken {
            let message = try #require(Self.refusal(Array(text.utf8)), "\(text.prefix(40)) was accepted")
            #expect(message.hasPrefix("hostile.request.json: "), "\(message)")
            #expect(!message.hasPrefix("untyped"), "\(message)")
        }
        // The valid one parses, as every golden request does.
        #expect(Self.refusal(Self.request([:])) == nil)
    }

    @Test func requestFilesAreReadUpToALimit() throws {
        let dir = try TemporaryFiles.freshDirectory("requests", prefix: "bonework-hostile")
        let big = dir + "/big.request.json"
        var bytes = Self.request([:])
        bytes.insert(contentsOf: [UInt8](repeating: 0x20, count: RenderRequest.maxFileBytes), at: 1)
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        #expect(throws: LoadError.self) { try RenderRequest(file: big) }
        // A device that never ends is refused after the limit, not read forever.
        let clock = ContinuousClock.now
        #expect(throws: LoadError.self) { try RenderRequest(file: "/dev/zero") }
        #expect(ContinuousClock.now - clock < .seconds(10))
    }
}

extension HostileRequestTests {
    /// The inputs `Tools/fuzz.sh request` kept (Tools/Fuzz/corpus/request) and the named
    /// regressions (Tools/Fuzz/regressions/request): each parses or is a `RenderError.request`
    /// naming its file.
    @Test func fuzzedRequestsParseOrFailNamingTheFile() throws {
        let root = TestPaths.repositoryRoot.appendingPathComponent("Tools/Fuzz")
        let files = try FuzzInputs.files(root, target: "request")
        #expect(files.count >= 20, "Tools/Fuzz/corpus/request holds only \(files.count) inputs")
        for url in files {
            let bytes = try [UInt8](Data(contentsOf: url))
            do {
                _ = try RenderRequest(json: bytes, file: url.lastPathComponent)
            } catch {
                guard case .request(let message) = error else {
                    Issue.record("\(url.lastPathComponent): \(error)")
                    continue
                }
                #expect(message.hasPrefix(url.lastPathComponent + ": "), "\(message)")
            }
        }
        for name in ["size-past-the-pixel-limit", "viewport-width-zero-as-a-float"] {
            let url = root.appendingPathComponent("regressions/request/\(name).request.json")
            #expect(Self.refusal(try [UInt8](Data(contentsOf: url))) != nil, "\(name) parsed")
        }
    }
}

extension HostileRequestTests {
    @Test func everyGoldenRequestParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.renders.path)
            .filter { $0.hasSuffix(".request.json") }
        #expect(files.count == 70)
        for file in files { _ = try RenderRequest(file: TestPaths.renders.path + "/" + file) }
    }
}
