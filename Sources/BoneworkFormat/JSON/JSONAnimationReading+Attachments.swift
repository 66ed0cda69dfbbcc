/// Attachment timelines (deform, sequence), draw order and events of a JSON animation, mirroring
/// Binary/BinaryAnimationParser+Attachments.swift.
extension JSONSkeletonReading {
    // MARK: Attachments

    mutating func readAttachmentTimelines(_ attachments: Int32, _ assembly: inout AnimationAssembly) throws {
        for skinNode in doc.children(attachments) {
            let skin = try lookupKey(skinIDs, skinNode, "skin")
            try requireObject(skinNode, "an object of slots")
            for slotNode in doc.children(skinNode) {
                let slot = try lookupKey(slotIDs, slotNode, "slot")
                try requireObject(slotNode, "an object of attachments")
                for attachmentNode in doc.children(slotNode) {
                    let name = doc.key(attachmentNode)
                    guard let attachment = builder.attachmentIndex(skin: Int(skin), slot: slot, name: name) else {
                        throw error(
                            .unknownName, attachmentNode,
                            expected:
                                "an attachment of skin '\(builder.skins[Int(skin)].name)' in slot '\(builder.slots[Int(slot)].name)'",
                            found: "'\(name)'")
                    }
                    try requireObject(attachmentNode, "an object of attachment timelines")
                    for t in doc.children(attachmentNode) {
                        if doc.keyIs(t, "deform") {
                            try requireArray(t, "an array of keys")
                            guard doc.count(t) > 0 else { continue }
                            assembly.add(try readDeformTimeline(t, slot: slot, attachment: attachment))
                        } else if doc.keyIs(t, "sequence") {
                            try requireArray(t, "an array of keys")
                            guard doc.count(t) > 0 else { continue }
                            assembly.add(try readSequenceTimeline(t, slot: slot, attachment: attachment))
                        }
                        // Other names are ignored, as the reference ignores them.
                    }
                }
            }
        }
    }

    /// Deform keys store the attachment's full deform vector per frame: absent vertices mean the
    /// setup vertices (zero offsets when weighted); present vertices are offsets written at
    /// `offset`, and unweighted attachments add their setup vertices, as the reference does.
    mutating func readDeformTimeline(_ keys: Int32, slot: Int32, attachment: Int32) throws -> TimelineBuilder {
        let a = builder.attachments[Int(attachment)]
        switch a.kind {
        case .mesh, .boundingBox, .path, .clipping: break
        default:
            throw error(
                .malformed, keys, expected: "a deform timeline on a mesh, bounding box, path or clipping attachment",
                found: "a deform timeline on the \(a.kind) attachment '\(a.name)'")
        }
        let weighted = !a.bones.isEmpty
        let length = weighted ? a.vertices.count / 3 * 2 : a.vertices.count
        let frameCount = doc.count(keys)
        try reserveExpanded(keys: frameCount, stride: length, at: keys, "deform")
        var timeline = TimelineBuilder(kind: .deform, target: slot, frameCount: frameCount)
        timeline.data.attachment = attachment
        timeline.data.valueStride = Int32(length)
        var deform = [Float](repeating: 0, count: frameCount * length)
        guard var key = doc.firstChild(keys) else { return timeline }
        try requireObject(key, "a key object")
        var time = try float(key, "time", 0)
        var bezier = 0
        var frame = 0
        while true {
            let base = frame * length
            if let vertices = doc.member(key, "vertices"), doc.type(vertices) != .null {
                try requireArray(vertices, "an array of vertex offsets")
                let start = Int(try int(key, "offset", 0))
                let count = doc.count(vertices)
                guard start >= 0, start <= length - count else {
                    throw error(
                        .malformed, key, member: "vertices",
                        expected: "at most \(length) values from offset \(start) (the attachment's deform length)",
                        found: "\(count) values")
                }
                var v = base + start
                for value in doc.children(vertices) {
                    deform[v] = try floatValue(value) * scale
                    v += 1
                }
                if !weighted {
                    for i in 0..<length { deform[base + i] += a.vertices[i] }
                }
            } else if !weighted {
                for i in 0..<length { deform[base + i] = a.vertices[i] }
            }
            timeline.setFrame(frame, time: time)
            guard let next = doc.nextSibling(key) else { break }
            try requireObject(next, "a key object")
            let time2 = try float(next, "time", 0)
            if let curve = doc.member(key, "curve") {
                bezier = try readCurve(
                    curve, &timeline, bezier: bezier, frame: frame, value: 0, time1: time, time2: time2, value1: 0,
                    value2: 1, scale: 1)
            }
            time = time2
            key = next
            frame += 1
        }
        timeline.deformValues = deform
        return timeline
    }

