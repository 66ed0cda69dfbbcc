import BoneworkFormat

/// Slot attachment states relative to a row's `unkeyed` base (see `StateKernel.apply`).
enum AttachmentState {
    /// An attachment timeline touched the slot without choosing its attachment: the setup
    /// attachment is restored after the apply.
    static let setup: Int32 = 1
    /// An attachment timeline chose the slot's attachment in this apply.
    static let current: Int32 = 2
}

extension StateKernel {
    /// Poses one row from its tracks: entries mixing out first, then each current entry, with
    /// the reference's rules for alpha, hold, attachments, draw order and rotation memory.
    /// Queues user events and completions to `ws.events`. Returns whether any track applied.
    @discardableResult
    func apply(row: Int, _ cols: ApplyColumns, _ ws: StateWorkspace) -> Bool {
        applyRow(row, cols, ws, groupedApplied: false, trackZeroTime: 0)
    }

    /// `apply(row:)` for each row of `rows`, with the same results, in runs of up to
    /// `StateWorkspace.runCapacity` rows: first the bone and constraint timelines of every row
    /// whose track 0 plays plainly, timeline by timeline over the rows that share its animation
    /// (`applyGroupedTimelines`), then each row's remaining work, the per-row body inlined in one
    /// loop.
    ///
    /// `due` (nil: every row) marks, per row from `rows.lowerBound`, the rows whose pose is
    /// computed this frame (`UpdateRates`): the others only fire their events and keep the
    /// state's bookkeeping (`applyEventsOnly`), so that events, completions and the mixes'
    /// ends are those of a full-rate run while their local pose keeps its last computed values.
    ///
    /// A row whose apply ends a mix, or an entry, is posed this frame whatever its mark (and
    /// marked for the pose system): those applies put the bones only the entry mixing out keyed
    /// back to the setup pose, which no later apply does.
    ///
    /// `rest` (a frame where rows may rest, with `due`): the rows resting this frame are
    /// skipped, and every other row slower than every frame gets its budget for the next
    /// (`RestColumns`).
    func apply(
        rows: Range<Int>, _ cols: ApplyColumns, _ ws: StateWorkspace, due: UnsafeMutablePointer<UInt8>? = nil,
        rest: RestColumns? = nil
    ) {
        if let due {
            if let rest {
                for row in rows where due[row &- rows.lowerBound] == 0 && rest.skipped[row] == 0 && endsSomething(row) {
                    due[row &- rows.lowerBound] = 1
                }
            } else {
                for row in rows where due[row &- rows.lowerBound] == 0 && endsSomething(row) {
                    due[row &- rows.lowerBound] = 1
                }
            }
        }
        var start = rows.lowerBound
        while start < rows.upperBound {
            let end = min(rows.upperBound, start &+ StateWorkspace.runCapacity)
            let runDue = due.map { UnsafePointer($0 + (start &- rows.lowerBound)) }
            if groupsTimelines {
                applyGroupedTimelines(start..<end, cols, ws, due: runDue)
            } else {
                ws.groupedApplied.update(repeating: 0, count: end &- start)
            }
            if let runDue, let rest {
                for row in start..<end {
                    let k = row &- start
                    if runDue[k] == 0 {
                        // Resting this frame: nothing to do (the state update skipped it too).
                        if rest.skipped[row] != 0 { continue }
                        applyEventsOnly(row, ws)
                        rest.budget[row] = restBudget(row: row)
                    } else {
                        applyRow(
                            row, cols, ws, groupedApplied: ws.groupedApplied[k] != 0,
                            trackZeroTime: ws.trackZeroTimes[k])
                        if rest.rates[row] != 0 { rest.budget[row] = restBudget(row: row) }
                    }
                }
            } else if let runDue {
                for row in start..<end {
                    let k = row &- start
                    if runDue[k] == 0 {
                        applyEventsOnly(row, ws)
                    } else {
                        applyRow(
                            row, cols, ws, groupedApplied: ws.groupedApplied[k] != 0,
                            trackZeroTime: ws.trackZeroTimes[k])
                    }
                }
            } else {
                // Apart from the loop above: with the call to `applyEventsOnly` in the same loop,
                // the compiler copied the rig tables for every row (callgrind: +105 instructions
                // per spineboy-frame at full rate).
                for row in start..<end {
                    let k = row &- start
                    applyRow(
                        row, cols, ws, groupedApplied: ws.groupedApplied[k] != 0, trackZeroTime: ws.trackZeroTimes[k])
                }
            }
            start = end
        }
    }

