/// Skins and their attachments (with sequences, vertices and the resolved-size check) of a binary
/// skeleton, in the order the format stores them.
extension BinarySkeletonParser {
    // MARK: Skins

    mutating func readSkins() throws {
        let defaultSlots = try input.readCount("default skin slot count", minBytesEach: 2)
        if defaultSlots > 0 {
            builder.skins.append(SkinData(name: "default"))
            builder.defaultSkin = Int32(builder.skins.count - 1)
            try readSkinAttachments(skin: builder.skins.count - 1, slotCount: defaultSlots)
        }
        let count = try input.readCount("skin count", minBytesEach: 7)
        builder.skins.reserveCapacity(builder.skins.count + count)
        for _ in 0..<count {
            var skin = SkinData(name: try input.readString() ?? "")
            if nonessential { _ = try input.readColor() }  // editor colour
            skin.bones = try readIndexList("skin '\(skin.name)' bone", count: builder.bones.count)
            for (kind, total) in [
                (ConstraintKind.ik, builder.ikConstraints.count), (.transform, builder.transformConstraints.count),
                (.path, builder.pathConstraints.count), (.physics, builder.physicsConstraints.count),
            ] {
                for index in try readIndexList("skin '\(skin.name)' \(kind) constraint", count: total) {
                    skin.constraints.append(ConstraintRef(kind, index))
                }
            }
            builder.skins.append(skin)
            let slotCount = try input.readCount("skin slot count", minBytesEach: 2)
            try readSkinAttachments(skin: builder.skins.count - 1, slotCount: slotCount)
        }
    }

    private mutating func readIndexList(_ what: String, count total: Int) throws -> [Int32] {
        let count = try input.readCount("\(what) count")
        var list: [Int32] = []
        list.reserveCapacity(count)
        for _ in 0..<count { list.append(try input.readIndex(what, count: total)) }
        return list
    }

    private mutating func readSkinAttachments(skin: Int, slotCount: Int) throws {
        for _ in 0..<slotCount {
            let slot = try input.readIndex("skin slot", count: builder.slots.count)
            let count = try input.readCount("attachment count", minBytesEach: 2)
            for _ in 0..<count {
                let nameAt = input.offset
                let reference = try input.readStringRefIndex()
                let keyName = reference >= 0 ? input.strings[reference] : ""
                _ = internReference(reference)  // the builder interns it too; this caches the id
                // The builder finds a replaced (slot, name) entry by scanning the skin.
                skinLookupWork &+= builder.skins[skin].entries.count
                guard skinLookupWork <= BinaryLimits.maxSkinLookupWork else {
                    throw input.error(
                        .limitExceeded, at: nameAt, expected: "skins small enough to index",
                        found: "\(builder.skins[skin].entries.count) attachments in skin '\(builder.skins[skin].name)'")
                }
                try readAttachment(skin: skin, slot: slot, keyName: keyName)
            }
        }
    }

    // MARK: Attachments

