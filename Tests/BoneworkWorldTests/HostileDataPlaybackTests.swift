import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// Skeletons that load although no editor writes them, played through every system: what each
/// class of value does to a frame (`Docs/Limits.md`, "A frame's work"). Values the readers accept
/// are either harmless arithmetic (checked against hand-computed poses) or bounded work (checked
/// by finishing at all: each case would run for hours or trap if it were not).
@Suite("Hostile data played")
struct HostileDataPlaybackTests {
    static func load(_ json: String) throws -> SkeletonData {
        try SkeletonJSONReader.read(bytes: Array(json.utf8), file: "hostile.json", atlas: nil)
    }

    /// Spawns, plays `animation` (if any) and runs `frames` updates of `delta`, reading every
    /// pose and the bounds; returns the last pose.
    @discardableResult
    static func play(
        _ data: SkeletonData, animation: String? = nil, frames: Int = 30, delta: Float = 1.0 / 60
    ) throws -> InstancePose {
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        if let animation { try world.setAnimation(e, animation, loop: true) }
        var pose = try world.pose(e)
        for _ in 0..<frames {
            world.update(delta)
            pose = try world.pose(e)
            _ = try world.bounds(e)
        }
        return pose
    }

    static func finite(_ pose: InstancePose) -> Bool {
        pose.bones.allSatisfy { $0.allSatisfy(\.isFinite) }
            && pose.vertices.allSatisfy { $0?.allSatisfy(\.isFinite) ?? true }
    }

    // MARK: Physics

