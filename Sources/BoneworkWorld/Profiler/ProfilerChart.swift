import BoneworkImage

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
        let series = SystemID.allCases.map { system -> ChartSeries in
            let values = records.map { r -> Double in
                let ns = Double(time == .cpu ? r.systemCPU[system.rawValue] : r.systemWall[system.rawValue])
                if perSkeleton { return r.instances > 0 ? ns / 1000 / Double(r.instances) : 0 }
                return ns / 1e6
            }
            return ChartSeries(
                name: system.name, values: values, color: Chart.palette[system.rawValue % Chart.palette.count])
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