    private mutating func readAttachment(skin: Int, slot: Int32, keyName: String) throws {
        let start = input.offset
        let flags = try input.readByte()
        let name = try flags & 8 != 0 ? input.readStringRef() ?? "" : keyName
        let type = flags & 7
        var attachment: AttachmentData
        switch type {
        case 0:  // region
            attachment = AttachmentData(name: name, kind: .region, path: try readPath(flags, name))
            if flags & 32 != 0 { attachment.color = try input.readColor() }
            if flags & 64 != 0 { attachment.sequence = try readSequence() }
            if flags & 128 != 0 { attachment.rotation = try input.readFloat() }
            attachment.x = try input.readFloat() * scale
            attachment.y = try input.readFloat() * scale
            attachment.scaleX = try input.readFloat()
            attachment.scaleY = try input.readFloat()
            attachment.width = try input.readFloat() * scale
            attachment.height = try input.readFloat() * scale
        case 1:  // bounding box
            attachment = AttachmentData(name: name, kind: .boundingBox)
            try readVertices(into: &attachment, weighted: flags & 16 != 0)
            if nonessential { attachment.color = try input.readColor() }
        case 2:  // mesh
            attachment = AttachmentData(name: name, kind: .mesh, path: try readPath(flags, name))
            if flags & 32 != 0 { attachment.color = try input.readColor() }
            if flags & 64 != 0 { attachment.sequence = try readSequence() }
            let hullAt = input.offset
            let hull = try input.readVarint()
            let verticesAt = input.offset
            try readVertices(into: &attachment, weighted: flags & 128 != 0)
            let length = Int(attachment.worldVerticesLength)
            // As in JSON: a mesh has vertices, and its hull is a count of them (not of floats).
            guard length > 0 else {
                throw input.error(.malformed, at: verticesAt, expected: "a mesh with at least one vertex", found: 0)
            }
            guard hull >= 0, Int(hull) <= length / 2 else {
                throw input.error(
                    .malformed, at: hullAt, expected: "a hull vertex count in 0...\(length / 2)", found: hull)
            }
            attachment.hullLength = hull
            try input.readFloats(length, scale: 1, into: &attachment.regionUVs)
            let triangleCount = (length - Int(hull) - 2) * 3
            guard triangleCount >= 0 else {
                throw input.error(
                    .malformed, at: hullAt, expected: "a hull that leaves room for triangles",
                    found: "hull \(hull) of \(length / 2) vertices")
            }
            attachment.triangles = try readShorts(triangleCount, "triangle index count", below: length / 2)
            if nonessential {
                let edgeCount = try input.readCount("edge index count")
                attachment.edges = try readShorts(edgeCount, "edge index count")
                attachment.width = try input.readFloat()
                attachment.height = try input.readFloat()
            }
        case 3:  // linked mesh
            attachment = AttachmentData(name: name, kind: .mesh, path: try readPath(flags, name))
            if flags & 32 != 0 { attachment.color = try input.readColor() }
            if flags & 64 != 0 { attachment.sequence = try readSequence() }
            let inheritTimelines = flags & 128 != 0
            let parentSkin = Int(try input.readVarint())
            let parent = try input.readStringRef() ?? ""
            if nonessential {
                attachment.width = try input.readFloat() * scale
                attachment.height = try input.readFloat() * scale
            }
            let index = builder.addAttachment(attachment, skin: skin, slot: slot, name: keyName, at: .byteOffset(start))
            builder.addLinkedMesh(
                attachment: index, parentSkin: .index(parentSkin), slot: slot, parent: parent,
                inheritTimelines: inheritTimelines, at: .byteOffset(start))
            // Copying the parent's geometry is a lookup in the parent's skin.
            if parentSkin >= 0, parentSkin < builder.skins.count {
                skinLookupWork &+= builder.skins[parentSkin].entries.count
            }
            return
        case 4:  // path
            attachment = AttachmentData(name: name, kind: .path)
            attachment.closed = flags & 16 != 0
            attachment.constantSpeed = flags & 32 != 0
            try readVertices(into: &attachment, weighted: flags & 64 != 0)
            try input.readFloats(Int(attachment.worldVerticesLength) / 6, scale: scale, into: &attachment.lengths)
            if nonessential { attachment.color = try input.readColor() }
        case 5:  // point
            attachment = AttachmentData(name: name, kind: .point)
            attachment.rotation = try input.readFloat()
            attachment.x = try input.readFloat() * scale
            attachment.y = try input.readFloat() * scale
            if nonessential { attachment.color = try input.readColor() }
        case 6:  // clipping
            attachment = AttachmentData(name: name, kind: .clipping)
            attachment.endSlot = try input.readIndex("clipping end slot", count: builder.slots.count)
            try readVertices(into: &attachment, weighted: flags & 16 != 0)
            if nonessential { attachment.color = try input.readColor() }
        default:
            throw input.error(.malformed, at: start, expected: "an attachment type in 0...6", found: type)
        }
        builder.addAttachment(attachment, skin: skin, slot: slot, name: keyName, at: .byteOffset(start))
    }

    private mutating func readPath(_ flags: UInt8, _ name: String) throws -> String {
        try flags & 16 != 0 ? (input.readStringRef() ?? name) : name
    }

