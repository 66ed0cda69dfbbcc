/// An animation being assembled: timelines in the reference's order, and the duration as the
/// reference computes it (the largest last-key time over all timelines).
struct AnimationAssembly {
    var animation: AnimationData
    var duration: Float = 0

    init(name: String) { animation = AnimationData(name: name, duration: 0) }

    mutating func add(_ timeline: TimelineBuilder) {
        let frameCount = timeline.frameCount
        guard frameCount > 0 else { return }
        let last = timeline.frames[(frameCount - 1) * timeline.data.kind.frameStride]
        duration = duration > last ? duration : last
        animation.append(timeline)
    }

    func finish() -> AnimationData {
        var result = animation
        result.duration = duration
        return result
    }
}

extension JSONSkeletonReading {
    mutating func readAnimations(_ root: Int32) throws {
        guard let animations = try optionalObject(root, "animations") else { return }
        for node in doc.children(animations) {
            try requireObject(node, "an animation object")
            builder.animations.append(try readAnimation(node))
        }
    }

    /// One animation, its timelines in the reference's order: slots, bones, IK, transform, path,
    /// physics, attachments (deform, sequence), draw order, events.
    mutating func readAnimation(_ node: Int32) throws -> AnimationData {
        var assembly = AnimationAssembly(name: doc.key(node))
        if let slots = try optionalObject(node, "slots") { try readSlotTimelines(slots, &assembly) }
        if let bones = try optionalObject(node, "bones") { try readBoneTimelines(bones, &assembly) }
        if let ik = try optionalObject(node, "ik") { try readIKTimelines(ik, &assembly) }
        if let transform = try optionalObject(node, "transform") { try readTransformTimelines(transform, &assembly) }
        if let paths = try optionalObject(node, "path") { try readPathTimelines(paths, &assembly) }
        if let physics = try optionalObject(node, "physics") { try readPhysicsTimelines(physics, &assembly) }
        if let attachments = try optionalObject(node, "attachments") {
            try readAttachmentTimelines(attachments, &assembly)
        }
        if let drawOrder = try optionalArray(node, "drawOrder") { try readDrawOrder(drawOrder, &assembly) }
        if let events = try optionalArray(node, "events") { try readEventTimeline(events, &assembly) }
        return assembly.finish()
    }

    // MARK: Curves

    /// Reads the `curve` of one key for value `value`: "stepped", or bezier handles
    /// [cx1, cy1, cx2, cy2] per value. Returns the next free bezier index.
    func readCurve(
        _ curve: Int32, _ timeline: inout TimelineBuilder, bezier: Int, frame: Int, value: Int, time1: Float,
        time2: Float, value1: Float, value2: Float, scale curveScale: Float
    ) throws -> Int {
        switch doc.type(curve) {
        case .string:
            guard doc.stringIs(curve, "stepped") else {
                throw typeError(curve, expected: "\"stepped\" or an array of bezier handles")
            }
            timeline.setStepped(frame)
            return bezier
        case .array:
            let base = value * 4
            guard let cx1Node = doc.element(curve, base), let cy1Node = doc.element(curve, base + 1),
                let cx2Node = doc.element(curve, base + 2), let cy2Node = doc.element(curve, base + 3)
            else {
                throw error(
                    .malformed, curve, expected: "at least \(base + 4) bezier handle values",
                    found: "\(doc.count(curve))")
            }
            let cx1 = try floatValue(cx1Node)
            let cy1 = try floatValue(cy1Node) * curveScale
            let cx2 = try floatValue(cx2Node)
            let cy2 = try floatValue(cy2Node) * curveScale
            timeline.setBezier(
                bezier: bezier, frame: frame, value: value, time1: time1, value1: value1, cx1: cx1, cy1: cy1,
                cx2: cx2, cy2: cy2, time2: time2, value2: value2)
            guard timeline.bezierIsFinite(bezier) else {
                throw error(
                    .malformed, curve, expected: ValueLimits.bezierExpected,
                    found: "handles (\(cx1), \(cy1)), (\(cx2), \(cy2)) between keys at \(time1) and \(time2)")
            }
            return bezier + 1
        default:
            throw typeError(curve, expected: "\"stepped\" or an array of bezier handles")
        }
    }

