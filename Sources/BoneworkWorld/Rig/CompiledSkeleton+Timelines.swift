import BoneworkFormat

/// Every animation's timelines rebased onto skeleton-wide pools (all animations' frames, curves,
/// ints and attachment keys concatenated, `CompiledSkeleton.compileAnimations`), and what the
/// timelines change.
struct CompiledAnimations {
    var timelines: [CompiledTimeline]
    var framePool: [Float]
    var curvePool: [Float]
    var markerPool: [Int32]
    var intPool: [Int32]
    var keyPool: [Int32]
    var eventKeys: [(animation: Int32, key: Int32)]
    var animDuration: [Float]
    var animTimelineStart: [Int32]
    var animTimelineCount: [Int32]
    var animTimelineLists: [Int32]
    var animGroupedStart: [Int32]
    var animGroupedCount: [Int32]
    var maxEventKeys: Int
    /// Per slot: the most deform floats a deform timeline keys for it.
    var deformNeed: [Int]
    /// Per slot, which fields timelines change: 1 colour, 2 dark colour, 4 sequence, 8 deform.
    var slotFieldUse: [UInt8]
    /// Per bone: whether an inherit timeline keys it.
    var inheritUse: [Bool]
}

extension CompiledSkeleton {
    /// Concatenates the animations' pools, rebases every timeline onto them, splits each
    /// animation's timelines into those applied in groups and the others, and records which slot
    /// fields, inherit modes and deform buffers timelines need.
    static func compileAnimations(_ data: SkeletonData, keys: inout AttachmentKeys) -> CompiledAnimations {
        let boneCount = data.bones.count
        let slotCount = data.slots.count
        // Animations: concatenate the pools and rebase every timeline onto them.
        var timelines: [CompiledTimeline] = []
        var framePool: [Float] = []
        var curvePool: [Float] = []
        var markerPool: [Int32] = []
        var intPool: [Int32] = []
        var keyPool: [Int32] = []
        var eventKeys: [(animation: Int32, key: Int32)] = []
        var animDuration: [Float] = []
        var animTimelineStart: [Int32] = []
        var animTimelineCount: [Int32] = []
        var animTimelineLists: [Int32] = []
        var animGroupedStart: [Int32] = []
        var animGroupedCount: [Int32] = []
        var maxEventKeys = 0
        var deformNeed = [Int](repeating: 0, count: slotCount)
        var slotFieldUse = [UInt8](repeating: 0, count: slotCount)
        var inheritUse = [Bool](repeating: false, count: boneCount)
        for (a, animation) in data.animations.enumerated() {
            let frameBase = Int32(framePool.count)
            let curveBase = Int32(curvePool.count)
            let intBase = Int32(intPool.count)
            let eventBase = Int32(eventKeys.count)
            framePool.append(contentsOf: animation.frames)
            curvePool.append(contentsOf: animation.curves)
            intPool.append(contentsOf: animation.ints)
            keyPool.append(contentsOf: repeatElement(-1, count: animation.ints.count))
            for k in animation.events.indices { eventKeys.append((Int32(a), Int32(k))) }
            maxEventKeys = max(maxEventKeys, animation.events.count)
            animDuration.append(animation.duration)
            animTimelineStart.append(Int32(timelines.count))
            for t in animation.timelines where t.frameCount > 0 {
                var c = CompiledTimeline(
                    kindRaw: t.kind.rawValue, stride: Int32(t.kind.frameStride), target: t.target,
                    attachment: t.attachment, frameCount: t.frameCount,
                    frames: frameBase + t.framesStart, curves: curveBase + max(0, t.curvesStart),
                    curvesCount: t.curvesCount, values: 0, valueStride: t.valueStride,
                    markers: Int32(markerPool.count))
                CurveMarkers.append(t, animation.curves, to: &markerPool)
                let slotTarget = t.target >= 0 && Int(t.target) < slotCount ? Int(t.target) : -1
                switch t.kind {
                case .inherit:
                    if t.target >= 0 && Int(t.target) < boneCount { inheritUse[Int(t.target)] = true }
                case .rgba, .rgb, .alpha:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 1 }
                case .rgba2, .rgb2:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 3 }
                case .sequence:
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 4 }
                case .deform:
                    c.values = frameBase + t.valuesStart
                    deformNeed[Int(t.target)] = max(deformNeed[Int(t.target)], Int(t.valueStride))
                    if slotTarget >= 0 { slotFieldUse[slotTarget] |= 8 }
                case .attachment:
                    c.values = intBase + t.valuesStart
                    for f in 0..<Int(t.frameCount) {
                        let i = Int(c.values) + f
                        keyPool[i] = keys.key(t.target, intPool[i])
                    }
                case .drawOrder:
                    c.values = intBase + t.valuesStart
                case .event:
                    c.values = eventBase + t.valuesStart
                default:
                    break
                }
                timelines.append(c)
            }
            animTimelineCount.append(Int32(timelines.count) - animTimelineStart[a])
            let own = Int(animTimelineStart[a])..<timelines.count
            func isGrouped(_ t: Int) -> Bool {
                let kind = timelines[t].kind
                let targets: Int
                switch kind {
                case .ik: targets = data.ikConstraints.count
                case .transform: targets = data.transformConstraints.count
                case .pathPosition, .pathSpacing, .pathMix: targets = data.pathConstraints.count
                default: targets = boneCount
                }
                return kind.appliesInGroups && timelines[t].target >= 0 && Int(timelines[t].target) < targets
            }
            let groupedTimelines = own.filter(isGrouped)
            let otherTimelines = own.filter { !isGrouped($0) }
            animGroupedStart.append(Int32(animTimelineLists.count))
            animGroupedCount.append(Int32(groupedTimelines.count))
            animTimelineLists.append(contentsOf: groupedTimelines.map { Int32($0) })
            animTimelineLists.append(contentsOf: otherTimelines.map { Int32($0) })
        }
        return CompiledAnimations(
            timelines: timelines, framePool: framePool, curvePool: curvePool, markerPool: markerPool, intPool: intPool,
            keyPool: keyPool, eventKeys: eventKeys, animDuration: animDuration, animTimelineStart: animTimelineStart,
            animTimelineCount: animTimelineCount, animTimelineLists: animTimelineLists,
            animGroupedStart: animGroupedStart, animGroupedCount: animGroupedCount, maxEventKeys: maxEventKeys,
            deformNeed: deformNeed, slotFieldUse: slotFieldUse, inheritUse: inheritUse)
    }
}
