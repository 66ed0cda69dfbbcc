import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The vertex system's lane path (4 instances at once in chunked layouts with a chunk size that
/// is a multiple of 4, 8 at once when it is a multiple of 8) against the scalar path (instance-major): the same crowds, frame by frame,
/// must hand the renderer the same draws and bit for bit the same vertices.
@Suite("Vertex lanes")
struct VertexLaneTests {
    static let delta: Float = 1.0 / 60.0
    static let frames = 24

    struct Workload {
        var skeleton: String
        var atlas: String
        /// Skins of instance i: `skins[i % skins.count]`.
        var skins: [String?]
        /// Animation of instance i: `animations[i % animations.count]`.
        var animations: [String]
        var count: Int
    }

    static let workloads: [Workload] = [
        // Regions, weighted and unweighted meshes; walk and run key different attachments.
        Workload(
            skeleton: "spineboy/spineboy-pro.skel", atlas: "spineboy/spineboy.atlas", skins: [nil],
            animations: ["walk", "run"], count: 42),
        // Deform on weighted meshes, in some lanes of a group or in all 4.
        Workload(
            skeleton: "spineboy/spineboy-pro.skel", atlas: "spineboy/spineboy.atlas", skins: [nil],
            animations: ["hoverboard", "hoverboard", "hoverboard", "hoverboard", "walk"], count: 15),
        // Deform on weighted meshes in all 8 lanes of a group.
        Workload(
            skeleton: "spineboy/spineboy-pro.skel", atlas: "spineboy/spineboy.atlas", skins: [nil],
            animations: ["hoverboard"], count: 16),
        // Different skins per instance: draw lists differ in length and slots.
        Workload(
            skeleton: "mix-and-match/mix-and-match-pro.skel", atlas: "mix-and-match/mix-and-match.atlas",
            skins: [
                "full-skins/girl", "full-skins/girl", "full-skins/girl", "full-skins/girl", "full-skins/boy",
                "full-skins/girl-blue-cape", "full-skins/girl-spring-dress",
            ],
            animations: ["walk", "dance"], count: 23),
        // Deform on unweighted meshes.
        Workload(
            skeleton: "hero/hero-pro.skel", atlas: "hero/hero.atlas", skins: ["weapon/sword"],
            animations: ["run", "run", "run", "run", "walk", "idle", "attack"], count: 13),
        Workload(
            skeleton: "hero/hero-pro.skel", atlas: "hero/hero.atlas", skins: ["weapon/sword"], animations: ["run"],
            count: 16),
        // Draw order keyed (roar, jump) in one lane of a group and in none of the next: the slot
        // system looks at a group's slots together only when every lane draws in setup order.
        Workload(
            skeleton: "raptor/raptor-pro.skel", atlas: "raptor/raptor.atlas", skins: [nil],
            animations: ["walk", "walk", "walk", "roar"] + Array(repeating: "walk", count: 12) + ["jump"], count: 24),
        Workload(
            skeleton: "owl/owl-pro.skel", atlas: "owl/owl.atlas", skins: [nil],
            animations: ["left", "left", "left", "left", "up", "down"], count: 10),
        // Neighbours playing different animations show different stars (attachments keyed on and
        // off): lists that differ by draws some rows lack, aligned slot by slot.
        Workload(
            skeleton: "celestial-circus/celestial-circus-pro.skel", atlas: "celestial-circus/celestial-circus.atlas",
            skins: [nil], animations: ["swing", "wind-idle", "wind-idle"], count: 19),
    ]

    /// One drawn slot as the renderer saw it: the draw's fields and its vertices' bits.
    struct Draw: Equatable {
        var slot: Int32
        var attachment: Int32
        var frame: Int32
        var bits: [UInt32]
    }