    /// A curve timeline whose keys each give `values` (read by `read`); the first
    /// `curveScales.count` values are curved, each curve's handles scaled by its entry.
    /// `keepFirst`: a value index whose first key value is kept for every frame (a reference quirk,
    /// see `readTransformTimelines`).
    func readCurveTimeline(
        _ keys: Int32, kind: TimelineKind, target: Int32, curveScales: [Float], keepFirst: Int? = nil,
        _ read: (Int32) throws -> [Float]
    ) throws -> TimelineBuilder {
        var timeline = TimelineBuilder(kind: kind, target: target, frameCount: doc.count(keys))
        guard var key = doc.firstChild(keys) else { return timeline }
        try requireObject(key, "a key object")
        var time = try float(key, "time", 0)
        var values = try read(key)
        let kept = keepFirst.map { values[$0] }
        var bezier = 0
        var frame = 0
        while true {
            timeline.setFrame(frame, time: time, values: values)
            guard let next = doc.nextSibling(key) else { break }
            try requireObject(next, "a key object")
            let time2 = try float(next, "time", 0)
            var values2 = try read(next)
            if let curve = doc.member(key, "curve") {
                for v in curveScales.indices {
                    bezier = try readCurve(
                        curve, &timeline, bezier: bezier, frame: frame, value: v, time1: time, time2: time2,
                        value1: values[v], value2: values2[v], scale: curveScales[v])
                }
            }
            if let keepFirst, let kept { values2[keepFirst] = kept }
            time = time2
            values = values2
            key = next
            frame += 1
        }
        return timeline
    }

    /// One value per key (`value`, with a default), curved with the value's scale.
    func readValueTimeline(
        _ keys: Int32, kind: TimelineKind, target: Int32, defaultValue: Float, scale valueScale: Float
    ) throws -> TimelineBuilder {
        try readCurveTimeline(keys, kind: kind, target: target, curveScales: [valueScale]) { key in
            [try float(key, "value", defaultValue) * valueScale]
        }
    }

    /// Two values per key (x and y style), both curved.
    func readPairTimeline(
        _ keys: Int32, kind: TimelineKind, target: Int32, _ name1: StaticString, _ name2: StaticString,
        defaultValue: Float, scale valueScale: Float
    ) throws -> TimelineBuilder {
        try readCurveTimeline(keys, kind: kind, target: target, curveScales: [valueScale, valueScale]) { key in
            [try float(key, name1, defaultValue) * valueScale, try float(key, name2, defaultValue) * valueScale]
        }
    }

    // MARK: Slots