    /// `groupedApplied`: track 0's grouped timelines were applied already
    /// (`applyGroupedTimelines`); only its other timelines are left, and its animation time is
    /// `trackZeroTime`.
    @inline(__always)
    @discardableResult
    private func applyRow(
        _ row: Int, _ cols: ApplyColumns, _ ws: StateWorkspace, groupedApplied: Bool, trackZeroTime: Float
    ) -> Bool {
        if changed[row] != 0 { animationsChanged(row: row, ws) }
        let ctx = InstanceContext(cols, rig, instance: row)
        var fired = FiredKeys(keys: ws.firedKeys, times: ws.firedTimes, capacity: ws.firedCapacity)
        let unkeyedBase = unkeyed[row]
        var applied = false
        // Whether some attachment timeline may have left a slot in the `setup` state (the
        // restore pass below finds nothing otherwise).
        var restore = false
        let base = row &* trackWidth
        for t in 0..<Int(trackCount[row]) {
            let c = Int(tracks[base &+ t])
            if c < 0 || e.times[c].delay > 0 { continue }
            applied = true
            let blend: MixBlend = t == 0 ? .first : (MixBlend(rawValue: Int32(e.state[c].mixBlend)) ?? .replace)

            // Entries mixing out first.
            var alpha = e.times[c].alpha
            if e.state[c].mixingFrom >= 0 {
                restore = true
                alpha *= applyMixingFrom(c, blend, cols, ctx, unkeyedBase, &fired, ws)
            } else if e.times[c].trackTime >= e.times[c].trackEnd && e.state[c].next < 0 {
                alpha = 0  // The last apply of an ending entry restores the setup pose.
            }
            var attachments = alpha >= e.state[c].alphaAttachmentThreshold

            // Then the current entry.
            let animationLast = e.times[c].animationLast
            let animationTime = t == 0 && groupedApplied ? trackZeroTime : e.animationTime(c)
            var applyTime = animationTime
            var fireEvents = true
            let animation = Int(e.state[c].animation)
            if e.state[c].reverse != 0 {
                applyTime = duration(animation) - applyTime
                fireEvents = false
            }
            fired.count = 0
            if animation >= 0 {
                let first = Int(rig.animTimelineStart[animation])
                let count = Int(rig.animTimelineCount[animation])
                if (t == 0 && alpha == 1) || blend == .add {
                    if t == 0 { attachments = true }
                    // All the timelines, or those left besides the grouped ones.
                    let othersOnly = t == 0 && groupedApplied
                    let others = rig.otherTimelines(animation)
                    for k in 0..<(othersOnly ? others.count : count) {
                        let tl = othersOnly ? Int(others.list[k]) : first &+ k
                        // The kind decides the role here (attachment and event timelines have
                        // their own); rotate and translate, most of the timelines, are applied
                        // inline, read in place from the compiled table.
                        let timeline = rig.timelines + tl
                        switch timeline.pointee.kind {
                        case .rotate:
                            TimelineApply.rotate(timeline, rig, cols, ctx, time: applyTime, alpha: alpha, blend: blend)
                        case .translate:
                            TimelineApply.translate(
                                timeline, rig, cols, ctx, time: applyTime, alpha: alpha, blend: blend)
                        case .attachment:
                            if applyAttachment(tl, cols, ctx, applyTime, blend, attachments, unkeyedBase) {
                                restore = true
                            }
                        case .event:
                            if fireEvents {
                                TimelineApply.applyEvents(
                                    timeline.pointee, rig, lastTime: animationLast, time: applyTime, into: &fired)
                            }
                        default:
                            var none: FiredKeys? = nil
                            TimelineApply.apply(
                                rig.timelines + tl, rig, cols, ctx, lastTime: animationLast, time: applyTime,
                                alpha: alpha, blend: blend, direction: .mixIn, fired: &none)
                        }
                    }
                } else {
                    let modes = e.timelineMode + c &* e.timelineStride
                    let shortest = e.state[c].shortestRotation != 0
                    let firstFrame = !shortest && e.state[c].rotationsReady == 0
                    let rotations = e.timelinesRotation + c &* e.timelineStride &* 2
                    if firstFrame {
                        e.state[c].rotationsReady = 1
                        rotations.update(repeating: 0, count: count &* 2)
                    }
                    for k in 0..<count {
                        let tl = first &+ k
                        let timelineBlend: MixBlend = modes[k] == TimelineMixMode.subsequent ? blend : .setup
                        switch tables.roles[tl] {
                        case .rotate where !shortest:
                            applyRotate(
                                tl, cols, ctx, applyTime, alpha, timelineBlend, rotations + k &* 2, firstFrame)
                        case .attachment:
                            if applyAttachment(tl, cols, ctx, applyTime, blend, attachments, unkeyedBase) {
                                restore = true
                            }
                        case .event:
                            if fireEvents {
                                TimelineApply.applyEvents(
                                    rig.timelines[tl], rig, lastTime: animationLast, time: applyTime, into: &fired)
                            }
                        default:
                            var none: FiredKeys? = nil
                            TimelineApply.apply(
                                rig.timelines + tl, rig, cols, ctx, lastTime: animationLast, time: applyTime,
                                alpha: alpha, blend: timelineBlend, direction: .mixIn, fired: &none)
                        }
                    }
                }
            }
            queueEvents(c, animationTime, fired, &ws.events)
            fired.count = 0
            e.times[c].nextAnimationLast = animationTime
            e.times[c].nextTrackLast = e.times[c].trackTime
        }

        // Slots an attachment timeline touched without setting get their setup attachment back.
        let setupState = unkeyedBase &+ AttachmentState.setup
        let r = ctx.r
        for k in 0..<(restore ? tables.attachmentSlotCount : 0) {
            let s = Int(tables.attachmentSlots[k])
            let i = r.slot(s)
            if cols.attachmentState[i] == setupState {
                SetupPose.setAttachment(cols, rig, r, slot: s, TimelineApply.setupAttachment(rig, ctx, s))
            }
        }
        unkeyed[row] = unkeyedBase &+ 2
        return applied
    }

