import BoneworkWorld
import Foundation

/// Median, 95th percentile (nearest rank), maximum and mean of a set of values.
public struct ProfileStats: Sendable, Equatable {
    /// The median (the mean of the two middle values for an even count).
    public var median: Double
    /// The 95th percentile, nearest rank.
    public var p95: Double
    /// The largest value.
    public var max: Double
    /// The arithmetic mean.
    public var mean: Double

    /// Statistics already computed.
    public init(median: Double, p95: Double, max: Double, mean: Double) {
        self.median = median
        self.p95 = p95
        self.max = max
        self.mean = mean
    }

    /// The statistics of `values` (all zero for none).
    public init(_ values: [Double]) {
        guard !values.isEmpty else {
            self.init(median: 0, p95: 0, max: 0, mean: 0)
            return
        }
        let v = values.sorted()
        let n = v.count
        let median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2
        let rank = Int((0.95 * Double(n)).rounded(.up)) - 1
        self.init(
            median: median, p95: v[Swift.max(0, Swift.min(n - 1, rank))], max: v[n - 1],
            mean: v.reduce(0, +) / Double(n))
    }

    /// The same statistics with every value multiplied by `factor`.
    public func scaled(_ factor: Double) -> ProfileStats {
        ProfileStats(median: median * factor, p95: p95 * factor, max: max * factor, mean: mean * factor)
    }
}

/// Statistics over the frames a profiler holds. Times are in nanoseconds; per-skeleton figures
/// in microseconds per instance per frame (the frame's system time over its instance count).
public struct ProfileSummary: Sendable {
    /// Frames summarised.
    public var frames: Int
    /// Median instance count.
    public var instances: Int
    /// The most threads a frame used.
    public var threads: Int
    /// Elapsed time of whole frames.
    public var frameWall: ProfileStats
    /// Thread CPU time of whole frames (all threads).
    public var frameCPU: ProfileStats
    /// Per frame, the CPU time of the thread that worked longest: the frame's length if no
    /// thread ever waited for a core (what a parallel frame costs on an idle machine).
    public var busiestThreadCPU: ProfileStats
    /// Per system (`SystemID.rawValue`): elapsed time summed over chunks, per frame.
    public var systemWall: [ProfileStats]
    /// Per system: thread CPU time summed over threads, per frame.
    public var systemCPU: [ProfileStats]
    /// Per system, then the total as the last element: median µs per skeleton per frame.
    public var microsecondsPerSkeletonWall: [Double]
    /// Per system, then the total: median CPU µs per skeleton per frame.
    public var microsecondsPerSkeletonCPU: [Double]
    /// Median draw calls (-1 when no renderer reported any).
    public var drawCalls: Int
    /// The application's systems (`FrameProfiler.addApplicationSystem`), in registration order:
    /// names, CPU time per frame, median µs per skeleton.
    public var applicationNames: [String]
    /// Per application system: CPU nanoseconds per frame.
    public var applicationCPU: [ProfileStats]
    /// Per application system: median CPU µs per skeleton per frame.
    public var applicationMicrosecondsPerSkeleton: [Double]
    /// Thread CPU time of whole frames, the application's systems included.
    public var totalCPU: ProfileStats
    /// The renderer's submission CPU time (GL thread) per frame, over the frames it reported.
    public var renderSubmitCPU: ProfileStats
    /// The renderer's packing CPU time (all threads) per frame, over the frames it reported.
    public var renderPackCPU: ProfileStats
    /// The renderer's GPU time per frame (timer queries), nanoseconds; empty when none was measured.
    public var renderGPU: ProfileStats

    /// Summarises `records` (the application systems named as registered).
    public init(_ records: [FrameRecord], applicationNames: [String] = []) {
        self.applicationNames = applicationNames
        func application(_ r: FrameRecord, _ k: Int) -> Double {
            k < r.applicationCPU.count ? Double(r.applicationCPU[k]) : 0
        }
        applicationCPU = applicationNames.indices.map { k in ProfileStats(records.map { application($0, k) }) }
        applicationMicrosecondsPerSkeleton = applicationNames.indices.map { k in
            ProfileStats(records.map { $0.instances > 0 ? application($0, k) / 1000 / Double($0.instances) : 0 }).median
        }
        totalCPU = ProfileStats(records.map { Double($0.totalCPU) })
        frames = records.count
        let s = SystemID.count
        instances = Int(ProfileStats(records.map { Double($0.instances) }).median)
        threads = records.map(\.threads).max() ?? 0
        frameWall = ProfileStats(records.map { Double($0.wall) })
        frameCPU = ProfileStats(records.map { Double($0.cpu) })
        busiestThreadCPU = ProfileStats(records.map { Double($0.cpuPerThread.map(\.cpu).max() ?? 0) })
        systemWall = (0..<s).map { k in ProfileStats(records.map { Double($0.systemWall[k]) }) }
        systemCPU = (0..<s).map { k in ProfileStats(records.map { Double($0.systemCPU[k]) }) }
        func perSkeleton(_ values: (FrameRecord) -> [UInt64]) -> [Double] {
            var result: [Double] = []
            for k in 0...s {
                let v = records.map { r -> Double in
                    let times = values(r)
                    let ns = k < s ? times[k] : times.reduce(0, &+)
                    return r.instances > 0 ? Double(ns) / 1000 / Double(r.instances) : 0
                }
                result.append(ProfileStats(v).median)
            }
            return result
        }
        microsecondsPerSkeletonWall = perSkeleton(\.systemWall)
        microsecondsPerSkeletonCPU = perSkeleton(\.systemCPU)
        let calls = records.map(\.drawCalls).filter { $0 >= 0 }
        drawCalls = calls.isEmpty ? -1 : Int(ProfileStats(calls.map(Double.init)).median)
        let rendered = records.filter { $0.drawCalls >= 0 }
        renderSubmitCPU = ProfileStats(rendered.map { Double($0.renderSubmitCPU) })
        renderPackCPU = ProfileStats(rendered.map { Double($0.renderPackCPU) })
        renderGPU = ProfileStats(rendered.filter { $0.renderGPU > 0 }.map { Double($0.renderGPU) })
    }

