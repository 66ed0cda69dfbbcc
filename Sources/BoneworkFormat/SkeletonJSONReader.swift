/// Reads Spine 4.2 skeleton JSON into a `SkeletonData`.
///
/// The file is parsed by Bonework's own JSON parser (member order kept, nesting bounded, numbers
/// evaluated as the reference evaluates them), then read in the reference's order with the
/// reference's defaults: header, bones, slots, IK / transform / path / physics constraints, skins
/// and their attachments (linked meshes resolved afterwards), events, animations. Every problem is
/// a `LoadError` naming the JSON path (or the byte offset, for syntax errors).
public enum SkeletonJSONReader {
    /// Reads a Spine 4.2 JSON export; `file` names it in errors.
    /// - Throws: `LoadError` with the JSON path (or the byte offset of a syntax error).
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?) throws -> SkeletonData {
        try read(bytes: bytes, file: file, atlas: atlas, scale: 1)
    }

    /// Reads with lengths and positions multiplied by `scale` where the reference scales them.
    public static func read(bytes: [UInt8], file: String, atlas: Atlas?, scale: Float) throws -> SkeletonData {
        let builder = try readBuilder(bytes: bytes, file: file, scale: scale)
        return try builder.finish(atlas: atlas)
    }

    /// The filled builder, before validation and atlas resolution.
    static func readBuilder(bytes: [UInt8], file: String, scale: Float = 1) throws -> SkeletonDataBuilder {
        let document = try JSONParser.parse(bytes, file: file)
        var reading = JSONSkeletonReading(document: document, file: file, scale: scale, fileSize: bytes.count)
        try reading.readSkeleton()
        return reading.builder
    }
}

extension JSONSkeletonReading {
    mutating func readSkeleton() throws {
        let root = JSONDocument.root
        try requireObject(root, "a skeleton object")
        try readHeader(root)
        try readBones(root)
        try readSlots(root)
        try readIKConstraints(root)
        try readTransformConstraints(root)
        try readPathConstraints(root)
        try readPhysicsConstraints(root)
        try readSkins(root)
        try builder.resolveLinkedMeshes()
        try readEvents(root)
        try readAnimations(root)
    }

    // MARK: Header

    mutating func readHeader(_ root: Int32) throws {
        guard let skeleton = try optionalObject(root, "skeleton") else { return }
        builder.hash = try string(skeleton, "hash") ?? ""
        let version = try string(skeleton, "spine") ?? ""
        guard version.hasPrefix("4.2") else {
            throw error(
                .unsupportedVersion, skeleton, member: "spine", expected: "a Spine 4.2 export",
                found: version.isEmpty ? "no version" : "version \(version)")
        }
        builder.version = version
        builder.x = try float(skeleton, "x", 0)
        builder.y = try float(skeleton, "y", 0)
        builder.width = try float(skeleton, "width", 0)
        builder.height = try float(skeleton, "height", 0)
        builder.referenceScale = try float(skeleton, "referenceScale", 100) * scale
        builder.fps = try float(skeleton, "fps", 30)
        builder.audioPath = try string(skeleton, "audio") ?? ""
        builder.imagesPath = try string(skeleton, "images") ?? ""
    }

    // MARK: Bones and slots

    mutating func readBones(_ root: Int32) throws {
        guard let bones = try optionalArray(root, "bones") else {
            throw missing(root, "bones", expected: "an array of bones")
        }
        for (index, node) in doc.children(bones).enumerated() {
            try requireObject(node, "a bone object")
            let name = try requiredString(node, "name")
            var parent: Int32 = -1
            if let parentName = try string(node, "parent") {
                guard let parentIndex = boneIDs[parentName] else {
                    throw parentError(bones, node, name: name, parent: parentName)
                }
                parent = parentIndex
            } else if index > 0 {
                throw error(
                    .malformed, node, member: "parent", expected: "a parent bone (only the first bone is a root)",
                    found: "nothing")
            }
            var bone = BoneData(name: name, parent: parent)
            bone.length = try float(node, "length", 0) * scale
            bone.x = try float(node, "x", 0) * scale
            bone.y = try float(node, "y", 0) * scale
            bone.rotation = try float(node, "rotation", 0)
            bone.scaleX = try float(node, "scaleX", 1)
            bone.scaleY = try float(node, "scaleY", 1)
            bone.shearX = try float(node, "shearX", 0)
            bone.shearY = try float(node, "shearY", 0)
            bone.inherit = try inherit(node, "inherit")
            bone.skinRequired = try bool(node, "skin", false)
            if let color = try color(node, "color", alpha: true) { bone.color = color }
            if boneIDs[name] == nil { boneIDs[name] = Int32(builder.bones.count) }
            builder.bones.append(bone)
        }
    }

