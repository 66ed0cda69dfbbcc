import BoneworkFormat
import BoneworkWorld
import Foundation

/// A scenario script: one skeleton instance driven through a list of operations, recording
/// events and poses (see the shared scenario specs). Format `spine-scenario-1` drives the
/// animation state; `spine-scenario-2` adds what applications do to a skeleton besides it
/// (composed skins, bones, the skeleton's placement and colour, attachments, constraint values,
/// physics impulses, world transforms), ops run after apply in every update (`each`), and
/// optional world vertices and bounds in the recorded frames.
public struct Scenario: Sendable {
    /// 1 or 2.
    public var format: Int = 1
    /// Format 2: what every recorded frame also carries.
    public var recordVertices = false
    /// Format 2: whether recorded frames carry the skeleton's bounds.
    public var recordBounds = false
    /// The skeleton file, relative to the scenario's assets folder.
    public var skeleton: String
    /// The atlas file, nil for a scenario that draws nothing.
    public var atlas: String?
    /// The skin worn at spawn.
    public var skin: String?
    /// The animation state data's default mix, seconds.
    public var defaultMix: Float
    /// Mix durations for particular pairs of animations.
    public var mixes: [(from: String, to: String, duration: Float)]
    /// The operations, in order.
    public var steps: [Step]

    /// The most updates one script runs, counting each `each` op as one more: a script of any size
    /// runs in bounded time (the reference scenarios run a few hundred).
    public static let maxUpdateWork = 1_000_000
    /// The most frames one script records (each is a whole pose).
    public static let maxRecordedFrames = 10_000
    /// The largest script file read (`init(file:)`).
    public static let maxFileBytes = 16 << 20

    /// The track entry fields `setEntry` sets, and the kind of value each takes.
    public static let entryFields: [String: String] = [
        "reverse": "true or false", "loop": "true or false", "holdPrevious": "true or false",
        "shortestRotation": "true or false", "timeScale": "a number", "alpha": "a number", "mixDuration": "a number",
        "trackTime": "a number", "trackEnd": "a number", "animationStart": "a number", "animationEnd": "a number",
        "animationLast": "a number", "eventThreshold": "a number", "attachmentThreshold": "a number",
        "mixAttachmentThreshold": "a number", "alphaAttachmentThreshold": "a number",
        "drawOrderThreshold": "a number", "mixDrawOrderThreshold": "a number", "delay": "a number",
        "mixBlend": "setup, first, replace or add",
    ]

    /// A script error: which step (or key) and what was wrong.
    public struct FormatError: Error, CustomStringConvertible {
        /// What was wrong, naming the step or key.
        public var description: String
    }

    /// A format-1 scenario from its parts.
    public init(
        skeleton: String, atlas: String?, skin: String?, defaultMix: Float,
        mixes: [(from: String, to: String, duration: Float)], steps: [Step]
    ) {
        self.skeleton = skeleton
        self.atlas = atlas
        self.skin = skin
        self.defaultMix = defaultMix
        self.mixes = mixes
        self.steps = steps
    }

    /// Reads and parses a script file of at most ``maxFileBytes``.
    public init(file: String) throws {
        try self.init(json: SkeletonLoader.readFile(file, limit: Self.maxFileBytes), file: file)
    }