    mutating func readSlotTimelines(_ slots: Int32, _ assembly: inout AnimationAssembly) throws {
        for slotNode in doc.children(slots) {
            let slot = try lookupKey(slotIDs, slotNode, "slot")
            try requireObject(slotNode, "an object of slot timelines")
            for timelineNode in doc.children(slotNode) {
                let kind: TimelineKind
                if doc.keyIs(timelineNode, "attachment") {
                    kind = .attachment
                } else if doc.keyIs(timelineNode, "rgba") {
                    kind = .rgba
                } else if doc.keyIs(timelineNode, "rgb") {
                    kind = .rgb
                } else if doc.keyIs(timelineNode, "alpha") {
                    kind = .alpha
                } else if doc.keyIs(timelineNode, "rgba2") {
                    kind = .rgba2
                } else if doc.keyIs(timelineNode, "rgb2") {
                    kind = .rgb2
                } else {
                    throw error(
                        .malformed, timelineNode,
                        expected: "a slot timeline (attachment, rgba, rgb, alpha, rgba2, rgb2)",
                        found: "'\(doc.key(timelineNode))'")
                }
                try requireArray(timelineNode, "an array of keys")
                guard doc.count(timelineNode) > 0 else { continue }
                switch kind {
                case .attachment:
                    assembly.add(try readAttachmentTimeline(timelineNode, slot: slot))
                case .alpha:
                    assembly.add(
                        try readValueTimeline(timelineNode, kind: .alpha, target: slot, defaultValue: 0, scale: 1))
                case .rgba:
                    assembly.add(
                        try readCurveTimeline(timelineNode, kind: .rgba, target: slot, curveScales: [1, 1, 1, 1]) {
                            key in
                            let c = try requiredColor(key, "color", alpha: true)
                            return [c.r, c.g, c.b, c.a]
                        })
                case .rgb:
                    assembly.add(
                        try readCurveTimeline(timelineNode, kind: .rgb, target: slot, curveScales: [1, 1, 1]) { key in
                            let c = try requiredColor(key, "color", alpha: false)
                            return [c.r, c.g, c.b]
                        })
                case .rgba2:
                    assembly.add(
                        try readCurveTimeline(
                            timelineNode, kind: .rgba2, target: slot, curveScales: [1, 1, 1, 1, 1, 1, 1]
                        ) { key in
                            let light = try requiredColor(key, "light", alpha: true)
                            let dark = try requiredColor(key, "dark", alpha: false)
                            return [light.r, light.g, light.b, light.a, dark.r, dark.g, dark.b]
                        })
                default:
                    assembly.add(
                        try readCurveTimeline(
                            timelineNode, kind: .rgb2, target: slot, curveScales: [1, 1, 1, 1, 1, 1]
                        ) { key in
                            let light = try requiredColor(key, "light", alpha: false)
                            let dark = try requiredColor(key, "dark", alpha: false)
                            return [light.r, light.g, light.b, dark.r, dark.g, dark.b]
                        })
                }
            }
        }
    }

    mutating func readAttachmentTimeline(_ keys: Int32, slot: Int32) throws -> TimelineBuilder {
        var timeline = TimelineBuilder(kind: .attachment, target: slot, frameCount: doc.count(keys))
        timeline.ints.reserveCapacity(timeline.frameCount)
        for (frame, key) in doc.children(keys).enumerated() {
            try requireObject(key, "a key object")
            timeline.setFrame(frame, time: try float(key, "time", 0))
            if let name = try string(key, "name"), !name.isEmpty {
                timeline.ints.append(builder.intern(name))
            } else {
                timeline.ints.append(-1)
            }
        }
        return timeline
    }

    // MARK: Bones

