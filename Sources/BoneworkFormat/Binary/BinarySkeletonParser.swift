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
