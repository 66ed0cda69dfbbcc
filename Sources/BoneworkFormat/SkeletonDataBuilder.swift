/// The mutable form both skeleton readers fill, in the reference runtime's order: header, bones,
/// slots, constraints, skins (then `resolveLinkedMeshes()`), events, animations. `finish(atlas:)`
/// checks every index, resolves attachment images against the atlas and freezes the result
/// into a `SkeletonData`; nothing escapes unless every check passed.
public struct SkeletonDataBuilder {
    /// The source path, named in every ``LoadError`` and kept as ``SkeletonData/file``.
    public var file: String
    /// Becomes ``SkeletonData/hash``.
    public var hash = ""
    /// Becomes ``SkeletonData/version``.
    public var version = ""
    /// Becomes ``SkeletonData/x`` (skeleton units).
    public var x: Float = 0
    /// Becomes ``SkeletonData/y`` (skeleton units).
    public var y: Float = 0
    /// Becomes ``SkeletonData/width`` (skeleton units).
    public var width: Float = 0
    /// Becomes ``SkeletonData/height`` (skeleton units).
    public var height: Float = 0
    /// Becomes ``SkeletonData/referenceScale``.
    public var referenceScale: Float = 100
    /// Becomes ``SkeletonData/fps``.
    public var fps: Float = 30
    /// Becomes ``SkeletonData/imagesPath``.
    public var imagesPath = ""
    /// Becomes ``SkeletonData/audioPath``.
    public var audioPath = ""

    /// Bones, parents before children; ``finish(atlas:)`` checks the order and every index.
    public var bones: [BoneData] = []
    /// Slots in setup draw order.
    public var slots: [SlotData] = []
    /// IK constraints in file order.
    public var ikConstraints: [IKConstraintData] = []
    /// Transform constraints in file order.
    public var transformConstraints: [TransformConstraintData] = []
    /// Path constraints in file order.
    public var pathConstraints: [PathConstraintData] = []
    /// Physics constraints in file order.
    public var physicsConstraints: [PhysicsConstraintData] = []
    /// Skins in file order; add their attachments with ``addAttachment(_:skin:slot:name:at:)``,
    /// not by editing ``SkinData/entries``, so that lookups stay consistent.
    public var skins: [SkinData] = []
    /// Index in ``skins`` of the default skin; -1 until one is read.
    public var defaultSkin: Int32 = -1
    /// Every attachment added so far, in the order added; only ``addAttachment(_:skin:slot:name:at:)``
    /// appends.
    public private(set) var attachments: [AttachmentData] = []
    /// Where each attachment was defined, for errors found after reading (missing atlas regions).
    public private(set) var attachmentLocations: [SourceLocation] = []
    /// Attachment names interned so far, by id; ``intern(_:)`` appends.
    public private(set) var attachmentNames: [String] = []
    /// Events in file order.
    public var events: [EventData] = []
    /// Animations in file order; build each timeline with ``TimelineBuilder``.
    public var animations: [AnimationData] = []

    /// The size of the file read, in bytes: what the world may spend compiling the skeleton is
    /// budgeted in proportion to it (`LoadBudget`); 0 for a builder filled in code.
    var sourceBytes = 0

    private var nameIDs: [String: Int32] = [:]
    /// (skin, slot, name id) -> position in that skin's entries, so that adding and finding entries
    /// stays linear in the file size however large a skin is.
    private var entryPositions: [EntryKey: Int] = [:]
    private var pendingLinkedMeshes: [PendingLinkedMesh] = []

    /// The skin a linked mesh's parent is looked up in: the binary format names it by index, JSON by name.
    public enum SkinReference {
        /// By position in ``SkeletonDataBuilder/skins``.
        case index(Int)
        /// By name; nil or empty means the default skin.
        case name(String?)
    }

    private struct EntryKey: Hashable {
        var skin: Int
        var slot: Int32
        var name: Int32
    }

    private struct PendingLinkedMesh {
        var attachment: Int32
        var skin: SkinReference
        var slot: Int32
        var parent: String
        var inheritTimelines: Bool
        var location: SourceLocation
    }