    func readBoneTimelines(_ bones: Int32, _ assembly: inout AnimationAssembly) throws {
        for boneNode in doc.children(bones) {
            let bone = try lookupKey(boneIDs, boneNode, "bone")
            try requireObject(boneNode, "an object of bone timelines")
            for timelineNode in doc.children(boneNode) {
                try requireArray(timelineNode, "an array of keys")
                // The reference skips empty bone timelines before looking at their names.
                guard doc.count(timelineNode) > 0 else { continue }
                let t = timelineNode
                if doc.keyIs(t, "rotate") {
                    assembly.add(try readValueTimeline(t, kind: .rotate, target: bone, defaultValue: 0, scale: 1))
                } else if doc.keyIs(t, "translate") {
                    assembly.add(
                        try readPairTimeline(t, kind: .translate, target: bone, "x", "y", defaultValue: 0, scale: scale)
                    )
                } else if doc.keyIs(t, "translatex") {
                    assembly.add(
                        try readValueTimeline(t, kind: .translateX, target: bone, defaultValue: 0, scale: scale))
                } else if doc.keyIs(t, "translatey") {
                    assembly.add(
                        try readValueTimeline(t, kind: .translateY, target: bone, defaultValue: 0, scale: scale))
                } else if doc.keyIs(t, "scale") {
                    assembly.add(
                        try readPairTimeline(t, kind: .scale, target: bone, "x", "y", defaultValue: 1, scale: 1))
                } else if doc.keyIs(t, "scalex") {
                    assembly.add(try readValueTimeline(t, kind: .scaleX, target: bone, defaultValue: 1, scale: 1))
                } else if doc.keyIs(t, "scaley") {
                    assembly.add(try readValueTimeline(t, kind: .scaleY, target: bone, defaultValue: 1, scale: 1))
                } else if doc.keyIs(t, "shear") {
                    assembly.add(
                        try readPairTimeline(t, kind: .shear, target: bone, "x", "y", defaultValue: 0, scale: 1))
                } else if doc.keyIs(t, "shearx") {
                    assembly.add(try readValueTimeline(t, kind: .shearX, target: bone, defaultValue: 0, scale: 1))
                } else if doc.keyIs(t, "sheary") {
                    assembly.add(try readValueTimeline(t, kind: .shearY, target: bone, defaultValue: 0, scale: 1))
                } else if doc.keyIs(t, "inherit") {
                    var timeline = TimelineBuilder(kind: .inherit, target: bone, frameCount: doc.count(t))
                    for (frame, key) in doc.children(t).enumerated() {
                        try requireObject(key, "a key object")
                        let value = try inherit(key, "inherit")
                        timeline.setFrame(frame, time: try float(key, "time", 0), Float(value.rawValue))
                    }
                    assembly.add(timeline)
                } else {
                    throw error(
                        .malformed, t,
                        expected:
                            "a bone timeline (rotate, translate, translatex, translatey, scale, scalex, scaley, shear, shearx, sheary, inherit)",
                        found: "'\(doc.key(t))'")
                }
            }
        }
    }

    // MARK: Constraints

    func readIKTimelines(_ ik: Int32, _ assembly: inout AnimationAssembly) throws {
        for node in doc.children(ik) {
            try requireArray(node, "an array of keys")
            guard doc.count(node) > 0 else { continue }
            let index = try lookupKey(ikIDs, node, "IK constraint")
            assembly.add(
                try readCurveTimeline(node, kind: .ik, target: index, curveScales: [1, scale]) { key in
                    [
                        try float(key, "mix", 1), try float(key, "softness", 0) * scale,
                        try bool(key, "bendPositive", true) ? 1 : -1, try bool(key, "compress", false) ? 1 : 0,
                        try bool(key, "stretch", false) ? 1 : 0,
                    ]
                })
        }
    }

    /// The reference never advances the shear Y mix from key to key in JSON transform timelines:
    /// every frame stores the first key's value, and each curve starts from it. Bonework keeps
    /// that so JSON poses match the reference traces.
    func readTransformTimelines(_ transform: Int32, _ assembly: inout AnimationAssembly) throws {
        for node in doc.children(transform) {
            try requireArray(node, "an array of keys")
            guard doc.count(node) > 0 else { continue }
            let index = try lookupKey(transformIDs, node, "transform constraint")
            assembly.add(
                try readCurveTimeline(
                    node, kind: .transform, target: index, curveScales: [1, 1, 1, 1, 1, 1], keepFirst: 5
                ) {
                    key in
                    let mixX = try float(key, "mixX", 1)
                    let mixScaleX = try float(key, "mixScaleX", 1)
                    return [
                        try float(key, "mixRotate", 1), mixX, try float(key, "mixY", mixX), mixScaleX,
                        try float(key, "mixScaleY", mixScaleX), try float(key, "mixShearY", 1),
                    ]
                })
        }
    }

