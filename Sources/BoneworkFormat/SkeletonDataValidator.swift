/// Checks that every index stored in a builder points inside its table, so that code running over
/// a `SkeletonData` never needs bounds checks of its own. Readers report problems with precise
/// locations as they read; this is the final guarantee for anything that slipped through.
struct SkeletonDataValidator {
    let builder: SkeletonDataBuilder

    private func fail(_ what: String, _ expected: String, _ found: some CustomStringConvertible) -> LoadError {
        LoadError(.malformed, file: builder.file, at: .file, expected: "\(what): \(expected)", found: "\(found)")
    }

    // The description is built only on failure: validation runs over every weight of every mesh.
    private func check(_ index: Int32, below count: Int, _ what: @autoclosure () -> String) throws {
        guard index >= 0, Int(index) < count else { throw fail(what(), "index in 0..<\(count)", index) }
    }

    func validate() throws {
        let b = builder
        let boneCount = b.bones.count
        let slotCount = b.slots.count
        guard boneCount > 0 else { throw fail("bones", "at least one bone", 0) }
        for (i, bone) in b.bones.enumerated() {
            if i == 0 {
                guard bone.parent == -1 else { throw fail("bone \(bone.name)", "root without parent", bone.parent) }
            } else {
                guard bone.parent >= 0, Int(bone.parent) < i else {
                    throw LoadError(
                        .cycle, file: b.file, at: .file, expected: "bone '\(bone.name)' parent defined before it",
                        found: "parent index \(bone.parent)")
                }
            }
        }
        for slot in b.slots {
            try check(slot.bone, below: boneCount, "slot \(slot.name) bone")
            if slot.attachmentName >= 0 {
                try check(slot.attachmentName, below: b.attachmentNames.count, "slot \(slot.name) attachment")
            }
        }
        for c in b.ikConstraints {
            guard c.bones.count == 1 || c.bones.count == 2 else {
                throw fail("ik \(c.name)", "1 or 2 bones", c.bones.count)
            }
            for bone in c.bones { try check(bone, below: boneCount, "ik \(c.name) bone") }
            try check(c.target, below: boneCount, "ik \(c.name) target")
        }
        for c in b.transformConstraints {
            for bone in c.bones { try check(bone, below: boneCount, "transform \(c.name) bone") }
            try check(c.target, below: boneCount, "transform \(c.name) target")
        }
        for c in b.pathConstraints {
            for bone in c.bones { try check(bone, below: boneCount, "path \(c.name) bone") }
            try check(c.target, below: slotCount, "path \(c.name) target slot")
        }
        for c in b.physicsConstraints {
            try check(c.bone, below: boneCount, "physics \(c.name) bone")
        }
        if b.defaultSkin >= 0 { try check(b.defaultSkin, below: b.skins.count, "default skin") }
        for skin in b.skins {
            for entry in skin.entries {
                try check(entry.slot, below: slotCount, "skin \(skin.name) slot")
                try check(entry.attachment, below: b.attachments.count, "skin \(skin.name) attachment")
            }
            for bone in skin.bones { try check(bone, below: boneCount, "skin \(skin.name) bone") }
            for c in skin.constraints {
                let count: Int
                switch c.kind {
                case .ik: count = b.ikConstraints.count
                case .transform: count = b.transformConstraints.count
                case .path: count = b.pathConstraints.count
                case .physics: count = b.physicsConstraints.count
                }
                try check(c.index, below: count, "skin \(skin.name) constraint")
            }
        }
        for a in b.attachments { try validate(a) }
        for animation in b.animations { try validate(animation) }
        try validateFinite()
        try validatePlanSize()
    }

