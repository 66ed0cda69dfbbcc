/// Attachment timelines (deform, sequence), draw order and events of a binary animation, in the
/// order the format stores them, each next to the checks of its counts and indices.
extension BinarySkeletonParser {
    // MARK: Attachment timelines

    mutating func readAttachmentTimelines(into animation: inout AnimationData) throws {
        let skins = try input.readCount("attachment timeline skin count", minBytesEach: 2)
        for _ in 0..<skins {
            let skin = try input.readIndex("timeline skin", count: builder.skins.count)
            let slots = try input.readCount("attachment timeline slot count", minBytesEach: 2)
            for _ in 0..<slots {
                let slot = try input.readIndex("timeline slot", count: builder.slots.count)
                let count = try input.readCount("attachment timeline count", minBytesEach: 3)
                for _ in 0..<count {
                    let nameAt = input.offset
                    let reference = try input.readStringRefIndex()
                    let attachment = try findAttachment(skin: skin, slot: slot, reference: reference, at: nameAt)
                    let typeAt = input.offset
                    let type = try input.readByte()
                    let frameCount = try readFrameCount()
                    switch type {
                    case 0:
                        add(
                            try readDeformTimeline(
                                slot: slot, attachment: attachment, frameCount: frameCount, at: typeAt),
                            to: &animation)
                    case 1:
                        add(
                            try readSequenceTimeline(
                                slot: slot, attachment: attachment, frameCount: frameCount, at: typeAt),
                            to: &animation)
                    default:
                        throw input.error(
                            .malformed, at: typeAt, expected: "an attachment timeline type in 0...1", found: type)
                    }
                }
            }
        }
    }

    /// The attachment a skin holds for (slot, string-table name), through an index built once.
    private mutating func findAttachment(skin: Int32, slot: Int32, reference: Int, at: Int) throws -> Int32 {
        if skinIndex == nil {
            var index: [SkinKey: Int32] = [:]
            for (s, data) in builder.skins.enumerated() {
                for entry in data.entries {
                    index[SkinKey(skin: Int32(s), slot: entry.slot, name: entry.name)] = entry.attachment
                }
            }
            skinIndex = index
        }
        let name = reference >= 0 ? input.strings[reference] : ""
        // A name no skin uses gets a fresh id here and is then not found, which fails the load.
        let nameID = reference >= 0 ? internReference(reference) : builder.intern("")
        guard let attachment = skinIndex?[SkinKey(skin: skin, slot: slot, name: nameID)] else {
            throw input.error(
                .unknownName, at: at,
                expected:
                    "attachment '\(name)' in skin '\(builder.skins[Int(skin)].name)' slot '\(builder.slots[Int(slot)].name)'",
                found: "none")
        }
        return attachment
    }

    private mutating func readDeformTimeline(slot: Int32, attachment: Int32, frameCount: Int, at: Int) throws
        -> TimelineBuilder
    {
        let target = builder.attachments[Int(attachment)]
        switch target.kind {
        case .mesh, .boundingBox, .path, .clipping: break
        case .region, .point:
            throw input.error(
                .malformed, at: at, expected: "a vertex attachment for deform keys", found: "'\(target.name)'")
        }
        let weighted = !target.bones.isEmpty
        let vertices = target.vertices
        let length = weighted ? vertices.count / 3 * 2 : vertices.count
        _ = try input.readVarint()  // bezier count
        try spendExpanded(frameCount * length, at: at, "deform timeline of \(frameCount) keys")
        var timeline = TimelineBuilder(kind: .deform, target: slot, frameCount: frameCount)
        timeline.data.attachment = attachment
        timeline.data.valueStride = Int32(length)
        var deform = [Float](repeating: 0, count: frameCount * length)
        var time = try input.readFloat()
        var bezier = 0
        var frame = 0
        while true {
            let base = frame * length
            let countAt = input.offset
            let count = Int(try input.readVarint())
            if count == 0 {
                // No offsets: the setup vertices (weighted: zero offsets).
                if !weighted { deform.replaceSubrange(base..<base + length, with: vertices) }
            } else {
                let start = Int(try input.readVarint())
                guard count > 0, start >= 0, start + count <= length else {
                    throw input.error(
                        .malformed, at: countAt, expected: "deform offsets within \(length) values",
                        found: "\(count) values from \(start)")
                }
                for v in (base + start)..<(base + start + count) { deform[v] = try input.readFloat() * scale }
                if !weighted {
                    for v in 0..<length { deform[base + v] += vertices[v] }
                }
            }
            timeline.setFrame(frame, time: time, values: [])
            if frame == frameCount - 1 { break }
            let time2 = try input.readFloat()
            let curveAt = input.offset
            switch try input.readSByte() {
            case 0:
                break
            case 1:
                timeline.setStepped(frame)
            case 2:
                try readBezier(
                    &timeline, bezier: bezier, frame: frame, value: 0, time1: time, time2: time2, value1: 0,
                    value2: 1, scale: 1)
                bezier += 1
            case let code:
                throw curveTypeError(code, at: curveAt)
            }
            time = time2
            frame += 1
        }
        timeline.deformValues = deform
        return timeline
    }

