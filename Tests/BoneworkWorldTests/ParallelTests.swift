import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The same crowd run with 1 and 2 threads, several chunk and block sizes, interleaved and split
/// passes, with and without listeners: every column, every track entry and every event must
/// come out bit for bit the same.
@Suite("Parallel scheduling")
struct ParallelTests {
    static let delta: Float = 1.0 / 60.0
    static let frames = 45

    struct Config: CustomStringConvertible {
        var threads: Int
        var mode: Scheduler.Mode
        var block: Int
        var minimumChunk: Int
        var listeners = false
        var layout = ColumnLayout.instanceMajor

        var description: String {
            "\(threads) thread(s), \(mode), block \(block), chunk >= \(minimumChunk)"
                + (listeners ? ", listeners" : "") + (layout.chunkSize > 1 ? ", chunked \(layout.chunkSize)" : "")
        }
    }

    /// Everything a run produced.
    struct Outcome {
        var columns: [[UInt8]] = []
        var entryTimes: [[UInt8]] = []
        var entryLinks: [[Int64]] = []
        var events: [[FiredEvent]] = []
        var heard: [String] = []
        var vertexFloats: [Int] = []
        var chunksSeen = 0
    }

    final class Log: @unchecked Sendable {
        var lines: [String] = []
        let lock = NSLock()
        var vertexFloats: [Int: Int] = [:]
    }

    static let skeletons: [(skeleton: String, atlas: String, skin: String?, animations: [String], count: Int)] = [
        ("spineboy/spineboy-pro.skel", "spineboy/spineboy.atlas", nil, ["walk", "run"], 40),
        (
            "celestial-circus/celestial-circus-pro.skel", "celestial-circus/celestial-circus.atlas", nil,
            ["swing", "wind-idle"], 20
        ),
        ("tank/tank-pro.skel", "tank/tank.atlas", nil, ["drive"], 8),
        (
            "mix-and-match/mix-and-match-pro.skel", "mix-and-match/mix-and-match.atlas", "full-skins/girl",
            ["walk", "dance"], 20
        ),
    ]

    nonisolated(unsafe) static var loaded: [SkeletonData]?

    static func datas() throws -> [SkeletonData] {
        if let loaded { return loaded }
        let list = try skeletons.map { try ExampleSkeletons.load($0.skeleton, atlas: $0.atlas) }
        loaded = list
        return list
    }

    static func run(_ config: Config) throws -> Outcome {
        let datas = try datas()
        let scheduler = Scheduler(capacity: 4, clock: .wall, threads: config.threads)
        scheduler.mode = config.mode
        scheduler.blockRows = config.block
        scheduler.minimumChunkRows = config.minimumChunk
        scheduler.minimumChunkMicroseconds = 0
        let log = Log()
        scheduler.vertexHandler = { block in
            log.lock.lock()
            log.vertexFloats[block.batch, default: 0] += block.vertices.count
            log.lock.unlock()
        }
        let world = World(layout: config.layout, trackCount: 1, scheduler: scheduler)
        var entities: [[Entity]] = []
        for (k, data) in datas.enumerated() {
            let spec = skeletons[k]
            let stateData = AnimationStateData(skeletonData: data, defaultMix: 0.2)
            try world.setAnimationStateData(stateData)
            var list: [Entity] = []
            for i in 0..<spec.count {
                let e = try world.spawn(data, skin: spec.skin)
                let name = spec.animations[i % spec.animations.count]
                try world.setAnimation(e, track: 0, name, loop: true)
                let duration = data.animations[Int(data.findAnimation(name) ?? 0)].duration
                try world.setTrackTime(e, track: 0, duration * Float(i) / Float(spec.count))
                list.append(e)
            }
            entities.append(list)
            if config.listeners {
                world.batch(for: data).animationStates.listener = { type, entry, event in
                    log.lines.append("\(k) \(type) \(entry.name ?? "?") \(event?.name ?? "")")
                }
            }
        }
        var outcome = Outcome()
        for frame in 0..<frames {
            if frame == 15 {
                // Queue a one-shot then a loop on every third spineboy (starts, ends, mixes).
                let spineboy = datas[0]
                for (i, e) in entities[0].enumerated() where i % 3 == 0 {
                    let state = try world.animationState(e)
                    _ = try state.setAnimation(0, "jump", loop: false)
                    _ = try state.addAnimation(0, "run", loop: true, delay: 0)
                }
                _ = spineboy
            }
            if frame == 30 {
                for (i, e) in entities[3].enumerated() where i % 2 == 0 {
                    _ = try world.animationState(e).setAnimation(0, "aware", loop: false)
                }
            }
            world.update(delta)
            outcome.events.append(world.batches.flatMap { Array($0.firedEvents) })
            outcome.chunksSeen = max(outcome.chunksSeen, scheduler.profiler.frame()?.chunks ?? 0)
        }
        for batch in world.batches {
            var bytes: [UInt8] = []
            batch.forEachColumnStorage { bytes.append(contentsOf: $0) }
            outcome.columns.append(bytes)
            let e = batch.animationStates.pool.columns
            outcome.entryTimes.append(
                Array(UnsafeRawBufferPointer(start: e.times, count: e.capacity * MemoryLayout<EntryTimes>.stride)))
            outcome.entryLinks.append(
                (0..<e.capacity).flatMap { i -> [Int64] in
                    let s = e.state[i]
                    return [
                        Int64(s.animation), Int64(s.track), Int64(s.owner), Int64(s.previous), Int64(s.next),
                        Int64(s.mixingFrom), Int64(s.mixingTo), Int64(s.generation), Int64(s.live),
                    ]
                })
        }
        outcome.heard = log.lines
        outcome.vertexFloats = (0..<world.batches.count).map { log.vertexFloats[$0] ?? 0 }
        return outcome
    }