    func readPathTimelines(_ paths: Int32, _ assembly: inout AnimationAssembly) throws {
        for node in doc.children(paths) {
            let index = try lookupKey(pathIDs, node, "path constraint")
            try requireObject(node, "an object of path constraint timelines")
            let constraint = builder.pathConstraints[Int(index)]
            for t in doc.children(node) {
                // Other names are ignored, as the reference ignores them.
                if doc.keyIs(t, "position") {
                    try requireArray(t, "an array of keys")
                    guard doc.count(t) > 0 else { continue }
                    let valueScale = constraint.positionMode == .fixed ? scale : 1
                    assembly.add(
                        try readValueTimeline(t, kind: .pathPosition, target: index, defaultValue: 0, scale: valueScale)
                    )
                } else if doc.keyIs(t, "spacing") {
                    try requireArray(t, "an array of keys")
                    guard doc.count(t) > 0 else { continue }
                    let valueScale = constraint.spacingMode == .length || constraint.spacingMode == .fixed ? scale : 1
                    assembly.add(
                        try readValueTimeline(t, kind: .pathSpacing, target: index, defaultValue: 0, scale: valueScale))
                } else if doc.keyIs(t, "mix") {
                    try requireArray(t, "an array of keys")
                    guard doc.count(t) > 0 else { continue }
                    assembly.add(
                        try readCurveTimeline(t, kind: .pathMix, target: index, curveScales: [1, 1, 1]) { key in
                            let mixX = try float(key, "mixX", 1)
                            return [try float(key, "mixRotate", 1), mixX, try float(key, "mixY", mixX)]
                        })
                }
            }
        }
    }

    func readPhysicsTimelines(_ physics: Int32, _ assembly: inout AnimationAssembly) throws {
        for node in doc.children(physics) {
            // The empty name addresses every physics constraint.
            let name = doc.key(node)
            let index = name.isEmpty ? -1 : try lookupKey(physicsIDs, node, "physics constraint")
            try requireObject(node, "an object of physics constraint timelines")
            for t in doc.children(node) {
                let kind: TimelineKind
                if doc.keyIs(t, "reset") {
                    kind = .physicsReset
                } else if doc.keyIs(t, "inertia") {
                    kind = .physicsInertia
                } else if doc.keyIs(t, "strength") {
                    kind = .physicsStrength
                } else if doc.keyIs(t, "damping") {
                    kind = .physicsDamping
                } else if doc.keyIs(t, "mass") {
                    kind = .physicsMass
                } else if doc.keyIs(t, "wind") {
                    kind = .physicsWind
                } else if doc.keyIs(t, "gravity") {
                    kind = .physicsGravity
                } else if doc.keyIs(t, "mix") {
                    kind = .physicsMix
                } else {
                    continue  // ignored, as the reference ignores unknown names here
                }
                try requireArray(t, "an array of keys")
                guard doc.count(t) > 0 else { continue }
                if kind == .physicsReset {
                    var timeline = TimelineBuilder(kind: .physicsReset, target: index, frameCount: doc.count(t))
                    for (frame, key) in doc.children(t).enumerated() {
                        try requireObject(key, "a key object")
                        timeline.setFrame(frame, time: try float(key, "time", 0))
                    }
                    assembly.add(timeline)
                } else if kind == .physicsMass || kind == .physicsDamping {
                    // The same decisions as for setup values (`ValueLimits`): a mass key must be
                    // usable, a damping key is clamped to 0...1.
                    assembly.add(
                        try readCurveTimeline(t, kind: kind, target: index, curveScales: [1]) { key in
                            let value = try float(key, "value", 0)
                            if kind == .physicsDamping { return [ValueLimits.clampDamping(value)] }
                            guard ValueLimits.isUsableMass(value) else {
                                throw error(
                                    .malformed, key, member: "value", expected: ValueLimits.massExpected,
                                    found: "\(value)")
                            }
                            return [value]
                        })
                } else {
                    assembly.add(try readValueTimeline(t, kind: kind, target: index, defaultValue: 0, scale: 1))
                }
            }
        }
    }
}
