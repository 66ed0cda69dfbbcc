/// Skins and their attachments (regions, meshes, linked meshes, paths, points, clipping,
/// bounding boxes) and sequences, in the reference's order and with its defaults.
extension JSONSkeletonReading {
    // MARK: Skins

    mutating func readSkins(_ root: Int32) throws {
        guard let list = try optionalArray(root, "skins") else { return }
        for node in doc.children(list) {
            try requireObject(node, "a skin object")
            let name = try string(node, "name") ?? ""
            var skin = SkinData(name: name)
            if let bones = try optionalArray(node, "bones") {
                for item in doc.children(bones) { skin.bones.append(try lookupValue(boneIDs, item, "bone")) }
            }
            let constraintLists: [(StaticString, ConstraintKind, [String: Int32], String)] = [
                ("ik", .ik, ikIDs, "IK constraint"),
                ("transform", .transform, transformIDs, "transform constraint"),
                ("path", .path, pathIDs, "path constraint"),
                ("physics", .physics, physicsIDs, "physics constraint"),
            ]
            for (key, kind, table, what) in constraintLists {
                guard let items = try optionalArray(node, key) else { continue }
                for item in doc.children(items) {
                    skin.constraints.append(ConstraintRef(kind, try lookupValue(table, item, what)))
                }
            }
            let skinIndex = builder.skins.count
            builder.skins.append(skin)
            if skinIDs[name] == nil { skinIDs[name] = Int32(skinIndex) }
            if name == "default" { builder.defaultSkin = Int32(skinIndex) }

            guard let attachments = try optionalObject(node, "attachments") else { continue }
            for slotNode in doc.children(attachments) {
                let slot = try lookupKey(slotIDs, slotNode, "slot")
                try requireObject(slotNode, "an object of attachments")
                for attachmentNode in doc.children(slotNode) {
                    try readAttachment(attachmentNode, skin: skinIndex, slot: slot)
                }
            }
        }
    }

