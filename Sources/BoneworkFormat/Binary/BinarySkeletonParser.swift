// Longer than 500 lines on purpose: the setup sections of a .skel file in the order the format
// stores them, each with the bounds checks of its counts (animations are in
// BinaryAnimationParser.swift).

/// Reads the setup part of a binary skeleton (header, string table, bones, slots, constraints,
/// skins with their attachments, events) into a `SkeletonDataBuilder`, in the order the format
/// stores them. Animations are read by the extension in `BinaryAnimationParser.swift`. `Notes`
/// receives each value read (`BinaryValueNotes`; nothing when loading).
struct BinarySkeletonParser<Notes: BinaryValueNotes> {
    var input: BinaryInput<Notes>
    var builder: SkeletonDataBuilder
    /// Multiplies positions and lengths as the reference's loader scale does (1 = as exported).
    let scale: Float
    var nonessential = false
    /// Interned attachment-name id per string-table entry, -1 until first used.
    var internedStrings: [Int32] = []
    var nextSequenceID: Int32 = 0
    /// Expanded values created so far (see `BinaryLimits.maxExpandedValues`).
    var expandedValues = 0
    /// Comparisons the builder's skin lookups have cost so far (see `BinaryLimits.maxSkinLookupWork`).
    var skinLookupWork = 0
    /// (skin, slot, interned name) -> attachment, built once when attachment timelines need it.
    var skinIndex: [SkinKey: Int32]?

    struct SkinKey: Hashable {
        var skin: Int32
        var slot: Int32
        var name: Int32
    }

    init(bytes: [UInt8], file: String, scale: Float, notes: Notes) {
        input = BinaryInput(bytes: bytes, file: file, notes: notes)
        builder = SkeletonDataBuilder(file: file)
        builder.sourceBytes = bytes.count
        self.scale = scale
    }

    mutating func parse() throws -> SkeletonDataBuilder {
        try readHeader()
        try readStringTable()
        try readBones()
        try readSlots()
        try readIKConstraints()
        try readTransformConstraints()
        try readPathConstraints()
        try readPhysicsConstraints()
        try readSkins()
        try builder.resolveLinkedMeshes()
        try checkResolvedSize()
        try readEvents()
        try readAnimations()
        return builder
    }

    // MARK: Header

    private mutating func readHeader() throws {
        let low = UInt32(bitPattern: try input.readInt())
        let high = UInt32(bitPattern: try input.readInt())
        builder.hash = String(high, radix: 16) + String(low, radix: 16)
        let versionAt = input.offset
        let version = try input.readString()
        guard let version, version.utf8.starts(with: "4.2".utf8) else {
            throw input.error(
                .unsupportedVersion, at: versionAt, expected: "a skeleton exported for version 4.2",
                found: version.map { "version '\($0)'" } ?? "no version")
        }
        builder.version = version
        builder.x = try input.readFloat()
        builder.y = try input.readFloat()
        builder.width = try input.readFloat()
        builder.height = try input.readFloat()
        builder.referenceScale = try input.readFloat() * scale
        nonessential = try input.readBool()
        if nonessential {
            builder.fps = try input.readFloat()
            builder.imagesPath = try input.readString() ?? ""
            builder.audioPath = try input.readString() ?? ""
        }
    }

    private mutating func readStringTable() throws {
        let count = try input.readCount("string count")
        var strings: [String] = []
        strings.reserveCapacity(count)
        for _ in 0..<count { strings.append(try input.readString() ?? "") }
        input.strings = strings
        internedStrings = [Int32](repeating: -1, count: count)
    }

    /// The interned id of a string-table entry (-1 for the null reference).
    mutating func internReference(_ index: Int) -> Int32 {
        guard index >= 0 else { return -1 }
        if internedStrings[index] < 0 { internedStrings[index] = builder.intern(input.strings[index]) }
        return internedStrings[index]
    }

    // MARK: Bones and slots

