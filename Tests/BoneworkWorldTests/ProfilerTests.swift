import BoneworkFormat
import BoneworkProfiling
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkImage
@testable import BoneworkProfiling
@testable import BoneworkWorld

@Suite("Profiler")
struct ProfilerTests {
    static let delta: Float = 1.0 / 60.0

    /// A world of `count` spineboys walking and running, profiled over `capacity` frames.
    static func world(count: Int, threads: Int, capacity: Int) throws -> World {
        let data = try ExampleSkeletons.spineboy()
        let scheduler = Scheduler(capacity: capacity, clock: .threadCPU, threads: threads)
        scheduler.minimumChunkRows = 4
        scheduler.minimumChunkMicroseconds = 0
        let world = World(trackCount: 1, scheduler: scheduler)
        for i in 0..<count {
            let e = try world.spawn(data)
            try world.setAnimation(e, track: 0, i % 2 == 0 ? "walk" : "run", loop: true)
            try world.setTrackTime(e, track: 0, Float(i) * 0.01)
        }
        return world
    }

    @Test("Median, p95 (nearest rank) and max")
    func stats() {
        let s = ProfileStats((1...20).map(Double.init).shuffled())
        #expect(s.median == 10.5)
        #expect(s.p95 == 19)
        #expect(s.max == 20)
        #expect(s.mean == 10.5)
        let odd = ProfileStats([5, 1, 3])
        #expect(odd.median == 3)
        #expect(odd.p95 == 5)
        #expect(ProfileStats([]).median == 0)
    }

