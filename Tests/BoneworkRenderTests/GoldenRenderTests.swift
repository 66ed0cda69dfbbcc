import BoneworkFormat
import BoneworkImage
import BoneworkTestSupport
import BoneworkWorld
import Foundation
import Testing

@testable import BoneworkRender

/// Reproduces the shared reference renders (`golden/renders/*.request.json`) and judges each with
/// `tools/compare-image.py`. Output PNGs (and difference pictures of failures) are written to
/// `$TMPDIR/bonework-golden-renders/`.
@Suite(.serialized) struct GoldenRenderTests {
    static let outputDirectory: String = {
        let path = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/bonework-golden-renders"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    struct Verdict {
        var pass: Bool
        var summary: String
    }

    /// Runs the comparison tool; a missing tool or unreadable output is a failure, not a skip.
    static func compare(_ actual: String, _ reference: String, diff: String, write image: Image? = nil) -> Verdict {
        if let image {
            do { try PNG.write(image, to: actual) } catch { return Verdict(pass: false, summary: "\(error)") }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", TestPaths.compareImageTool.path, "--json", "--diff", diff, actual, reference]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return Verdict(pass: false, summary: "cannot run compare-image.py: \(error)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let json = try? JSONSerialization.jsonObject(with: output) as? [String: Any],
            let pass = json["pass"] as? Bool
        else {
            return Verdict(pass: false, summary: "compare-image.py: \(String(decoding: output, as: UTF8.self))")
        }
        let core = json["core_pixels"] as? Int ?? -1
        let tfrac = (json["tfrac_over_tol"] as? Double ?? -1) * 100
        let tmean = json["tmean"] as? Double ?? -1
        let mean = (json["mean_rgba"] as? [Double] ?? []).map { String(format: "%.2f", $0) }.joined(separator: "/")
        return Verdict(
            pass: pass,
            summary: String(format: "core %d px, tpixels>16 %.3f %%, tmean %.3f, mean %@", core, tfrac, tmean, mean))
    }

    static func requestNames() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.renders.path)
        return names.filter { $0.hasSuffix(".request.json") }.map { String($0.dropLast(".request.json".count)) }
            .sorted()
    }

    static func indexEntries() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: TestPaths.renders.appendingPathComponent("index.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let list = try #require(root["renders"] as? [[String: Any]])
        var result: [String: [String: Any]] = [:]
        for entry in list { if let name = entry["name"] as? String { result[name] = entry } }
        return result
    }

    /// Checks the frame counts against the index (drawn slots, regions, meshes, skips); returns
    /// the differences as text.
    static func countDifferences(_ stats: FrameStats, _ entry: [String: Any]?) -> String {
        guard let entry else { return "not in index.json" }
        var notes: [String] = []
        let pairs: [(String, Int)] = [
            ("drawnSlots", stats.drawnSlots), ("regions", stats.regions), ("meshes", stats.meshes),
            ("inactiveSkipped", stats.inactiveSkipped), ("tintedSlots", stats.tintedSlots),
            ("additiveSlots", stats.additiveSlots), ("multiplySlots", stats.multiplySlots),
        ]
        for (key, value) in pairs where (entry[key] as? Int) != value {
            notes.append("\(key) \(value) (reference \(entry[key] ?? "?"))")
        }
        return notes.joined(separator: ", ")
    }

    /// Every reference, posed by the engine (path and physics constraints included) and drawn by
    /// the CPU path through the engine's `PoseView`: every one must pass the comparison, and its
    /// drawn-slot counts must agree with index.json. Failures name the file and the metrics.
    @Test func engineDrivenReferenceRenders() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let names = try Self.requestNames()
        #expect(names.count == 70)
        let index = try Self.indexEntries()
        var failures: [String] = []
        var passed = 0
        for name in names {
            let requestFile = TestPaths.renders.path + "/\(name).request.json"
            let actual = Self.outputDirectory + "/\(name).png"
            do {
                let request = try RenderRequest(file: requestFile)
                let image = try renderer.render(request)
                try PNG.write(image, to: actual)
            } catch {
                failures.append("\(name): render failed: \(error)")
                continue
            }
            let verdict = Self.compare(
                actual, TestPaths.renders.path + "/\(name).png", diff: Self.outputDirectory + "/\(name).diff.png")
            let counts = Self.countDifferences(renderer.lastStats, index[name])
            if verdict.pass {
                passed += 1
                if !counts.isEmpty { failures.append("\(name): counts: \(counts)") }
                continue
            }
            failures.append("\(name): FAIL \(verdict.summary)\(counts.isEmpty ? "" : "; counts: " + counts)")
        }
        let report = "\(passed)/\(names.count) reference renders pass\n" + failures.joined(separator: "\n")
        try report.write(toFile: Self.outputDirectory + "/engine-report.txt", atomically: true, encoding: .utf8)
        #expect(failures.isEmpty, "\(report)")
    }

    // MARK: Trace-driven renders (independent of the engine)

    /// A pose trace frame as a `PoseSnapshot`: bones, slot colours, attachments, draw order and
    /// world vertices come from the reference runtime itself, so these renders test the drawing
    /// alone. Dark colours are not in traces: the slot's setup dark colour stands in.
    static func traceSnapshot(frame: [String: Any], data: SkeletonData, skin: String?) throws -> PoseSnapshot {
        let bones = try #require(frame["bones"] as? [[Double]])
        let slots = try #require(frame["slots"] as? [[String: Any]])
        let order = try #require(frame["drawOrder"] as? [Int])
        let vertices = try #require(frame["vertices"] as? [Any])
        let skinIndex = skin.flatMap { data.findSkinIndex($0) }.map(Int32.init)
        var attachments: [Int] = []
        var colors: [Color] = []
        for (k, slot) in slots.enumerated() {
            attachments.append(
                PoseSnapshot.attachmentIndex(data: data, skin: skinIndex, slot: k, name: slot["attachment"] as? String))
            let c = (slot["color"] as? [Double]) ?? [1, 1, 1, 1]
            colors.append(Color(Float(c[0]), Float(c[1]), Float(c[2]), Float(c[3])))
        }
        let world = bones.map {
            BoneWorldTransform(
                a: Float($0[0]), b: Float($0[1]), c: Float($0[2]), d: Float($0[3]), worldX: Float($0[4]),
                worldY: Float($0[5]))
        }
        // Inactive bones keep the identity transform in traces; the index says how many slots skip.
        let identity = BoneWorldTransform.identity
        var active = world.map { $0 != identity }
        active[0] = true
        return PoseSnapshot(
            data: data, bones: world, boneActive: active, slotColors: colors,
            darkColors: data.slots.map { $0.darkColor ?? Color(0, 0, 0, 1) }, attachments: attachments,
            vertices: vertices.map { ($0 as? [Double])?.map { Float($0) } }, drawOrder: order)
    }

    @Test func traceDrivenReferenceRenders() throws {
        let renderer = try RequestRenderer(baseDirectory: TestPaths.examples.path)
        let index = try Self.indexEntries()
        var failures: [String] = []
        var tried: [String] = []
        for name in try Self.requestNames() {
            // Traces hold no dark colours: frames with tint black are judged by the engine-driven test.
            let features = index[name]?["features"] as? [String] ?? []
            guard !features.contains("tinted") else { continue }
            let request = try RenderRequest(file: TestPaths.renders.path + "/\(name).request.json")
            guard let animation = request.animation, request.skeleton.hasSuffix(".skel") else { continue }
            let parts = request.skeleton.split(separator: "/")
            let tracePath =
                TestPaths.poses.path
                + "/\(parts[0])/\(parts[1])/\(animation.replacingOccurrences(of: "/", with: "_")).json"
            guard let traceData = FileManager.default.contents(atPath: tracePath),
                let trace = try JSONSerialization.jsonObject(with: traceData) as? [String: Any],
                (trace["skin"] as? String) == request.skin, (trace["animation"] as? String) == animation,
                let frames = trace["frames"] as? [[String: Any]],
                let frame = frames.first(where: { ($0["step"] as? Int) == request.steps })
            else { continue }
            tried.append(name)
            let (data, drawData) = try renderer.skeleton(request.skeleton, atlas: request.atlas)
            let pages = try renderer.textures(atlas: request.atlas).bindings
            let snapshot = try Self.traceSnapshot(frame: frame, data: data, skin: request.skin)
            let image = try renderer.render(snapshot, drawData: drawData, pages: pages, request: request)
            let actual = Self.outputDirectory + "/\(name).trace.png"
            try PNG.write(image, to: actual)
            let verdict = Self.compare(
                actual, TestPaths.renders.path + "/\(name).png", diff: Self.outputDirectory + "/\(name).trace-diff.png")
            if !verdict.pass { failures.append("\(name): FAIL \(verdict.summary)") }
        }
        #expect(tried.count >= 11, "only \(tried.count) references have a matching trace frame")
        let report =
            "\(tried.count - failures.count)/\(tried.count) trace-driven renders pass\n"
            + failures.joined(separator: "\n")
        try report.write(toFile: Self.outputDirectory + "/trace-report.txt", atomically: true, encoding: .utf8)
        #expect(failures.isEmpty, "\(report)")
    }
}
