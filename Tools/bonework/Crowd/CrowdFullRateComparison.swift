import BoneworkWorld

/// `crowd --budget-ms B --compare-full-rate`: the same crowd (same seed, kinds and options) run
/// at full rate beside the budgeted one, frame by frame, to measure what update rates cost in
/// accuracy: the bone world positions of the characters drawn from their history that frame,
/// against the full-rate run's, as a fraction of the skeleton's height (`SkeletonData.height`),
/// and whether both runs fired the same events and made the same trigger changes. Characters
/// outside the view that held their last computed pose (`--lod-offscreen hold`) are not drawn:
/// their error is reported apart (`held`).
struct CrowdFullRateComparison {
    /// Errors as fractions of the height in bins of `binWidth`, the last one open.
    struct ErrorHistogram {
        static let binWidth = 0.0005
        static let bins = 400
        var counts = [Int](repeating: 0, count: bins + 1)
        var samples = 0
        var largest = 0.0

        mutating func add(_ error: Double) {
            counts[error.isFinite ? min(Self.bins, Int(error / Self.binWidth)) : Self.bins] += 1
            samples += 1
            largest = max(largest, error.isFinite ? error : .infinity)
        }

        /// The error below which a fraction `p` of the samples lie (upper edge of its bin; the
        /// largest for the open bin).
        func percentile(_ p: Double) -> Double {
            guard samples > 0 else { return 0 }
            let wanted = Int((p * Double(samples)).rounded(.up))
            var seen = 0
            for (k, n) in counts.enumerated() {
                seen += n
                if seen >= wanted { return k == Self.bins ? largest : Double(k + 1) * Self.binWidth }
            }
            return largest
        }
    }

    /// Bone errors of the characters drawn from history, in all and per update rate
    /// (`UpdateRate.all` order) the character had that frame.
    var drawn = ErrorHistogram()
    var byRate = [ErrorHistogram](repeating: ErrorHistogram(), count: UpdateRate.all.count)
    /// Character-frames drawn from history that were compared.
    var slowedFrames = 0
    /// The same for the characters not drawn that held their last computed pose.
    var held = ErrorHistogram()
    var heldFrames = 0
    /// Frames whose events or trigger changes differed, and the first such frame.
    var eventMismatches = 0
    var firstMismatch: Int?
    var events = 0
    /// Frames before comparing (the budget settles, phases spread).
    let warmup: Int

    init(warmup: Int) { self.warmup = warmup }

    /// Compares frame `frame` of `slowed` (update rates) with `full` (every frame).
    mutating func compare(frame: Int, slowed: CrowdSimulation, full: CrowdSimulation) {
        var same = slowed.triggers.changesLastFrame == full.triggers.changesLastFrame
        let lhs = slowed.world.batches
        let rhs = full.world.batches
        if lhs.count != rhs.count { same = false }
        for (a, b) in zip(lhs, rhs) {
            let ea = a.firedEvents
            let eb = b.firedEvents
            events += ea.count
            if ea.count != eb.count || !zip(ea, eb).allSatisfy({ $0 == $1 }) { same = false }
        }
        if !same {
            eventMismatches += 1
            if firstMismatch == nil { firstMismatch = frame }
        }
        guard frame >= warmup else { return }
        for (a, b) in zip(lhs, rhs) where a.count == b.count {
            let height = Double(max(1, a.data.height))
            let va = a.poseViews()
            let vb = b.poseViews()
            let shifts = a.updateRateColumns()?.shift
            for row in 0..<a.count {
                let fromHistory = a.drewFromHistory(row: row)
                guard fromHistory || a.heldLastPose(row: row), a.entity(atRow: row) == b.entity(atRow: row) else {
                    continue
                }
                let rate = min(UpdateRate.all.count - 1, Int(shifts?[row] ?? 0))
                if fromHistory { slowedFrames += 1 } else { heldFrames += 1 }
                let pa = va[row]
                let pb = vb[row]
                for k in 0..<pa.boneCount where pb.isBoneActive(k) {
                    let ta = pa.boneTransform(k)
                    let tb = pb.boneTransform(k)
                    let dx = Double(ta.worldX - tb.worldX)
                    let dy = Double(ta.worldY - tb.worldY)
                    let error = (dx * dx + dy * dy).squareRoot() / height
                    if fromHistory {
                        drawn.add(error)
                        byRate[rate].add(error)
                    } else {
                        held.add(error)
                    }
                }
            }
        }
    }

    var perRate: String {
        var parts: [String] = []
        for (rate, errors) in zip(UpdateRate.all, byRate) where errors.samples > 0 {
            let median = errors.percentile(0.5)
            let p95 = errors.percentile(0.95)
            parts.append(String(format: "%@ %.2f%% / %.2f%%", rate.description, median * 100, p95 * 100))
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    var report: String {
        func percent(_ v: Double) -> String { String(format: "%.2f%%", v * 100) }
        let matching =
            eventMismatches == 0
            ? "events and trigger changes identical on every frame (\(events) events)"
            : "events or trigger changes differ on \(eventMismatches) frames (first: frame \(firstMismatch ?? -1))"
        return """
            full-rate comparison: \(slowedFrames) character-frames drawn from history after frame \(warmup), \
            \(drawn.samples) bone positions; error as a share of the skeleton's height: median \
            \(percent(drawn.percentile(0.5))), p95 \(percent(drawn.percentile(0.95))), \
            p99 \(percent(drawn.percentile(0.99))), max \(percent(drawn.largest)); \(matching)
            by rate (median / p95; bins of 0.05 %, errors past 20 % counted as the largest): \(perRate)
            not drawn (outside the view, holding their last computed pose): \(heldFrames) character-frames, \
            \(held.samples) bone positions; error median \(percent(held.percentile(0.5))), \
            p95 \(percent(held.percentile(0.95))), max \(percent(held.largest))
            """
    }
}
