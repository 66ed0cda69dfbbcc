import BoneworkImage
import BoneworkWorld

extension FrameProfiler {
    /// Which time a chart shows.
    public enum ChartTime: Sendable {
        /// Thread CPU time, all threads together.
        case cpu
        /// Elapsed time summed over the chunks.
        case wall
    }

    /// Frame time by system over the kept frames: milliseconds per frame (or µs per skeleton)
    /// of each system, as stacked areas (top edge = the frame's total) or lines.
    public func chart(
        time: ChartTime = .cpu, perSkeleton: Bool = false, style: Chart.Style = .stackedAreas, width: Int = 960,
        height: Int = 540, title: String? = nil
    ) -> Chart {
        let records = recentFrames()
        func scaled(_ ns: UInt64, _ r: FrameRecord) -> Double {
            if perSkeleton { return r.instances > 0 ? Double(ns) / 1000 / Double(r.instances) : 0 }
            return Double(ns) / 1e6
        }
        // The application's systems first (they run before the engine's in a frame), then the engine's.
        var series: [ChartSeries] = []
        for (k, name) in applicationSystemNames.enumerated() {
            let values = records.map { r -> Double in
                let times = time == .cpu ? r.applicationCPU : r.applicationWall
                return scaled(k < times.count ? times[k] : 0, r)
            }
            series.append(
                ChartSeries(
                    name: name, values: values,
                    color: Chart.palette[(SystemID.count + k) % Chart.palette.count]))
        }
        for system in SystemID.allCases {
            let values = records.map { r in
                scaled(time == .cpu ? r.systemCPU[system.rawValue] : r.systemWall[system.rawValue], r)
            }
            series.append(
                ChartSeries(
                    name: system.name, values: values, color: Chart.palette[system.rawValue % Chart.palette.count]))
        }
        let clock = time == .cpu ? "thread CPU" : "elapsed"
        let unit = perSkeleton ? "µs per skeleton" : "ms per frame"
        let instances = records.last?.instances ?? 0
        let threads = records.map(\.threads).max() ?? 1
        return Chart(
            title: title
                ?? "Frame time by system (\(instances) instances, \(threads) thread\(threads == 1 ? "" : "s"))",
            xLabel: "frame", yLabel: "\(unit) (\(clock), all threads)", series: series, style: style, width: width,
            height: height, xStart: Double(records.first?.index ?? 0), xStep: 1)
    }

    /// Writes `chart(...)` as a PNG.
    public func writeChart(
        to file: String, time: ChartTime = .cpu, perSkeleton: Bool = false, style: Chart.Style = .stackedAreas
    ) throws {
        try chart(time: time, perSkeleton: perSkeleton, style: style).writePNG(to: file)
    }
}
