import BoneworkFormat

/// System 2: applies every track's animation to the local pose (the reference's
/// AnimationState::apply), raises the animation events and completions, and puts back the setup
/// attachment of slots no track keyed.
///
/// Track 0 at full alpha (and additive tracks) apply with their blend; other tracks apply as the
/// first track of a mix would (setup blend). Mixing between entries, hold modes and the
/// rotation-crossing memory come with the full AnimationState and plug in here.
enum AnimationApplySystem {
    /// Attachment states relative to the instance's unkeyed counter.
    private static let setupState: Int32 = 1
    private static let currentState: Int32 = 2

    static func apply(
        _ cols: BatchColumns, _ rig: RigTables, range: Range<Int>, events: inout EventBuffer, scratch: FiredKeys
    ) {
        let tr = cols.tracks
        for instance in range {
            let ctx = InstanceContext(cols, rig, instance: instance)
            let unkeyed = cols.unkeyedState[instance]
            for track in 0..<cols.trackCount {
                let i = ctx.r.track(track)
                let animation = Int(tr.animation[i])
                if animation < 0 || tr.delay[i] > 0 { continue }
                let blend = track == 0 ? MixBlend.first : (MixBlend(rawValue: tr.mixBlend[i]) ?? .replace)
                var alpha = tr.alpha[i]
                if tr.trackTime[i] >= tr.trackEnd[i] {
                    alpha = 0  // the last apply of an ending entry returns its timelines to setup
                }
                var attachments = alpha >= tr.alphaAttachmentThreshold[i]
                let animationLast = tr.animationLast[i]
                let animationTime = self.animationTime(tr, i)
                var applyTime = animationTime
                let reverse = tr.reverse[i] != 0
                if reverse { applyTime = rig.animDuration[animation] - applyTime }
                var fired: FiredKeys? = reverse ? nil : scratch
                let start = Int(rig.animTimelineStart[animation])
                let end = start &+ Int(rig.animTimelineCount[animation])
                if (track == 0 && alpha == 1) || blend == .add {
                    if track == 0 { attachments = true }
                    for k in start..<end {
                        let t = rig.timelines[k]
                        if t.kind == .attachment {
                            applyAttachment(
                                t, rig, cols, ctx, time: applyTime, blend: blend, attachments: attachments,
                                unkeyed: unkeyed)
                        } else {
                            TimelineApply.apply(
                                t, rig, cols, ctx, lastTime: animationLast, time: applyTime, alpha: alpha, blend: blend,
                                direction: .mixIn, fired: &fired)
                        }
                    }
                } else {
                    for k in start..<end {
                        let t = rig.timelines[k]
                        if t.kind == .attachment {
                            applyAttachment(
                                t, rig, cols, ctx, time: applyTime, blend: blend, attachments: attachments,
                                unkeyed: unkeyed)
                        } else {
                            TimelineApply.apply(
                                t, rig, cols, ctx, lastTime: animationLast, time: applyTime, alpha: alpha,
                                blend: .setup, direction: .mixIn, fired: &fired)
                        }
                    }
                }
                queueEvents(
                    cols, tr, i, instance: instance, track: track, animation: animation, animationTime: animationTime,
                    fired: fired ?? scratch, firedCount: fired?.count ?? 0, events: &events)
                tr.nextAnimationLast[i] = animationTime
                tr.nextTrackLast[i] = tr.trackTime[i]
            }
            // Slots whose attachment no track keyed this apply go back to their setup attachment.
            let setup = unkeyed &+ setupState
            for s in 0..<rig.slotCount {
                let si = ctx.r.slot(s)
                if cols.attachmentState[si] == setup {
                    SetupPose.setAttachment(cols, rig, slotRow: si, TimelineApply.setupAttachment(rig, ctx, s))
                }
            }
            cols.unkeyedState[instance] = unkeyed &+ 2
        }
    }

    /// The animation time of a track: its track time wrapped into [start, end) when looping,
    /// else clamped to the end.
    @inline(__always)
    static func animationTime(_ tr: TrackColumns, _ i: Int) -> Float {
        let start = tr.animationStart[i]
        if tr.loop[i] != 0 {
            let duration = tr.animationEnd[i] - start
            if duration == 0 { return start }
            return tr.trackTime[i].truncatingRemainder(dividingBy: duration) + start
        }
        return min(tr.trackTime[i] + start, tr.animationEnd[i])
    }

    /// The attachment timeline inside an AnimationState: marks the slot as keyed this apply (or
    /// as waiting for its setup attachment when nothing was set).
    @inline(__always)
    private static func applyAttachment(
        _ t: CompiledTimeline, _ rig: RigTables, _ cols: BatchColumns, _ ctx: InstanceContext, time: Float,
        blend: MixBlend, attachments: Bool, unkeyed: Int32
    ) {
        let slot = Int(t.target)
        guard ctx.slotActive(rig, slot) else { return }
        let si = ctx.r.slot(slot)
        let keys = TimelineKeys(t, rig)
        if time < keys.firstTime {
            if blend == .setup || blend == .first {
                SetupPose.setAttachment(cols, rig, slotRow: si, TimelineApply.setupAttachment(rig, ctx, slot))
                if attachments { cols.attachmentState[si] = unkeyed &+ currentState }
            }
        } else {
            SetupPose.setAttachment(
                cols, rig, slotRow: si, TimelineApply.keyedAttachment(t, rig, ctx, keys.search(time)))
            if attachments { cols.attachmentState[si] = unkeyed &+ currentState }
        }
        if cols.attachmentState[si] <= unkeyed { cols.attachmentState[si] = unkeyed &+ setupState }
    }

    /// Raises the fired event keys and a completion, in the reference's order: events before the
    /// loop point, then `complete`, then events after it; keys outside [start, end] are dropped.
    @inline(__always)
    private static func queueEvents(
        _ cols: BatchColumns, _ tr: TrackColumns, _ i: Int, instance: Int, track: Int, animation: Int,
        animationTime: Float, fired: FiredKeys, firedCount: Int, events: inout EventBuffer
    ) {
        let animationStart = tr.animationStart[i]
        let animationEnd = tr.animationEnd[i]
        let duration = animationEnd - animationStart
        let trackLastWrapped = duration != 0 ? tr.trackLast[i].truncatingRemainder(dividingBy: duration) : .nan
        let entity = cols.entity[instance]
        @inline(__always) func raise(_ type: TrackEventType, _ key: Int32) {
            events.append(
                FiredEvent(entity: entity, track: Int32(track), type: type, animation: Int32(animation), key: key))
        }
        var k = 0
        while k < firedCount {
            let time = fired.times[k]
            if time < trackLastWrapped { break }
            if !(time > animationEnd) { raise(.event, fired.keys[k]) }
            k &+= 1
        }
        let complete: Bool
        if tr.loop[i] != 0 {
            if duration == 0 {
                complete = true
            } else {
                let cycles = TimelineApply.clampingToInt32(Double(tr.trackTime[i] / duration))
                complete = cycles > 0 && cycles > TimelineApply.clampingToInt32(Double(tr.trackLast[i] / duration))
            }
        } else {
            complete = animationTime >= animationEnd && tr.animationLast[i] < animationEnd
        }
        if complete { raise(.complete, -1) }
        while k < firedCount {
            if !(fired.times[k] < animationStart) { raise(.event, fired.keys[k]) }
            k &+= 1
        }
    }
}