    static func physicsSkeleton(_ parameters: String) -> String {
        #"""
        {"bones": [{"name": "root"}, {"name": "tip", "parent": "root", "length": 50, "x": 10}],
         "physics": [{"name": "p", "bone": "tip", "x": 1, "y": 1, "rotate": 1, "scaleX": 1, "shearX": 1,
                      "fps": 255\#(parameters)}],
         "animations": {"move": {"bones": {"root": {"translate": [{"time": 0}, {"time": 0.5, "x": 300, "y": -80},
                                                                 {"time": 1}]}}}}}
        """#
    }

    @Test func physicsParametersOutsideTheEditorsRangeKeepEveryUpdateBounded() throws {
        // A damping outside 0...1 is clamped at load: it plays exactly as 1 (or 0) does.
        let clamped = try Self.load(Self.physicsSkeleton(#", "damping": 7"#))
        #expect(clamped.physicsConstraints[0].damping == 1)
        let one = try Self.load(Self.physicsSkeleton(#", "damping": 1"#))
        #expect(try Self.play(clamped, animation: "move") == (try Self.play(one, animation: "move")))
        // Everything else is accepted as the reference accepts it: huge or negative strength,
        // inertia, wind, gravity, mix and limit, a mass whose inverse is huge. The simulation may
        // diverge (so may the reference's, with a low step rate and a high strength an editor
        // allows); each update still runs at most 255 steps per constraint and every system after
        // it takes the non-finite transforms without trapping.
        let wild = try Self.load(
            Self.physicsSkeleton(
                #", "strength": 1e30, "inertia": -1e6, "wind": 1e30, "gravity": -1e30, "mix": 100, "limit": -5, "#
                    + #""mass": 1e-30, "damping": -3"#))
        let clock = ContinuousClock.now
        let pose = try Self.play(wild, animation: "move", frames: 120)
        _ = try Self.play(wild, animation: "move", frames: 5, delta: 1)
        #expect(ContinuousClock.now - clock < .seconds(20))
        #expect(!Self.finite(pose), "the case no longer diverges: it tests nothing past the first frames")
    }

    // MARK: Paths

    /// A chain of `bones` bones along an open path of `curves` curves (a zig-zag), followed by a
    /// path constraint with the given modes and values.
    static func pathSkeleton(
        bones: Int, curves: Int, constantSpeed: Bool, closed: Bool, _ constraint: String
    ) -> String {
        var boneList = #"{"name": "root"}, {"name": "b0", "parent": "root", "length": 10}"#
        for i in 1..<bones { boneList += #", {"name": "b\#(i)", "parent": "b\#(i - 1)", "length": 10, "x": 10}"# }
        let vertexCount = curves * 3 + (closed ? 0 : 3)
        var vertices: [String] = []
        for v in 0..<vertexCount { vertices += ["\(v * 20)", v % 2 == 0 ? "0" : "40"] }
        let lengths = (0..<(vertexCount / 3)).map { "\(($0 + 1) * 60)" }.joined(separator: ", ")
        let names = (0..<bones).map { #""b\#($0)""# }.joined(separator: ", ")
        return #"""
            {"bones": [\#(boneList)],
             "slots": [{"name": "path", "bone": "root", "attachment": "path"}],
             "path": [{"name": "follow", "bones": [\#(names)], "target": "path"\#(constraint)}],
             "skins": [{"name": "default", "attachments": {"path": {"path": {"type": "path",
                 "closed": \#(closed), "constantSpeed": \#(constantSpeed), "vertexCount": \#(vertexCount),
                 "vertices": [\#(vertices.joined(separator: ", "))], "lengths": [\#(lengths)]}}}}],
             "animations": {"slide": {"path": {"follow": {"spacing": [{"time": 0, "value": 1e-30},
                 {"time": 1, "value": 3e38}], "position": [{"time": 0, "value": -3e38}, {"time": 1, "value": 3e38}]}}}}}
            """#
    }

    @Test func pathConstraintWorkIsBoundedByBonesAndCurves() throws {
        // 200 bones along 2,000 curves, at spacings from 1e-30 to 3e38 and positions far off the
        // path: a solver that walked the path by its spacing would take longer than the age of
        // the universe; the solver's work is one pass over the bones and, per bone, a walk over
        // the curves that only moves forward (closed paths: from the start), whatever the values.
        let clock = ContinuousClock.now
        for spacingMode in ["length", "fixed", "percent", "proportional"] {
            for positionMode in ["fixed", "percent"] {
                for rotateMode in ["tangent", "chain", "chainScale"] {
                    for spacing in ["1e-30", "-3e38", "3e38", "0"] {
                        for (constantSpeed, closed) in [(false, false), (true, false), (false, true), (true, true)] {
                            let constraint =
                                #", "spacingMode": "\#(spacingMode)", "positionMode": "\#(positionMode)", "#
                                + #""rotateMode": "\#(rotateMode)", "spacing": \#(spacing), "position": 3e38"#
                            let data = try Self.load(
                                Self.pathSkeleton(
                                    bones: 20, curves: 40, constantSpeed: constantSpeed, closed: closed, constraint))
                            try Self.play(data, animation: "slide", frames: 2, delta: 0.5)
                        }
                    }
                }
            }
        }
        let long = try Self.load(
            Self.pathSkeleton(
                bones: 200, curves: 2000, constantSpeed: true, closed: true,
                #", "spacingMode": "percent", "spacing": 1e-30"#))
        try Self.play(long, animation: "slide", frames: 3, delta: 0.4)
        #expect(ContinuousClock.now - clock < .seconds(60))
    }

    // MARK: Mixes

    /// `bone` at the origin, `target` at (10, 20); a transform constraint moves `bone` toward the
    /// target by `mixX` and `mixY`; `arm` (length 10, along x) reaches for `target` with an IK mix.
    static func mixSkeleton(mixX: Float, mixY: Float, ikMix: Float, keyedMixX: Float? = nil) -> String {
        let timeline =
            keyedMixX.map {
                #", "animations": {"keyed": {"transform": {"t": [{"time": 0, "mixX": \#($0), "mixY": 0, "mixRotate": 0, "mixScaleX": 0, "mixShearY": 0}]}}}"#
            } ?? ""
        return #"""
            {"bones": [{"name": "root"}, {"name": "bone", "parent": "root"},
                       {"name": "target", "parent": "root", "x": 10, "y": 20},
                       {"name": "arm", "parent": "root", "length": 10},
                       {"name": "aim", "parent": "root", "y": 10}],
             "transform": [{"name": "t", "order": 0, "bones": ["bone"], "target": "target", "mixRotate": 0,
                            "mixX": \#(mixX), "mixY": \#(mixY), "mixScaleX": 0, "mixShearY": 0}],
             "ik": [{"name": "reach", "order": 1, "bones": ["arm"], "target": "aim", "mix": \#(ikMix)}]\#(timeline)}
            """#
    }

    @Test func mixesOutsideZeroToOneExtrapolateAsTheReferenceDoes() throws {
        // A transform mix m moves the bone by m times the way to the target: 2 goes past it,
        // -1 away from it. An IK mix m rotates by m times the rotation that reaches the target:
        // the target is 90 degrees up, so 2 turns the arm to 180 and -1 to -90.
        let cases: [(mixX: Float, mixY: Float, ik: Float, x: Float, y: Float, a: Float, c: Float)] = [
            (2, -1, 2, 20, -20, -1, 0), (-1, 3, -1, -10, 60, 0, -1), (0.5, 1, 1, 5, 20, 0, 1),
        ]
        for k in cases {
            let data = try Self.load(Self.mixSkeleton(mixX: k.mixX, mixY: k.mixY, ikMix: k.ik))
            let pose = try Self.play(data, frames: 1)
            let bone = pose.bones[1]
            #expect(abs(bone[4] - k.x) < 1e-4 && abs(bone[5] - k.y) < 1e-4, "mix \(k.mixX), \(k.mixY): \(bone)")
            let arm = pose.bones[3]
            #expect(abs(arm[0] - k.a) < 1e-5 && abs(arm[2] - k.c) < 1e-5, "ik mix \(k.ik): \(arm)")
        }
        // The same from a timeline key.
        let keyed = try Self.load(Self.mixSkeleton(mixX: 1, mixY: 0, ikMix: 1, keyedMixX: 3))
        let pose = try Self.play(keyed, animation: "keyed", frames: 1)
        #expect(abs(pose.bones[1][4] - 30) < 1e-4, "\(pose.bones[1])")
    }

    // MARK: Keys and curves

    static func keyedSkeleton(_ keys: String) -> String {
        #"{"bones": [{"name": "root"}, {"name": "b", "parent": "root"}], "animations": {"a": {"bones": {"b": {"rotate": \#(keys)}}}}}"#
    }

    /// The local rotation of bone `b` after playing animation `a` (not looping) for `time` seconds.
    static func rotation(_ data: SkeletonData, at time: Float) throws -> Float {
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        try world.setAnimation(e, "a", loop: false)
        world.update(time)
        return try world.pose(e).local[1][2]
    }

    @Test func unorderedKeysAndCurvesBeyondTheirKeysStayInsideTheTimeline() throws {
        // Keys out of time order are kept as written (as the reference keeps them): the search
        // takes the last key whose successor lies after the time, and interpolates towards it.
        let unordered = try Self.load(
            Self.keyedSkeleton(#"[{"time": 1, "value": 10}, {"time": 0, "value": 20}, {"time": 3, "value": 30}]"#))
        #expect(unordered.animations[0].duration == 3)
        #expect(abs(try Self.rotation(unordered, at: 2) - (20 + 10 * 2 / 3)) < 1e-4)
        #expect(try Self.rotation(unordered, at: 5) == 30)
        #expect(try Self.rotation(unordered, at: 0.5) == 0)  // before the first key: the setup pose
        // Several keys at one time: the last of them holds from that time on.
        let repeated = try Self.load(
            Self.keyedSkeleton(
                #"[{"time": 0}, {"time": 1, "value": 10}, {"time": 1, "value": 20}, {"time": 2, "value": 30}]"#))
        #expect(try Self.rotation(repeated, at: 1) == 20)
        #expect(abs(try Self.rotation(repeated, at: 1.5) - 25) < 1e-4)
        // Bezier handles outside the key interval (time running backwards inside the segment): the
        // curve is read by a bounded scan over its 9 samples and stays within its control points.
        let wild = try Self.load(
            Self.keyedSkeleton(#"[{"time": 0, "curve": [-5, -1000, 7, 1000]}, {"time": 1, "value": 90}]"#))
        for time: Float in [0, 0.01, 0.25, 0.5, 0.75, 0.99, 1, 2] {
            let value = try Self.rotation(wild, at: time)
            #expect(value.isFinite && abs(value) <= 1000, "time \(time): \(value)")
        }
        // Key times far apart and huge values: finite arithmetic.
        let far = try Self.load(
            Self.keyedSkeleton(#"[{"time": 0, "value": -1e30}, {"time": 3e38, "value": 1e30}]"#))
        #expect(try Self.rotation(far, at: 1).isFinite)
    }

    // MARK: Degenerate bones and meshes

    @Test func degenerateBonesAndMeshesPlayAsWritten() throws {
        let json = #"""
            {"bones": [{"name": "root"}, {"name": "w", "parent": "root", "x": 10},
                       {"name": "flat", "parent": "root", "scaleX": 0, "scaleY": 0, "length": 0},
                       {"name": "under", "parent": "flat", "length": 0, "x": 5},
                       {"name": "target", "parent": "root", "x": 3, "y": 4}],
             "slots": [{"name": "weights", "bone": "root", "attachment": "weights"},
                       {"name": "flat", "bone": "flat", "attachment": "flat"},
                       {"name": "one", "bone": "root", "attachment": "one"}],
             "ik": [{"name": "zero", "bones": ["flat", "under"], "target": "target", "stretch": true,
                     "softness": -50}],
             "transform": [{"name": "t", "order": 1, "bones": ["under"], "target": "flat"}],
             "physics": [{"name": "p", "order": 2, "bone": "under", "x": 1, "rotate": 1, "scaleX": 1}],
             "skins": [{"name": "default", "attachments": {
                 "weights": {"weights": {"type": "mesh", "uvs": [0, 0, 1, 0, 0, 1],
                     "vertices": [1, 1, 1, 0, 2, 0, 2, 1, 0, 4, -3, 1, 0, 0, 0.5], "triangles": [0, 1, 2]}},
                 "flat": {"flat": {"type": "mesh", "uvs": [0, 0, 1, 0, 0, 1], "vertices": [0, 0, 1, 0, 0, 1],
                     "triangles": [0, 1, 2, 2, 2, 2]}},
                 "one": {"one": {"type": "mesh", "uvs": [0.5, 0.5], "vertices": [7, 8], "triangles": []}}}}]}
            """#
        let data = try Self.load(json)
        let pose = try Self.play(data, frames: 10)
        // Weights that do not sum to 1 are applied as written: vertex 0 is w's (1, 0) weighted 2,
        // vertex 1 has no influence at all (the origin), vertex 2 is (0, 4) of w weighted -3
        // plus (0, 0) of w weighted 0.5 (w sits at (10, 0)).
        let weights = try #require(pose.vertices[0])
        #expect(weights == [22, 0, 0, 0, -25, -12], "\(weights)")
        // Zero scale and zero length: singular transforms, guarded as in the reference.
        #expect(pose.bones[2][0] == 0 && pose.bones[2][3] == 0)
        let one = try #require(pose.vertices[2])
        #expect(abs(one[0] - 7) < 1e-5 && abs(one[1] - 8) < 1e-5, "\(one)")
    }

    /// Poses that overflow: translate keys at the float extremes interpolate to infinities, a
    /// rotate key makes NaN. Every system after the keys (constraints, physics, vertices, clipping,
    /// bounds) takes them: nothing traps, nothing loops on a NaN comparison.
    @Test func nonFinitePosesAreHarmlessDownstream() throws {
        let json = #"""
            {"bones": [{"name": "root"}, {"name": "big", "parent": "root", "length": 10},
                       {"name": "child", "parent": "big", "length": 10, "x": 10},
                       {"name": "reach", "parent": "root", "length": 10},
                       {"name": "copy", "parent": "root"}],
             "slots": [{"name": "clip", "bone": "big", "attachment": "clip"},
                       {"name": "region", "bone": "big", "attachment": "region"},
                       {"name": "mesh", "bone": "child", "attachment": "mesh"},
                       {"name": "path", "bone": "big", "attachment": "path"},
                       {"name": "box", "bone": "child", "attachment": "box"}],
             "ik": [{"name": "ik", "bones": ["reach"], "target": "child"}],
             "transform": [{"name": "t", "order": 1, "bones": ["copy"], "target": "big"}],
             "path": [{"name": "follow", "order": 2, "bones": ["reach", "copy"], "target": "path"}],
             "physics": [{"name": "p", "order": 3, "bone": "child", "x": 1, "y": 1, "rotate": 1, "scaleX": 1}],
             "skins": [{"name": "default", "attachments": {
                 "clip": {"clip": {"type": "clipping", "end": "mesh", "vertexCount": 4,
                     "vertices": [-50, -50, -50, 50, 50, 50, 50, -50]}},
                 "region": {"region": {"width": 20, "height": 20}},
                 "mesh": {"mesh": {"type": "mesh", "uvs": [0, 0, 1, 0, 1, 1, 0, 1],
                     "vertices": [2, 1, 0, 0, 0.5, 2, 0, 0, 0.5, 2, 1, 10, 0, 0.5, 2, 10, 0, 0.5,
                                  2, 1, 10, 10, 0.5, 2, 10, 10, 0.5, 2, 1, 0, 10, 0.5, 2, 0, 10, 0.5],
                     "triangles": [0, 1, 2, 2, 3, 0]}},
                 "path": {"path": {"type": "path", "vertexCount": 6,
                     "vertices": [0, 0, 10, 0, 20, 10, 30, 10, 40, 0, 50, 0], "lengths": [60, 120]}},
                 "box": {"box": {"type": "boundingbox", "vertexCount": 3, "vertices": [0, 0, 5, 0, 0, 5]}}}}],
             "animations": {"overflow": {"bones": {"big": {
                 "translate": [{"time": 0, "x": -3.4e38, "y": 3.4e38}, {"time": 1, "x": 3.4e38, "y": -3.4e38}],
                 "rotate": [{"time": 0, "value": 3.4e38}, {"time": 1, "value": -3.4e38}],
                 "scale": [{"time": 0, "x": 3e38, "y": 0}, {"time": 1, "x": -3e38, "y": 3e38}]}}}}}
            """#
        let data = try Self.load(json)
        for threads in [1, 2] {
            let world = World(scheduler: Scheduler(capacity: 4, threads: threads))
            let entities = try (0..<9).map { _ in try world.spawn(data) }
            for e in entities { try world.setAnimation(e, "overflow", loop: true) }
            var sawNonFinite = false
            for _ in 0..<40 {
                world.update(1.0 / 30)
                for e in entities {
                    let pose = try world.pose(e)
                    sawNonFinite = sawNonFinite || !Self.finite(pose)
                    _ = try world.bounds(e)
                }
            }
            #expect(sawNonFinite, "the keys no longer overflow: the case tests nothing")
        }
    }

    // MARK: Sequences, events, names

    @Test func sequenceFramesOutsideTheSequenceAreClampedWhereTheFrameIsChosen() throws {
        let json = #"""
            {"bones": [{"name": "root"}],
             "slots": [{"name": "s", "bone": "root", "attachment": "r"}],
             "skins": [{"name": "default", "attachments": {"s": {"r": {"sequence": {"count": 3, "setupIndex": 99}}}}}],
             "animations": {
                 "hold": {"attachments": {"default": {"s": {"r": {"sequence": [{"time": 0, "index": 1},
                     {"time": 1, "index": 1048575}]}}}}},
                 "loop": {"attachments": {"default": {"s": {"r": {"sequence": [{"time": 0, "mode": "loop", "delay": 0},
                     {"time": 1, "mode": "pingpongReverse", "index": 1048575, "delay": 1e-45},
                     {"time": 2, "mode": "onceReverse", "index": 7, "delay": -3e38}]}}}}}}}
            """#
        let data = try Self.load(json)
        let attachment = data.attachments[0]
        func shownFrame(_ world: World, _ e: Entity) throws -> Int32 {
            let (batch, row) = try world.locate(e)
            let cols = batch.columns()
            return SlotSystem.imageFrame(
                SlotColumns(cols), batch.rig.tables, cols.rows(row), slot: 0, attachment: 0)
        }
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        world.update(0)
        // A setup frame past the count shows the last frame (the reference's clamp).
        #expect(try shownFrame(world, e) == attachment.firstFrame + 2)
        try world.setAnimation(e, "hold", loop: false)
        world.update(0.5)
        #expect(try shownFrame(world, e) == attachment.firstFrame + 1)
        world.update(1)
        #expect(try shownFrame(world, e) == attachment.firstFrame + 2)  // 2^20 - 1: the last
        try world.setAnimation(e, "loop", loop: true)
        for _ in 0..<12 {
            world.update(0.3)
            let frame = try shownFrame(world, e)
            #expect(frame >= attachment.firstFrame && frame < attachment.firstFrame + 3)
        }
    }

    @Test func eventPayloadsAreDeliveredAsWritten() throws {
        let long = String(repeating: "x", count: 100_000)
        let json = #"""
            {"bones": [{"name": "root"}],
             "events": {"e": {"int": -2147483648, "float": 3.4e38, "string": "\#(long)", "audio": "a.ogg",
                              "volume": -1e30, "balance": 1e30}},
             "animations": {"a": {"events": [{"time": 0, "name": "e", "volume": -1e30, "balance": 1e30},
                 {"time": 0, "name": "e", "int": 2147483647, "float": -3.4e38, "string": ""}]}}}
            """#
        let data = try Self.load(json)
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        let (batch, _) = try world.locate(e)
        final class Received: @unchecked Sendable { var events: [AnimationEvent] = [] }
        let received = Received()
        batch.animationStates.listener = { _, _, event in if let event { received.events.append(event) } }
        try world.setAnimation(e, "a", loop: false)
        world.update(0.1)
        batch.animationStates.listener = nil
        try #require(received.events.count == 2)
        #expect(received.events[0].intValue == Int32.min && received.events[0].floatValue == 3.4e38)
        #expect(received.events[0].stringValue == long && received.events[0].volume == -1e30)
        #expect(received.events[1].intValue == Int32.max && received.events[1].floatValue == -3.4e38)
        #expect(received.events[0].balance == 1e30)
        #expect(received.events[1].stringValue == "" && received.events[1].volume == 1)
    }

    @Test func attachmentNamesThatResolveToNothingShowNothing() throws {
        let json = #"""
            {"bones": [{"name": "root"}],
             "slots": [{"name": "s", "bone": "root", "attachment": "ghost"}],
             "skins": [{"name": "default", "attachments": {"s": {"real": {"width": 10, "height": 10}}}}],
             "animations": {"a": {"slots": {"s": {"attachment": [{"time": 0, "name": "real"},
                 {"time": 1, "name": "nowhere"}, {"time": 2, "name": "real"}]}}}}}
            """#
        let data = try Self.load(json)
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        #expect(try world.pose(e).attachments == [nil])  // the setup name is in no skin
        try world.setAnimation(e, "a", loop: false)
        var shown: [String?] = []
        for _ in 0..<3 {
            world.update(0.6)
            shown.append(try world.pose(e).attachments[0])
        }
        world.update(1)
        shown.append(try world.pose(e).attachments[0])
        #expect(shown == ["real", nil, nil, "real"], "\(shown)")
    }

    // MARK: What a frame's work grows with

    @Test func queuedEntriesStartOneAtATimePerTrack() throws {
        let data = try Self.load(
            #"{"bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": {"rotate": [{"time": 0}, {"time": 1, "value": 90}]}}}}}"#
        )
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        let e = try world.spawn(data)
        let state = try world.animationState(e)
        try state.setAnimation(0, "a", loop: false)
        for _ in 0..<10_000 { try state.addAnimation(0, "a", loop: false, delay: 0) }
        // However long the frame, an update starts at most one queued entry per track: the queue
        // costs nothing per frame until its head is reached (the reference behaves the same).
        var starts = 0
        let (batch, _) = try world.locate(e)
        batch.animationStates.listener = { type, _, _ in if type == .start { starts += 1 } }
        let clock = ContinuousClock.now
        for _ in 0..<5 { world.update(1000) }
        batch.animationStates.listener = nil
        #expect(starts <= 6, "\(starts) entries started in 5 updates")
        #expect(ContinuousClock.now - clock < .seconds(10))
    }

    /// A chain of bones as deep as a file allows (each bone the child of the one before), with an
    /// IK constraint at its far end, and tens of thousands of constraints: compiling the update
    /// order recursed once per bone (a worker thread's stack holds a few thousand) and searched
    /// every constraint list for every position (quadratic).
    @Test func deepBoneChainsAndManyConstraintsCompileWithoutRecursionOrQuadraticWork() throws {
        let depth = 30_000
        var bones = #"{"name": "b0"}"#
        for i in 1..<depth { bones += #", {"name": "b\#(i)", "parent": "b\#(i - 1)", "length": 1, "x": 1}"# }
        let deep = try Self.load(
            #"{"bones": [\#(bones)], "ik": [{"name": "ik", "bones": ["b\#(depth - 2)"], "target": "b\#(depth - 1)"}]}"#)
        final class Result: @unchecked Sendable { var error: (any Error)?; var done = false }
        let result = Result()
        let thread = Thread {
            do {
                let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
                _ = try world.spawn(deep)
            } catch {
                result.error = error
            }
            result.done = true
        }
        thread.stackSize = 256 << 10
        thread.start()
        let clock = ContinuousClock.now
        while !result.done && ContinuousClock.now - clock < .seconds(120) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(result.done && result.error == nil, "\(String(describing: result.error))")

        let count = 40_000
        var constraints: [String] = []
        for i in 0..<count {
            constraints.append(#"{"name": "t\#(i)", "order": \#(count - 1 - i), "bones": ["a"], "target": "root"}"#)
        }
        let many = try Self.load(
            #"{"bones": [{"name": "root"}, {"name": "a", "parent": "root"}], "transform": [\#(constraints.joined(separator: ", "))]}"#
        )
        let started = ContinuousClock.now
        let world = World(scheduler: Scheduler(capacity: 4, threads: 1))
        _ = try world.spawn(many)
        world.update(1.0 / 60)
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