    /// The world compiles one update plan per skin (and one for no skin): its update order, what
    /// it activates and its attachment table, each as long as the bones, slots, constraints and
    /// attachment names, plus the bones of the path attachments its path constraints follow.
    /// That is a product of counts: a few kilobytes of skins times a few kilobytes of bones would
    /// make a spawn allocate gigabytes. The update order (the reference's update cache) also
    /// updates a constrained bone's descendants again after each constraint: its length, and
    /// every instance's bone updates per frame, can reach bones x constraints, counted here as
    /// each constraint's bones' subtree sizes. Real exports need under 0.1 values per byte of
    /// file; the budget allows 16 per byte (and 65,536 for any file).
    private func validatePlanSize() throws {
        let b = builder
        var entries = 0
        var pathBones: [Int32: Int] = [:]
        for skin in b.skins {
            entries &+= skin.entries.count
            for entry in skin.entries where b.attachments[Int(entry.attachment)].kind == .path {
                pathBones[entry.slot, default: 0] &+= max(1, b.attachments[Int(entry.attachment)].bones.count)
            }
        }
        var keyedNames = 0
        for animation in b.animations {
            for t in animation.timelines where t.kind == .attachment { keyedNames &+= Int(t.frameCount) }
        }
        var followed = 0
        for c in b.pathConstraints { followed &+= pathBones[c.target] ?? 0 }
        // Subtree sizes, children after parents: one pass from the leaves up.
        var subtree = [Int](repeating: 1, count: b.bones.count)
        for i in stride(from: b.bones.count - 1, to: 0, by: -1) { subtree[Int(b.bones[i].parent)] &+= subtree[i] }
        var updatedAgain = 0
        for c in b.ikConstraints where !c.bones.isEmpty { updatedAgain &+= subtree[Int(c.bones[0])] }
        for c in b.transformConstraints { for bone in c.bones { updatedAgain &+= subtree[Int(bone)] } }
        for c in b.pathConstraints { for bone in c.bones { updatedAgain &+= subtree[Int(bone)] } }
        for c in b.physicsConstraints { updatedAgain &+= subtree[Int(c.bone)] }
        let constraints =
            b.ikConstraints.count &+ b.transformConstraints.count &+ b.pathConstraints.count
            &+ b.physicsConstraints.count
        let perPlan =
            b.bones.count &+ b.slots.count &+ constraints &+ entries &+ keyedNames &+ followed &+ updatedAgain
        let (values, overflow) = (b.skins.count &+ 1).multipliedReportingOverflow(by: perPlan)
        let budget = LoadBudget.compiledPlanValues(fileSize: b.sourceBytes)
        guard !overflow, values <= budget else {
            throw LoadError(
                .limitExceeded, file: b.file, at: .file,
                expected: "at most \(budget) compiled plan values for a file of this size "
                    + "(skins + 1 times bones, slots, constraints, attachment names, path bones and "
                    + "the bones constraints update again)",
                found: "\(b.skins.count + 1) plans of \(perPlan) values")
        }
    }

    /// Every float the systems read is finite. The readers refuse non-finite values where they
    /// read them (with their place); this catches what arithmetic at load makes of finite ones
    /// (a load scale that overflows a large coordinate), so that no infinity reaches a pose from
    /// the data itself.
    private func validateFinite() throws {
        let b = builder
        func finite(_ values: [Float], _ what: @autoclosure () -> String) throws {
            for value in values where !value.isFinite { throw fail(what(), "finite values", value) }
        }
        try finite([b.x, b.y, b.width, b.height, b.referenceScale, b.fps], "skeleton header")
        for bone in b.bones {
            try finite(
                [bone.x, bone.y, bone.rotation, bone.scaleX, bone.scaleY, bone.shearX, bone.shearY, bone.length],
                "bone \(bone.name)")
        }
        for c in b.ikConstraints { try finite([c.mix, c.softness], "ik \(c.name)") }
        for c in b.transformConstraints {
            try finite(
                [
                    c.mixRotate, c.mixX, c.mixY, c.mixScaleX, c.mixScaleY, c.mixShearY, c.offsetRotation, c.offsetX,
                    c.offsetY, c.offsetScaleX, c.offsetScaleY, c.offsetShearY,
                ], "transform \(c.name)")
        }
        for c in b.pathConstraints {
            try finite([c.offsetRotation, c.position, c.spacing, c.mixRotate, c.mixX, c.mixY], "path \(c.name)")
        }
        for c in b.physicsConstraints {
            try finite(
                [
                    c.x, c.y, c.rotate, c.scaleX, c.shearX, c.limit, c.step, c.inertia, c.strength, c.damping,
                    c.massInverse, c.wind, c.gravity, c.mix,
                ], "physics \(c.name)")
        }
        for a in b.attachments {
            try finite([a.x, a.y, a.rotation, a.scaleX, a.scaleY, a.width, a.height], "attachment \(a.name)")
            try finite(a.vertices, "attachment \(a.name) vertices")
            try finite(a.regionUVs, "attachment \(a.name) uvs")
            try finite(a.lengths, "attachment \(a.name) path lengths")
        }
        for e in b.events { try finite([e.floatValue, e.volume, e.balance], "event \(e.name)") }
        for animation in b.animations {
            try finite([animation.duration], "animation \(animation.name) duration")
            try finite(animation.frames, "animation \(animation.name) keys")
            try finite(animation.curves, "animation \(animation.name) curves")
            for key in animation.events {
                try finite([key.time, key.floatValue, key.volume, key.balance], "animation \(animation.name) event")
            }
        }
    }