    @Test("Report numbers: fixed decimals as printf's %.Nf prints them")
    func decimalText() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 1.5, 2.5, 999.9996, 0.0004, -0.0004, 123_456.789, 1e15, 1e300]
        values += [.nan, .infinity, -.infinity, .pi, -.pi]
        for _ in 0..<2000 {
            values.append(Double.random(in: -5000...5000, using: &generator))
            values.append(Double.random(in: 0...0.01, using: &generator))
        }
        for value in values {
            for decimals in [0, 1, 3, 4, 6] {
                let text = DecimalText.fixed(value, decimals)
                let expected = String(format: "%.\(decimals)f", value)
                #expect(text == expected, "\(value) with \(decimals) decimals")
            }
        }
        #expect(FrameProfiler.micros(12_345_006) == "12345.006")
        #expect(FrameProfiler.micros(7) == "0.007")
    }

    @Test("The ring keeps the last frames: per system wall and CPU time, instances, slices per chunk")
    func ring() throws {
        let world = try Self.world(count: 24, threads: 2, capacity: 8)
        let profiler = world.scheduler.profiler
        for _ in 0..<11 { world.update(Self.delta) }
        #expect(profiler.frames == 11)
        #expect(profiler.available == 8)
        let frames = profiler.recentFrames()
        #expect(frames.map(\.index) == Array(3..<11))
        #expect(profiler.frame(framesAgo: 8) == nil)
        let chunks = world.scheduler.chunkCount(rows: 24)
        for f in frames {
            #expect(f.instances == 24)
            #expect(f.chunks == chunks)
            #expect(f.threads == chunks)
            #expect(f.wall > 0)
            #expect(f.cpu > 0)
            // Interleaved: every chunk runs every system, one slice each.
            #expect(f.slices.count == chunks * SystemID.count)
            #expect(f.droppedSlices == 0)
            for system in [SystemID.timelineApply, .pose, .vertices] {
                #expect(f.systemWall[system.rawValue] > 0, "\(system.name) has no time")
            }
            let rows = f.slices.filter { $0.system == .pose }.map { Int($0.rowEnd - $0.rowStart) }
            #expect(rows.reduce(0, +) == 24)
            #expect(f.cpuPerThread.reduce(0) { $0 + $1.cpu } == f.cpu)
            // Slices of a chunk are laid end to end from the chunk's start.
            for c in 0..<chunks {
                let mine = f.slices.filter { $0.chunk == Int32(c) }
                for (a, b) in zip(mine, mine.dropFirst()) { #expect(a.start + a.duration == b.start) }
            }
        }
        #expect(world.scheduler.nanoseconds(.pose) == profiler.cpu(.pose))
        profiler.recordDrawCalls(7)
        #expect(profiler.frame()?.drawCalls == 7)
        #expect(profiler.frame(framesAgo: 1)?.drawCalls == -1)
        let summary = profiler.summary()
        #expect(summary.frames == 8)
        #expect(summary.instances == 24)
        #expect(summary.microsecondsPerSkeletonCPU.count == SystemID.count + 1)
        #expect(summary.microsecondsPerSkeletonCPU[SystemID.count] > 0)
        #expect(summary.table.contains("constraints + world"))
    }

    @Test("Split mode: one pass per system, each chunk slice at its own start")
    func splitSlices() throws {
        let world = try Self.world(count: 16, threads: 1, capacity: 4)
        world.scheduler.mode = .split
        world.update(Self.delta)
        let f = try #require(world.scheduler.profiler.frame())
        #expect(f.slices.count == SystemID.count)
        let starts = f.slices.map(\.start)
        #expect(starts == starts.sorted())
        #expect(f.chunks == SystemID.count)
    }

    @Test("CSV: a header and one row per kept frame with every system's times")
    func csv() throws {
        let world = try Self.world(count: 8, threads: 1, capacity: 16)
        for _ in 0..<5 { world.update(Self.delta) }
        let lines = world.scheduler.profiler.csv().split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(header.prefix(4) == ["frame", "start_ms", "wall_ms", "cpu_ms"])
        #expect(header.contains("pose_cpu_us"))
        #expect(header.count == 12 + 2 * SystemID.count)
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",")
            #expect(cells.count == header.count)
            #expect(cells.allSatisfy { Double($0) != nil })
        }
        #expect(lines[5].hasPrefix("4,"))
    }

    @Test("Renderer figures: draw calls, submission and packing CPU time per frame")
    func rendererFigures() throws {
        let world = try Self.world(count: 4, threads: 1, capacity: 8)
        let profiler = world.scheduler.profiler
        for k in 0..<3 {
            world.update(Self.delta)
            profiler.recordRender(
                drawCalls: 2, submitCPU: UInt64(1000 * (k + 1)), packCPU: UInt64(5000 * (k + 1)),
                gpu: UInt64(7000 * (k + 1)))
        }
        world.update(Self.delta)  // a frame the renderer did not report
        let last = try #require(profiler.frame())
        #expect(last.drawCalls == -1 && last.renderSubmitCPU == 0 && last.renderPackCPU == 0)
        let reported = try #require(profiler.frame(framesAgo: 1))
        #expect(reported.drawCalls == 2 && reported.renderSubmitCPU == 3000 && reported.renderPackCPU == 15000)
        #expect(reported.renderGPU == 21000 && last.renderGPU == 0)
        let summary = profiler.summary()
        #expect(summary.drawCalls == 2)
        #expect(summary.renderSubmitCPU.median == 2000 && summary.renderPackCPU.max == 15000)
        #expect(summary.table.contains("render submit (cpu)") && summary.table.contains("render draw (gpu)"))
        #expect(summary.renderGPU.median == 14000)
        let lines = profiler.csv().split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let column = try #require(header.firstIndex(of: "render_submit_cpu_us"))
        #expect(header[column + 1] == "render_pack_cpu_us" && header[column + 2] == "render_gpu_us")
        #expect(lines[3].split(separator: ",")[column] == "3.000")
        #expect(lines[4].split(separator: ",")[column] == "0.000")
    }

    @Test("Chrome trace: valid JSON, a named track per thread, one slice per system per chunk")
    func chromeTrace() throws {
        let world = try Self.world(count: 32, threads: 2, capacity: 16)
        for _ in 0..<6 { world.update(Self.delta) }
        let profiler = world.scheduler.profiler
        let text = profiler.chromeTrace()
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let slices = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "system" }
        let frames = events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == "frame" }
        #expect(frames.count == 6)
        let expected = profiler.recentFrames().reduce(0) { $0 + $1.slices.count }
        #expect(slices.count == expected)
        let tids = Set(slices.compactMap { $0["tid"] as? Int })
        #expect(!tids.isEmpty && !tids.contains(0))
        let named = Set(
            events.filter { $0["name"] as? String == "thread_name" }.compactMap { $0["tid"] as? Int })
        #expect(tids.isSubset(of: named))
        for s in slices {
            #expect(s["ts"] is Double || s["ts"] is Int)
            #expect(s["dur"] is Double || s["dur"] is Int)
            let args = try #require(s["args"] as? [String: Any])
            #expect(args["rows"] is String)
            #expect(args["cpu_us"] != nil)
        }
        let names = Set(slices.compactMap { $0["name"] as? String })
        #expect(names == Set(SystemID.allCases.map(\.name)))
    }

    @Test("Chart: a PNG of frame time by system drawn by our rasterizer")
    func chart() throws {
        let world = try Self.world(count: 16, threads: 1, capacity: 40)
        for _ in 0..<40 { world.update(Self.delta) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bonework-profiler-\(getpid()).png"
        ).path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try world.scheduler.profiler.writeChart(to: file)
        let image = try PNG.read(file: file)
        #expect(image.width == 960 && image.height == 540)
        // The biggest system's colour fills part of the plot; the axis and labels are dark.
        func count(_ c: ChartColor) -> Int {
            var n = 0
            for i in stride(from: 0, to: image.pixels.count, by: 4)
            where image.pixels[i] == c.r && image.pixels[i + 1] == c.g && image.pixels[i + 2] == c.b {
                n += 1
            }
            return n
        }
        let pose = Chart.palette[SystemID.pose.rawValue]
        #expect(count(pose) > 2000)
        #expect(count(.axis) > 500)
        #expect(count(.black) > 100)
    }

    @Test("Chart ticks are round and cover the data")
    func ticks() {
        #expect(Chart.ticks(upTo: 9.3) == [0, 2, 4, 6, 8, 10])
        #expect(Chart.niceStep(0.3) == 0.5)
        #expect(Chart.label(2.5, step: 0.5) == "2.5")
        #expect(Chart.ticks(from: 0, to: 100).first == 0)
        let lines = Chart(
            title: "t", xLabel: "x", yLabel: "y",
            series: [ChartSeries(name: "a", values: [1, 2, 3], color: Chart.palette[0])], style: .lines
        ).render()
        #expect(lines.width == 960)
    }

    @Test("Application systems: charged to the next or the last frame, in summaries and every exporter")
    func applicationSystems() throws {
        let world = try Self.world(count: 8, threads: 1, capacity: 8)
        let profiler = world.scheduler.profiler
        let steering = try profiler.addApplicationSystem("steering")
        let draw = try profiler.addApplicationSystem("draw")
        #expect(try profiler.addApplicationSystem("steering") == steering)
        #expect(profiler.applicationSystemNames == ["steering", "draw"])
        func spin(_ nanoseconds: UInt64) {
            let start = ProfilerClock.wall()
            while ProfilerClock.wall() &- start < nanoseconds {}
        }
        for _ in 0..<3 {
            profiler.measure(steering) { spin(200_000) }
            world.update(Self.delta)
            profiler.measure(draw, in: .lastFrame) { spin(100_000) }
        }
        let frames = profiler.recentFrames()
        #expect(frames.count == 3)
        for f in frames {
            #expect(f.applicationWall.count == 2)
            #expect(f.applicationWall[0] >= 200_000)
            #expect(f.applicationWall[1] >= 100_000)
            #expect(f.applicationCPU[0] > 0)
            #expect(f.totalCPU == f.cpu + f.applicationCPU[0] + f.applicationCPU[1])
        }
        // Work recorded after the last frame waits for the next one; it is not charged twice.
        profiler.measure(steering) { spin(50_000) }
        #expect(profiler.frame()?.applicationWall[0] == frames.last?.applicationWall[0])

        let summary = profiler.summary()
        #expect(summary.applicationNames == ["steering", "draw"])
        #expect(summary.applicationCPU[0].median > 0)
        #expect(summary.table.contains("steering"))
        #expect(summary.totalCPU.median > summary.frameCPU.median)

        let csv = profiler.csv().split(separator: "\n")
        let header = csv[0].split(separator: ",").map(String.init)
        #expect(header.contains("app_steering_cpu_us"))
        #expect(header.contains("app_draw_wall_us"))
        #expect(header.contains("total_cpu_ms"))
        #expect(csv.count == 4)
        let wallColumn = try #require(header.firstIndex(of: "app_steering_wall_us"))
        let firstRow = csv[1].split(separator: ",")
        #expect((Double(firstRow[wallColumn]) ?? 0) >= 200)

        let trace = profiler.chromeTrace()
        let json = try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any]
        let events = try #require(json?["traceEvents"] as? [[String: Any]])
        let application = events.filter { ($0["cat"] as? String) == "application" }
        #expect(application.count == 6)
        #expect(Set(application.compactMap { $0["name"] as? String }) == ["steering", "draw"])

        let chart = profiler.chart()
        #expect(chart.series.map(\.name).prefix(2) == ["steering", "draw"])
        #expect(chart.series.count == 2 + SystemID.count)
    }

    @Test("Application systems beyond the fixed number are refused with a typed error")
    func tooManyApplicationSystems() throws {
        let profiler = FrameProfiler(capacity: 4)
        for k in 0..<FrameProfiler.maxApplicationSystems { _ = try profiler.addApplicationSystem("system \(k)") }
        #expect(throws: WorldError.tooManyApplicationSystems("one more", limit: FrameProfiler.maxApplicationSystems)) {
            try profiler.addApplicationSystem("one more")
        }
        // An existing name is still found.
        #expect(try profiler.addApplicationSystem("system 0").index == 0)
    }
}