    @inline(__always)
    func duration(_ animation: Int) -> Float { animation >= 0 ? rig.animDuration[animation] : 0 }

    /// Applies the entries mixing out below `top` (deepest first, without using stack per
    /// entry) and returns `top`'s mix percentage (0 to 1).
    func applyMixingFrom(
        _ top: Int, _ blendIn: MixBlend, _ cols: ApplyColumns, _ ctx: InstanceContext, _ unkeyedBase: Int32,
        _ fired: inout FiredKeys, _ ws: StateWorkspace
    ) -> Float {
        // `mixingTo` links back up the chain (kept in step with `mixingFrom`). Written out rather
        // than shared with `applyEventsOnly` through a closure: the closure's capture of `self`
        // (the kernel and its rig tables) was a 1 KB copy per call.
        var from = deepestMixingFrom(top)
        var mix: Float = 1
        while true {
            let to = Int(e.state[from].mixingTo)
            if to < 0 { break }
            mix = applyMix(to: to, from: from, blendIn, cols, ctx, unkeyedBase, &fired, ws)
            if to == top { break }
            from = to
        }
        return mix
    }

    /// One step of `applyMixingFrom`: applies `from`, mixing out below `to`, and returns `to`'s
    /// mix percentage.
    private func applyMix(
        to: Int, from: Int, _ blendIn: MixBlend, _ cols: ApplyColumns, _ ctx: InstanceContext, _ unkeyedBase: Int32,
        _ fired: inout FiredKeys, _ ws: StateWorkspace
    ) -> Float {
        let step = mixStep(to: to, from: from, blendIn)
        let blend = step.blend
        let attachments = step.attachments
        let drawOrder = step.drawOrder
        let alphaHold = step.alphaHold
        let alphaMix = step.alphaMix
        let animationLast = step.animationLast
        let applyTime = step.applyTime
        let fireEvents = step.fireEvents
        let animation = step.animation

        fired.count = 0
        if animation >= 0 {
            let first = Int(rig.animTimelineStart[animation])
            let count = Int(rig.animTimelineCount[animation])
            if blend == .add {
                for k in 0..<count {
                    let tl = first &+ k
                    if tables.roles[tl] == .event {
                        if fireEvents {
                            TimelineApply.applyEvents(
                                rig.timelines[tl], rig, lastTime: animationLast, time: applyTime, into: &fired)
                        }
                        continue
                    }
                    var none: FiredKeys? = nil
                    TimelineApply.apply(
                        rig.timelines + tl, rig, cols, ctx, lastTime: animationLast, time: applyTime, alpha: alphaMix,
                        blend: blend, direction: .mixOut, fired: &none)
                }
            } else {
                let modes = e.timelineMode + from &* e.timelineStride
                let holdMix = e.timelineHoldMix + from &* e.timelineStride
                let shortest = e.state[from].shortestRotation != 0
                let firstFrame = !shortest && e.state[from].rotationsReady == 0
                let rotations = e.timelinesRotation + from &* e.timelineStride &* 2
                if firstFrame {
                    e.state[from].rotationsReady = 1
                    rotations.update(repeating: 0, count: count &* 2)
                }
                var totalAlpha: Float = 0
                for k in 0..<count {
                    let tl = first &+ k
                    let role = tables.roles[tl]
                    var direction = MixDirection.mixOut
                    let timelineBlend: MixBlend
                    let alpha: Float
                    switch modes[k] {
                    case TimelineMixMode.subsequent:
                        if !drawOrder && role == .drawOrder { continue }
                        timelineBlend = blend
                        alpha = alphaMix
                    case TimelineMixMode.first:
                        timelineBlend = .setup
                        alpha = alphaMix
                    case TimelineMixMode.holdSubsequent:
                        timelineBlend = blend
                        alpha = alphaHold
                    case TimelineMixMode.holdFirst:
                        timelineBlend = .setup
                        alpha = alphaHold
                    default:
                        timelineBlend = .setup
                        let hold = Int(holdMix[k])
                        alpha =
                            hold >= 0
                            ? alphaHold * max(0, 1 - e.times[hold].mixTime / e.times[hold].mixDuration) : alphaHold
                    }
                    totalAlpha += alpha
                    switch role {
                    case .rotate where !shortest:
                        applyRotate(tl, cols, ctx, applyTime, alpha, timelineBlend, rotations + k &* 2, firstFrame)
                    case .attachment:
                        applyAttachment(
                            tl, cols, ctx, applyTime, timelineBlend,
                            attachments && alpha >= e.state[from].alphaAttachmentThreshold, unkeyedBase)
                    case .event:
                        if fireEvents {
                            TimelineApply.applyEvents(
                                rig.timelines[tl], rig, lastTime: animationLast, time: applyTime, into: &fired)
                        }
                    default:
                        if drawOrder && role == .drawOrder && timelineBlend == .setup { direction = .mixIn }
                        var none: FiredKeys? = nil
                        TimelineApply.apply(
                            rig.timelines + tl, rig, cols, ctx, lastTime: animationLast, time: applyTime, alpha: alpha,
                            blend: timelineBlend, direction: direction, fired: &none)
                    }
                }
                e.times[from].totalAlpha = totalAlpha
            }
        } else if blend != .add {
            e.times[from].totalAlpha = 0
        }
        finishMixStep(to: to, from: from, step.animationTime, &fired, ws)
        return step.mix
    }