    /// Per frame, per batch, per row: the row's draws.
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var frame = 0
        var rows: [[[Int: [Draw]]]] = []
    }

    struct Run {
        var log: [[[Int: [Draw]]]]
        var lanes: [Bool]
    }

    static func run(layout: ColumnLayout, blockRows: Int) throws -> Run {
        // Each workload loads its own data, so each gets its own batch.
        let datas = try workloads.map { try ExampleSkeletons.load($0.skeleton, atlas: $0.atlas) }
        let scheduler = Scheduler(capacity: 4, clock: .wall, threads: 1)
        scheduler.blockRows = blockRows
        let log = Log()
        scheduler.vertexHandler = { block in
            log.lock.lock()
            defer { log.lock.unlock() }
            for draw in block.draws {
                let floats = (0..<Int(draw.count)).map { block.vertices[Int(draw.offset) + $0].bitPattern }
                log.rows[log.frame][block.batch][Int(draw.row), default: []].append(
                    Draw(slot: draw.slot, attachment: draw.attachment, frame: draw.frame, bits: floats))
            }
        }
        let world = World(layout: layout, trackCount: 1, scheduler: scheduler)
        for (k, w) in workloads.enumerated() {
            let data = datas[k]
            try world.setAnimationStateData(AnimationStateData(skeletonData: data, defaultMix: 0.2))
            for i in 0..<w.count {
                let e = try world.spawn(data, skin: w.skins[i % w.skins.count])
                let name = w.animations[i % w.animations.count]
                try world.setAnimation(e, track: 0, name, loop: true)
                let duration = data.animations[Int(data.findAnimation(name) ?? 0)].duration
                try world.setTrackTime(e, track: 0, duration * Float(i) / Float(w.count))
            }
        }
        for frame in 0..<frames {
            log.frame = frame
            log.rows.append(Array(repeating: [:], count: world.batches.count))
            world.update(delta)
        }
        return Run(log: log.rows, lanes: world.batches.map { VertexSystem.lanesApply($0.views.vertices) })
    }

    /// Records the first difference between `a` (scalar path) and `b`, by frame, batch, row,
    /// draw and float.
    static func expectSame(_ a: Run, _ b: Run, _ what: String) {
        #expect(a.log.count == b.log.count, "\(what): frames")
        for (f, (fa, fb)) in zip(a.log, b.log).enumerated() {
            #expect(fa.count == fb.count, "\(what): batches")
            for (batch, (ra, rb)) in zip(fa, fb).enumerated() {
                #expect(ra.keys.sorted() == rb.keys.sorted(), "\(what): frame \(f) batch \(batch): rows with draws")
                for row in ra.keys.sorted() {
                    let da = ra[row] ?? []
                    let db = rb[row] ?? []
                    guard da != db else { continue }
                    guard da.count == db.count else {
                        Issue.record("\(what): frame \(f) batch \(batch) row \(row): \(da.count) draws, \(db.count)")
                        return
                    }
                    for (j, (x, y)) in zip(da, db).enumerated() where x != y {
                        guard x.slot == y.slot && x.attachment == y.attachment && x.frame == y.frame,
                            x.bits.count == y.bits.count
                        else {
                            let message =
                                "\(what): frame \(f) batch \(batch) row \(row) draw \(j): slot \(x.slot)/\(y.slot) "
                                + "attachment \(x.attachment)/\(y.attachment) frame \(x.frame)/\(y.frame) "
                                + "floats \(x.bits.count)/\(y.bits.count)"
                            Issue.record(Comment(rawValue: message))
                            return
                        }
                        let i = zip(x.bits, y.bits).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                        let message =
                            "\(what): frame \(f) batch \(batch) row \(row) slot \(x.slot) float \(i): "
                            + "\(Float(bitPattern: x.bits[i])) vs \(Float(bitPattern: y.bits[i]))"
                        Issue.record(Comment(rawValue: message))
                        return
                    }
                }
            }
        }
    }

    @Test("Chunk 4 and chunk 8 layouts (lane path) give the instance-major (scalar) draws and vertex bits")
    func lanesMatchScalar() throws {
        let scalar = try Self.run(layout: .instanceMajor, blockRows: 128)
        #expect(scalar.lanes.allSatisfy { !$0 })
        let draws = scalar.log.joined().map { $0.values.map(\.count).reduce(0, +) }.reduce(0, +)
        let floats = scalar.log.joined().map { $0.values.joined().map(\.bits.count).reduce(0, +) }.reduce(0, +)
        #expect(draws > 1000 && floats > 100_000, "the workload draws: \(draws) draws, \(floats) floats")
        let configs: [(ColumnLayout, Int)] = [
            (ColumnLayout(chunkSize: 4), 128), (ColumnLayout(chunkSize: 8), 128),
            // Blocks that split groups of 4 rows.
            (ColumnLayout(chunkSize: 4), 6), (ColumnLayout(chunkSize: 8), 13),
        ]
        for (layout, block) in configs {
            let lanes = try Self.run(layout: layout, blockRows: block)
            #expect(lanes.lanes.allSatisfy { $0 }, "chunk \(layout.chunkSize): the lane path runs")
            Self.expectSame(scalar, lanes, "chunk \(layout.chunkSize), block \(block)")
        }
    }

    /// `alignable` and `align` on hand-made lists: rows lacking some slots get placeholders,
    /// entries keep their offsets and counts; rows out of setup draw order or a missing row are
    /// refused.
    @Test("Draw lists that differ by missing draws are aligned slot by slot; others are refused")
    func listsAlign() throws {
        func draw(_ row: Int32, _ slot: Int32) -> VertexDraw {
            VertexDraw(row: row, slot: slot, attachment: slot &* 10, frame: -1, offset: row &* 100 &+ slot, count: 2)
        }
        let scratch = VertexScratch()
        let data = try ExampleSkeletons.load("spineboy/spineboy-pro.skel", atlas: "spineboy/spineboy.atlas")
        scratch.reserve(CompiledSkeleton(data), rows: 4, listRows: 4)
        // Rows 4...7: slots {1, 3}, {1, 2, 3}, {3}, {0, 3}; then row 8.
        var list = [draw(4, 1), draw(4, 3), draw(5, 1), draw(5, 2), draw(5, 3), draw(6, 3), draw(7, 0), draw(7, 3)]
        list.append(draw(8, 1))
        try list.withUnsafeMutableBufferPointer { buffer in
            let p = try #require(buffer.baseAddress)
            let end = VertexSystem.alignable(p, start: 0, end: buffer.count, lanes: 4, scratch: scratch)
            #expect(end == 8)
            let stride = 6
            let count = VertexSystem.align(p, lanes: 4, stride: stride, into: scratch)
            #expect(count == 4)
            let expected: [[Int32?]] = [[nil, 1, nil, 3], [nil, 1, 2, 3], [nil, nil, nil, 3], [0, nil, nil, 3]]
            for lane in 0..<4 {
                for j in 0..<count {
                    let entry = scratch.aligned[lane * stride + j]
                    #expect(entry.row == Int32(4 + lane) && entry.slot == Int32([0, 1, 2, 3][j]))
                    if let slot = expected[lane][j] {
                        #expect(entry == draw(Int32(4 + lane), slot), "lane \(lane) entry \(j)")
                    } else {
                        #expect(entry.count == 0 && entry.attachment == -1, "lane \(lane) entry \(j) placeholder")
                    }
                }
            }
            // Out of setup draw order in one row; a missing row.
            p[3] = draw(5, 0)
            #expect(VertexSystem.alignable(p, start: 0, end: buffer.count, lanes: 4, scratch: scratch) == nil)
            p[3] = draw(5, 2)
            #expect(VertexSystem.alignable(p, start: 0, end: 5, lanes: 4, scratch: scratch) == nil)
            // Rows 5...8 from draw 2 form a group of consecutive rows too (the caller picks rows
            // that are a multiple of the width).
            #expect(VertexSystem.alignable(p, start: 2, end: buffer.count, lanes: 4, scratch: scratch) == 9)
        }
    }

    @Test("A chunk size that is not a multiple of 4 keeps the scalar path")
    func otherChunksScalar() throws {
        let run = try Self.run(layout: ColumnLayout(chunkSize: 6), blockRows: 128)
        #expect(run.lanes.allSatisfy { !$0 })
        let scalar = try Self.run(layout: .instanceMajor, blockRows: 128)
        Self.expectSame(scalar, run, "chunk 6")
    }
}
