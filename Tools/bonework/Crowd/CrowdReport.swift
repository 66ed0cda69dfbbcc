import BoneworkProfiling
import BoneworkWorld
import Foundation

/// The closing table of a crowd run: per system (the crowd's and the engine's), CPU
/// milliseconds per frame (median, p95), µs per skeleton and share of the frame's CPU time.
struct CrowdReport {
    struct Row {
        var name: String
        var cpu: ProfileStats
        var perSkeleton: Double
        var share: Double
    }

    var rows: [Row] = []
    var frameCPU: ProfileStats
    var frameWall: ProfileStats
    var frames: Int
    var instances: Int
    var threads: Int
    /// The renderer's figures over the frames that drew (none: nothing was drawn).
    var drawCalls: ProfileStats? = nil
    var renderPack = ProfileStats([])
    var renderSubmit = ProfileStats([])
    var renderGPU = ProfileStats([])

    /// From the frames the profiler kept: the crowd's systems (application systems) and the engine's.
    init(profiler: FrameProfiler) {
        let recs = profiler.recentFrames()
        let n = recs.count
        frames = n
        instances = Int(ProfileStats(recs.map { Double($0.instances) }).median)
        threads = recs.map(\.threads).max() ?? 1
        var series: [(String, [Double])] = []
        for (k, name) in profiler.applicationSystemNames.enumerated() {
            series.append((name, recs.map { k < $0.applicationCPU.count ? Double($0.applicationCPU[k]) : 0 }))
        }
        for system in SystemID.allCases {
            series.append((system.name, recs.map { Double($0.systemCPU[system.rawValue]) }))
        }
        let totals = recs.map { Double($0.totalCPU) }
        let grand = totals.reduce(0, +)
        for (name, v) in series {
            let perSkeleton = (0..<n).map { f in recs[f].instances > 0 ? v[f] / 1000 / Double(recs[f].instances) : 0 }
            rows.append(
                Row(
                    name: name, cpu: ProfileStats(v).scaled(1e-6), perSkeleton: ProfileStats(perSkeleton).median,
                    share: grand > 0 ? v.reduce(0, +) / grand : 0))
        }
        frameCPU = ProfileStats(totals).scaled(1e-6)
        // Elapsed: the engine's frame plus the crowd's systems, which run on the calling thread.
        frameWall = ProfileStats(recs.map { Double($0.wall &+ $0.applicationWall.reduce(0, &+)) }).scaled(1e-6)
        let perSkel = (0..<n).map { f in recs[f].instances > 0 ? totals[f] / 1000 / Double(recs[f].instances) : 0 }
        rows.append(Row(name: "total", cpu: frameCPU, perSkeleton: ProfileStats(perSkel).median, share: 1))
        let drawn = recs.filter { $0.drawCalls >= 0 }
        if !drawn.isEmpty {
            drawCalls = ProfileStats(drawn.map { Double($0.drawCalls) })
            renderPack = ProfileStats(drawn.map { Double($0.renderPackCPU) }).scaled(1e-6)
            renderSubmit = ProfileStats(drawn.map { Double($0.renderSubmitCPU) }).scaled(1e-6)
            renderGPU = ProfileStats(drawn.filter { $0.renderGPU > 0 }.map { Double($0.renderGPU) }).scaled(1e-6)
        }
    }

    /// The renderer's cost per drawn frame (medians): packing on the workers, submission on the GL
    /// thread, draw calls, and the GPU's time where timer queries measured it. Culling and ordering
    /// are the "cull + order" row of the table.
    var renderLine: String {
        guard let drawCalls else { return "GPU path: nothing drawn" }
        return String(
            format: "GPU path per frame (median): pack %.3f ms (all threads), submit %.3f ms (GL thread), "
                + "%.0f draw call%@, GPU %@", renderPack.median, renderSubmit.median, drawCalls.median,
            drawCalls.median == 1 ? "" : "s",
            renderGPU.max > 0 ? String(format: "%.3f ms (timer query)", renderGPU.median) : "not measured")
    }

    var table: String {
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            if text.count >= width { return text + " " }
            let fill = String(repeating: " ", count: width - text.count)
            return left ? fill + text : text + fill
        }
        var lines: [String] = []
        lines.append(
            "\(frames) frames, \(instances) instances (median), up to \(threads) thread\(threads == 1 ? "" : "s"); CPU time of all threads"
        )
        lines.append(
            pad("system", 22) + pad("ms median", 11, left: true) + pad("ms p95", 11, left: true)
                + pad("µs/skeleton", 13, left: true) + pad("share", 9, left: true))
        for r in rows {
            if r.name == "total" { lines.append(String(repeating: "-", count: 66)) }
            lines.append(
                pad(r.name, 22) + pad(String(format: "%.3f", r.cpu.median), 11, left: true)
                    + pad(String(format: "%.3f", r.cpu.p95), 11, left: true)
                    + pad(String(format: "%.3f", r.perSkeleton), 13, left: true)
                    + pad(String(format: "%.1f%%", r.share * 100), 9, left: true))
        }
        lines.append(
            "frame elapsed: median \(String(format: "%.3f", frameWall.median)) ms, p95 \(String(format: "%.3f", frameWall.p95)) ms"
        )
        return lines.joined(separator: "\n")
    }
}

/// A one-line progress bar on stderr (redrawn in place on a terminal, every 10% otherwise).
struct ProgressBar {
    let total: Int
    let terminal = isatty(2) != 0
    private var lastShown = -1

    init(total: Int) { self.total = max(1, total) }

    mutating func show(_ done: Int, detail: String) {
        let percent = done * 100 / total
        if terminal {
            guard percent != lastShown || done == total else { return }
        } else {
            guard percent / 10 != lastShown / 10 || done == total, percent != lastShown else { return }
        }
        lastShown = percent
        let width = 30
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let line = "[\(bar)] \(done)/\(total) frames  \(detail)"
        FileHandle.standardError.write(Data((terminal ? "\r\(line)\u{1B}[K" : line + "\n").utf8))
        if terminal && done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }

}

extension CrowdReport {
    /// "update rates: ..." for a budgeted crowd: the engine's CPU per frame (its systems and the
    /// budget's choice, not the crowd's own systems) and the characters at each rate, medians
    /// over the kept frames.
    func updateRateLine(_ profiler: FrameProfiler) -> String {
        let recs = profiler.recentFrames()
        let choosing = profiler.applicationSystemNames.firstIndex(of: "update rates")
        let engine = recs.map { r in
            Double(r.cpu + (choosing.map { $0 < r.applicationCPU.count ? r.applicationCPU[$0] : 0 } ?? 0)) / 1e6
        }
        var perRate: [String] = []
        for (k, rate) in UpdateRate.all.enumerated() {
            let counts = (0..<recs.count).compactMap { profiler.updateRateCounts(framesAgo: $0)?[k] }
            perRate.append("\(rate): \(Int(ProfileStats(counts.map(Double.init)).median))")
        }
        let stats = ProfileStats(engine)
        return "update rates: engine CPU per frame (systems + choosing rates) median "
            + String(format: "%.3f ms, p95 %.3f ms", stats.median, stats.p95)
            + "; characters per rate (median): " + perRate.joined(separator: ", ")
    }
}
