import BoneworkFormat

extension StateKernel {
    /// Applies track 0's bone and constraint timelines (`TimelineKind.appliesInGroups`) for the
    /// rows of `rows` whose track 0 plays plainly (its entry applies at full alpha, mixing from
    /// nothing: every timeline with blend `first`), and marks those rows in
    /// `ws.groupedApplied`; `applyRow` then applies their other timelines.
    ///
    /// The rows are grouped by (animation, plan), and each grouped timeline of the animation is
    /// applied over the group's rows in turn: its kind, keys, target and setup values are read
    /// once for the group instead of once per row. Rows are separate instances and these
    /// timelines commute with the other kinds, so each row ends with the values the
    /// reference's order gives.
    func applyGroupedTimelines(
        _ rows: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace, due: UnsafePointer<UInt8>? = nil
    ) {
        var n = 0
        for row in rows {
            // Mix modes first, as `applyRow` does (they do not change what is plain).
            if changed[row] != 0 { animationsChanged(row: row, ws) }
            ws.groupedApplied[row &- rows.lowerBound] = 0
            guard trackCount[row] > 0 else { continue }
            // A row whose pose is not computed this frame applies no pose timelines.
            if let due, due[row &- rows.lowerBound] == 0 { continue }
            let c = Int(tracks[row &* trackWidth])
            guard c >= 0, !(e.times[c].delay > 0), e.state[c].mixingFrom < 0, e.times[c].alpha == 1 else { continue }
            // The last apply of an ending entry mixes to the setup pose (alpha 0 in `applyRow`).
            guard !(e.times[c].trackTime >= e.times[c].trackEnd && e.state[c].next < 0) else { continue }
            let animation = Int(e.state[c].animation)
            guard animation >= 0 else { continue }
            let animationTime = e.animationTime(c)
            ws.trackZeroTimes[row &- rows.lowerBound] = animationTime
            let time = e.state[c].reverse != 0 ? duration(animation) - animationTime : animationTime
            let r = cols.rows(row)
            ws.runRows[n] = row
            ws.runBones[n] = r.bone
            ws.runIK[n] = r.ik
            ws.runTransforms[n] = r.transform
            ws.runTimes[n] = time
            ws.runKeys[n] = animation << 32 | Int(cols.plan[row])
            ws.groupedApplied[row &- rows.lowerBound] = 1
            n &+= 1
        }
        // Groups: the rows sharing the first ungrouped row's key are moved up behind it.
        var start = 0
        while start < n {
            let key = ws.runKeys[start]
            var end = start &+ 1
            for j in end..<n where ws.runKeys[j] == key {
                swap(&ws.runRows[j], &ws.runRows[end])
                swap(&ws.runBones[j], &ws.runBones[end])
                swap(&ws.runIK[j], &ws.runIK[end])
                swap(&ws.runTransforms[j], &ws.runTransforms[end])
                swap(&ws.runTimes[j], &ws.runTimes[end])
                swap(&ws.runKeys[j], &ws.runKeys[end])
                end &+= 1
            }
            applyGroup(animation: key >> 32, plan: key & 0xffff_ffff, start..<end, cols, ws)
            start = end
        }
    }

    /// One animation's grouped timelines over run rows `group` (one plan). Each kind's loop is
    /// a function of its own, so that each is compiled with the registers to itself (a single
    /// function with every loop kept the translate evaluation out of line).
    private func applyGroup(animation: Int, plan: Int, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace)
    {
        let list = rig.animTimelineLists + Int(rig.animGroupedStart[animation])
        let boneActive = rig.planBoneActive + plan &* rig.boneCount
        for k in 0..<Int(rig.animGroupedCount[animation]) {
            let timeline = rig.timelines + Int(list[k])
            let target = Int(timeline.pointee.target)
            switch timeline.pointee.kind {
            case .rotate:
                if boneActive[target] != 0 { rotate(timeline, group, cols, ws) }
            case .translate:
                if boneActive[target] != 0 { translate(timeline, group, cols, ws) }
            case .scale:
                if boneActive[target] != 0 { scale(timeline, group, cols, ws) }
            case .ik:
                if rig.planIKActive[plan &* rig.ikCount &+ target] != 0 { ik(timeline, group, cols, ws) }
            case .transform:
                if rig.planTransformActive[plan &* rig.transformCount &+ target] != 0 {
                    transform(timeline, group, cols, ws)
                }
            case .pathPosition, .pathSpacing, .pathMix:
                if rig.planPathActive[plan &* rig.pathCount &+ target] != 0 { rowByRow(timeline, group, cols, ws) }
            default:
                if boneActive[target] != 0 { rowByRow(timeline, group, cols, ws) }
            }
        }
    }