    /// A parent that is the bone itself or is defined after it is a cycle; one defined nowhere is unknown.
    func parentError(_ bones: Int32, _ node: Int32, name: String, parent: String) -> LoadError {
        if parent == name {
            return error(
                .cycle, node, member: "parent", expected: "a parent other than the bone itself",
                found: "bone '\(name)' names itself")
        }
        var later = doc.nextSibling(node)
        while let candidate = later {
            if doc.type(candidate) == .object, let nameNode = doc.member(candidate, "name"),
                doc.type(nameNode) == .string, doc.string(nameNode) == parent
            {
                return error(
                    .cycle, node, member: "parent", expected: "a parent bone defined before '\(name)'",
                    found: "'\(parent)' defined later at \(doc.path(candidate))")
            }
            later = doc.nextSibling(candidate)
        }
        return unknown(node, member: "parent", "bone", parent)
    }

    func inherit(_ object: Int32, _ key: StaticString) throws -> Inherit {
        guard let name = try string(object, key) else { return .normal }
        guard let value = Inherit(jsonName: name) else {
            throw error(
                .malformed, object, member: "\(key)",
                expected: "normal, onlyTranslation, noRotationOrReflection, noScale or noScaleOrReflection",
                found: "'\(name)'")
        }
        return value
    }

    mutating func readSlots(_ root: Int32) throws {
        guard let slots = try optionalArray(root, "slots") else { return }
        for node in doc.children(slots) {
            try requireObject(node, "a slot object")
            let bone = try lookupMember(boneIDs, node, "bone", "bone")
            let name = try requiredString(node, "name")
            var slot = SlotData(name: name, bone: bone)
            if let color = try color(node, "color", alpha: true) { slot.color = color }
            if let dark = try color(node, "dark", alpha: false) { slot.darkColor = Color(dark.r, dark.g, dark.b, 1) }
            if let attachment = try string(node, "attachment"), !attachment.isEmpty {
                slot.attachmentName = builder.intern(attachment)
            }
            if let blend = try string(node, "blend") {
                guard let mode = BlendMode(jsonName: blend) else {
                    throw error(
                        .malformed, node, member: "blend", expected: "normal, additive, multiply or screen",
                        found: "'\(blend)'")
                }
                slot.blendMode = mode
            }
            slot.visible = try bool(node, "visible", true)
            if slotIDs[name] == nil { slotIDs[name] = Int32(builder.slots.count) }
            builder.slots.append(slot)
        }
    }

    // MARK: Constraints

    /// The bone list of a constraint, each name looked up.
    func constraintBones(_ node: Int32) throws -> [Int32] {
        let list = try requiredArray(node, "bones")
        var bones: [Int32] = []
        for item in doc.children(list) { bones.append(try lookupValue(boneIDs, item, "bone")) }
        return bones
    }

