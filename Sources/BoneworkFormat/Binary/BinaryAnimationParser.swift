/// Animation reading for the binary format: every timeline kind, its curves, and the derived
/// per-key values (draw order permutations, full deform arrays) in the reference's layout.
extension BinarySkeletonParser {
    /// How a curve timeline's values are stored: floats multiplied by a scale (bezier control
    /// values get the same scale), or colour bytes divided by 255 in double precision.
    enum ValueEncoding {
        case float(scale: Float)
        case colorByte
    }

    /// What a curve timeline's key values may be (`Docs/Limits.md`): anything finite, a physics
    /// mass (above 0, its inverse finite: refused otherwise), or a physics damping (clamped to
    /// 0...1).
    enum ValuePolicy {
        case any
        case mass
        case damping
    }

    mutating func readAnimations() throws {
        let count = try input.readCount("animation count", minBytesEach: 11)
        builder.animations.reserveCapacity(count)
        for _ in 0..<count {
            let name = try input.readString() ?? ""
            builder.animations.append(try readAnimation(name: name))
        }
    }

    private mutating func readAnimation(name: String) throws -> AnimationData {
        var animation = AnimationData(name: name, duration: 0)
        _ = try input.readVarint()  // total timeline count, a hint only
        try readSlotTimelines(into: &animation)
        try readBoneTimelines(into: &animation)
        try readIKTimelines(into: &animation)
        try readTransformTimelines(into: &animation)
        try readPathTimelines(into: &animation)
        try readPhysicsTimelines(into: &animation)
        try readAttachmentTimelines(into: &animation)
        try readDrawOrderTimeline(into: &animation)
        try readEventTimeline(into: &animation)
        return animation
    }

    /// Appends a timeline; the animation lasts until the last key of its longest timeline.
    func add(_ timeline: TimelineBuilder, to animation: inout AnimationData) {
        let last = timeline.frames[(timeline.frameCount - 1) * timeline.data.kind.frameStride]
        animation.duration = animation.duration > last ? animation.duration : last
        animation.append(timeline)
    }

    /// A timeline's key count: at least one key, each taking at least 4 bytes (its time).
    mutating func readFrameCount() throws -> Int {
        let at = input.offset
        let count = try input.readCount("key count", minBytesEach: 4)
        guard count > 0 else { throw input.error(.malformed, at: at, expected: "a timeline with keys", found: 0) }
        return count
    }

    // MARK: Slot and bone timelines

    private mutating func readSlotTimelines(into animation: inout AnimationData) throws {
        let groups = try input.readCount("slot timeline group count", minBytesEach: 2)
        for _ in 0..<groups {
            let slot = try input.readIndex("timeline slot", count: builder.slots.count)
            let count = try input.readCount("slot timeline count", minBytesEach: 2)
            for _ in 0..<count {
                let typeAt = input.offset
                let type = try input.readByte()
                let frameCount = try readFrameCount()
                let timeline: TimelineBuilder
                switch type {
                case 0: timeline = try readAttachmentKeys(slot: slot, frameCount: frameCount)
                case 1: timeline = try readCurveTimeline(.rgba, slot, frameCount, .colorByte)
                case 2: timeline = try readCurveTimeline(.rgb, slot, frameCount, .colorByte)
                case 3: timeline = try readCurveTimeline(.rgba2, slot, frameCount, .colorByte)
                case 4: timeline = try readCurveTimeline(.rgb2, slot, frameCount, .colorByte)
                case 5: timeline = try readCurveTimeline(.alpha, slot, frameCount, .colorByte)
                default:
                    throw input.error(.malformed, at: typeAt, expected: "a slot timeline type in 0...5", found: type)
                }
                add(timeline, to: &animation)
            }
        }
    }