    @inline(never)
    private func rotate(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        let bone = Int(timeline.pointee.target)
        let offset = bone &* cols.layout.stride
        let keys = TimelineKeys(timeline.pointee, rig)
        let setup = rig.boneSetup[bone &* 7 &+ 2]
        let firstTime = keys.firstTime
        for j in group {
            let time = ws.runTimes[j]
            let p = cols.rotation + (ws.runBones[j] &+ offset)
            let current = p.pointee
            if time < firstTime {
                p.pointee = TimelineKeys.beforeFirst(1, .first, current: current, setup: setup)
            } else {
                // Rotate keys are 2 floats (time, angle).
                p.pointee = TimelineKeys.relative(keys.curveValue2(time), 1, .first, current: current, setup: setup)
            }
        }
    }

    @inline(never)
    private func translate(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        let bone = Int(timeline.pointee.target)
        let offset = bone &* cols.layout.stride
        let keys = TimelineKeys(timeline.pointee, rig)
        let setupX = rig.boneSetup[bone &* 7]
        let setupY = rig.boneSetup[bone &* 7 &+ 1]
        for j in group {
            let i = ws.runBones[j] &+ offset
            TimelineApply.applyPair(
                keys, ws.runTimes[j], 1, .first, x: cols.x + i, y: cols.y + i, setupX: setupX, setupY: setupY)
        }
    }

    @inline(never)
    private func scale(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        let bone = Int(timeline.pointee.target)
        let offset = bone &* cols.layout.stride
        let keys = TimelineKeys(timeline.pointee, rig)
        let setupX = rig.boneSetup[bone &* 7 &+ 3]
        let setupY = rig.boneSetup[bone &* 7 &+ 4]
        for j in group {
            TimelineApply.applyScale(
                keys, ws.runTimes[j], 1, .first, .mixIn, cols: cols, i: ws.runBones[j] &+ offset, setupX: setupX,
                setupY: setupY)
        }
    }

    @inline(never)
    private func ik(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        let constraint = Int(timeline.pointee.target)
        let offset = constraint &* cols.layout.stride
        let keys = TimelineKeys(timeline.pointee, rig)
        for j in group {
            TimelineApply.applyIK(
                keys, rig, cols, row: ws.runIK[j] &+ offset, constraint: constraint, ws.runTimes[j], 1, .first, .mixIn)
        }
    }

    @inline(never)
    private func transform(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        let constraint = Int(timeline.pointee.target)
        let offset = constraint &* cols.layout.stride
        let keys = TimelineKeys(timeline.pointee, rig)
        let setup = rig.transformMix + constraint &* 6
        for j in group {
            TimelineApply.applyMixes(
                keys, ws.runTimes[j], 1, .first, first: cols.transformMixRotate,
                fieldStride: cols.transformMixX - cols.transformMixRotate,
                count: 6, row: ws.runTransforms[j] &+ offset, setup: setup)
        }
    }

    /// The less common kinds (shear, one-axis, inherit, path), row by row through the general
    /// functions.
    @inline(never)
    private func rowByRow(
        _ timeline: UnsafePointer<CompiledTimeline>, _ group: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace
    ) {
        var none: FiredKeys? = nil
        for j in group {
            TimelineApply.apply(
                timeline, rig, cols, InstanceContext(cols, rig, instance: ws.runRows[j]), lastTime: 0,
                time: ws.runTimes[j], alpha: 1, blend: .first, direction: .mixIn, fired: &none)
        }
    }
}