    mutating func readIKConstraints(_ root: Int32) throws {
        guard let list = try optionalArray(root, "ik") else { return }
        for node in doc.children(list) {
            try requireObject(node, "an IK constraint object")
            let name = try requiredString(node, "name")
            var c = IKConstraintData(name: name)
            c.order = try int(node, "order", 0)
            c.skinRequired = try bool(node, "skin", false)
            c.bones = try constraintBones(node)
            guard c.bones.count == 1 || c.bones.count == 2 else {
                throw error(
                    .malformed, node, member: "bones", expected: "one or two bones", found: "\(c.bones.count) bones")
            }
            c.target = try lookupMember(boneIDs, node, "target", "bone")
            c.mix = try float(node, "mix", 1)
            c.softness = try float(node, "softness", 0) * scale
            c.bendDirection = try int(node, "bendPositive", 1) != 0 ? 1 : -1
            c.compress = try int(node, "compress", 0) != 0
            c.stretch = try int(node, "stretch", 0) != 0
            c.uniform = try int(node, "uniform", 0) != 0
            if ikIDs[name] == nil { ikIDs[name] = Int32(builder.ikConstraints.count) }
            builder.ikConstraints.append(c)
        }
    }

    mutating func readTransformConstraints(_ root: Int32) throws {
        guard let list = try optionalArray(root, "transform") else { return }
        for node in doc.children(list) {
            try requireObject(node, "a transform constraint object")
            let name = try requiredString(node, "name")
            var c = TransformConstraintData(name: name)
            c.order = try int(node, "order", 0)
            c.skinRequired = try bool(node, "skin", false)
            c.bones = try constraintBones(node)
            c.target = try lookupMember(boneIDs, node, "target", "bone")
            c.local = try int(node, "local", 0) != 0
            c.relative = try int(node, "relative", 0) != 0
            c.offsetRotation = try float(node, "rotation", 0)
            c.offsetX = try float(node, "x", 0) * scale
            c.offsetY = try float(node, "y", 0) * scale
            c.offsetScaleX = try float(node, "scaleX", 0)
            c.offsetScaleY = try float(node, "scaleY", 0)
            c.offsetShearY = try float(node, "shearY", 0)
            c.mixRotate = try float(node, "mixRotate", 1)
            c.mixX = try float(node, "mixX", 1)
            c.mixY = try float(node, "mixY", c.mixX)
            c.mixScaleX = try float(node, "mixScaleX", 1)
            c.mixScaleY = try float(node, "mixScaleY", c.mixScaleX)
            c.mixShearY = try float(node, "mixShearY", 1)
            if transformIDs[name] == nil { transformIDs[name] = Int32(builder.transformConstraints.count) }
            builder.transformConstraints.append(c)
        }
    }

    mutating func readPathConstraints(_ root: Int32) throws {
        guard let list = try optionalArray(root, "path") else { return }
        for node in doc.children(list) {
            try requireObject(node, "a path constraint object")
            let name = try requiredString(node, "name")
            var c = PathConstraintData(name: name)
            c.order = try int(node, "order", 0)
            c.skinRequired = try bool(node, "skin", false)
            c.bones = try constraintBones(node)
            c.target = try lookupMember(slotIDs, node, "target", "slot")
            switch try string(node, "positionMode") ?? "percent" {
            case "fixed": c.positionMode = .fixed
            case "percent": c.positionMode = .percent
            case let other: throw badEnum(node, "positionMode", "fixed or percent", other)
            }
            switch try string(node, "spacingMode") ?? "length" {
            case "length": c.spacingMode = .length
            case "fixed": c.spacingMode = .fixed
            case "percent": c.spacingMode = .percent
            case "proportional": c.spacingMode = .proportional
            case let other: throw badEnum(node, "spacingMode", "length, fixed, percent or proportional", other)
            }
            switch try string(node, "rotateMode") ?? "tangent" {
            case "tangent": c.rotateMode = .tangent
            case "chain": c.rotateMode = .chain
            case "chainScale": c.rotateMode = .chainScale
            case let other: throw badEnum(node, "rotateMode", "tangent, chain or chainScale", other)
            }
            c.offsetRotation = try float(node, "rotation", 0)
            c.position = try float(node, "position", 0)
            if c.positionMode == .fixed { c.position *= scale }
            c.spacing = try float(node, "spacing", 0)
            if c.spacingMode == .length || c.spacingMode == .fixed { c.spacing *= scale }
            c.mixRotate = try float(node, "mixRotate", 1)
            c.mixX = try float(node, "mixX", 1)
            c.mixY = try float(node, "mixY", c.mixX)
            if pathIDs[name] == nil { pathIDs[name] = Int32(builder.pathConstraints.count) }
            builder.pathConstraints.append(c)
        }
    }