    private mutating func readBones() throws {
        let countAt = input.offset
        let count = try input.readCount("bone count", minBytesEach: 34)
        guard count > 0 else { throw input.error(.malformed, at: countAt, expected: "at least one bone", found: 0) }
        builder.bones.reserveCapacity(count)
        for i in 0..<count {
            let name = try input.readString() ?? ""
            var parent: Int32 = -1
            if i > 0 {
                let at = input.offset
                parent = try input.readVarint()
                guard parent >= 0 else {
                    throw input.error(.malformed, at: at, expected: "a parent bone index in 0..<\(i)", found: parent)
                }
                guard Int(parent) < i else {
                    throw input.error(
                        .cycle, at: at, expected: "bone '\(name)' parent index in 0..<\(i) (parents come first)",
                        found: parent)
                }
            }
            var bone = BoneData(name: name, parent: parent)
            bone.rotation = try input.readFloat()
            bone.x = try input.readFloat() * scale
            bone.y = try input.readFloat() * scale
            bone.scaleX = try input.readFloat()
            bone.scaleY = try input.readFloat()
            bone.shearX = try input.readFloat()
            bone.shearY = try input.readFloat()
            bone.length = try input.readFloat() * scale
            let inheritAt = input.offset
            bone.inherit = try readInherit(Int(try input.readVarint()), at: inheritAt)
            bone.skinRequired = try input.readBool()
            if nonessential {
                bone.color = try input.readColor()
                _ = try input.readString()  // editor icon
                _ = try input.readBool()  // editor visibility
            }
            builder.bones.append(bone)
        }
    }

    func readInherit(_ raw: Int, at: Int) throws -> Inherit {
        guard raw >= 0, raw <= 255, let inherit = Inherit(rawValue: UInt8(raw)) else {
            throw input.error(.malformed, at: at, expected: "an inherit mode in 0...4", found: raw)
        }
        return inherit
    }

    private mutating func readSlots() throws {
        let count = try input.readCount("slot count", minBytesEach: 12)
        builder.slots.reserveCapacity(count)
        for _ in 0..<count {
            let name = try input.readString() ?? ""
            var slot = SlotData(name: name, bone: try input.readIndex("slot bone", count: builder.bones.count))
            slot.color = try input.readColor()
            let a = try input.readByte()
            let r = try input.readByte()
            let g = try input.readByte()
            let b = try input.readByte()
            if !(r == 0xFF && g == 0xFF && b == 0xFF && a == 0xFF) {
                slot.darkColor = Color(Float(r) / 255, Float(g) / 255, Float(b) / 255, 1)
            }
            slot.attachmentName = internReference(try input.readStringRefIndex())
            let blendAt = input.offset
            let blend = try input.readVarint()
            guard blend >= 0, blend <= 3, let mode = BlendMode(rawValue: UInt8(blend)) else {
                throw input.error(.malformed, at: blendAt, expected: "a blend mode in 0...3", found: blend)
            }
            slot.blendMode = mode
            if nonessential { slot.visible = try input.readBool() }
            builder.slots.append(slot)
        }
    }

    // MARK: Constraints

    private mutating func readBoneList(_ what: String) throws -> [Int32] {
        let count = try input.readCount("\(what) bone count")
        var bones: [Int32] = []
        bones.reserveCapacity(count)
        for _ in 0..<count { bones.append(try input.readIndex("\(what) bone", count: builder.bones.count)) }
        return bones
    }

