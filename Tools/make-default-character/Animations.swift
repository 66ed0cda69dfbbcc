/// How a key moves on to the next one.
enum Segment {
    /// A bezier whose handles follow the neighbouring keys (smooth through every key).
    case smooth
    case linear
    case stepped
}

/// One key. `phase` is a fraction of the animation's duration; `values` are the timeline's values
/// (one for rotate, x and y for translate), relative to the setup pose.
struct Key {
    var phase: Double
    var values: [Double]
    var next: Segment

    init(_ phase: Double, _ values: Double..., next: Segment = .smooth) {
        self.phase = phase
        self.values = values
        self.next = next
    }
}

/// Collects the timelines of one animation and writes them in the skeleton JSON layout.
struct AnimationBuilder {
    let name: String
    let duration: Double
    /// Looping animations end where they start; their curves wrap around the loop seam.
    let loops: Bool
    private var boneTimelines: [String: [(String, JSONValue)]] = [:]
    private var slotTimelines: [String: [(String, JSONValue)]] = [:]
    private var eventKeys: [(Double, JSONValue)] = []

    init(name: String, duration: Double, loops: Bool) {
        self.name = name
        self.duration = duration
        self.loops = loops
    }

    mutating func rotate(_ bone: String, _ keys: [Key]) {
        boneTimelines[bone, default: []].append(("rotate", curveKeys(["value"], keys)))
    }

    mutating func translate(_ bone: String, _ keys: [Key]) {
        boneTimelines[bone, default: []].append(("translate", curveKeys(["x", "y"], keys)))
    }

    /// Attachment keys: (phase, attachment name or nil for none).
    mutating func attachment(_ slot: String, _ keys: [(Double, String?)]) {
        let items = keys.map { phase, name -> JSONValue in
            var key = JSONObject()
            key.set("time", phase * duration, decimals: 4, omitting: 0)
            if let name { key.set("name", name) }
            return key.value
        }
        slotTimelines[slot, default: []].append(("attachment", .array(items)))
    }

    /// Colour keys that hold each colour until the next key.
    mutating func steppedColor(_ slot: String, _ keys: [(Double, String)]) {
        let items = keys.enumerated().map { i, key -> JSONValue in
            var object = JSONObject()
            object.set("time", key.0 * duration, decimals: 4, omitting: 0)
            object.set("color", key.1)
            if i + 1 < keys.count { object.set("curve", "stepped") }
            return object.value
        }
        slotTimelines[slot, default: []].append(("rgba", .array(items)))
    }

    /// An event key; values left nil keep the event's defaults.
    mutating func event(_ phase: Double, _ name: String, int: Int? = nil, float: Double? = nil, string: String? = nil) {
        var key = JSONObject()
        key.set("time", phase * duration, decimals: 4, omitting: 0)
        key.set("name", name)
        if let int { key.set("int", Num.json(int)) }
        if let float { key.set("float", float) }
        if let string { key.set("string", string) }
        eventKeys.append((phase, key.value))
    }

    /// The animation object, timelines ordered by slot and bone index.
    func json(slotOrder: [String], boneOrder: [String]) -> JSONValue {
        var object = JSONObject()
        let slots = slotOrder.compactMap { name in slotTimelines[name].map { (name, JSONValue.object($0)) } }
        if !slots.isEmpty { object.set("slots", .object(slots)) }
        let bones = boneOrder.compactMap { name in boneTimelines[name].map { (name, JSONValue.object($0)) } }
        if !bones.isEmpty { object.set("bones", .object(bones)) }
        if !eventKeys.isEmpty { object.set("events", .array(eventKeys.sorted { $0.0 < $1.0 }.map(\.1))) }
        return object.value
    }