    /// An empty builder: no bones, slots, skins or animations, header values at their defaults.
    /// - Parameter file: The source path, for errors and ``SkeletonData/file``.
    public init(file: String) { self.file = file }

    /// The interned id of an attachment name.
    public mutating func intern(_ name: String) -> Int32 {
        if let id = nameIDs[name] { return id }
        let id = Int32(attachmentNames.count)
        attachmentNames.append(name)
        nameIDs[name] = id
        return id
    }

    /// Adds an attachment to `skins[skin]` under (slot, name) and returns its attachment index.
    /// A later entry with the same (slot, name) replaces the earlier one, as in the reference.
    @discardableResult
    public mutating func addAttachment(
        _ attachment: AttachmentData, skin: Int, slot: Int32, name: String, at location: SourceLocation
    ) -> Int32 {
        var attachment = attachment
        let index = Int32(attachments.count)
        if attachment.timelineAttachment < 0 { attachment.timelineAttachment = index }
        attachments.append(attachment)
        attachmentLocations.append(location)
        let nameID = intern(name)
        let entry = SkinEntry(slot: slot, name: nameID, attachment: index)
        let key = EntryKey(skin: skin, slot: slot, name: nameID)
        if let existing = entryPositions[key] {
            skins[skin].entries[existing] = entry
        } else {
            entryPositions[key] = skins[skin].entries.count
            skins[skin].entries.append(entry)
        }
        return index
    }

    /// Records a linked mesh (already added with `addAttachment`) whose parent is looked up by
    /// `resolveLinkedMeshes()` once every skin has been read.
    public mutating func addLinkedMesh(
        attachment: Int32, parentSkin: SkinReference, slot: Int32, parent: String, inheritTimelines: Bool,
        at location: SourceLocation
    ) {
        attachments[Int(attachment)].parentMesh = -2  // marked as pending
        pendingLinkedMeshes.append(
            PendingLinkedMesh(
                attachment: attachment, skin: parentSkin, slot: slot, parent: parent,
                inheritTimelines: inheritTimelines, location: location))
    }

    /// The attachment index a skin holds for (slot, name), nil when none.
    public func attachmentIndex(skin: Int, slot: Int32, name: String) -> Int32? {
        guard skins.indices.contains(skin), let nameID = nameIDs[name],
            let position = entryPositions[EntryKey(skin: skin, slot: slot, name: nameID)]
        else { return nil }
        return skins[skin].entries[position].attachment
    }

    /// Copies each linked mesh's geometry from its parent (the reference's setParentMesh); call after
    /// the skins and before the animations, whose deform timelines need the vertex counts.
    public mutating func resolveLinkedMeshes() throws {
        for pending in pendingLinkedMeshes {
            let skin: Int
            switch pending.skin {
            case .index(let i):
                guard skins.indices.contains(i) else {
                    throw LoadError(
                        .malformed, file: file, at: pending.location, expected: "skin index < \(skins.count)",
                        found: "\(i)")
                }
                skin = i
            case .name(let name):
                if let name, !name.isEmpty {
                    guard let i = skins.firstIndex(where: { $0.name == name }) else {
                        throw LoadError(
                            .unknownName, file: file, at: pending.location, expected: "a skin named '\(name)'",
                            found: "no such skin")
                    }
                    skin = i
                } else {
                    guard defaultSkin >= 0 else {
                        throw LoadError(
                            .unknownName, file: file, at: pending.location, expected: "a default skin",
                            found: "none")
                    }
                    skin = Int(defaultSkin)
                }
            }
            guard let parentIndex = attachmentIndex(skin: skin, slot: pending.slot, name: pending.parent),
                attachments[Int(parentIndex)].kind == .mesh, attachments[Int(parentIndex)].parentMesh != -2
            else {
                throw LoadError(
                    .unknownName, file: file, at: pending.location,
                    expected: "parent mesh '\(pending.parent)' in skin '\(skins[skin].name)'", found: "none")
            }
            let parent = attachments[Int(parentIndex)]
            let index = Int(pending.attachment)
            attachments[index].parentMesh = parentIndex
            attachments[index].timelineAttachment = pending.inheritTimelines ? parentIndex : pending.attachment
            attachments[index].bones = parent.bones
            attachments[index].vertices = parent.vertices
            attachments[index].worldVerticesLength = parent.worldVerticesLength
            attachments[index].regionUVs = parent.regionUVs
            attachments[index].triangles = parent.triangles
            attachments[index].hullLength = parent.hullLength
            attachments[index].edges = parent.edges
            attachments[index].width = parent.width
            attachments[index].height = parent.height
        }
        pendingLinkedMeshes.removeAll()
    }