    private mutating func readAttachmentKeys(slot: Int32, frameCount: Int) throws -> TimelineBuilder {
        var timeline = TimelineBuilder(kind: .attachment, target: slot, frameCount: frameCount)
        timeline.ints.reserveCapacity(frameCount)
        for frame in 0..<frameCount {
            timeline.setFrame(frame, time: try input.readFloat(), values: [])
            timeline.ints.append(internReference(try input.readStringRefIndex()))
        }
        return timeline
    }

    private mutating func readBoneTimelines(into animation: inout AnimationData) throws {
        let groups = try input.readCount("bone timeline group count", minBytesEach: 2)
        for _ in 0..<groups {
            let bone = try input.readIndex("timeline bone", count: builder.bones.count)
            let count = try input.readCount("bone timeline count", minBytesEach: 2)
            for _ in 0..<count {
                let typeAt = input.offset
                let type = try input.readByte()
                let frameCount = try readFrameCount()
                let timeline: TimelineBuilder
                switch type {
                case 0: timeline = try readCurveTimeline(.rotate, bone, frameCount, .float(scale: 1))
                case 1: timeline = try readCurveTimeline(.translate, bone, frameCount, .float(scale: scale))
                case 2: timeline = try readCurveTimeline(.translateX, bone, frameCount, .float(scale: scale))
                case 3: timeline = try readCurveTimeline(.translateY, bone, frameCount, .float(scale: scale))
                case 4: timeline = try readCurveTimeline(.scale, bone, frameCount, .float(scale: 1))
                case 5: timeline = try readCurveTimeline(.scaleX, bone, frameCount, .float(scale: 1))
                case 6: timeline = try readCurveTimeline(.scaleY, bone, frameCount, .float(scale: 1))
                case 7: timeline = try readCurveTimeline(.shear, bone, frameCount, .float(scale: 1))
                case 8: timeline = try readCurveTimeline(.shearX, bone, frameCount, .float(scale: 1))
                case 9: timeline = try readCurveTimeline(.shearY, bone, frameCount, .float(scale: 1))
                case 10:
                    var inherit = TimelineBuilder(kind: .inherit, target: bone, frameCount: frameCount)
                    var value: [Float] = [0]
                    for frame in 0..<frameCount {
                        let time = try input.readFloat()
                        let modeAt = input.offset
                        value[0] = Float(try readInherit(Int(try input.readByte()), at: modeAt).rawValue)
                        inherit.setFrame(frame, time: time, values: value)
                    }
                    timeline = inherit
                default:
                    throw input.error(.malformed, at: typeAt, expected: "a bone timeline type in 0...10", found: type)
                }
                add(timeline, to: &animation)
            }
        }
    }

    // MARK: Curves

    /// Reads a curve timeline's bezier count and keys: time and values per key, and between keys
    /// a curve type (linear, stepped, or bezier with 4 control floats per value).
    private mutating func readCurveTimeline(
        _ kind: TimelineKind, _ target: Int32, _ frameCount: Int, _ encoding: ValueEncoding,
        policy: ValuePolicy = .any
    ) throws -> TimelineBuilder {
        _ = try input.readVarint()  // bezier count: curve storage grows as segments arrive
        let valueCount = kind.frameStride - 1
        var timeline = TimelineBuilder(kind: kind, target: target, frameCount: frameCount)
        var current = [Float](repeating: 0, count: valueCount)
        var next = current
        let curveScale: Float
        switch encoding {
        case .float(let scale): curveScale = scale
        case .colorByte: curveScale = 1
        }
        var time = try input.readFloat()
        try readValues(&current, encoding, policy)
        var bezier = 0
        var frame = 0
        while true {
            timeline.setFrame(frame, time: time, values: current)
            if frame == frameCount - 1 { break }
            let time2 = try input.readFloat()
            try readValues(&next, encoding, policy)
            let curveAt = input.offset
            switch try input.readSByte() {
            case 0:
                break
            case 1:
                timeline.setStepped(frame)
            case 2:
                for value in 0..<valueCount {
                    try readBezier(
                        &timeline, bezier: bezier, frame: frame, value: value, time1: time, time2: time2,
                        value1: current[value], value2: next[value], scale: curveScale)
                    bezier += 1
                }
            case let code:
                throw curveTypeError(code, at: curveAt)
            }
            time = time2
            swap(&current, &next)
            frame += 1
        }
        return timeline
    }