    /// The attachment timeline as the state applies it: `attachments` false still shows the
    /// keyed attachment for this apply but lets the setup attachment come back afterwards.
    /// Returns whether it left the slot in the `setup` state.
    @inline(__always) @discardableResult
    func applyAttachment(
        _ tl: Int, _ cols: ApplyColumns, _ ctx: InstanceContext, _ time: Float, _ blend: MixBlend,
        _ attachments: Bool, _ unkeyedBase: Int32
    ) -> Bool {
        let timeline = rig.timelines[tl]
        let slot = Int(timeline.target)
        guard ctx.slotActive(rig, slot) else { return false }
        let i = ctx.r.slot(slot)
        let keys = TimelineKeys(timeline, rig)
        if time < keys.firstTime {
            if blend == .setup || blend == .first {
                SetupPose.setAttachment(cols, rig, ctx.r, slot: slot, TimelineApply.setupAttachment(rig, ctx, slot))
                if attachments { cols.attachmentState[i] = unkeyedBase &+ AttachmentState.current }
            }
        } else {
            SetupPose.setAttachment(
                cols, rig, ctx.r, slot: slot, TimelineApply.keyedAttachment(timeline, rig, ctx, keys.search(time)))
            if attachments { cols.attachmentState[i] = unkeyedBase &+ AttachmentState.current }
        }
        // Not chosen in this apply: the setup attachment is restored after it.
        guard cols.attachmentState[i] <= unkeyedBase else { return false }
        cols.attachmentState[i] = unkeyedBase &+ AttachmentState.setup
        return true
    }