    func badEnum(_ node: Int32, _ member: String, _ expected: String, _ found: String) -> LoadError {
        error(.malformed, node, member: member, expected: expected, found: "'\(found)'")
    }

    mutating func readPhysicsConstraints(_ root: Int32) throws {
        guard let list = try optionalArray(root, "physics") else { return }
        for node in doc.children(list) {
            try requireObject(node, "a physics constraint object")
            let name = try requiredString(node, "name")
            var c = PhysicsConstraintData(name: name)
            c.order = try int(node, "order", 0)
            c.skinRequired = try bool(node, "skin", false)
            c.bone = try lookupMember(boneIDs, node, "bone", "bone")
            c.x = try float(node, "x", 0)
            c.y = try float(node, "y", 0)
            c.rotate = try float(node, "rotate", 0)
            c.scaleX = try float(node, "scaleX", 0)
            c.shearX = try float(node, "shearX", 0)
            c.limit = try float(node, "limit", 5000) * scale
            // A .skel holds the rate in one byte (1...255); a JSON export holds the same value. A
            // larger rate would only multiply the steps of every update.
            let fps = try int(node, "fps", 60)
            guard fps > 0, fps <= 255 else {
                throw error(
                    .malformed, node, member: "fps", expected: "physics steps per second in 1...255", found: "\(fps)")
            }
            c.step = 1 / Float(fps)
            c.inertia = try float(node, "inertia", 1)
            c.strength = try float(node, "strength", 100)
            c.damping = ValueLimits.clampDamping(try float(node, "damping", 1))
            let mass = try float(node, "mass", 1)
            guard ValueLimits.isUsableMass(mass) else {
                throw error(.malformed, node, member: "mass", expected: ValueLimits.massExpected, found: "\(mass)")
            }
            c.massInverse = 1 / mass
            c.wind = try float(node, "wind", 0)
            c.gravity = try float(node, "gravity", 0)
            c.mix = try float(node, "mix", 1)
            c.inertiaGlobal = try bool(node, "inertiaGlobal", false)
            c.strengthGlobal = try bool(node, "strengthGlobal", false)
            c.dampingGlobal = try bool(node, "dampingGlobal", false)
            c.massGlobal = try bool(node, "massGlobal", false)
            c.windGlobal = try bool(node, "windGlobal", false)
            c.gravityGlobal = try bool(node, "gravityGlobal", false)
            c.mixGlobal = try bool(node, "mixGlobal", false)
            if physicsIDs[name] == nil { physicsIDs[name] = Int32(builder.physicsConstraints.count) }
            builder.physicsConstraints.append(c)
        }
    }

    // MARK: Events

    mutating func readEvents(_ root: Int32) throws {
        guard let events = try optionalObject(root, "events") else { return }
        for node in doc.children(events) {
            try requireObject(node, "an event object")
            let name = doc.key(node)
            var event = EventData(name: name)
            event.intValue = try int(node, "int", 0)
            event.floatValue = try float(node, "float", 0)
            event.stringValue = try string(node, "string") ?? ""
            if let audio = try string(node, "audio") {
                event.audioPath = audio
                event.volume = try float(node, "volume", 1)
                event.balance = try float(node, "balance", 0)
            }
            if eventIDs[name] == nil { eventIDs[name] = Int32(builder.events.count) }
            builder.events.append(event)
        }
    }
}

/// The editor's debug colours for attachments that are drawn only as overlays; JSON exports omit a
/// colour equal to these (binary exports always store it).
enum EditorColors {
    static let boundingBox = Color(hex: "60F000FF")!
    static let path = Color(hex: "FF7F00FF")!
    static let point = Color(hex: "F1F100FF")!
    static let clipping = Color(hex: "CE3A3AFF")!
}