    static func expectSame(_ a: Outcome, _ b: Outcome, _ what: String) {
        #expect(a.columns.count == b.columns.count)
        for (k, (x, y)) in zip(a.columns, b.columns).enumerated() {
            if x != y {
                let first = zip(x, y).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1
                Issue.record("\(what): batch \(k) columns differ (first differing byte \(first) of \(x.count))")
            }
        }
        #expect(a.entryTimes == b.entryTimes, "\(what): track entry times differ")
        #expect(a.entryLinks == b.entryLinks, "\(what): track entry links differ")
        #expect(a.events == b.events, "\(what): events differ")
        #expect(a.vertexFloats == b.vertexFloats, "\(what): vertex output differs")
    }

    @Test("1 and 2 threads, any chunking, interleaved or split: columns, entries and events bit for bit")
    func threadCountsAgree() throws {
        let baseline = try Self.run(Config(threads: 1, mode: .split, block: 32, minimumChunk: 16))
        #expect(baseline.events.joined().contains { $0.type == .event }, "the workload raises user events")
        #expect(baseline.events.joined().contains { $0.type == .end }, "the workload ends entries")
        #expect(baseline.vertexFloats.allSatisfy { $0 > 0 })
        let configs = [
            Config(threads: 1, mode: .interleaved, block: 32, minimumChunk: 16),
            Config(threads: 2, mode: .interleaved, block: 1, minimumChunk: 1),
            Config(threads: 2, mode: .interleaved, block: 7, minimumChunk: 4),
            Config(threads: 2, mode: .interleaved, block: 64, minimumChunk: 16),
            Config(threads: 2, mode: .split, block: 32, minimumChunk: 3),
        ]
        for config in configs {
            let outcome = try Self.run(config)
            Self.expectSame(baseline, outcome, "\(config)")
            if config.threads > 1 && Scheduler.maxThreads > 1 {
                #expect(outcome.chunksSeen > Self.skeletons.count, "\(config): work was split into chunks")
            }
        }
    }

    @Test("With listeners (state passes of their own), events reach listeners in the same order on any thread count")
    func listenersAgree() throws {
        let baseline = try Self.run(Config(threads: 1, mode: .interleaved, block: 32, minimumChunk: 16))
        let one = try Self.run(Config(threads: 1, mode: .split, block: 32, minimumChunk: 16, listeners: true))
        let two = try Self.run(Config(threads: 2, mode: .interleaved, block: 5, minimumChunk: 2, listeners: true))
        #expect(!one.heard.isEmpty)
        #expect(one.heard == two.heard, "listeners heard different sequences")
        Self.expectSame(baseline, one, "listeners, 1 thread")
        Self.expectSame(baseline, two, "listeners, 2 threads")
    }

    @Test("Chunked column layout: 1 and 2 threads agree")
    func chunkedLayoutAgrees() throws {
        let layout = ColumnLayout(chunkSize: 8)
        let one = try Self.run(Config(threads: 1, mode: .interleaved, block: 32, minimumChunk: 16, layout: layout))
        let two = try Self.run(Config(threads: 2, mode: .interleaved, block: 3, minimumChunk: 2, layout: layout))
        Self.expectSame(one, two, "chunked layout")
    }

    @Test("Thread counts are clamped to 1 ... cores; chunks never hold fewer than the minimum rows")
    func chunking() {
        let s = Scheduler(threads: 64)
        #expect(s.threads == Scheduler.maxThreads)
        s.threads = 0
        #expect(s.threads == 1)
        s.threads = 2
        s.minimumChunkRows = 16
        #expect(s.chunkCount(rows: 15) == 1)
        #expect(s.chunkCount(rows: 1000) == min(2, Scheduler.maxThreads))
    }
}

