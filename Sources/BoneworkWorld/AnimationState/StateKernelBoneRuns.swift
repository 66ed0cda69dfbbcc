import BoneworkFormat

extension StateKernel {
    /// Applies track 0's bone timelines for the rows of `rows` whose track 0 plays plainly (its
    /// entry applies at full alpha, mixing from nothing: every timeline with blend `first`),
    /// and marks those rows in `ws.bonesApplied`; `applyRow` then applies their other
    /// timelines.
    ///
    /// The rows are grouped by (animation, plan), and each bone timeline of the animation is
    /// applied over the group's rows in turn: its kind, keys, bone and setup value are read
    /// once for the group instead of once per row. Rows are separate instances and bone
    /// timelines commute with the other kinds (`TimelineKind.writesBoneOnly`), so each row ends
    /// with the values the reference's order gives.
    func applyBoneTimelines(_ rows: Range<Int>, _ cols: BatchColumns, _ ws: StateWorkspace) {
        var n = 0
        for row in rows {
            // Mix modes first, as `applyRow` does (they do not change what is plain).
            if changed[row] != 0 { animationsChanged(row: row, ws) }
            ws.bonesApplied[row &- rows.lowerBound] = 0
            guard trackCount[row] > 0 else { continue }
            let c = Int(tracks[row &* trackWidth])
            guard c >= 0, !(e.times[c].delay > 0), e.state[c].mixingFrom < 0, e.times[c].alpha == 1 else { continue }
            // The last apply of an ending entry mixes to the setup pose (alpha 0 in `applyRow`).
            guard !(e.times[c].trackTime >= e.times[c].trackEnd && e.state[c].next < 0) else { continue }
            let animation = Int(e.state[c].animation)
            guard animation >= 0 else { continue }
            let animationTime = e.animationTime(c)
            ws.trackZeroTimes[row &- rows.lowerBound] = animationTime
            let time = e.state[c].reverse != 0 ? duration(animation) - animationTime : animationTime
            ws.runRows[n] = row
            ws.runBones[n] = cols.rows(row).bone
            ws.runTimes[n] = time
            ws.runKeys[n] = animation << 32 | Int(cols.plan[row])
            ws.bonesApplied[row &- rows.lowerBound] = 1
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
                swap(&ws.runTimes[j], &ws.runTimes[end])
                swap(&ws.runKeys[j], &ws.runKeys[end])
                end &+= 1
            }
            applyGroup(animation: key >> 32, plan: key & 0xffff_ffff, start..<end, cols, ws)
            start = end
        }
    }

    /// One animation's bone timelines over run rows `group` (one plan).
    private func applyGroup(animation: Int, plan: Int, _ group: Range<Int>, _ cols: BatchColumns, _ ws: StateWorkspace)
    {
        let list = rig.animTimelineLists + Int(rig.animBoneStart[animation])
        let active = rig.planBoneActive + plan &* rig.boneCount
        let stride = cols.layout.stride
        for k in 0..<Int(rig.animBoneCount[animation]) {
            let timeline = rig.timelines + Int(list[k])
            let bone = Int(timeline.pointee.target)
            guard active[bone] != 0 else { continue }
            let offset = bone &* stride
            let setup = rig.boneSetup + bone &* 7
            let keys = TimelineKeys(timeline.pointee, rig)
            let firstTime = keys.firstTime
            switch timeline.pointee.kind {
            case .rotate:
                let setupRotation = setup[2]
                for j in group {
                    let time = ws.runTimes[j]
                    let p = cols.rotation + (ws.runBones[j] &+ offset)
                    let current = p.pointee
                    if time < firstTime {
                        p.pointee = TimelineKeys.beforeFirst(1, .first, current: current, setup: setupRotation)
                    } else {
                        // Rotate keys are 2 floats (time, angle).
                        p.pointee = TimelineKeys.relative(
                            keys.curveValue2(time), 1, .first, current: current, setup: setupRotation)
                    }
                }
            case .translate:
                let setupX = setup[0]
                let setupY = setup[1]
                for j in group {
                    let i = ws.runBones[j] &+ offset
                    TimelineApply.applyPair(
                        keys, ws.runTimes[j], 1, .first, x: cols.x + i, y: cols.y + i, setupX: setupX, setupY: setupY)
                }
            default:
                for j in group {
                    TimelineApply.applyBone(
                        timeline.pointee, rig, cols, InstanceContext(cols, rig, instance: ws.runRows[j]),
                        time: ws.runTimes[j], alpha: 1, blend: .first, direction: .mixIn)
                }
            }
        }
    }
}