    private func validate(_ a: AttachmentData) throws {
        let b = builder
        guard a.parentMesh != -2 else { throw fail("linked mesh \(a.name)", "a resolved parent", "unresolved") }
        if a.parentMesh >= 0 { try check(a.parentMesh, below: b.attachments.count, "mesh \(a.name) parent") }
        if a.timelineAttachment >= 0 {
            try check(a.timelineAttachment, below: b.attachments.count, "attachment \(a.name) timeline attachment")
        }
        switch a.kind {
        case .mesh, .boundingBox, .path, .clipping:
            let vertexCount = Int(a.worldVerticesLength) / 2
            guard a.worldVerticesLength >= 0, a.worldVerticesLength % 2 == 0 else {
                throw fail("attachment \(a.name)", "an even world vertices length", a.worldVerticesLength)
            }
            if a.bones.isEmpty {
                guard a.vertices.count == vertexCount * 2 else {
                    throw fail("attachment \(a.name)", "\(vertexCount * 2) vertex floats", a.vertices.count)
                }
            } else {
                // Walk the weighted layout: [n, bone * n] per vertex, 3 floats per influence.
                var boneCursor = 0
                var floatCursor = 0
                for _ in 0..<vertexCount {
                    guard boneCursor < a.bones.count else {
                        throw fail("attachment \(a.name)", "bone counts", "too few")
                    }
                    let n = Int(a.bones[boneCursor])
                    boneCursor += 1
                    guard n >= 0, boneCursor + n <= a.bones.count, floatCursor + n * 3 <= a.vertices.count else {
                        throw fail("attachment \(a.name)", "weights within the vertex data", n)
                    }
                    for k in 0..<n {
                        try check(a.bones[boneCursor + k], below: b.bones.count, "attachment \(a.name) bone")
                    }
                    boneCursor += n
                    floatCursor += n * 3
                }
                guard boneCursor == a.bones.count, floatCursor == a.vertices.count else {
                    throw fail("attachment \(a.name)", "weights that cover the vertex data exactly", "extra data")
                }
            }
            if a.kind == .mesh {
                guard a.regionUVs.count == vertexCount * 2 else {
                    throw fail("mesh \(a.name)", "\(vertexCount * 2) uvs", a.regionUVs.count)
                }
                guard a.triangles.count % 3 == 0, a.triangles.allSatisfy({ Int($0) < vertexCount }) else {
                    throw fail("mesh \(a.name)", "triangles indexing \(vertexCount) vertices", a.triangles.count)
                }
            }
            if a.kind == .clipping, a.endSlot >= 0 {
                try check(a.endSlot, below: b.slots.count, "clipping \(a.name) end slot")
            }
        case .region, .point:
            break
        }
        if let sequence = a.sequence {
            guard sequence.count >= 1, sequence.count <= 100_000 else {
                throw fail("sequence of \(a.name)", "a frame count in 1...100000", sequence.count)
            }
            guard sequence.setupIndex >= 0 else {
                throw fail("sequence of \(a.name)", "a non-negative setup index", sequence.setupIndex)
            }
        }
    }