    /// Validates every index and resolves attachment images; the only way to a `SkeletonData`.
    public func finish(atlas: Atlas?) throws -> SkeletonData {
        try SkeletonDataValidator(builder: self).validate()
        let (frames, uvs) = try AttachmentImageResolver.resolve(builder: self, atlas: atlas)
        var resolved = self
        var next: Int32 = 0
        for i in resolved.attachments.indices {
            let count: Int32
            switch resolved.attachments[i].kind {
            case .region, .mesh: count = max(1, resolved.attachments[i].sequence?.count ?? 1)
            default: count = 0
            }
            resolved.attachments[i].firstFrame = next
            resolved.attachments[i].frameCount = count
            next += count
        }
        return SkeletonData(builder: resolved, frames: frames, meshUVs: uvs, atlas: atlas)
    }
}

/// Builds one timeline's frames and curves in the reference runtime's layout, to be appended to an
/// animation with `AnimationData.append(_:)`.
public struct TimelineBuilder {
    /// The timeline being built; its pool offsets are set when it is appended.
    public var data: TimelineData
    /// The keys so far: `frameCount * kind.frameStride` floats, set with `setFrame`.
    public private(set) var frames: [Float]
    /// Curve markers (one per frame, ``CurveType``) followed by bezier samples; every frame starts
    /// linear, the last stepped. Empty for kinds without curves.
    public private(set) var curves: [Float]
    /// Deform vertices (frameCount * valueStride) or other per-frame ints/events, kept by the caller.
    public var deformValues: [Float] = []
    /// Attachment timelines: one interned name per frame (-1 = none). Draw order timelines:
    /// `frameCount * slotCount` slot indices.
    public var ints: [Int32] = []
    /// Event timelines: one key per frame.
    public var events: [EventKey] = []

    /// A timeline of `frameCount` zeroed keys, all linear except the last.
    /// - Parameters:
    ///   - kind: What the timeline animates.
    ///   - target: The bone, slot or constraint index (by kind); -1 for all physics constraints.
    ///   - frameCount: The number of keys.
    public init(kind: TimelineKind, target: Int32, frameCount: Int) {
        data = TimelineData(kind: kind, target: target, frameCount: Int32(frameCount), framesStart: 0)
        frames = [Float](repeating: 0, count: frameCount * kind.frameStride)
        if kind.hasCurves && frameCount > 0 {
            curves = [Float](repeating: CurveType.linear, count: frameCount)
            curves[frameCount - 1] = CurveType.stepped
        } else {
            curves = []
        }
    }

    /// The number of keys, fixed at creation.
    public var frameCount: Int { Int(data.frameCount) }

    /// Sets frame `frame`: `values` are the frame's floats after the time (stride - 1 of them).
    public mutating func setFrame(_ frame: Int, time: Float, _ values: Float...) {
        setFrame(frame, time: time, values: values)
    }

    /// Sets frame `frame` from an array: `values` are the floats after the time; extra values are
    /// ignored, missing ones keep their previous value.
    /// - Parameters:
    ///   - frame: The key index, `0..<frameCount` (traps when out of range).
    ///   - time: The key's time in seconds.
    ///   - values: The key's values in the kind's layout (see ``TimelineKind``).
    public mutating func setFrame(_ frame: Int, time: Float, values: [Float]) {
        let stride = data.kind.frameStride
        let base = frame * stride
        frames[base] = time
        for (i, value) in values.prefix(stride - 1).enumerated() { frames[base + 1 + i] = value }
    }