    private mutating func readIKConstraints() throws {
        let count = try input.readCount("ik constraint count", minBytesEach: 5)
        builder.ikConstraints.reserveCapacity(count)
        for _ in 0..<count {
            var c = IKConstraintData(name: try input.readString() ?? "")
            c.order = try input.readVarint()
            let bonesAt = input.offset
            c.bones = try readBoneList("ik constraint '\(c.name)'")
            guard c.bones.count == 1 || c.bones.count == 2 else {
                throw input.error(
                    .malformed, at: bonesAt, expected: "ik constraint '\(c.name)' with 1 or 2 bones",
                    found: c.bones.count)
            }
            c.target = try input.readIndex("ik constraint target bone", count: builder.bones.count)
            let flags = try input.readByte()
            c.skinRequired = flags & 1 != 0
            c.bendDirection = flags & 2 != 0 ? 1 : -1
            c.compress = flags & 4 != 0
            c.stretch = flags & 8 != 0
            c.uniform = flags & 16 != 0
            // Absent values are 0 in the binary format (the editor writes a flag for any other).
            c.mix = try flags & 32 != 0 ? (flags & 64 != 0 ? input.readFloat() : 1) : 0
            if flags & 128 != 0 { c.softness = try input.readFloat() * scale }
            builder.ikConstraints.append(c)
        }
    }

    private mutating func readTransformConstraints() throws {
        let count = try input.readCount("transform constraint count", minBytesEach: 6)
        builder.transformConstraints.reserveCapacity(count)
        for _ in 0..<count {
            var c = TransformConstraintData(name: try input.readString() ?? "")
            c.order = try input.readVarint()
            c.bones = try readBoneList("transform constraint '\(c.name)'")
            c.target = try input.readIndex("transform constraint target bone", count: builder.bones.count)
            var flags = try input.readByte()
            c.skinRequired = flags & 1 != 0
            c.local = flags & 2 != 0
            c.relative = flags & 4 != 0
            if flags & 8 != 0 { c.offsetRotation = try input.readFloat() }
            if flags & 16 != 0 { c.offsetX = try input.readFloat() * scale }
            if flags & 32 != 0 { c.offsetY = try input.readFloat() * scale }
            if flags & 64 != 0 { c.offsetScaleX = try input.readFloat() }
            if flags & 128 != 0 { c.offsetScaleY = try input.readFloat() }
            flags = try input.readByte()
            // Absent mixes are 0 in the binary format.
            c.mixRotate = 0
            c.mixX = 0
            c.mixY = 0
            c.mixScaleX = 0
            c.mixScaleY = 0
            c.mixShearY = 0
            if flags & 1 != 0 { c.offsetShearY = try input.readFloat() }
            if flags & 2 != 0 { c.mixRotate = try input.readFloat() }
            if flags & 4 != 0 { c.mixX = try input.readFloat() }
            if flags & 8 != 0 { c.mixY = try input.readFloat() }
            if flags & 16 != 0 { c.mixScaleX = try input.readFloat() }
            if flags & 32 != 0 { c.mixScaleY = try input.readFloat() }
            if flags & 64 != 0 { c.mixShearY = try input.readFloat() }
            builder.transformConstraints.append(c)
        }
    }

    private mutating func readPathConstraints() throws {
        let count = try input.readCount("path constraint count", minBytesEach: 26)
        builder.pathConstraints.reserveCapacity(count)
        for _ in 0..<count {
            var c = PathConstraintData(name: try input.readString() ?? "")
            c.order = try input.readVarint()
            c.skinRequired = try input.readBool()
            c.bones = try readBoneList("path constraint '\(c.name)'")
            c.target = try input.readIndex("path constraint target slot", count: builder.slots.count)
            let flagsAt = input.offset
            let flags = try input.readByte()
            c.positionMode = flags & 1 != 0 ? .percent : .fixed
            c.spacingMode = SpacingMode(rawValue: (flags >> 1) & 3) ?? .length
            guard let rotateMode = RotateMode(rawValue: (flags >> 3) & 3) else {
                throw input.error(.malformed, at: flagsAt, expected: "a rotate mode in 0...2", found: (flags >> 3) & 3)
            }
            c.rotateMode = rotateMode
            if flags & 128 != 0 { c.offsetRotation = try input.readFloat() }
            c.position = try input.readFloat()
            if c.positionMode == .fixed { c.position *= scale }
            c.spacing = try input.readFloat()
            if c.spacingMode == .length || c.spacingMode == .fixed { c.spacing *= scale }
            c.mixRotate = try input.readFloat()
            c.mixX = try input.readFloat()
            c.mixY = try input.readFloat()
            builder.pathConstraints.append(c)
        }
    }