/// Every reference pose trace replayed by two instances on two threads (one chunk each): each
/// instance matches the reference and, bit for bit, the single-threaded replay.
@Suite("Parallel pose traces")
struct ParallelTraceTests {
    /// A pose's floats as bits (NaN-safe), attachments and draw order.
    static func bits(_ p: InstancePose) -> [UInt32] {
        var out: [UInt32] = []
        for v in p.bones.joined() { out.append(v.bitPattern) }
        for v in p.local.joined() { out.append(v.bitPattern) }
        for v in p.colors.joined() { out.append(v.bitPattern) }
        for v in p.darkColors.joined() { out.append(v.bitPattern) }
        for v in p.vertices { for f in v ?? [] { out.append(f.bitPattern) } }
        out.append(contentsOf: p.drawOrder.map { UInt32(truncatingIfNeeded: $0) })
        out.append(contentsOf: p.attachments.map { UInt32(truncatingIfNeeded: ($0 ?? "").hashValue) })
        return out
    }

    @Test("Each trace on two threads matches the reference and the one-thread replay", arguments: PoseGoldens.compared)
    func twoThreads(_ file: PoseGoldens.File) throws {
        let trace = try ReplayedPoseTrace(file)
        let scheduler = Scheduler(capacity: 2, threads: 2)
        scheduler.minimumChunkRows = 1
        scheduler.minimumChunkMicroseconds = 0
        scheduler.blockRows = 1
        let world = World(trackCount: 1, scheduler: scheduler)
        try trace.replay(in: world, count: 2, label: "2 threads")
        if Scheduler.maxThreads > 1 { #expect(world.scheduler.profiler.frame()?.chunks ?? 0 >= 2) }
    }
}

extension ParallelTests {
    @Test("Chunks hold at least the minimum work measured on the previous frame")
    func chunksByMeasuredWork() throws {
        let data = try ExampleSkeletons.spineboy()
        let scheduler = Scheduler(capacity: 4, clock: .threadCPU, threads: 2)
        scheduler.minimumChunkRows = 1
        let world = World(trackCount: 1, scheduler: scheduler)
        for _ in 0..<8 {
            let e = try world.spawn(data)
            try world.setAnimation(e, track: 0, "walk", loop: true)
        }
        world.update(Self.delta)
        // Unmeasured: one row is enough for a chunk.
        #expect(scheduler.profiler.frame()?.chunks == min(2, Scheduler.maxThreads))
        // Eight instances take far less than a second of CPU: one chunk from then on.
        scheduler.minimumChunkMicroseconds = 1_000_000
        world.update(Self.delta)
        #expect(scheduler.profiler.frame()?.chunks == 1)
        scheduler.minimumChunkMicroseconds = 80
        let two = min(2, Scheduler.maxThreads)
        #expect(scheduler.chunkCount(rows: 8, costPerRow: 0) == two)  // not measured: rows rule
        #expect(scheduler.chunkCount(rows: 8, costPerRow: 1_000) == 1)  // 8 µs in all
        #expect(scheduler.chunkCount(rows: 8, costPerRow: 20_000) == two)  // 4 rows make 80 µs
        #expect(scheduler.chunkCount(rows: 1000, costPerRow: 5_000) == two)
    }
}

@Suite("Compact slot columns")
struct CompactSlotColumnTests {
    @Test("Colouring a slot no timeline colours adds a colour row to the batch; everything else is kept")
    func colourRowOnDemand() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World(trackCount: 1)
        let entities = try (0..<3).map { _ in try world.spawn(data) }
        for e in entities { try world.setAnimation(e, track: 0, "walk", loop: true) }
        for _ in 0..<5 { world.update(1 / 60) }
        let head = try #require(data.findSlotIndex("head"))
        let muzzle = try #require(data.findSlotIndex("muzzle"))
        let batch = try world.locate(entities[0]).batch
        #expect(batch.columns().colorRow(batch.rig.tables, batch.columns().rows(0), slot: head) < 0)
        let before = try entities.map { try world.pose($0) }
        let red = Color(1, 0, 0, 0.5)
        try world.setSlotColor(entities[1], slot: head, red)
        #expect(try world.slotColor(entities[1], slot: head) == red)
        for (n, e) in entities.enumerated() {
            let pose = try world.pose(e)
            #expect(pose.bones == before[n].bones)
            #expect(pose.colors[muzzle] == before[n].colors[muzzle])
            if n != 1 { #expect(pose.colors == before[n].colors) }
        }
        for _ in 0..<5 { world.update(1 / 60) }
        #expect(try world.slotColor(entities[1], slot: head) == red, "no timeline keys the head's colour")
        #expect(try world.slotColor(entities[0], slot: head) == data.slots[head].color)
        try world.despawn(entities[0])
        #expect(try world.slotColor(entities[1], slot: head) == red)
        let added = try world.spawn(data)
        #expect(try world.slotColor(added, slot: head) == data.slots[head].color)
    }
}