    func readSequenceTimeline(_ keys: Int32, slot: Int32, attachment: Int32) throws -> TimelineBuilder {
        var timeline = TimelineBuilder(kind: .sequence, target: slot, frameCount: doc.count(keys))
        timeline.data.attachment = attachment
        var lastDelay: Float = 0
        for (frame, key) in doc.children(keys).enumerated() {
            try requireObject(key, "a key object")
            let delay = try float(key, "delay", lastDelay)
            let time = try float(key, "time", 0)
            let modeName = try string(key, "mode") ?? "hold"
            guard let mode = Self.sequenceMode(modeName) else {
                throw badEnum(
                    key, "mode", "hold, once, loop, pingpong, onceReverse, loopReverse or pingpongReverse", modeName)
            }
            let index = try int(key, "index", 0)
            guard index >= 0, index <= ValueLimits.maxSequenceKeyIndex else {
                throw error(
                    .malformed, key, member: "index", expected: ValueLimits.sequenceKeyIndexExpected, found: "\(index)")
            }
            timeline.setFrame(frame, time: time, Float(Int32(mode.rawValue) | (index &<< 4)), delay)
            lastDelay = delay
        }
        return timeline
    }

    static func sequenceMode(_ name: String) -> SequenceMode? {
        switch name {
        case "hold": return .hold
        case "once": return .once
        case "loop": return .loop
        case "pingpong": return .pingpong
        case "onceReverse": return .onceReverse
        case "loopReverse": return .loopReverse
        case "pingpongReverse": return .pingpongReverse
        default: return nil
        }
    }

    // MARK: Draw order and events

    /// Each key stores a full permutation of slot indices (draw position -> slot), computed from
    /// the key's offsets as the reference computes it. A key without offsets means the setup
    /// order and is stored as -1 in every entry.
    mutating func readDrawOrder(_ keys: Int32, _ assembly: inout AnimationAssembly) throws {
        let frameCount = doc.count(keys)
        guard frameCount > 0 else { return }
        let slotCount = builder.slots.count
        try reserveExpanded(keys: frameCount, stride: slotCount, at: keys, "draw order")
        var timeline = TimelineBuilder(kind: .drawOrder, target: -1, frameCount: frameCount)
        timeline.data.valueStride = Int32(slotCount)
        var ints = [Int32](repeating: -1, count: frameCount * slotCount)
        var orderKeys = DrawOrderKeyBuilder(slotCount: slotCount)
        for (frame, key) in doc.children(keys).enumerated() {
            try requireObject(key, "a key object")
            timeline.setFrame(frame, time: try float(key, "time", 0))
            guard let offsets = try optionalArray(key, "offsets") else { continue }
            let base = frame * slotCount
            guard doc.count(offsets) <= slotCount else {
                throw error(
                    .malformed, offsets, expected: "at most \(slotCount) offsets (one per slot)",
                    found: "\(doc.count(offsets))")
            }
            orderKeys.begin()
            for offsetNode in doc.children(offsets) {
                try requireObject(offsetNode, "an offset object")
                let slot = Int(try lookupMember(slotIDs, offsetNode, "slot", "slot"))
                guard slot >= orderKeys.original else {
                    throw error(
                        .malformed, offsetNode, member: "slot", expected: "offsets in slot order, each slot once",
                        found: "slot '\(builder.slots[slot].name)' after a later slot")
                }
                orderKeys.skip(to: slot)
                let offset = Int(try int(offsetNode, "offset", 0))
                let target = orderKeys.original + offset
                guard target >= 0, target < slotCount, ints[base + target] == -1 else {
                    throw error(
                        .malformed, offsetNode, member: "offset",
                        expected: "a free draw position in 0..<\(slotCount)", found: "\(offset) (position \(target))")
                }
                orderKeys.place(at: target, &ints, base: base)
            }
            orderKeys.finish(&ints, base: base)
        }
        timeline.ints = ints
        assembly.add(timeline)
    }

    func readEventTimeline(_ keys: Int32, _ assembly: inout AnimationAssembly) throws {
        let frameCount = doc.count(keys)
        guard frameCount > 0 else { return }
        var timeline = TimelineBuilder(kind: .event, target: -1, frameCount: frameCount)
        timeline.events.reserveCapacity(frameCount)
        for (frame, key) in doc.children(keys).enumerated() {
            try requireObject(key, "an event key object")
            let index = try lookupMember(eventIDs, key, "name", "event")
            let data = builder.events[Int(index)]
            let time = try float(key, "time", 0)
            let hasAudio = !data.audioPath.isEmpty
            let event = EventKey(
                time: time, event: index, intValue: try int(key, "int", data.intValue),
                floatValue: try float(key, "float", data.floatValue),
                stringValue: try string(key, "string") ?? data.stringValue,
                volume: hasAudio ? try float(key, "volume", 1) : 1,
                balance: hasAudio ? try float(key, "balance", 0) : 0)
            timeline.setFrame(frame, time: time)
            timeline.events.append(event)
        }
        assembly.add(timeline)
    }
}