    /// Curve-timeline keys. Smooth segments get bezier handles a third of the way along, with
    /// slopes taken from the neighbouring keys (wrapping around the loop seam for looping
    /// animations, flat at the ends otherwise); a slope next to a linear segment matches it.
    private func curveKeys(_ fields: [String], _ keys: [Key]) -> JSONValue {
        let count = keys.count
        let times = keys.map { $0.phase * duration }
        let seamless = loops && count > 2
        func neighbour(_ i: Int, _ step: Int) -> (time: Double, values: [Double], segment: Segment)? {
            let j = i + step
            if j >= 0 && j < count {
                let segment = step < 0 ? keys[j].next : keys[i].next
                return (times[j], keys[j].values, segment)
            }
            guard seamless else { return nil }
            // The last key repeats the first; step over it to the key beyond the seam.
            if j < 0 { return (times[count - 2] - duration, keys[count - 2].values, keys[count - 2].next) }
            return (times[1] + duration, keys[1].values, keys[0].next)
        }
        func slope(_ i: Int, _ v: Int) -> Double {
            let previous = neighbour(i, -1)
            let following = neighbour(i, 1)
            let value = keys[i].values[v]
            if let previous, previous.segment == .linear {
                return (value - previous.values[v]) / (times[i] - previous.time)
            }
            if let following, following.segment == .linear {
                return (following.values[v] - value) / (following.time - times[i])
            }
            guard let previous, let following else { return 0 }
            if previous.segment == .stepped || following.segment == .stepped { return 0 }
            return (following.values[v] - previous.values[v]) / (following.time - previous.time)
        }

        var items: [JSONValue] = []
        for (i, key) in keys.enumerated() {
            var object = JSONObject()
            object.set("time", times[i], decimals: 4, omitting: 0)
            let defaultValue = 0.0
            for (v, field) in fields.enumerated() {
                object.set(field, key.values[v], omitting: defaultValue)
            }
            if i + 1 < count {
                switch key.next {
                case .linear:
                    break
                case .stepped:
                    object.set("curve", "stepped")
                case .smooth:
                    let t1 = times[i]
                    let t2 = times[i + 1]
                    let third = (t2 - t1) / 3
                    var curve: [JSONValue] = []
                    for v in 0..<fields.count {
                        let v1 = key.values[v]
                        let v2 = keys[i + 1].values[v]
                        curve.append(Num.json(t1 + third, decimals: 4))
                        curve.append(Num.json(v1 + slope(i, v) * third))
                        curve.append(Num.json(t2 - third, decimals: 4))
                        curve.append(Num.json(v2 - slope(i + 1, v) * third))
                    }
                    object.set("curve", .array(curve))
                }
            }
            items.append(object.value)
        }
        return .array(items)
    }
}

/// Moves a looping key cycle later by `shift` (a fraction of the cycle). The key landing on the
/// loop seam must exist (`1 - shift` must be one of the phases) so nothing needs interpolating.
func shifted(_ keys: [Key], by shift: Double) -> [Key] {
    var moved: [Key] = keys.dropLast().map { key in
        var copy = key
        copy.phase = (key.phase + shift).truncatingRemainder(dividingBy: 1)
        if abs(copy.phase - 1) < 1e-9 || abs(copy.phase) < 1e-9 { copy.phase = 0 }
        return copy
    }
    moved.sort { $0.phase < $1.phase }
    precondition(moved.first?.phase == 0, "the shifted cycle needs a key on the seam")
    var last = moved[0]
    last.phase = 1
    moved.append(last)
    return moved
}

/// The character's animations.
enum Choreography {
    static let footstep = "footstep"
    /// The footstep event's own values: which foot (1 front, 2 back), how loud, and its name.
    static let footstepDefaults = (int: 1, float: 0.5, string: "front")

    static func all() -> [AnimationBuilder] { [flinch(), idle(), run(), walk()] }

    /// Standing still: breathing bob, a blink, the antenna swaying and its lamp blinking.
    static func idle() -> AnimationBuilder {
        var a = AnimationBuilder(name: "idle", duration: 2, loops: true)
        a.translate("hip", [Key(0, 0, 0), Key(0.5, 0, -4), Key(1, 0, 0)])
        a.rotate("torso", [Key(0, 0), Key(0.55, -2.5), Key(1, 0)])
        a.rotate("neck", [Key(0, 0), Key(0.6, 2), Key(1, 0)])
        a.rotate("head", [Key(0, 0), Key(0.35, -2), Key(0.7, 3), Key(1, 0)])
        a.rotate("antenna", [Key(0, 0), Key(0.3, 10), Key(0.65, -8), Key(1, 0)])
        for (side, sign) in [("front", 1.0), ("back", -1.0)] {
            a.rotate("\(side)-upper-arm", [Key(0, 0), Key(0.55, 4 * sign), Key(1, 0)])
            a.rotate("\(side)-lower-arm", [Key(0, 0), Key(0.6, 7), Key(1, 0)])
            a.rotate("\(side)-hand", [Key(0, 0), Key(0.65, 6), Key(1, 0)])
        }
        a.attachment("eyes", [(0, "eyes"), (0.65, "eyes-closed"), (0.7, "eyes")])
        a.steppedColor(
            "antenna", [(0, "ffffffff"), (0.25, "8c8c8cff"), (0.5, "ffffffff"), (0.75, "8c8c8cff"), (1, "ffffffff")])
        return a
    }

    /// A gait cycle: front foot lands at phase 0, back foot half a cycle later.
    struct Gait {
        var name: String
        var duration: Double
        /// Front foot target: x, y offsets over one cycle (stance is the linear part).
        var foot: [Key]
        /// Front foot rotation (heel strike, flat, toe off, swing).
        var footRoll: [Key]
        var hipBob: [Key]
        var lean: Double
        var leanSway: Double
        var armSwing: Double
        var elbowBend: Double
        var elbowSwing: Double
        var loudness: Double
    }