    /// Parses a scenario document. Every value is checked where it is read, and the error names
    /// the file and the JSON path: numbers must fit a 32-bit float, tracks lie in
    /// 0..<`AnimationStateStore.maxTracks`, `setEntry` names a known field with a value of its
    /// kind, and the script's updates and recorded frames stay within ``maxUpdateWork`` and
    /// ``maxRecordedFrames``.
    public init(json bytes: [UInt8], file: String = "scenario") throws {
        let document: ScenarioJSON
        do {
            document = try JSONDecoder().decode(ScenarioJSON.self, from: Data(bytes))
        } catch {
            throw FormatError(description: "\(file): not JSON: \(error)")
        }
        guard case .object(let root) = document else { throw FormatError(description: "\(file): expected an object") }
        let version: Int
        switch root["format"] {
        case nil, .string("spine-scenario-1")?: version = 1
        case .string("spine-scenario-2")?: version = 2
        default:
            throw FormatError(description: "\(file): $.format: expected \"spine-scenario-1\" or \"spine-scenario-2\"")
        }
        func fail(_ path: String, _ expected: String) -> FormatError {
            FormatError(description: "\(file): \(path): expected \(expected)")
        }
        func string(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> String {
            guard case .string(let s)? = o[key] else { throw fail("\(path).\(key)", "a string") }
            return s
        }
        func optionalString(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> String? {
            switch o[key] {
            case nil, .null?: return nil
            case .string(let s)?: return s
            default: throw fail("\(path).\(key)", "a string or null")
            }
        }
        func number(_ o: [String: ScenarioJSON], _ key: String, _ path: String, default d: Double? = nil) throws
            -> Double
        {
            switch o[key] {
            case .number(let n)?: return n
            case nil:
                if let d { return d }
                throw fail("\(path).\(key)", "a number")
            default: throw fail("\(path).\(key)", "a number")
            }
        }
        func int(_ o: [String: ScenarioJSON], _ key: String, _ path: String, default d: Int? = nil) throws -> Int {
            let v = try number(o, key, path, default: d.map(Double.init))
            guard v == v.rounded(), abs(v) < 1e9 else { throw fail("\(path).\(key)", "an integer") }
            return Int(v)
        }
        func bool(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> Bool {
            guard case .bool(let b)? = o[key] else { throw fail("\(path).\(key)", "true or false") }
            return b
        }
        /// A number the engine keeps as a 32-bit float: one past float range would be infinite.
        func float(_ o: [String: ScenarioJSON], _ key: String, _ path: String, default d: Double? = nil) throws
            -> Float
        {
            let value = Float(try number(o, key, path, default: d))
            guard value.isFinite else { throw fail("\(path).\(key)", "a number within float range (|x| < 3.4e38)") }
            return value
        }
        func optionalNumber(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> Float? {
            o[key] == nil ? nil : try float(o, key, path)
        }
        func track(_ o: [String: ScenarioJSON], _ path: String) throws -> Int {
            let t = try int(o, "track", path)
            guard t >= 0, t < AnimationStateStore.maxTracks else {
                throw fail("\(path).track", "a track in 0..<\(AnimationStateStore.maxTracks)")
            }
            return t
        }
        func optionalBool(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> Bool? {
            o[key] == nil ? nil : try bool(o, key, path)
        }
        func color(_ o: [String: ScenarioJSON], _ key: String, _ path: String) throws -> Color {
            guard case .array(let items)? = o[key], items.count == 4 else {
                throw fail("\(path).\(key)", "[r, g, b, a]")
            }
            var c: [Float] = []
            for item in items {
                guard case .number(let n) = item, Float(n).isFinite else {
                    throw fail("\(path).\(key)", "[r, g, b, a] of numbers within float range")
                }
                c.append(Float(n))
            }
            return Color(c[0], c[1], c[2], c[3])
        }
        /// Format 2 refuses fields it does not know (format 1 files keep being read as before).
        func only(_ o: [String: ScenarioJSON], _ keys: Set<String>, _ path: String) throws {
            guard version == 2 else { return }
            for key in o.keys.sorted() where !keys.contains(key) {
                throw FormatError(description: "\(file): \(path): unknown field '\(key)'")
            }
        }
        format = version
        try only(
            root, ["format", "description", "skeleton", "atlas", "skin", "defaultMix", "mixes", "steps", "record"], "$")
        if let record = root["record"] {
            guard version == 2, case .object(let r) = record else { throw fail("$.record", "a format 2 record object") }
            try only(r, ["vertices", "bounds"], "$.record")
            recordVertices = try optionalBool(r, "vertices", "$.record") ?? false
            recordBounds = try optionalBool(r, "bounds", "$.record") ?? false
        }
        func control(_ s: [String: ScenarioJSON], _ op: String, _ path: String) throws -> Control? {
            func keys(_ fields: String...) throws { try only(s, Set(fields + ["op"]), path) }
            switch op {
            case "setBone":
                try keys("bone", "x", "y", "rotation", "scaleX", "scaleY", "shearX", "shearY")
                return .setBone(
                    bone: try string(s, "bone", path), x: try optionalNumber(s, "x", path),
                    y: try optionalNumber(s, "y", path), rotation: try optionalNumber(s, "rotation", path),
                    scaleX: try optionalNumber(s, "scaleX", path), scaleY: try optionalNumber(s, "scaleY", path),
                    shearX: try optionalNumber(s, "shearX", path), shearY: try optionalNumber(s, "shearY", path))
            case "setSkeleton":
                try keys("x", "y", "scaleX", "scaleY")
                return .setSkeleton(
                    x: try optionalNumber(s, "x", path), y: try optionalNumber(s, "y", path),
                    scaleX: try optionalNumber(s, "scaleX", path), scaleY: try optionalNumber(s, "scaleY", path))
            case "moveSkeleton":
                try keys("dx", "dy")
                return .moveSkeleton(
                    dx: try optionalNumber(s, "dx", path) ?? 0, dy: try optionalNumber(s, "dy", path) ?? 0)
            case "setSkeletonColor":
                try keys("color")
                return .setSkeletonColor(try color(s, "color", path))
            case "setSlotColor":
                try keys("slot", "color")
                return .setSlotColor(slot: try string(s, "slot", path), try color(s, "color", path))
            case "setAttachment":
                try keys("slot", "attachment")
                guard s["attachment"] != nil else { throw fail("\(path).attachment", "a name or null") }
                return .setAttachment(
                    slot: try string(s, "slot", path), attachment: try optionalString(s, "attachment", path))
            case "setIK":
                try keys("constraint", "mix", "softness", "bendDirection", "compress", "stretch")
                let bend = try optionalNumber(s, "bendDirection", path)
                if let bend, bend != 1, bend != -1 { throw fail("\(path).bendDirection", "1 or -1") }
                return .setIK(
                    constraint: try string(s, "constraint", path), mix: try optionalNumber(s, "mix", path),
                    softness: try optionalNumber(s, "softness", path), bendDirection: bend.map { Int32($0) },
                    compress: try optionalBool(s, "compress", path), stretch: try optionalBool(s, "stretch", path))
            case "setTransformMix":
                try keys("constraint", "mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY")
                return .setTransformMix(
                    constraint: try string(s, "constraint", path), mixRotate: try optionalNumber(s, "mixRotate", path),
                    mixX: try optionalNumber(s, "mixX", path), mixY: try optionalNumber(s, "mixY", path),
                    mixScaleX: try optionalNumber(s, "mixScaleX", path),
                    mixScaleY: try optionalNumber(s, "mixScaleY", path),
                    mixShearY: try optionalNumber(s, "mixShearY", path))
            case "setPathMix":
                try keys("constraint", "position", "spacing", "mixRotate", "mixX", "mixY")
                return .setPathMix(
                    constraint: try string(s, "constraint", path), position: try optionalNumber(s, "position", path),
                    spacing: try optionalNumber(s, "spacing", path),
                    mixRotate: try optionalNumber(s, "mixRotate", path),
                    mixX: try optionalNumber(s, "mixX", path), mixY: try optionalNumber(s, "mixY", path))
            case "setPhysics":
                try keys("constraint", "inertia", "strength", "damping", "massInverse", "wind", "gravity", "mix")
                return .setPhysics(
                    constraint: try string(s, "constraint", path), inertia: try optionalNumber(s, "inertia", path),
                    strength: try optionalNumber(s, "strength", path), damping: try optionalNumber(s, "damping", path),
                    massInverse: try optionalNumber(s, "massInverse", path), wind: try optionalNumber(s, "wind", path),
                    gravity: try optionalNumber(s, "gravity", path), mix: try optionalNumber(s, "mix", path))
            case "physicsTranslate":
                try keys("x", "y")
                return .physicsTranslate(x: try float(s, "x", path), y: try float(s, "y", path))
            case "physicsRotate":
                try keys("x", "y", "degrees")
                return .physicsRotate(
                    x: try float(s, "x", path), y: try float(s, "y", path), degrees: try float(s, "degrees", path))
            case "updateWorldTransform":
                try keys("physics")
                let name = try string(s, "physics", path)
                let modes: [String: Physics] = ["none": .none, "reset": .reset, "update": .update, "pose": .pose]
                guard let mode = modes[name] else { throw fail("\(path).physics", "none, reset, update or pose") }
                return .updateWorldTransform(mode)
            default:
                return nil
            }
        }
        skeleton = try string(root, "skeleton", "$")
        atlas = try optionalString(root, "atlas", "$")
        skin = try optionalString(root, "skin", "$")
        defaultMix = try float(root, "defaultMix", "$", default: 0)
        mixes = []
        if let list = root["mixes"] {
            guard case .array(let list) = list else { throw fail("$.mixes", "an array") }
            for (i, item) in list.enumerated() {
                let path = "$.mixes[\(i)]"
                guard case .object(let m) = item else { throw fail(path, "an object") }
                mixes.append((try string(m, "from", path), try string(m, "to", path), try float(m, "duration", path)))
            }
        }
        guard case .array(let list)? = root["steps"] else { throw fail("$.steps", "an array") }
        steps = []
        var updateWork = 0
        var recordedFrames = 0
        var entryMade = false
        for (i, item) in list.enumerated() {
            let path = "$.steps[\(i)]"
            guard case .object(let s) = item else { throw fail(path, "an object") }
            let op = try string(s, "op", path)
            if version == 2, let c = try control(s, op, path) {
                steps.append(.control(c))
                continue
            }
            func keys(_ fields: String...) throws { try only(s, Set(fields + ["op"]), path) }
            switch op {
            case "setAnimation":
                entryMade = true
                try keys("track", "animation", "loop")
                steps.append(
                    .setAnimation(
                        track: try track(s, path), animation: try string(s, "animation", path),
                        loop: try bool(s, "loop", path)))
            case "addAnimation":
                entryMade = true
                try keys("track", "animation", "loop", "delay")
                steps.append(
                    .addAnimation(
                        track: try track(s, path), animation: try string(s, "animation", path),
                        loop: try bool(s, "loop", path), delay: try float(s, "delay", path, default: 0)))
            case "setEmptyAnimation":
                entryMade = true
                try keys("track", "mixDuration")
                steps.append(
                    .setEmptyAnimation(track: try track(s, path), mixDuration: try float(s, "mixDuration", path)))
            case "addEmptyAnimation":
                entryMade = true
                try keys("track", "mixDuration", "delay")
                steps.append(
                    .addEmptyAnimation(
                        track: try track(s, path), mixDuration: try float(s, "mixDuration", path),
                        delay: try float(s, "delay", path, default: 0)))
            case "setEntry":
                try keys("field", "value")
                guard entryMade else { throw fail(path, "a setEntry after a step that sets or adds an animation") }
                let field = try string(s, "field", path)
                guard let kind = Self.entryFields[field] else {
                    throw fail(
                        "\(path).field",
                        "a track entry field (\(Self.entryFields.keys.sorted().joined(separator: ", ")))")
                }
                let value: Value
                switch s["value"] {
                case .bool(let b)? where kind == "true or false": value = .bool(b)
                case .number(let n)? where kind == "a number" && Float(n).isFinite: value = .number(n)
                case .string(let t)? where ["setup", "first", "replace", "add"].contains(t) && field == "mixBlend":
                    value = .text(t)
                default: throw fail("\(path).value", field == "mixBlend" ? kind : "\(kind) for \(field)")
                }
                steps.append(.setEntry(field: field, value: value))
            case "setTimeScale":
                try keys("value")
                steps.append(.setTimeScale(try float(s, "value", path)))
            case "clearTrack":
                try keys("track")
                steps.append(.clearTrack(try track(s, path)))
            case "clearTracks":
                try keys()
                steps.append(.clearTracks)
            case "setSkin":
                try keys("name")
                steps.append(.setSkin(try optionalString(s, "name", path)))
            case "setSkinComposed" where version == 2:
                try keys("name", "skins")
                guard case .array(let items)? = s["skins"] else {
                    throw fail("\(path).skins", "an array of skin names")
                }
                var names: [String] = []
                for item in items {
                    guard case .string(let n) = item else { throw fail("\(path).skins", "an array of skin names") }
                    names.append(n)
                }
                steps.append(.setSkinComposed(name: try string(s, "name", path), skins: names))
            case "setToSetupPose":
                try keys()
                steps.append(.setToSetupPose)
            case "setBonesToSetupPose":
                try keys()
                steps.append(.setBonesToSetupPose)
            case "setSlotsToSetupPose":
                try keys()
                steps.append(.setSlotsToSetupPose)
            case "update":
                let recordName = try optionalString(s, "record", path) ?? "none"
                guard let record = Record(rawValue: recordName) else {
                    throw fail("\(path).record", "each, last or none")
                }
                let count = try int(s, "count", path, default: 1)
                guard count >= 0 else { throw fail("\(path).count", "a count >= 0") }
                try keys("dt", "count", "record", "each")
                var each: [Control] = []
                if let list = s["each"] {
                    guard version == 2, case .array(let items) = list else {
                        throw fail("\(path).each", "a format 2 op list")
                    }
                    for (k, item) in items.enumerated() {
                        let itemPath = "\(path).each[\(k)]"
                        guard case .object(let o) = item else { throw fail(itemPath, "an object") }
                        let name = try string(o, "op", itemPath)
                        guard let c = try control(o, name, itemPath) else {
                            throw fail("\(itemPath).op", "an op allowed in each (got '\(name)')")
                        }
                        each.append(c)
                    }
                }
                // Each update runs its `each` ops; recorded frames keep a whole pose each.
                updateWork += count * (1 + each.count)
                guard updateWork <= Self.maxUpdateWork else {
                    throw fail(
                        "\(path).count",
                        "at most \(Self.maxUpdateWork) updates in a script (each op in `each` counts one)")
                }
                recordedFrames += record == .each ? count : (record == .last && count > 0 ? 1 : 0)
                guard recordedFrames <= Self.maxRecordedFrames else {
                    throw fail("\(path).record", "at most \(Self.maxRecordedFrames) recorded frames in a script")
                }
                steps.append(.update(dt: try float(s, "dt", path), count: count, record: record, each: each))
            default:
                throw fail("\(path).op", "a known operation (got '\(op)')")
            }
        }
    }
}

/// A parsed JSON value (scenario scripts are small; no streaming needed).
enum ScenarioJSON: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ScenarioJSON])
    case object([String: ScenarioJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([ScenarioJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: ScenarioJSON].self))
        }
    }
}