    private mutating func readValues(_ values: inout [Float], _ encoding: ValueEncoding, _ policy: ValuePolicy)
        throws
    {
        switch encoding {
        case .float(let scale):
            for i in values.indices {
                let at = input.offset
                values[i] = try input.readFloat() * scale
                switch policy {
                case .any:
                    break
                case .mass:
                    guard ValueLimits.isUsableMass(values[i]) else {
                        throw input.error(
                            .malformed, at: at, expected: ValueLimits.massExpected, found: values[i])
                    }
                case .damping:
                    values[i] = ValueLimits.clampDamping(values[i])
                }
            }
        case .colorByte:
            for i in values.indices { values[i] = Float(Double(try input.readByte()) / 255.0) }
        }
    }

    /// The format's curve types are 0 (linear), 1 (stepped) and 2 (bezier); the reference reads
    /// any other code as linear, but no export holds one.
    func curveTypeError(_ code: Int8, at: Int) -> LoadError {
        input.error(.malformed, at: at, expected: "a curve type in 0...2 (linear, stepped, bezier)", found: code)
    }

    /// One bezier segment: 4 control floats, the y ones multiplied by `scale` like the values.
    mutating func readBezier(
        _ timeline: inout TimelineBuilder, bezier: Int, frame: Int, value: Int, time1: Float, time2: Float,
        value1: Float, value2: Float, scale: Float
    ) throws {
        let at = input.offset
        let cx1 = try input.readFloat()
        let cy1 = try input.readFloat()
        let cx2 = try input.readFloat()
        let cy2 = try input.readFloat()
        timeline.setBezier(
            bezier: bezier, frame: frame, value: value, time1: time1, value1: value1, cx1: cx1, cy1: cy1 * scale,
            cx2: cx2, cy2: cy2 * scale, time2: time2, value2: value2)
        guard timeline.bezierIsFinite(bezier) else {
            throw input.error(
                .malformed, at: at, expected: ValueLimits.bezierExpected,
                found: "handles (\(cx1), \(cy1)), (\(cx2), \(cy2)) between keys at \(time1) and \(time2)")
        }
    }

    // MARK: Constraint timelines

    private mutating func readIKTimelines(into animation: inout AnimationData) throws {
        let count = try input.readCount("ik timeline count", minBytesEach: 8)
        for _ in 0..<count {
            let index = try input.readIndex("ik timeline constraint", count: builder.ikConstraints.count)
            let frameCount = try readFrameCount()
            _ = try input.readVarint()  // bezier count
            var timeline = TimelineBuilder(kind: .ik, target: index, frameCount: frameCount)
            var values = [Float](repeating: 0, count: 5)
            var flags = try input.readByte()
            var time = try input.readFloat()
            var mix: Float = try flags & 1 != 0 ? (flags & 2 != 0 ? input.readFloat() : 1) : 0
            var softness: Float = try flags & 4 != 0 ? input.readFloat() * scale : 0
            var bezier = 0
            var frame = 0
            while true {
                values[0] = mix
                values[1] = softness
                values[2] = flags & 8 != 0 ? 1 : -1
                values[3] = flags & 16 != 0 ? 1 : 0
                values[4] = flags & 32 != 0 ? 1 : 0
                timeline.setFrame(frame, time: time, values: values)
                if frame == frameCount - 1 { break }
                flags = try input.readByte()
                let time2 = try input.readFloat()
                let mix2: Float = try flags & 1 != 0 ? (flags & 2 != 0 ? input.readFloat() : 1) : 0
                let softness2: Float = try flags & 4 != 0 ? input.readFloat() * scale : 0
                if flags & 64 != 0 {
                    timeline.setStepped(frame)
                } else if flags & 128 != 0 {
                    try readBezier(
                        &timeline, bezier: bezier, frame: frame, value: 0, time1: time, time2: time2, value1: mix,
                        value2: mix2, scale: 1)
                    try readBezier(
                        &timeline, bezier: bezier + 1, frame: frame, value: 1, time1: time, time2: time2,
                        value1: softness, value2: softness2, scale: scale)
                    bezier += 2
                }
                time = time2
                mix = mix2
                softness = softness2
                frame += 1
            }
            add(timeline, to: &animation)
        }
    }

