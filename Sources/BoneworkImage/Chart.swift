import Foundation

/// One named series of a chart: a value per sample.
public struct ChartSeries: Sendable, Equatable {
    /// The legend's label.
    public var name: String
    /// One value per sample, in the chart's y unit.
    public var values: [Double]
    /// The series' colour (see `Chart.palette`).
    public var color: ChartColor

    /// A series named `name` with a value per sample.
    public init(name: String, values: [Double], color: ChartColor) {
        self.name = name
        self.values = values
        self.color = color
    }
}

/// A chart of series over samples (e.g. the time each system took per frame), drawn by our own
/// rasterizer into an `Image` and written as PNG: labelled axes with round ticks, a light grid,
/// a legend, and the series as stacked areas or as lines.
public struct Chart: Sendable {
    /// How the series are drawn.
    public enum Style: Sendable {
        /// Each series stacked on the ones before it (the top edge is the total).
        case stackedAreas
        /// Each series on its own.
        case lines
    }

    /// The title above the plot.
    public var title: String
    /// The x axis' label (with its unit).
    public var xLabel: String
    /// The y axis' label (with its unit).
    public var yLabel: String
    /// The series, drawn and listed in the legend in this order.
    public var series: [ChartSeries]
    /// Stacked areas or lines.
    public var style: Style
    /// The image's width in pixels (320 ... `PNG.maximumDimension`).
    public var width: Int
    /// The image's height in pixels (200 ... `PNG.maximumDimension`).
    public var height: Int
    /// The x value of sample 0 and the distance between samples (labels only).
    public var xStart: Double
    /// The x distance between samples.
    public var xStep: Double