    /// A plain-text table: per system and in total, µs per skeleton (CPU and elapsed) and
    /// milliseconds per frame (median, p95, max).
    public var table: String {
        var lines: [String] = []
        lines.append(
            "\(frames) frames, \(instances) instances, up to \(threads) thread\(threads == 1 ? "" : "s")"
                + (drawCalls >= 0 ? ", \(drawCalls) draw calls" : ""))
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        lines.append(
            pad("system", 22) + pad("µs/skel cpu", 13) + pad("µs/skel wall", 13) + pad("ms median", 11)
                + pad("ms p95", 11) + "ms max")
        for (k, name) in applicationNames.enumerated() {
            let ms = applicationCPU[k].scaled(1e-6)
            lines.append(
                pad(name, 22) + pad(DecimalText.fixed(applicationMicrosecondsPerSkeleton[k], 3), 13)
                    + pad("", 13) + pad(DecimalText.fixed(ms.median, 3), 11) + pad(DecimalText.fixed(ms.p95, 3), 11)
                    + DecimalText.fixed(ms.max, 3))
        }
        for system in SystemID.allCases {
            let k = system.rawValue
            let ms = systemCPU[k].scaled(1e-6)
            lines.append(
                pad(system.name, 22) + pad(DecimalText.fixed(microsecondsPerSkeletonCPU[k], 3), 13)
                    + pad(DecimalText.fixed(microsecondsPerSkeletonWall[k], 3), 13)
                    + pad(DecimalText.fixed(ms.median, 3), 11) + pad(DecimalText.fixed(ms.p95, 3), 11)
                    + DecimalText.fixed(ms.max, 3))
        }
        let total = SystemID.count
        let cpu = frameCPU.scaled(1e-6)
        lines.append(
            pad("total (cpu)", 22) + pad(DecimalText.fixed(microsecondsPerSkeletonCPU[total], 3), 13)
                + pad(DecimalText.fixed(microsecondsPerSkeletonWall[total], 3), 13)
                + pad(DecimalText.fixed(cpu.median, 3), 11) + pad(DecimalText.fixed(cpu.p95, 3), 11)
                + DecimalText.fixed(cpu.max, 3))
        if !applicationNames.isEmpty {
            let all = totalCPU.scaled(1e-6)
            lines.append(
                pad("total with application", 48) + pad(DecimalText.fixed(all.median, 3), 11)
                    + pad(DecimalText.fixed(all.p95, 3), 11) + DecimalText.fixed(all.max, 3))
        }
        if drawCalls >= 0 {
            var rows = [("render submit (cpu)", renderSubmitCPU), ("render pack (cpu)", renderPackCPU)]
            if renderGPU.max > 0 { rows.append(("render draw (gpu)", renderGPU)) }
            for (name, stats) in rows {
                let ms = stats.scaled(1e-6)
                lines.append(
                    pad(name, 48) + pad(DecimalText.fixed(ms.median, 3), 11) + pad(DecimalText.fixed(ms.p95, 3), 11)
                        + DecimalText.fixed(ms.max, 3))
            }
        }
        let wall = frameWall.scaled(1e-6)
        lines.append(
            pad("frame (elapsed)", 48) + pad(DecimalText.fixed(wall.median, 3), 11)
                + pad(DecimalText.fixed(wall.p95, 3), 11) + DecimalText.fixed(wall.max, 3))
        return lines.joined(separator: "\n")
    }
}

extension FrameProfiler {
    /// Statistics over the kept frames.
    public func summary() -> ProfileSummary {
        ProfileSummary(recentFrames(), applicationNames: applicationSystemNames)
    }
}