    private mutating func readSequence() throws -> SequenceData {
        let countAt = input.offset
        let count = try input.readVarint()
        guard count >= 1, count <= BinaryLimits.maxSequenceFrames else {
            throw input.error(
                .limitExceeded, at: countAt, expected: "a sequence of 1...\(BinaryLimits.maxSequenceFrames) frames",
                found: count)
        }
        let start = try input.readVarint()
        let digitsAt = input.offset
        let digits = try input.readVarint()
        guard digits >= 0, digits <= BinaryLimits.maxSequenceDigits else {
            throw input.error(
                .limitExceeded, at: digitsAt, expected: "sequence digits in 0...\(BinaryLimits.maxSequenceDigits)",
                found: digits)
        }
        let setupAt = input.offset
        let setupIndex = try input.readVarint()
        guard setupIndex >= 0 else {
            throw input.error(
                .malformed, at: setupAt, expected: "a non-negative sequence setup index", found: setupIndex)
        }
        var sequence = SequenceData(count: count, start: start, digits: digits, setupIndex: setupIndex)
        sequence.id = nextSequenceID
        nextSequenceID &+= 1
        return sequence
    }

    /// Reads a vertex attachment's vertices: x,y per vertex, or per vertex a bone count followed
    /// by (bone, x, y, weight) per influence.
    private mutating func readVertices(into attachment: inout AttachmentData, weighted: Bool) throws {
        let vertexCount = try input.readCount("vertex count", minBytesEach: weighted ? 1 : 8)
        attachment.worldVerticesLength = Int32(vertexCount * 2)
        if !weighted {
            try input.readFloats(vertexCount * 2, scale: scale, into: &attachment.vertices)
            return
        }
        var bones: [Int32] = []
        var vertices: [Float] = []
        bones.reserveCapacity(vertexCount * 3)
        vertices.reserveCapacity(vertexCount * 6)
        let boneCount = builder.bones.count
        for _ in 0..<vertexCount {
            let influences = try input.readCount("vertex bone count", minBytesEach: 13)
            bones.append(Int32(influences))
            for _ in 0..<influences {
                bones.append(try input.readIndex("vertex bone", count: boneCount))
                vertices.append(try input.readFloat() * scale)
                vertices.append(try input.readFloat() * scale)
                vertices.append(try input.readFloat())
            }
        }
        attachment.bones = bones
        attachment.vertices = vertices
    }

    /// Reads `count` varints stored as 16-bit values (truncated as the reference does); with
    /// `bound`, each must index one of that many vertices.
    private mutating func readShorts(_ count: Int, _ what: String, below bound: Int? = nil) throws -> [UInt16] {
        guard count <= input.remaining, count <= BinaryLimits.maxCount else {
            throw input.error(
                .limitExceeded, expected: "\(what) that fits the \(input.remaining) bytes left", found: count)
        }
        var values = [UInt16](repeating: 0, count: count)
        let limit = bound ?? Int(UInt16.max) + 1
        for i in 0..<count {
            let at = input.offset
            let value = UInt16(truncatingIfNeeded: try input.readVarint())
            guard Int(value) < limit else {
                throw input.error(.malformed, at: at, expected: "a vertex index in 0..<\(limit)", found: value)
            }
            values[i] = value
        }
        return values
    }

    /// Linked meshes share their parent's arrays and sequences multiply images; checks that what
    /// loading will materialize (validation walks, resolved frames and texture coordinates) stays
    /// within bounds before it happens.
    func checkResolvedSize() throws {
        var frames = 0
        var values = expandedValues
        for a in builder.attachments {
            var imageFrames = 0
            if a.kind == .region || a.kind == .mesh { imageFrames = max(1, Int(a.sequence?.count ?? 1)) }
            frames &+= imageFrames
            values &+= a.vertices.count &+ a.bones.count &+ a.triangles.count &+ a.edges.count
            values &+= a.regionUVs.count &* max(1, imageFrames)
        }
        let frameBudget = LoadBudget.resolvedFrames(fileSize: input.bytes.count, cap: BinaryLimits.maxResolvedFrames)
        let valueBudget = LoadBudget.expandedValues(fileSize: input.bytes.count, cap: BinaryLimits.maxExpandedValues)
        guard frames <= frameBudget, values <= valueBudget else {
            throw input.error(
                .limitExceeded,
                expected: "at most \(frameBudget) images and \(valueBudget) vertex values for a file of this size",
                found: "\(frames) images, \(values) values")
        }
    }
}