    private mutating func readSequenceTimeline(slot: Int32, attachment: Int32, frameCount: Int, at: Int) throws
        -> TimelineBuilder
    {
        let target = builder.attachments[Int(attachment)]
        guard target.kind == .region || target.kind == .mesh else {
            throw input.error(
                .malformed, at: at, expected: "a region or mesh attachment for sequence keys",
                found: "'\(target.name)'")
        }
        var timeline = TimelineBuilder(kind: .sequence, target: slot, frameCount: frameCount)
        timeline.data.attachment = attachment
        var values: [Float] = [0, 0]
        for frame in 0..<frameCount {
            let time = try input.readFloat()
            let modeAt = input.offset
            let modeAndIndex = try input.readInt()
            guard modeAndIndex & 0xF <= 6 else {
                throw input.error(
                    .malformed, at: modeAt, expected: "a sequence mode in 0...6", found: modeAndIndex & 0xF)
            }
            guard modeAndIndex >> 4 >= 0, modeAndIndex >> 4 <= ValueLimits.maxSequenceKeyIndex else {
                throw input.error(
                    .malformed, at: modeAt, expected: ValueLimits.sequenceKeyIndexExpected, found: modeAndIndex >> 4)
            }
            values[0] = Float(modeAndIndex)  // mode | (index << 4)
            values[1] = try input.readFloat()  // delay
            timeline.setFrame(frame, time: time, values: values)
        }
        return timeline
    }

    // MARK: Draw order and events

    mutating func readDrawOrderTimeline(into animation: inout AnimationData) throws {
        let countAt = input.offset
        let count = try input.readCount("draw order key count", minBytesEach: 5)
        guard count > 0 else { return }
        let slotCount = builder.slots.count
        try spendExpanded(count * slotCount, at: countAt, "draw order of \(count) keys")
        var timeline = TimelineBuilder(kind: .drawOrder, target: -1, frameCount: count)
        timeline.data.valueStride = Int32(slotCount)
        var order = [Int32](repeating: -1, count: count * slotCount)
        var keys = DrawOrderKeyBuilder(slotCount: slotCount)
        for key in 0..<count {
            let time = try input.readFloat()
            let base = key * slotCount
            let offsets = try input.readCount("draw order change count", minBytesEach: 2, max: slotCount)
            keys.begin()
            for _ in 0..<offsets {
                let slotAt = input.offset
                let slot = Int(try input.readVarint())
                guard slot >= keys.original, slot < slotCount else {
                    throw input.error(
                        .malformed, at: slotAt,
                        expected: "a draw order slot in \(keys.original)..<\(slotCount) (ascending)", found: slot)
                }
                keys.skip(to: slot)
                let shiftAt = input.offset
                // A signed shift stored as a plain varint: negative shifts wrap around.
                let shift = Int(try input.readVarint())
                let position = keys.original + shift
                guard position >= 0, position < slotCount, order[base + position] == -1 else {
                    throw input.error(
                        .malformed, at: shiftAt, expected: "a free draw order position in 0..<\(slotCount)",
                        found: position)
                }
                keys.place(at: position, &order, base: base)
            }
            keys.finish(&order, base: base)
            timeline.setFrame(key, time: time, values: [])
        }
        timeline.ints = order
        add(timeline, to: &animation)
    }

    mutating func readEventTimeline(into animation: inout AnimationData) throws {
        let count = try input.readCount("event key count", minBytesEach: 11)
        guard count > 0 else { return }
        var timeline = TimelineBuilder(kind: .event, target: -1, frameCount: count)
        timeline.events.reserveCapacity(count)
        for key in 0..<count {
            let time = try input.readFloat()
            let index = try input.readIndex("event", count: builder.events.count)
            let data = builder.events[Int(index)]
            let intValue = try input.readVarint(optimizePositive: false)
            let floatValue = try input.readFloat()
            let stringValue = try input.readString() ?? data.stringValue
            var volume: Float = 1
            var balance: Float = 0
            if !data.audioPath.isEmpty {
                volume = try input.readFloat()
                balance = try input.readFloat()
            }
            timeline.setFrame(key, time: time, values: [])
            timeline.events.append(
                EventKey(
                    time: time, event: index, intValue: intValue, floatValue: floatValue, stringValue: stringValue,
                    volume: volume, balance: balance))
        }
        add(timeline, to: &animation)
    }
}