    /// A chart of `series`; sizes are clamped to the ranges above.
    public init(
        title: String, xLabel: String, yLabel: String, series: [ChartSeries], style: Style = .stackedAreas,
        width: Int = 960, height: Int = 540, xStart: Double = 0, xStep: Double = 1
    ) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.series = series
        self.style = style
        self.width = max(320, min(PNG.maximumDimension, width))
        self.height = max(200, min(PNG.maximumDimension, height))
        self.xStart = xStart
        self.xStep = xStep
    }

    /// Distinct colours for up to ten series (then repeated).
    public static let palette: [ChartColor] = [
        ChartColor(r: 31, g: 119, b: 180), ChartColor(r: 255, g: 127, b: 14), ChartColor(r: 44, g: 160, b: 44),
        ChartColor(r: 214, g: 39, b: 40), ChartColor(r: 148, g: 103, b: 189), ChartColor(r: 140, g: 86, b: 75),
        ChartColor(r: 227, g: 119, b: 194), ChartColor(r: 127, g: 127, b: 127), ChartColor(r: 188, g: 189, b: 34),
        ChartColor(r: 23, g: 190, b: 207),
    ]

    /// Number of samples (the longest series).
    var sampleCount: Int { series.map(\.values.count).max() ?? 0 }

    /// Renders the chart and writes it as a PNG.
    /// - Throws: `PNGError` when the file cannot be written.
    public func writePNG(to file: String) throws {
        try PNG.write(render(), to: file)
    }

    /// Draws the chart: title, axes with round ticks, grid, legend and the series.
    public func render() -> Image {
        var canvas = ChartCanvas(width: width, height: height, background: .white)
        let samples = sampleCount
        // Per column of the plot: each series' value (mean of the samples the column covers).
        let yMax = max(valueMax(), 1e-12)
        let yTicks = Self.ticks(upTo: yMax)
        let yTop = yTicks.last ?? yMax
        let yLabels = yTicks.map { Self.label($0, step: yTicks.count > 1 ? yTicks[1] - yTicks[0] : $0) }
        let xEnd = xStart + Double(max(0, samples - 1)) * xStep
        let xTicks = Self.ticks(from: xStart, to: max(xEnd, xStart + xStep))
        let xStepLabel = xTicks.count > 1 ? xTicks[1] - xTicks[0] : 1

        let legendWidth = (series.map { ChartFont.width($0.name) }.max() ?? 0) + 34
        let left = 14 + ChartFont.glyphHeight + 8 + (yLabels.map(ChartFont.width).max() ?? 0) + 6
        let right = legendWidth + 16
        let top = 40
        let bottom = 46
        let plotX = left
        let plotY = top
        let plotW = max(10, width - left - right)
        let plotH = max(10, height - top - bottom)

        func yPixel(_ v: Double) -> Double { Double(plotY + plotH) - v / yTop * Double(plotH) }
        func xPixel(_ x: Double) -> Double {
            let span = max(xEnd - xStart, xStep)
            return Double(plotX) + (x - xStart) / span * Double(plotW)
        }

        // Grid and tick labels.
        for (v, text) in zip(yTicks, yLabels) {
            let py = Int(yPixel(v).rounded())
            canvas.fill(x: plotX, y: py, width: plotW, height: 1, .grid)
            canvas.fill(x: plotX - 4, y: py, width: 4, height: 1, .axis)
            canvas.text(text, x: plotX - 7 - ChartFont.width(text), y: py - 3, .axis)
        }
        for v in xTicks {
            let px = Int(xPixel(v).rounded())
            guard px >= plotX, px <= plotX + plotW else { continue }
            canvas.fill(x: px, y: plotY, width: 1, height: plotH, .grid)
            canvas.fill(x: px, y: plotY + plotH, width: 1, height: 4, .axis)
            let text = Self.label(v, step: xStepLabel)
            canvas.text(text, x: px - ChartFont.width(text) / 2, y: plotY + plotH + 7, .axis)
        }

        // Data.
        if samples > 0 {
            let columns = columnValues(columns: plotW)
            switch style {
            case .stackedAreas:
                for c in 0..<plotW {
                    var base = 0.0
                    for (s, item) in series.enumerated() {
                        let v = max(0, columns[s][c])
                        let top = yPixel(base + v)
                        let bottomEdge = yPixel(base)
                        canvas.span(x: plotX + c, top: top, bottom: bottomEdge, item.color)
                        base += v
                    }
                }
            case .lines:
                for (s, item) in series.enumerated() {
                    var previous: (Double, Double)?
                    for c in 0..<plotW {
                        let point = (Double(plotX + c) + 0.5, yPixel(max(0, columns[s][c])))
                        if let p = previous {
                            canvas.line(p.0, p.1, point.0, point.1, width: 1.6, item.color)
                        }
                        previous = point
                    }
                }
            }
        }

        // Axes, title, labels, legend.
        canvas.fill(x: plotX, y: plotY + plotH, width: plotW + 1, height: 1, .axis)
        canvas.fill(x: plotX, y: plotY, width: 1, height: plotH + 1, .axis)
        canvas.text(title, x: max(4, (width - ChartFont.width(title) * 2) / 2), y: 10, scale: 2, .black)
        canvas.text(xLabel, x: plotX + (plotW - ChartFont.width(xLabel)) / 2, y: height - 16, .black)
        canvas.verticalText(yLabel, x: 10, y: plotY + (plotH + ChartFont.width(yLabel)) / 2, .black)
        let legendX = plotX + plotW + 16
        var legendY = plotY + 4
        let ordered = style == .stackedAreas ? Array(series.enumerated().reversed()) : Array(series.enumerated())
        for (_, item) in ordered {
            canvas.fill(x: legendX, y: legendY, width: 14, height: 9, item.color)
            canvas.text(item.name, x: legendX + 20, y: legendY + 1, .black)
            legendY += 16
        }
        return canvas.image
    }

    /// The largest value drawn: the largest stacked total, or the largest single value.
    func valueMax() -> Double {
        let n = sampleCount
        var best = 0.0
        if style == .stackedAreas {
            for i in 0..<n {
                var total = 0.0
                for s in series where i < s.values.count && s.values[i].isFinite { total += max(0, s.values[i]) }
                best = max(best, total)
            }
        } else {
            for s in series {
                for v in s.values where v.isFinite { best = max(best, v) }
            }
        }
        return best
    }

    /// Per series, one value per plot column: the mean of the samples the column covers, or a
    /// linear interpolation when there are fewer samples than columns.
    func columnValues(columns: Int) -> [[Double]] {
        let n = sampleCount
        return series.map { s in
            func value(_ i: Int) -> Double {
                i < s.values.count && s.values[i].isFinite ? s.values[i] : 0
            }
            var out = [Double](repeating: 0, count: columns)
            for c in 0..<columns {
                if n >= columns {
                    let lo = c * n / columns
                    let hi = max(lo + 1, (c + 1) * n / columns)
                    var sum = 0.0
                    for i in lo..<hi { sum += value(i) }
                    out[c] = sum / Double(hi - lo)
                } else if n == 1 {
                    out[c] = value(0)
                } else {
                    let position = Double(c) / Double(max(1, columns - 1)) * Double(n - 1)
                    let i = min(n - 2, Int(position))
                    let f = position - Double(i)
                    out[c] = value(i) * (1 - f) + value(i + 1) * f
                }
            }
            return out
        }
    }

    /// Round tick values 0, step, 2 step ... covering `maximum` (step 1, 2 or 5 times a power of 10).
    static func ticks(upTo maximum: Double) -> [Double] {
        let step = niceStep(maximum / 5)
        var values: [Double] = []
        var v = 0.0
        while values.count < 50 {
            values.append(v)
            if v >= maximum * (1 - 1e-9) { break }
            v += step
        }
        return values
    }

    /// Round tick values inside [from, to].
    static func ticks(from: Double, to: Double) -> [Double] {
        let step = niceStep((to - from) / 8)
        var v = (from / step).rounded(.up) * step
        var values: [Double] = []
        while v <= to + step * 1e-9 && values.count < 50 {
            values.append(v)
            v += step
        }
        return values
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let f = raw / power
        let m: Double = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10
        return m * power
    }

    /// A tick label with as many decimals as the step needs.
    static func label(_ value: Double, step: Double) -> String {
        guard step > 0, step.isFinite else { return String(format: "%g", value) }
        let decimals = max(0, min(6, Int((-log10(step)).rounded(.up))))
        return String(format: "%.\(decimals)f", value)
    }
}
