import BoneworkFormat
import BoneworkWorld
import Foundation

/// The trace of a scenario (format `spine-scenario-trace-1`): every event the state's
/// listener received, and the recorded frames.
public struct ScenarioTrace: Sendable {
    /// One event the listener received.
    public struct Event: Sendable, Equatable {
        /// The update the event belongs to (events raised by an operation carry the next update).
        public var update: Int
        /// What happened.
        public var type: TrackEventType
        /// The track.
        public var track: Int
        /// The entry's animation name.
        public var animation: String
        /// For `.event`: the user event.
        public var event: AnimationEvent?
    }

    /// One track's current entry in a recorded frame.
    public struct TrackState: Sendable, Equatable {
        /// The track.
        public var track: Int
        /// The current entry's animation name.
        public var animation: String
        /// The current entry's track time, seconds.
        public var trackTime: Float
        /// The animation it mixes from, nil when not mixing.
        public var mixingFrom: String?
    }

    /// One recorded frame.
    public struct Frame: Sendable {
        /// The update it was recorded after (1-based).
        public var update: Int
        /// The instance's pose: bones, slots, draw order (and vertices in format 2).
        public var pose: InstancePose
        /// Every track's current entry.
        public var tracks: [TrackState]
        /// Format 2: the skeleton colour, and the bounds when recorded (nil inside: no vertex).
        public var skeletonColor: Color = .white
        /// Format 2, when recorded: the bounds (nil inside when nothing was drawn).
        public var bounds: WorldBounds?? = nil
    }

    /// 1 or 2 (`spine-scenario-trace-1` / `-2`).
    public var format = 1
    /// Format 2: frames carry world vertices.
    public var vertices = false
    /// Every event, in the order received.
    public var events: [Event] = []
    /// The recorded frames, in order.
    public var frames: [Frame] = []

    /// The trace as JSON text. `local` adds each frame's local pose (what the animation state
    /// applied, before constraints) under "local": per bone [x, y, rotation, scaleX, scaleY,
    /// shearX, shearY], for diagnosing differences.
    public func json(local: Bool = false) -> String {
        var out = "{\n  \"format\": \"spine-scenario-trace-\(format)\",\n  \"events\": ["
        for (i, e) in events.enumerated() {
            out += i == 0 ? "\n    " : ",\n    "
            out += "{\"update\": \(e.update), \"type\": \"\(Self.typeName(e.type))\", \"track\": \(e.track), "
            out += "\"animation\": \(Self.quote(e.animation))"
            if let ev = e.event {
                out += ", \"event\": {\"name\": \(Self.quote(ev.name)), \"int\": \(ev.intValue), "
                out += "\"float\": \(Self.number(ev.floatValue)), \"string\": \(Self.quote(ev.stringValue)), "
                out += "\"time\": \(Self.number(ev.time)), "
                out += "\"volume\": \(Self.number(ev.volume)), \"balance\": \(Self.number(ev.balance))}"
            }
            out += "}"
        }
        out += events.isEmpty ? "],\n  \"frames\": [" : "\n  ],\n  \"frames\": ["
        for (i, f) in frames.enumerated() {
            out += i == 0 ? "\n    " : ",\n    "
            out += "{\"update\": \(f.update), \"bones\": ["
            out += f.pose.bones.map { "[" + $0.map(Self.number).joined(separator: ", ") + "]" }.joined(separator: ", ")
            if local {
                out += "], \"local\": ["
                out += f.pose.local.map { "[" + $0.map(Self.number).joined(separator: ", ") + "]" }.joined(
                    separator: ", ")
            }
            out += "], \"slots\": ["
            var slots: [String] = []
            for s in f.pose.attachments.indices {
                let name = f.pose.attachments[s].map(Self.quote) ?? "null"
                let color = f.pose.colors[s].map(Self.number).joined(separator: ", ")
                slots.append("{\"attachment\": \(name), \"color\": [\(color)]}")
            }
            out += slots.joined(separator: ", ")
            out += "], \"drawOrder\": [" + f.pose.drawOrder.map(String.init).joined(separator: ", ") + "]"
            out += ", \"tracks\": ["
            out += f.tracks.map {
                "{\"track\": \($0.track), \"animation\": \(Self.quote($0.animation)), "
                    + "\"trackTime\": \(Self.number($0.trackTime)), \"mixingFrom\": \($0.mixingFrom.map(Self.quote) ?? "null")}"
            }.joined(separator: ", ")
            out += "]"
            if format == 2 {
                let c = f.skeletonColor
                out += ", \"skeletonColor\": [" + [c.r, c.g, c.b, c.a].map(Self.number).joined(separator: ", ") + "]"
                if vertices {
                    out += ", \"vertices\": ["
                    out += f.pose.vertices.map { v in
                        v.map { "[" + $0.map(Self.number).joined(separator: ", ") + "]" } ?? "null"
                    }.joined(separator: ", ")
                    out += "]"
                }
                if let bounds = f.bounds {
                    let values = bounds.map { [$0.x, $0.y, $0.width, $0.height].map(Self.number) }
                    out +=
                        ", \"bounds\": [" + (values ?? ["null", "null", "null", "null"]).joined(separator: ", ") + "]"
                }
            }
            out += "}"
        }
        out += frames.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// The event type as traces spell it: `start`, `interrupt`, `end`, `complete`, `dispose`, `event`.
    public static func typeName(_ type: TrackEventType) -> String {
        switch type {
        case .start: return "start"
        case .interrupt: return "interrupt"
        case .end: return "end"
        case .complete: return "complete"
        case .dispose: return "dispose"
        case .event: return "event"
        }
    }

    static func number(_ v: Float) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "Infinity" : "-Infinity" }
        if v == v.rounded(), abs(v) < 1e9 { return String(Int(v)) }
        return "\(v)"
    }

    static func quote(_ s: String) -> String { JSONText.quote(s) }
}