    private mutating func readPhysicsConstraints() throws {
        let count = try input.readCount("physics constraint count", minBytesEach: 26)
        builder.physicsConstraints.reserveCapacity(count)
        for _ in 0..<count {
            var c = PhysicsConstraintData(name: try input.readString() ?? "")
            c.order = try input.readVarint()
            c.bone = try input.readIndex("physics constraint bone", count: builder.bones.count)
            var flags = try input.readByte()
            c.skinRequired = flags & 1 != 0
            if flags & 2 != 0 { c.x = try input.readFloat() }
            if flags & 4 != 0 { c.y = try input.readFloat() }
            if flags & 8 != 0 { c.rotate = try input.readFloat() }
            if flags & 16 != 0 { c.scaleX = try input.readFloat() }
            if flags & 32 != 0 { c.shearX = try input.readFloat() }
            c.limit = try (flags & 64 != 0 ? input.readFloat() : 5000) * scale
            let fpsAt = input.offset
            let fps = try input.readByte()
            guard fps > 0 else {
                throw input.error(.malformed, at: fpsAt, expected: "physics steps per second in 1...255", found: 0)
            }
            c.step = 1 / Float(fps)
            c.inertia = try input.readFloat()
            c.strength = try input.readFloat()
            c.damping = ValueLimits.clampDamping(try input.readFloat())
            let massAt = input.offset
            c.massInverse = try flags & 128 != 0 ? input.readFloat() : 1
            guard ValueLimits.isUsableMass(1 / c.massInverse) else {
                throw input.error(
                    .malformed, at: massAt, expected: ValueLimits.massExpected,
                    found: "an inverse mass of \(c.massInverse)")
            }
            c.wind = try input.readFloat()
            c.gravity = try input.readFloat()
            flags = try input.readByte()
            c.inertiaGlobal = flags & 1 != 0
            c.strengthGlobal = flags & 2 != 0
            c.dampingGlobal = flags & 4 != 0
            c.massGlobal = flags & 8 != 0
            c.windGlobal = flags & 16 != 0
            c.gravityGlobal = flags & 32 != 0
            c.mixGlobal = flags & 64 != 0
            c.mix = try flags & 128 != 0 ? input.readFloat() : 1
            builder.physicsConstraints.append(c)
        }
    }

    // MARK: Skins

    private mutating func readSkins() throws {
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
    private func checkResolvedSize() throws {
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

    // MARK: Events

    private mutating func readEvents() throws {
        let count = try input.readCount("event count", minBytesEach: 8)
        builder.events.reserveCapacity(count)
        for _ in 0..<count {
            var event = EventData(name: try input.readString() ?? "")
            event.intValue = try input.readVarint(optimizePositive: false)
            event.floatValue = try input.readFloat()
            event.stringValue = try input.readString() ?? ""
            event.audioPath = try input.readString() ?? ""
            if !event.audioPath.isEmpty {
                event.volume = try input.readFloat()
                event.balance = try input.readFloat()
            }
            builder.events.append(event)
        }
    }

    /// Counts values created beyond what the file spells out; throws once the budget is spent.
    mutating func spendExpanded(_ count: Int, at: Int, _ what: String) throws {
        expandedValues &+= count
        let budget = LoadBudget.expandedValues(fileSize: input.bytes.count, cap: BinaryLimits.maxExpandedValues)
        guard count >= 0, expandedValues <= budget else {
            throw input.error(
                .limitExceeded, at: at, expected: "at most \(budget) expanded values for a file of this size",
                found: "\(what) of \(count) values")
        }
    }
}
