import BoneworkFormat
import BoneworkWorld
import Foundation

extension FrameProfiler {
    /// The kept frames as CSV, one row per frame: frame number, start and elapsed milliseconds,
    /// CPU milliseconds (all threads), instances, threads, chunks, draw calls (-1 = none reported),
    /// the renderer's submission and packing CPU microseconds (0 = none reported), then per
    /// system its elapsed and CPU microseconds (`<key>_wall_us`, `<key>_cpu_us`): the engine's
    /// systems, then the application's (`app_<name>_...`, spaces as underscores). `cpu_ms` counts
    /// the engine's systems; `total_cpu_ms` adds the application's.
    public func csv() -> String {
        var header = [
            "frame", "start_ms", "wall_ms", "cpu_ms", "total_cpu_ms", "instances", "threads", "chunks", "draw_calls",
            "render_submit_cpu_us", "render_pack_cpu_us", "render_gpu_us",
        ]
        for system in SystemID.allCases {
            header.append("\(system.key)_wall_us")
            header.append("\(system.key)_cpu_us")
        }
        let application = applicationSystemNames.map { "app_" + $0.replacingOccurrences(of: " ", with: "_") }
        for key in application {
            header.append("\(key)_wall_us")
            header.append("\(key)_cpu_us")
        }
        var lines = [header.joined(separator: ",")]
        for f in recentFrames() {
            var cells = [
                String(f.index), Self.fixed(Double(f.start) / 1e6, 3), Self.fixed(Double(f.wall) / 1e6, 4),
                Self.fixed(Double(f.cpu) / 1e6, 4), Self.fixed(Double(f.totalCPU) / 1e6, 4), String(f.instances),
                String(f.threads), String(f.chunks), String(f.drawCalls),
                Self.fixed(Double(f.renderSubmitCPU) / 1e3, 3),
                Self.fixed(Double(f.renderPackCPU) / 1e3, 3), Self.fixed(Double(f.renderGPU) / 1e3, 3),
            ]
            for k in 0..<SystemID.count {
                cells.append(Self.fixed(Double(f.systemWall[k]) / 1e3, 3))
                cells.append(Self.fixed(Double(f.systemCPU[k]) / 1e3, 3))
            }
            for k in application.indices {
                cells.append(Self.fixed(Double(k < f.applicationWall.count ? f.applicationWall[k] : 0) / 1e3, 3))
                cells.append(Self.fixed(Double(k < f.applicationCPU.count ? f.applicationCPU[k] : 0) / 1e3, 3))
            }
            lines.append(cells.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The kept frames as Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one
    /// track per thread with one slice per system per chunk (arguments: batch, rows, instances,
    /// CPU µs), application systems as slices on the thread that ran them, and a "frames" track
    /// with one slice per frame (instances, threads, CPU ms).
    public func chromeTrace() -> String {
        let records = recentFrames()
        let names = applicationSystemNames
        // Threads numbered in order of first appearance; the frames track is tid 0.
        var tids: [UInt64: Int] = [:]
        var order: [UInt64] = []
        func note(_ thread: UInt64) {
            guard tids[thread] == nil else { return }
            order.append(thread)
            tids[thread] = order.count
        }
        for r in records {
            for (k, thread) in r.applicationThread.enumerated() where r.applicationWall[k] > 0 { note(thread) }
            for s in r.slices { note(s.thread) }
        }
        var events: [String] = []
        events.append(#"{"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"bonework"}}"#)
        events.append(#"{"name":"thread_name","ph":"M","pid":1,"tid":0,"args":{"name":"frames"}}"#)
        events.append(#"{"name":"thread_sort_index","ph":"M","pid":1,"tid":0,"args":{"sort_index":0}}"#)
        for (i, _) in order.enumerated() {
            events.append(
                #"{"name":"thread_name","ph":"M","pid":1,"tid":\#(i + 1),"args":{"name":"thread \#(i + 1)"}}"#)
            events.append(
                #"{"name":"thread_sort_index","ph":"M","pid":1,"tid":\#(i + 1),"args":{"sort_index":\#(i + 1)}}"#)
        }
        for r in records {
            events.append(
                #"{"name":"frame \#(r.index)","cat":"frame","ph":"X","pid":1,"tid":0,"ts":\#(Self.micros(r.start)),"#
                    + #""dur":\#(Self.micros(r.wall)),"args":{"instances":\#(r.instances),"threads":\#(r.threads),"#
                    + #""cpu_ms":\#(Self.fixed(Double(r.cpu) / 1e6, 4))}}"#)
            for k in names.indices where k < r.applicationWall.count && r.applicationWall[k] > 0 {
                events.append(
                    #"{"name":\#(JSONText.quote(names[k])),"cat":"application","ph":"X","pid":1,"#
                        + #""tid":\#(tids[r.applicationThread[k]] ?? 0),"ts":\#(Self.micros(r.applicationStart[k])),"#
                        + #""dur":\#(Self.micros(r.applicationWall[k])),"args":{"frame":\#(r.index),"#
                        + #""cpu_us":\#(Self.fixed(Double(r.applicationCPU[k]) / 1e3, 3))}}"#)
            }
            for s in r.slices {
                let tid = tids[s.thread] ?? 0
                events.append(
                    #"{"name":"\#(s.system.name)","cat":"system","ph":"X","pid":1,"tid":\#(tid),"#
                        + #""ts":\#(Self.micros(s.start)),"dur":\#(Self.micros(s.duration)),"#
                        + #""args":{"frame":\#(r.index),"batch":\#(s.batch),"chunk":\#(s.chunk),"#
                        + #""rows":"\#(s.rowStart)..<\#(s.rowEnd)","instances":\#(s.rowEnd - s.rowStart),"#
                        + #""cpu_us":\#(Self.fixed(Double(s.cpu) / 1e3, 3))}}"#)
            }
        }
        return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
    }

    /// Nanoseconds as microseconds with three decimals (the trace format's unit).
    static func micros(_ ns: UInt64) -> String {
        let thousandths = String(ns % 1000)
        return "\(ns / 1000)." + String(repeating: "0", count: 3 - thousandths.count) + thousandths
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        DecimalText.fixed(value, decimals)
    }
}
