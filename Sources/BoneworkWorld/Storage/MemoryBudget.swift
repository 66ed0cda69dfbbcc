import Foundation

/// The memory a `World` may hold in instance storage, and what the machine has.
///
/// Instance storage (every batch's column tables and animation-state rows) is the part of a
/// world that grows with the instance count; everything else (compiled skeletons, per-worker
/// scratch) is fixed. A world checks its limit before any growth of that storage, so that a
/// spawn loop or `World.reserve(_:of:)` asking for more than the machine can hold is refused
/// with `WorldError.memoryLimit` at once instead of running the machine out of memory.
public enum MemoryBudget {
    /// The default limit of a new world: three quarters of the memory available when it is
    /// made (the rest is left to the application, its GPU driver and the system), or 1 GiB when
    /// the machine does not say.
    public static var defaultLimit: Int {
        guard let available = availableBytes() else { return 1 << 30 }
        return available / 4 * 3
    }

    /// The memory the system can give without swapping (`MemAvailable` of `/proc/meminfo`),
    /// else the physical memory; nil when neither can be read.
    public static func availableBytes() -> Int? {
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
                let fields = line.split(separator: " ")
                if fields.count >= 2, let kib = Int(fields[1]) {
                    return kib.multipliedReportingOverflow(by: 1024).partialValue
                }
            }
        }
        let physical = ProcessInfo.processInfo.physicalMemory
        return physical > 0 && physical < UInt64(Int.max) ? Int(physical) : nil
    }

    /// `count` × `each`, or nil when the product overflows.
    static func bytes(_ count: Int, each: Int) -> Int? {
        let (product, overflow) = count.multipliedReportingOverflow(by: each)
        return overflow || product < 0 ? nil : product
    }

    /// A byte count for messages: MiB or GiB with one decimal.
    static func describe(_ bytes: Int) -> String {
        let mib = Double(bytes) / 1_048_576
        if mib >= 1024 { return String(format: "%.1f GiB", mib / 1024) }
        return String(format: "%.1f MiB", mib)
    }
}