    /// Makes the values hold from `frame` until the next key (traps for kinds without curves).
    public mutating func setStepped(_ frame: Int) { curves[frame] = CurveType.stepped }
    /// Makes the values move linearly from `frame` to the next key (traps for kinds without curves).
    public mutating func setLinear(_ frame: Int) { curves[frame] = CurveType.linear }

    /// Stores bezier segment `bezier` for value `value` of `frame` as 9 sampled points, exactly as
    /// the reference runtime does (forward differencing with the same float/double mix).
    public mutating func setBezier(
        bezier: Int, frame: Int, value: Int, time1: Float, value1: Float, cx1: Float, cy1: Float, cx2: Float,
        cy2: Float, time2: Float, value2: Float
    ) {
        var i = frameCount + bezier * CurveType.bezierSize
        if curves.count < i + CurveType.bezierSize {
            curves.append(contentsOf: repeatElement(0, count: i + CurveType.bezierSize - curves.count))
        }
        if value == 0 { curves[frame] = CurveType.bezier + Float(i) }
        // The reference multiplies float expressions by double constants, then stores to float.
        let tmpx = Float(Double(time1 - cx1 * 2 + cx2) * 0.03)
        let dddx = Float(Double((cx1 - cx2) * 3 - time1 + time2) * 0.006)
        let tmpy: Float
        let dddy: Float
        var dy: Float
        var y: Float
        if data.kind == .deform {
            // Deform curves always run from 0 to 1; the reference samples them with its own constants.
            tmpy = Float(Double(cy2) * 0.03 - Double(cy1) * 0.06)
            dddy = Float((Double(cy1 - cy2) + 0.33333333) * 0.018)
            dy = Float(Double(cy1) * 0.3 + Double(tmpy) + Double(dddy) * 0.16666667)
            y = dy
        } else {
            tmpy = Float(Double(value1 - cy1 * 2 + cy2) * 0.03)
            dddy = Float(Double((cy1 - cy2) * 3 - value1 + value2) * 0.006)
            dy = Float(Double(cy1 - value1) * 0.3 + Double(tmpy) + Double(dddy) * 0.16666667)
            y = value1 + dy
        }
        var ddx = tmpx * 2 + dddx
        var ddy = tmpy * 2 + dddy
        var dx = Float(Double(cx1 - time1) * 0.3 + Double(tmpx) + Double(dddx) * 0.16666667)
        var x = time1 + dx
        let end = i + CurveType.bezierSize
        while i < end {
            curves[i] = x
            curves[i + 1] = y
            dx += ddx
            dy += ddy
            ddx += dddx
            ddy += dddy
            x += dx
            y += dy
            i += 2
        }
    }

    /// Whether bezier segment `bezier` (stored by ``setBezier(bezier:frame:value:time1:value1:cx1:cy1:cx2:cy2:time2:value2:)``) sampled to finite points only.
    /// Handles that are finite but far out of range (|x| near 3.4e38) overflow the forward
    /// differencing; the readers refuse such a curve at its place instead of storing infinities.
    public func bezierIsFinite(_ bezier: Int) -> Bool {
        let start = frameCount + bezier * CurveType.bezierSize
        guard start >= 0, start + CurveType.bezierSize <= curves.count else { return false }
        return curves[start..<(start + CurveType.bezierSize)].allSatisfy(\.isFinite)
    }
}

extension AnimationData {
    /// Appends a finished timeline, moving its frames, curves and values into the shared pools.
    public mutating func append(_ timeline: TimelineBuilder) {
        var data = timeline.data
        data.framesStart = Int32(frames.count)
        frames.append(contentsOf: timeline.frames)
        if data.kind.hasCurves {
            data.curvesStart = Int32(curves.count)
            data.curvesCount = Int32(timeline.curves.count)
            curves.append(contentsOf: timeline.curves)
        }
        switch data.kind {
        case .deform:
            data.valuesStart = Int32(frames.count)
            frames.append(contentsOf: timeline.deformValues)
        case .attachment, .drawOrder:
            data.valuesStart = Int32(ints.count)
            ints.append(contentsOf: timeline.ints)
        case .event:
            data.valuesStart = Int32(events.count)
            events.append(contentsOf: timeline.events)
        default:
            break
        }
        timelines.append(data)
    }
}