    /// A rotate timeline applied by the state outside the plain path: with alpha 1 as in the
    /// plain path, else with the rotation memory (see `mixRotation`).
    @inline(__always)
    func applyRotate(
        _ tl: Int, _ cols: ApplyColumns, _ ctx: InstanceContext, _ time: Float, _ alpha: Float, _ blend: MixBlend,
        _ memory: UnsafeMutablePointer<Float>, _ firstFrame: Bool
    ) {
        if firstFrame { memory[0] = 0 }
        if alpha == 1 {
            // Inlined: a call taking the rig tables made the compiler copy them (912 bytes) on
            // every call of this function (callgrind, a full-rate crowd: 6 % of the engine's
            // instructions, two calls per character-frame).
            TimelineApply.rotate(rig.timelines + tl, rig, cols, ctx, time: time, alpha: 1, blend: blend)
            return
        }
        let timeline = rig.timelines[tl]
        let bone = Int(timeline.target)
        guard ctx.boneActive[bone] != 0 else { return }
        Self.mixRotation(
            TimelineKeys(timeline, rig), cols.rotation + ctx.r.bone(bone), setup: rig.boneSetup[bone &* 7 &+ 2],
            time, alpha, blend, memory, firstFrame)
    }

    /// Mixes a bone's rotation towards a rotate timeline's value with alpha < 1: along the
    /// shortest way on the first frame, then keeps turning the same way (the memory holds the
    /// total turned and the last difference), so that a mix never flips direction when the
    /// difference crosses 180 degrees.
    static func mixRotation(
        _ keys: TimelineKeys, _ rotation: UnsafeMutablePointer<Float>, setup: Float, _ time: Float, _ alpha: Float,
        _ blend: MixBlend, _ memory: UnsafeMutablePointer<Float>, _ firstFrame: Bool
    ) {
        let r1: Float
        let r2: Float
        if time < keys.firstTime {
            switch blend {
            case .setup:
                rotation.pointee = setup
                return
            case .first:
                r1 = rotation.pointee
                r2 = setup
            default:
                return
            }
        } else {
            r1 = blend == .setup ? setup : rotation.pointee
            r2 = setup + keys.curveValue(time)
        }
        var total: Float
        var diff = r2 - r1
        diff -= (diff / 360 - 0.5).rounded(.up) * 360
        if diff == 0 {
            total = memory[0]
        } else {
            let lastTotal: Float
            let lastDiff: Float
            if firstFrame {
                lastTotal = 0
                lastDiff = diff
            } else {
                lastTotal = memory[0]
                lastDiff = memory[1]
            }
            // Whole turns in lastTotal (the remainder is lastTotal itself below one turn).
            let loops = abs(lastTotal) < 360 ? 0 : lastTotal - lastTotal.truncatingRemainder(dividingBy: 360)
            total = diff + loops
            let current = diff >= 0
            var dir = lastTotal >= 0
            if abs(lastDiff) <= 90 && StateMath.sign(lastDiff) != StateMath.sign(diff) {
                if abs(lastTotal - loops) > 180 {
                    total += 360 * StateMath.sign(lastTotal)
                    dir = current
                } else if loops != 0 {
                    total -= 360 * StateMath.sign(lastTotal)
                } else {
                    dir = current
                }
            }
            if dir != current { total += 360 * StateMath.sign(lastTotal) }
            memory[0] = total
        }
        memory[1] = diff
        rotation.pointee = r1 + total * alpha
    }
}
