import BoneworkFormat

/// The steps of a mix chain that the posed apply (`applyMix`) and the apply of rows not posed
/// (`mixOutEventsOnly`) share: where the chain starts, what a step decides before any timeline is
/// applied, and how it ends.
extension StateKernel {
    /// The deepest entry of the chain mixing out below `top` (which has one).
    @inline(__always)
    func deepestMixingFrom(_ top: Int) -> Int {
        var from = Int(e.state[top].mixingFrom)
        while e.state[from].mixingFrom >= 0 { from = Int(e.state[from].mixingFrom) }
        return from
    }

    /// What a step of a mix chain decides before applying any timeline of `from`, the entry
    /// mixing out below `to` (`applyMix`, `mixOutEventsOnly`).
    struct MixStep {
        /// How `from`'s timelines blend.
        var blend: MixBlend
        /// `to`'s mix percentage, 0 to 1.
        var mix: Float
        /// Below the entry's thresholds: attachment and draw order timelines still apply.
        var attachments: Bool
        var drawOrder: Bool
        /// Alphas of held and of mixed timelines.
        var alphaHold: Float
        var alphaMix: Float
        var animationLast: Float
        var animationTime: Float
        /// The time timelines are applied at (reversed entries count from the end).
        var applyTime: Float
        var fireEvents: Bool
        var animation: Int
    }

    @inline(__always)
    func mixStep(to: Int, from: Int, _ blendIn: MixBlend) -> MixStep {
        var blend = blendIn
        var mix: Float
        if e.times[to].mixDuration == 0 {
            // A single-frame mix that undoes what the entry mixing out changed.
            mix = 1
            if blend == .first { blend = .setup }
        } else {
            mix = e.times[to].mixTime / e.times[to].mixDuration
            if mix > 1 { mix = 1 }
            if blend != .first { blend = MixBlend(rawValue: Int32(e.state[from].mixBlend)) ?? .replace }
        }
        let alphaHold = e.times[from].alpha * e.times[to].interruptAlpha
        let animationTime = e.animationTime(from)
        var applyTime = animationTime
        var fireEvents = false
        let animation = Int(e.state[from].animation)
        if e.state[from].reverse != 0 {
            applyTime = duration(animation) - applyTime
        } else if mix < e.times[from].eventThreshold {
            fireEvents = true
        }
        return MixStep(
            blend: blend, mix: mix, attachments: mix < e.state[from].mixAttachmentThreshold,
            drawOrder: mix < e.state[from].mixDrawOrderThreshold, alphaHold: alphaHold, alphaMix: alphaHold * (1 - mix),
            animationLast: e.times[from].animationLast, animationTime: animationTime, applyTime: applyTime,
            fireEvents: fireEvents, animation: animation)
    }

    /// The end of a step of a mix chain: `from`'s events and completion are queued (not for a
    /// single-frame mix) and its last times advance.
    @inline(__always)
    func finishMixStep(to: Int, from: Int, _ animationTime: Float, _ fired: inout FiredKeys, _ ws: StateWorkspace) {
        if e.times[to].mixDuration > 0 { queueEvents(from, animationTime, fired, &ws.events) }
        fired.count = 0
        e.times[from].nextAnimationLast = animationTime
        e.times[from].nextTrackLast = e.times[from].trackTime
    }
}