    private mutating func readTransformTimelines(into animation: inout AnimationData) throws {
        let count = try input.readCount("transform timeline count", minBytesEach: 31)
        for _ in 0..<count {
            let index = try input.readIndex(
                "transform timeline constraint", count: builder.transformConstraints.count)
            let frameCount = try readFrameCount()
            add(try readCurveTimeline(.transform, index, frameCount, .float(scale: 1)), to: &animation)
        }
    }

    private mutating func readPathTimelines(into animation: inout AnimationData) throws {
        let groups = try input.readCount("path timeline group count", minBytesEach: 2)
        for _ in 0..<groups {
            let index = try input.readIndex("path timeline constraint", count: builder.pathConstraints.count)
            let constraint = builder.pathConstraints[Int(index)]
            let count = try input.readCount("path timeline count", minBytesEach: 3)
            for _ in 0..<count {
                let typeAt = input.offset
                let type = try input.readByte()
                let frameCount = try readFrameCount()
                switch type {
                case 0:
                    let s = constraint.positionMode == .fixed ? scale : 1
                    add(try readCurveTimeline(.pathPosition, index, frameCount, .float(scale: s)), to: &animation)
                case 1:
                    let s = constraint.spacingMode == .length || constraint.spacingMode == .fixed ? scale : 1
                    add(try readCurveTimeline(.pathSpacing, index, frameCount, .float(scale: s)), to: &animation)
                case 2:
                    add(try readCurveTimeline(.pathMix, index, frameCount, .float(scale: 1)), to: &animation)
                default:
                    throw input.error(.malformed, at: typeAt, expected: "a path timeline type in 0...2", found: type)
                }
            }
        }
    }

    private mutating func readPhysicsTimelines(into animation: inout AnimationData) throws {
        let groups = try input.readCount("physics timeline group count", minBytesEach: 2)
        for _ in 0..<groups {
            let indexAt = input.offset
            // Stored plus one; 0 means every physics constraint (-1).
            let index = Int(try input.readVarint()) - 1
            let total = builder.physicsConstraints.count
            guard index >= -1, index < total else {
                throw input.error(
                    .malformed, at: indexAt, expected: "a physics timeline constraint in -1..<\(total)", found: index)
            }
            let target = Int32(index)
            let count = try input.readCount("physics timeline count", minBytesEach: 2)
            for _ in 0..<count {
                let typeAt = input.offset
                let type = try input.readByte()
                let frameCount = try readFrameCount()
                let kind: TimelineKind
                switch type {
                case 0: kind = .physicsInertia
                case 1: kind = .physicsStrength
                case 2: kind = .physicsDamping
                case 4: kind = .physicsMass
                case 5: kind = .physicsWind
                case 6: kind = .physicsGravity
                case 7: kind = .physicsMix
                case 8:
                    var reset = TimelineBuilder(kind: .physicsReset, target: target, frameCount: frameCount)
                    for frame in 0..<frameCount { reset.setFrame(frame, time: try input.readFloat(), values: []) }
                    add(reset, to: &animation)
                    continue
                default:
                    throw input.error(
                        .malformed, at: typeAt, expected: "a physics timeline type in 0...2 or 4...8", found: type)
                }
                let policy: ValuePolicy = kind == .physicsMass ? .mass : (kind == .physicsDamping ? .damping : .any)
                add(
                    try readCurveTimeline(kind, target, frameCount, .float(scale: 1), policy: policy),
                    to: &animation)
            }
        }
    }
}