    private func validate(_ animation: AnimationData) throws {
        let b = builder
        let name = "animation \(animation.name)"
        for t in animation.timelines {
            let stride = t.kind.frameStride
            guard t.frameCount >= 0, t.framesStart >= 0,
                Int(t.framesStart) + Int(t.frameCount) * stride <= animation.frames.count
            else { throw fail(name, "frames inside the pool", t.frameCount) }
            if t.kind.hasCurves {
                guard t.curvesStart >= 0, Int(t.curvesStart) + Int(t.curvesCount) <= animation.curves.count,
                    t.curvesCount >= t.frameCount
                else { throw fail(name, "curves inside the pool", t.curvesCount) }
            }
            switch t.kind {
            case .rotate, .translate, .translateX, .translateY, .scale, .scaleX, .scaleY, .shear, .shearX, .shearY,
                .inherit:
                try check(t.target, below: b.bones.count, "\(name) bone timeline")
            case .rgba, .rgb, .alpha, .rgba2, .rgb2:
                try check(t.target, below: b.slots.count, "\(name) slot timeline")
            case .attachment:
                try check(t.target, below: b.slots.count, "\(name) attachment timeline")
                guard Int(t.valuesStart) + Int(t.frameCount) <= animation.ints.count else {
                    throw fail(name, "attachment keys inside the pool", t.frameCount)
                }
            case .deform, .sequence:
                try check(t.target, below: b.slots.count, "\(name) \(t.kind) timeline slot")
                try check(t.attachment, below: b.attachments.count, "\(name) \(t.kind) timeline attachment")
                if t.kind == .deform {
                    guard Int(t.valuesStart) + Int(t.frameCount) * Int(t.valueStride) <= animation.frames.count else {
                        throw fail(name, "deform vertices inside the pool", t.frameCount)
                    }
                }
            case .drawOrder:
                guard t.valueStride == Int32(b.slots.count),
                    Int(t.valuesStart) + Int(t.frameCount) * b.slots.count <= animation.ints.count
                else { throw fail(name, "draw order keys of \(b.slots.count) slots", t.valueStride) }
                for i in 0..<Int(t.frameCount) * b.slots.count {
                    let slot = animation.ints[Int(t.valuesStart) + i]
                    guard slot >= -1, Int(slot) < b.slots.count else { throw fail(name, "draw order slot", slot) }
                }
            case .event:
                guard Int(t.valuesStart) + Int(t.frameCount) <= animation.events.count else {
                    throw fail(name, "event keys inside the pool", t.frameCount)
                }
                for i in 0..<Int(t.frameCount) {
                    try check(animation.events[Int(t.valuesStart) + i].event, below: b.events.count, "\(name) event")
                }
            case .ik: try check(t.target, below: b.ikConstraints.count, "\(name) ik timeline")
            case .transform: try check(t.target, below: b.transformConstraints.count, "\(name) transform timeline")
            case .pathPosition, .pathSpacing, .pathMix:
                try check(t.target, below: b.pathConstraints.count, "\(name) path timeline")
            case .physicsInertia, .physicsStrength, .physicsDamping, .physicsMass, .physicsWind, .physicsGravity,
                .physicsMix, .physicsReset:
                if t.target != -1 { try check(t.target, below: b.physicsConstraints.count, "\(name) physics timeline") }
            }
        }
        for i in animation.ints where i < -1 { throw fail(name, "name ids >= -1", i) }
        if animation.ints.contains(where: { Int($0) >= b.attachmentNames.count }) {
            // Attachment keys are interned names; draw order keys are checked above with the slot count.
            for t in animation.timelines where t.kind == .attachment {
                for k in 0..<Int(t.frameCount) {
                    let id = animation.ints[Int(t.valuesStart) + k]
                    if id >= 0 { try check(id, below: b.attachmentNames.count, "\(name) attachment key") }
                }
            }
        }
    }
}
