import BoneworkFormat
import Foundation

/// Median load time of every example skeleton (.skel and .json), atlas parsed once beforehand.
/// `swift run -c release BoneworkBenchmarks load [EXAMPLES_DIR] [--repeats N]`
enum LoadBenchmark {
    static func run(_ args: [String]) throws {
        var examples = "../shared/spine-examples"
        var repeats = 30
        var i = 0
        while i < args.count {
            if args[i] == "--repeats", i + 1 < args.count {
                repeats = Int(args[i + 1]) ?? repeats
                i += 1
            } else {
                examples = args[i]
            }
            i += 1
        }
        let fm = FileManager.default
        print("| file | bytes | median load (ms) | min (ms) |")
        print("|---|---:|---:|---:|")
        for folder in try fm.contentsOfDirectory(atPath: examples).sorted() {
            let dir = "\(examples)/\(folder)"
            let names = (try? fm.contentsOfDirectory(atPath: dir)) ?? []
            let atlasName =
                names.contains("\(folder).atlas") ? "\(folder).atlas" : names.first(where: { $0.hasSuffix(".atlas") })
            let atlas = try atlasName.map { try AtlasReader.read(file: "\(dir)/\($0)") }
            for name in names.sorted() where name.hasSuffix(".skel") || name.hasSuffix(".json") {
                let path = "\(dir)/\(name)"
                let bytes = try SkeletonLoader.readFile(path)
                var times: [Double] = []
                for _ in 0..<repeats {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try SkeletonLoader.load(bytes: bytes, file: path, atlas: atlas)
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                times.sort()
                let median = times[times.count / 2]
                print(
                    "| \(folder)/\(name) | \(bytes.count) | \(String(format: "%.3f", median)) | \(String(format: "%.3f", times[0])) |"
                )
            }
        }
    }
}