    mutating func readAttachment(_ node: Int32, skin: Int, slot: Int32) throws {
        try requireObject(node, "an attachment object")
        let skinName = doc.key(node)
        let name = try string(node, "name") ?? skinName
        let path = try string(node, "path") ?? name
        let type = try string(node, "type") ?? "region"
        let location = SourceLocation.jsonPath(doc.path(node))
        var a: AttachmentData
        switch type {
        case "region":
            a = AttachmentData(name: name, kind: .region, path: path)
            a.sequence = try readSequence(node)
            a.x = try float(node, "x", 0) * scale
            a.y = try float(node, "y", 0) * scale
            a.scaleX = try float(node, "scaleX", 1)
            a.scaleY = try float(node, "scaleY", 1)
            a.rotation = try float(node, "rotation", 0)
            a.width = try float(node, "width", 32) * scale
            a.height = try float(node, "height", 32) * scale
            if let color = try color(node, "color", alpha: true) { a.color = color }
        case "mesh", "linkedmesh":
            a = AttachmentData(name: name, kind: .mesh, path: path)
            a.sequence = try readSequence(node)
            if let color = try color(node, "color", alpha: true) { a.color = color }
            a.width = try float(node, "width", 32) * scale
            a.height = try float(node, "height", 32) * scale
            // A mesh with a parent is linked, whatever its type says (as in the reference).
            if let parentNode = doc.member(node, "parent") {
                let parent = try stringValue(parentNode)
                let inheritTimelines = try int(node, "timelines", 1) != 0
                let parentSkin = try string(node, "skin")
                let index = builder.addAttachment(a, skin: skin, slot: slot, name: skinName, at: location)
                builder.addLinkedMesh(
                    attachment: index, parentSkin: .name(parentSkin), slot: slot, parent: parent,
                    inheritTimelines: inheritTimelines, at: location)
                return
            }
            let trianglesNode = try requiredArray(node, "triangles")
            let uvsNode = try requiredArray(node, "uvs")
            let uvCount = doc.count(uvsNode)
            guard uvCount % 2 == 0 else {
                throw error(.malformed, uvsNode, expected: "an even number of uvs", found: "\(uvCount)")
            }
            // As in a .skel, whose triangle count could not be stored for a mesh without vertices.
            guard uvCount > 0 else {
                throw error(.malformed, uvsNode, expected: "a mesh with at least one vertex", found: "no uvs")
            }
            a.regionUVs = try floats(uvsNode)
            try readVertices(node, into: &a, length: uvCount)
            guard doc.count(trianglesNode) % 3 == 0 else {
                throw error(
                    .malformed, trianglesNode, expected: "three vertex indices per triangle",
                    found: "\(doc.count(trianglesNode)) indices")
            }
            a.triangles = try shorts(trianglesNode)
            for (i, index) in a.triangles.enumerated() where Int(index) >= uvCount / 2 {
                throw error(
                    .malformed, doc.element(trianglesNode, i) ?? trianglesNode,
                    expected: "a vertex index below \(uvCount / 2)", found: "\(index)")
            }
            a.hullLength = try int(node, "hull", 0)
            guard a.hullLength >= 0, Int(a.hullLength) <= uvCount / 2 else {
                throw error(
                    .malformed, node, member: "hull", expected: "a hull vertex count in 0...\(uvCount / 2)",
                    found: "\(a.hullLength)")
            }
            if let edges = try optionalArray(node, "edges") { a.edges = try shorts(edges) }
        case "boundingbox":
            a = AttachmentData(name: name, kind: .boundingBox)
            a.color = EditorColors.boundingBox
            let vertexCount = try readVertexCount(node)
            try readVertices(node, into: &a, length: vertexCount * 2)
            if let color = try color(node, "color", alpha: true) { a.color = color }
        case "path":
            a = AttachmentData(name: name, kind: .path)
            a.color = EditorColors.path
            a.closed = try int(node, "closed", 0) != 0
            a.constantSpeed = try int(node, "constantSpeed", 1) != 0
            let vertexCount = try readVertexCount(node)
            try readVertices(node, into: &a, length: vertexCount * 2)
            let lengths = try requiredArray(node, "lengths")
            guard doc.count(lengths) == vertexCount / 3 else {
                throw error(
                    .malformed, lengths, expected: "\(vertexCount / 3) lengths (one per curve)",
                    found: "\(doc.count(lengths))")
            }
            a.lengths = try floats(lengths, scale: scale)
            if let color = try color(node, "color", alpha: true) { a.color = color }
        case "point":
            a = AttachmentData(name: name, kind: .point)
            a.color = EditorColors.point
            a.x = try float(node, "x", 0) * scale
            a.y = try float(node, "y", 0) * scale
            a.rotation = try float(node, "rotation", 0)
            if let color = try color(node, "color", alpha: true) { a.color = color }
        case "clipping":
            a = AttachmentData(name: name, kind: .clipping)
            a.color = EditorColors.clipping
            if let end = try string(node, "end") {
                a.endSlot = try lookup(slotIDs, end, at: node, member: "end", "slot")
            }
            let vertexCount = try readVertexCount(node)
            try readVertices(node, into: &a, length: vertexCount * 2)
            if let color = try color(node, "color", alpha: true) { a.color = color }
        default:
            throw badEnum(node, "type", "region, mesh, linkedmesh, boundingbox, path, point or clipping", type)
        }
        builder.addAttachment(a, skin: skin, slot: slot, name: skinName, at: location)
    }

