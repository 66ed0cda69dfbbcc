import BoneworkFormat
import BoneworkWorld
import Foundation

/// A scenario script (format `spine-scenario-1`): one skeleton instance driven through a list
/// of animation state operations, recording events and poses (see the shared scenario spec).
public struct Scenario: Sendable {
    public var skeleton: String
    public var atlas: String?
    public var skin: String?
    public var defaultMix: Float
    public var mixes: [(from: String, to: String, duration: Float)]
    public var steps: [Step]

    public enum Value: Sendable, Equatable {
        case number(Double)
        case bool(Bool)
        case text(String)
    }

    public enum Record: String, Sendable {
        case each, last, none
    }

    public enum Step: Sendable {
        case setAnimation(track: Int, animation: String, loop: Bool)
        case addAnimation(track: Int, animation: String, loop: Bool, delay: Float)
        case setEmptyAnimation(track: Int, mixDuration: Float)
        case addEmptyAnimation(track: Int, mixDuration: Float, delay: Float)
        case setEntry(field: String, value: Value)
        case setTimeScale(Float)
        case clearTrack(Int)
        case clearTracks
        case setSkin(String?)
        case setToSetupPose
        case setBonesToSetupPose
        case setSlotsToSetupPose
        case update(dt: Float, count: Int, record: Record)
    }

    /// A script error: which step (or key) and what was wrong.
    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

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

    /// Parses a scenario document.
    public init(json bytes: [UInt8], file: String = "scenario") throws {
        let document: ScenarioJSON
        do {
            document = try JSONDecoder().decode(ScenarioJSON.self, from: Data(bytes))
        } catch {
            throw FormatError(description: "\(file): not JSON: \(error)")
        }
        guard case .object(let root) = document else { throw FormatError(description: "\(file): expected an object") }
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
        skeleton = try string(root, "skeleton", "$")
        atlas = try optionalString(root, "atlas", "$")
        skin = try optionalString(root, "skin", "$")
        defaultMix = Float(try number(root, "defaultMix", "$", default: 0))
        mixes = []
        if let list = root["mixes"] {
            guard case .array(let list) = list else { throw fail("$.mixes", "an array") }
            for (i, item) in list.enumerated() {
                let path = "$.mixes[\(i)]"
                guard case .object(let m) = item else { throw fail(path, "an object") }
                mixes.append(
                    (try string(m, "from", path), try string(m, "to", path), Float(try number(m, "duration", path))))
            }
        }
        guard case .array(let list)? = root["steps"] else { throw fail("$.steps", "an array") }
        steps = []
        for (i, item) in list.enumerated() {
            let path = "$.steps[\(i)]"
            guard case .object(let s) = item else { throw fail(path, "an object") }
            let op = try string(s, "op", path)
            switch op {
            case "setAnimation":
                steps.append(
                    .setAnimation(
                        track: try int(s, "track", path), animation: try string(s, "animation", path),
                        loop: try bool(s, "loop", path)))
            case "addAnimation":
                steps.append(
                    .addAnimation(
                        track: try int(s, "track", path), animation: try string(s, "animation", path),
                        loop: try bool(s, "loop", path), delay: Float(try number(s, "delay", path, default: 0))))
            case "setEmptyAnimation":
                steps.append(
                    .setEmptyAnimation(
                        track: try int(s, "track", path), mixDuration: Float(try number(s, "mixDuration", path))))
            case "addEmptyAnimation":
                steps.append(
                    .addEmptyAnimation(
                        track: try int(s, "track", path), mixDuration: Float(try number(s, "mixDuration", path)),
                        delay: Float(try number(s, "delay", path, default: 0))))
            case "setEntry":
                let field = try string(s, "field", path)
                let value: Value
                switch s["value"] {
                case .bool(let b)?: value = .bool(b)
                case .number(let n)?: value = .number(n)
                case .string(let t)?: value = .text(t)
                default: throw fail("\(path).value", "a number, boolean or string")
                }
                steps.append(.setEntry(field: field, value: value))
            case "setTimeScale":
                steps.append(.setTimeScale(Float(try number(s, "value", path))))
            case "clearTrack":
                steps.append(.clearTrack(try int(s, "track", path)))
            case "clearTracks":
                steps.append(.clearTracks)
            case "setSkin":
                steps.append(.setSkin(try optionalString(s, "name", path)))
            case "setToSetupPose":
                steps.append(.setToSetupPose)
            case "setBonesToSetupPose":
                steps.append(.setBonesToSetupPose)
            case "setSlotsToSetupPose":
                steps.append(.setSlotsToSetupPose)
            case "update":
                let recordName = try optionalString(s, "record", path) ?? "none"
                guard let record = Record(rawValue: recordName) else {
                    throw fail("\(path).record", "each, last or none")
                }
                let count = try int(s, "count", path, default: 1)
                guard count >= 0 else { throw fail("\(path).count", "a count >= 0") }
                steps.append(.update(dt: Float(try number(s, "dt", path)), count: count, record: record))
            default:
                throw fail("\(path).op", "a known operation (got '\(op)')")
            }
        }
    }
}

/// A parsed JSON value (scenario scripts are small; no streaming needed).
enum ScenarioJSON: Decodable, Sendable {
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