    static func gait(_ g: Gait) -> AnimationBuilder {
        var a = AnimationBuilder(name: g.name, duration: g.duration, loops: true)
        a.translate("hip", g.hipBob)
        a.rotate(
            "torso",
            [
                Key(0, g.lean), Key(0.25, g.lean + g.leanSway), Key(0.5, g.lean), Key(0.75, g.lean + g.leanSway),
                Key(1, g.lean),
            ])
        a.rotate(
            "head",
            [
                Key(0, -g.lean * 0.6), Key(0.3, -g.lean * 0.6 - 2), Key(0.5, -g.lean * 0.6),
                Key(0.8, -g.lean * 0.6 - 2), Key(1, -g.lean * 0.6),
            ])
        a.rotate("antenna", [Key(0, -6), Key(0.3, 7), Key(0.5, -6), Key(0.8, 7), Key(1, -6)])
        // The front arm swings back while the front foot is forward, and the other way round.
        let frontArm = [Key(0, -g.armSwing), Key(0.5, g.armSwing), Key(1, -g.armSwing)]
        let frontElbow = [Key(0, g.elbowBend), Key(0.5, g.elbowBend + g.elbowSwing), Key(1, g.elbowBend)]
        let hand = [Key(0, 8), Key(0.5, -8), Key(1, 8)]
        a.rotate("front-upper-arm", frontArm)
        a.rotate("front-lower-arm", frontElbow)
        a.rotate("front-hand", hand)
        a.rotate("back-upper-arm", shifted(frontArm, by: 0.5))
        a.rotate("back-lower-arm", shifted(frontElbow, by: 0.5))
        a.rotate("back-hand", shifted(hand, by: 0.5))
        a.rotate("front-foot", g.footRoll)
        a.rotate("back-foot", shifted(g.footRoll, by: 0.5))
        a.translate("front-foot-target", g.foot)
        a.translate("back-foot-target", shifted(g.foot, by: 0.5))
        // Event defaults describe a quiet front step; keys only carry what differs.
        let loudness = g.loudness == footstepDefaults.float ? nil : g.loudness
        a.event(0, footstep, float: loudness)
        a.event(0.5, footstep, int: 2, float: loudness, string: "back")
        return a
    }

    static func walk() -> AnimationBuilder {
        gait(
            Gait(
                name: "walk", duration: 1,
                foot: [
                    Key(0, 28, 0, next: .linear), Key(0.5, -28, 0), Key(0.6, -22, 10), Key(0.75, 2, 20),
                    Key(0.9, 24, 8),
                    Key(1, 28, 0),
                ],
                footRoll: [
                    Key(0, 8), Key(0.15, 0, next: .linear), Key(0.4, 0), Key(0.5, -8), Key(0.62, -18), Key(0.8, -4),
                    Key(1, 8),
                ],
                hipBob: [Key(0, 0, -5), Key(0.25, 0, 1), Key(0.5, 0, -5), Key(0.75, 0, 1), Key(1, 0, -5)],
                lean: -4, leanSway: 2, armSwing: 22, elbowBend: 4, elbowSwing: 22, loudness: 0.5))
    }

    static func run() -> AnimationBuilder {
        gait(
            Gait(
                name: "run", duration: 0.6,
                foot: [
                    Key(0, 36, 0, next: .linear), Key(0.4, -36, 0), Key(0.5, -46, 14), Key(4 / 6, -12, 40),
                    Key(5 / 6, 28, 30), Key(1, 36, 0),
                ],
                footRoll: [
                    Key(0, 10), Key(0.13, 0, next: .linear), Key(0.35, 0), Key(0.5, -25), Key(0.75, -5), Key(1, 10),
                ],
                hipBob: [
                    Key(0, 0, -4), Key(1 / 6, 0, -9), Key(2 / 6, 0, -2), Key(0.5, 0, -4), Key(4 / 6, 0, -9),
                    Key(5 / 6, 0, -2),
                    Key(1, 0, -4),
                ],
                lean: -12, leanSway: -2, armSwing: 42, elbowBend: 45, elbowSwing: 30, loudness: 1))
    }

    /// A short recoil that starts and ends on the setup pose, suited to layering additively.
    static func flinch() -> AnimationBuilder {
        var a = AnimationBuilder(name: "flinch", duration: 0.5, loops: false)
        a.translate("hip", [Key(0, 0, 0), Key(0.16, -6, -2), Key(1, 0, 0)])
        a.rotate("torso", [Key(0, 0), Key(0.16, 12), Key(1, 0)])
        a.rotate("head", [Key(0, 0), Key(0.2, 10), Key(1, 0)])
        a.rotate("antenna", [Key(0, 0), Key(0.24, -25), Key(0.6, 12), Key(1, 0)])
        a.rotate("front-upper-arm", [Key(0, 0), Key(0.2, 28), Key(1, 0)])
        a.rotate("back-upper-arm", [Key(0, 0), Key(0.2, 20), Key(1, 0)])
        a.rotate("front-lower-arm", [Key(0, 0), Key(0.2, 30), Key(1, 0)])
        a.rotate("back-lower-arm", [Key(0, 0), Key(0.2, 24), Key(1, 0)])
        a.attachment("eyes", [(0, "eyes-closed"), (0.5, "eyes")])
        return a
    }
}