    mutating func readSequence(_ node: Int32) throws -> SequenceData? {
        guard let sequenceNode = try optionalObject(node, "sequence") else { return nil }
        var sequence = SequenceData(
            count: try int(sequenceNode, "count", 0), start: try int(sequenceNode, "start", 1),
            digits: try int(sequenceNode, "digits", 0), setupIndex: try int(sequenceNode, "setupIndex", 0))
        // As a .skel: at least one frame (the reference would index an empty frame list), and a
        // setup frame that is not negative (-1 would mean "the setup frame" at run time); a setup
        // frame past the count shows the last frame, as in the reference.
        guard sequence.count >= 1, sequence.count <= 100_000 else {
            throw error(
                .limitExceeded, sequenceNode, member: "count", expected: "a sequence of 1...100000 frames",
                found: "\(sequence.count)")
        }
        guard sequence.setupIndex >= 0 else {
            throw error(
                .malformed, sequenceNode, member: "setupIndex", expected: "a non-negative sequence setup index",
                found: "\(sequence.setupIndex)")
        }
        guard sequence.digits >= 0, sequence.digits <= Self.maxSequenceDigits else {
            throw error(
                .limitExceeded, sequenceNode, member: "digits", expected: "digits in 0...\(Self.maxSequenceDigits)",
                found: "\(sequence.digits)")
        }
        guard Int(sequence.count) <= sequenceFrameBudget - sequenceFrames else {
            throw error(
                .limitExceeded, sequenceNode, member: "count",
                expected: "at most \(sequenceFrameBudget) sequence frames in a file of this size",
                found: "\(sequence.count) after \(sequenceFrames) others")
        }
        sequenceFrames += Int(sequence.count)
        sequence.id = nextSequenceID
        nextSequenceID &+= 1
        return sequence
    }

    /// `vertexCount`, which cannot exceed the number of vertex values present.
    func readVertexCount(_ node: Int32) throws -> Int {
        let count = Int(try int(node, "vertexCount", 0))
        let available = doc.member(node, "vertices").map { doc.type($0) == .array ? doc.count($0) : 0 } ?? 0
        guard count >= 0, count <= available else {
            throw error(
                .malformed, node, member: "vertexCount",
                expected: "a vertex count in 0...\(available) (the vertex values present)", found: "\(count)")
        }
        return count
    }

    /// Fills an attachment's vertices: `length` values mean x,y pairs; any other count means
    /// weighted data, per vertex a bone count followed by (bone, x, y, weight) per influence.
    func readVertices(_ node: Int32, into a: inout AttachmentData, length: Int) throws {
        let list = try requiredArray(node, "vertices")
        a.worldVerticesLength = Int32(length)
        let count = doc.count(list)
        if count == length {
            a.vertices = try floats(list, scale: scale)
            return
        }
        let values = try floats(list)
        var bones: [Int32] = []
        var vertices: [Float] = []
        bones.reserveCapacity(count / 2)
        vertices.reserveCapacity(count)
        var i = 0
        var vertexCount = 0
        while i < count {
            let boneCount = values[i]
            let maxBones = (count - i - 1) / 4
            guard boneCount.isFinite, boneCount >= 0, boneCount < Float(maxBones + 1) else {
                throw error(
                    .malformed, doc.element(list, i) ?? list,
                    expected: "a bone count of at most \(maxBones) (weighted vertex data)", found: "\(boneCount)")
            }
            i += 1
            let n = Int(boneCount)
            bones.append(Int32(n))
            for _ in 0..<n {
                let bone = values[i]
                guard bone.isFinite, bone >= 0, bone < Float(builder.bones.count) else {
                    throw error(
                        .malformed, doc.element(list, i) ?? list,
                        expected: "a bone index below \(builder.bones.count)", found: "\(bone)")
                }
                bones.append(Int32(bone))
                vertices.append(values[i + 1] * scale)
                vertices.append(values[i + 2] * scale)
                vertices.append(values[i + 3])
                i += 4
            }
            vertexCount += 1
        }
        guard vertexCount * 2 == length else {
            throw error(
                .malformed, list, expected: "\(length) x,y values or weighted data for \(length / 2) vertices",
                found: "\(count) values (\(vertexCount) weighted vertices)")
        }
        a.bones = bones
        a.vertices = vertices
    }
}