/// Runs a scenario on one instance in a fresh world and records its trace.
public enum ScenarioRunner {
    /// Loads the scenario's skeleton (paths relative to `assets`) and runs it.
    public static func run(_ scenario: Scenario, assets: String, threads: Int = 1) throws -> ScenarioTrace {
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") ? path : (assets as NSString).appendingPathComponent(path)
        }
        let atlas = try scenario.atlas.map { try AtlasReader.read(file: resolve($0)) }
        let data = try SkeletonLoader.load(file: resolve(scenario.skeleton), atlas: atlas)
        return try run(scenario, data: data, threads: threads)
    }

    /// Runs a scenario on an instance of `data`, the world's frames on `threads` threads.
    public static func run(_ scenario: Scenario, data: SkeletonData, threads: Int = 1) throws -> ScenarioTrace {
        let stateData = AnimationStateData(skeletonData: data, defaultMix: scenario.defaultMix)
        for mix in scenario.mixes { try stateData.setMix(from: mix.from, to: mix.to, duration: mix.duration) }
        let world = World(scheduler: Scheduler(threads: threads))
        try world.setAnimationStateData(stateData)
        let entity = try world.spawn(data, skin: scenario.skin)
        let state = try world.animationState(entity)
        let recorder = Recorder()
        let (batch, _) = try world.locate(entity)
        batch.animationStates.listener = { type, entry, event in
            recorder.trace.events.append(
                ScenarioTrace.Event(
                    update: recorder.update, type: type, track: (try? entry.trackIndex) ?? -1,
                    animation: entry.name ?? "?", event: event))
        }
        var last: TrackEntry?
        for step in scenario.steps {
            switch step {
            case .setAnimation(let track, let animation, let loop):
                last = try state.setAnimation(track, animation, loop: loop)
            case .addAnimation(let track, let animation, let loop, let delay):
                last = try state.addAnimation(track, animation, loop: loop, delay: delay)
            case .setEmptyAnimation(let track, let mixDuration):
                last = try state.setEmptyAnimation(track, mixDuration: mixDuration)
            case .addEmptyAnimation(let track, let mixDuration, let delay):
                last = try state.addEmptyAnimation(track, mixDuration: mixDuration, delay: delay)
            case .setEntry(let field, let value):
                guard let entry = last else { throw Scenario.FormatError(description: "setEntry before any set/add") }
                // An entry already disposed keeps nothing: the reference writes into a pooled
                // object that the next new entry resets, so the step has no effect.
                guard entry.isValid else { continue }
                try set(entry, field, value)
            case .setTimeScale(let v):
                try state.setTimeScale(v)
            case .clearTrack(let track):
                try state.clearTrack(track)
            case .clearTracks:
                try state.clearTracks()
            case .setSkin(let name):
                try world.setSkin(entity, name)
            case .setToSetupPose:
                try world.setToSetupPose(entity)
            case .setBonesToSetupPose:
                let (b, row) = try world.locate(entity)
                b.setBonesToSetupPose(row: row)
            case .setSlotsToSetupPose:
                let (b, row) = try world.locate(entity)
                b.setSlotsToSetupPose(row: row)
            case .update(let dt, let count, let record, let each):
                for i in 0..<count {
                    if each.isEmpty {
                        world.update(dt)
                    } else {
                        // The ops run after apply, before world transforms; an error stops them
                        // and is rethrown after the update.
                        var failure: (any Error)?
                        try world.update(entity, delta: dt) {
                            do {
                                for op in each { try perform(op, world, entity, data) }
                            } catch {
                                failure = error
                            }
                        }
                        if let failure { throw failure }
                    }
                    if record == .each || (record == .last && i == count - 1) {
                        var f = try frame(world, entity, recorder.update)
                        if scenario.format == 2 {
                            f.skeletonColor = try world.skeletonColor(entity)
                            if scenario.recordBounds { f.bounds = .some(try world.bounds(entity)) }
                        }
                        recorder.trace.frames.append(f)
                    }
                    recorder.update += 1
                }
            case .setSkinComposed(_, let skins):
                // A new skin object in the reference every time: setSkin (attachments of the old
                // skin replaced by name), then the slots' setup pose resolved in the new skin.
                try world.setSkin(entity, parts: skins)
                let (b, row) = try world.locate(entity)
                b.setSlotsToSetupPose(row: row)
            case .control(let op):
                try perform(op, world, entity, data)
            }
        }
        batch.animationStates.listener = nil
        recorder.trace.format = scenario.format
        recorder.trace.vertices = scenario.recordVertices
        return recorder.trace
    }

    /// The index of a named element, or `WorldError.noSuchName` naming it and the skeleton.
    static func index(_ name: String, _ kind: String, _ data: SkeletonData, _ names: [String]) throws -> Int {
        guard let i = names.firstIndex(of: name) else {
            throw WorldError.noSuchName(name, kind: kind, skeleton: data.file)
        }
        return i
    }

    static func slotIndex(_ name: String, _ data: SkeletonData) throws -> Int {
        guard let s = data.findSlotIndex(name) else {
            throw WorldError.noSuchName(name, kind: "slot", skeleton: data.file)
        }
        return s
    }

    /// Performs one format 2 application operation (the spine-cpp calls of the format's table).
    static func perform(_ op: Scenario.Control, _ world: World, _ e: Entity, _ data: SkeletonData) throws {
        switch op {
        case .setBone(let bone, let x, let y, let rotation, let scaleX, let scaleY, let shearX, let shearY):
            guard let b = data.findBoneIndex(bone) else {
                throw WorldError.noSuchName(bone, kind: "bone", skeleton: data.file)
            }
            var p = try world.boneLocal(e, bone: b)
            p.x = x ?? p.x
            p.y = y ?? p.y
            p.rotation = rotation ?? p.rotation
            p.scaleX = scaleX ?? p.scaleX
            p.scaleY = scaleY ?? p.scaleY
            p.shearX = shearX ?? p.shearX
            p.shearY = shearY ?? p.shearY
            try world.setBoneLocal(e, bone: b, p)
        case .setSkeleton(let x, let y, let scaleX, let scaleY):
            let t = try world.skeletonTransform(e)
            try world.setSkeletonTransform(
                e, x: x ?? t.x, y: y ?? t.y, scaleX: scaleX ?? t.scaleX, scaleY: scaleY ?? t.scaleY)
        case .moveSkeleton(let dx, let dy):
            let t = try world.skeletonTransform(e)
            try world.setSkeletonTransform(e, x: t.x + dx, y: t.y + dy, scaleX: t.scaleX, scaleY: t.scaleY)
        case .setSkeletonColor(let color):
            try world.setSkeletonColor(e, color)
        case .setSlotColor(let slot, let color):
            try world.setSlotColor(e, slot: try slotIndex(slot, data), color)
        case .setAttachment(let slot, let attachment):
            try world.setAttachment(e, slot: try slotIndex(slot, data), name: attachment)
        case .setIK(let name, let mix, let softness, let bend, let compress, let stretch):
            let k = try index(name, "ik constraint", data, data.ikConstraints.map(\.name))
            var c = try world.ikConstraint(e, k)
            c.mix = mix ?? c.mix
            c.softness = softness ?? c.softness
            c.bendDirection = bend ?? c.bendDirection
            c.compress = compress ?? c.compress
            c.stretch = stretch ?? c.stretch
            try world.setIKConstraint(e, k, c)
        case .setTransformMix(let name, let rotate, let x, let y, let scaleX, let scaleY, let shearY):
            let k = try index(name, "transform constraint", data, data.transformConstraints.map(\.name))
            var c = try world.transformConstraint(e, k)
            c.mixRotate = rotate ?? c.mixRotate
            c.mixX = x ?? c.mixX
            c.mixY = y ?? c.mixY
            c.mixScaleX = scaleX ?? c.mixScaleX
            c.mixScaleY = scaleY ?? c.mixScaleY
            c.mixShearY = shearY ?? c.mixShearY
            try world.setTransformConstraint(e, k, c)
        case .setPathMix(let name, let position, let spacing, let rotate, let x, let y):
            let k = try index(name, "path constraint", data, data.pathConstraints.map(\.name))
            var c = try world.pathConstraint(e, k)
            c.position = position ?? c.position
            c.spacing = spacing ?? c.spacing
            c.mixRotate = rotate ?? c.mixRotate
            c.mixX = x ?? c.mixX
            c.mixY = y ?? c.mixY
            try world.setPathConstraint(e, k, c)
        case .setPhysics(
            let name, let inertia, let strength, let damping, let massInverse, let wind, let gravity, let mix):
            let k = try index(name, "physics constraint", data, data.physicsConstraints.map(\.name))
            var c = try world.physicsConstraint(e, k)
            c.inertia = inertia ?? c.inertia
            c.strength = strength ?? c.strength
            c.damping = damping ?? c.damping
            c.massInverse = massInverse ?? c.massInverse
            c.wind = wind ?? c.wind
            c.gravity = gravity ?? c.gravity
            c.mix = mix ?? c.mix
            try world.setPhysicsConstraint(e, k, c)
        case .physicsTranslate(let x, let y):
            try world.physicsTranslate(e, x: x, y: y)
        case .physicsRotate(let x, let y, let degrees):
            try world.physicsRotate(e, x: x, y: y, degrees: degrees)
        case .updateWorldTransform(let physics):
            try world.updateWorldTransforms(e, physics: physics)
        }
    }

    private final class Recorder {
        var trace = ScenarioTrace()
        var update = 1
    }

    static func frame(_ world: World, _ entity: Entity, _ update: Int) throws -> ScenarioTrace.Frame {
        let state = try world.animationState(entity)
        var tracks: [ScenarioTrace.TrackState] = []
        for (t, entry) in try state.tracks.enumerated() {
            guard let entry else { continue }
            tracks.append(
                ScenarioTrace.TrackState(
                    track: t, animation: entry.name ?? "?", trackTime: try entry.trackTime,
                    mixingFrom: try entry.mixingFrom?.name))
        }
        return ScenarioTrace.Frame(update: update, pose: try world.pose(entity), tracks: tracks)
    }

    /// Sets a track entry property by its scenario field name.
    static func set(_ entry: TrackEntry, _ field: String, _ value: Scenario.Value) throws {
        func number() throws -> Float {
            guard case .number(let n) = value else {
                throw Scenario.FormatError(description: "setEntry \(field): expected a number")
            }
            return Float(n)
        }
        func flag() throws -> Bool {
            guard case .bool(let b) = value else {
                throw Scenario.FormatError(description: "setEntry \(field): expected true or false")
            }
            return b
        }
        switch field {
        case "reverse": try entry.setReverse(flag())
        case "loop": try entry.setLoop(flag())
        case "holdPrevious": try entry.setHoldPrevious(flag())
        case "shortestRotation": try entry.setShortestRotation(flag())
        case "timeScale": try entry.setTimeScale(number())
        case "alpha": try entry.setAlpha(number())
        case "mixDuration": try entry.setMixDuration(number())
        case "trackTime": try entry.setTrackTime(number())
        case "trackEnd": try entry.setTrackEnd(number())
        case "animationStart": try entry.setAnimationStart(number())
        case "animationEnd": try entry.setAnimationEnd(number())
        case "animationLast": try entry.setAnimationLast(number())
        case "eventThreshold": try entry.setEventThreshold(number())
        case "attachmentThreshold", "mixAttachmentThreshold": try entry.setMixAttachmentThreshold(number())
        case "alphaAttachmentThreshold": try entry.setAlphaAttachmentThreshold(number())
        case "drawOrderThreshold", "mixDrawOrderThreshold": try entry.setMixDrawOrderThreshold(number())
        case "delay": try entry.setDelay(number())
        case "mixBlend":
            guard case .text(let name) = value else {
                throw Scenario.FormatError(description: "setEntry mixBlend: expected a blend name")
            }
            let blend: MixBlend
            switch name {
            case "setup": blend = .setup
            case "first": blend = .first
            case "replace": blend = .replace
            case "add": blend = .add
            default: throw Scenario.FormatError(description: "setEntry mixBlend: unknown blend '\(name)'")
            }
            try entry.setMixBlend(blend)
        default:
            throw Scenario.FormatError(description: "setEntry: unknown field '\(field)'")
        }
    }
}
