import BoneworkFormat
import BoneworkWorld

/// A posed instance held as plain arrays (a copy): the simplest `PosedSkeleton`, filled from the
/// engine's `InstancePose` or from any other source of world transforms, slot state and world
/// vertices. It allocates when made; per-frame drawing of many instances should read the engine's
/// columns instead (`PoseView`).
///
/// Why not an `InstancePose`: that is the engine's record of a pose in a `World`; this one can
/// be built from poses no `World` holds (reference traces, hand-made scenes in tests) and is what
/// the frame builder reads (`PosedSkeleton`).
public struct PoseSnapshot: PosedSkeleton {
    /// The skeleton data posed.
    public var data: SkeletonData
    /// The skeleton colour multiplied into every slot's.
    public var skeletonColor: Color = .white
    /// Per bone.
    public var bones: [BoneWorldTransform]
    /// Per bone: whether it is active (skin-required bones of another skin are not).
    public var boneActive: [Bool]
    /// Per slot.
    public var slotColors: [Color]
    /// Per slot: the dark (two-colour tint) colour.
    public var darkColors: [Color]
    /// Per slot: the attachment shown (index into the data's attachments), -1 for none.
    public var attachments: [Int]
    /// Per slot: the sequence frame shown, -1 for the setup frame.
    public var sequenceIndices: [Int]
    /// World vertices of each slot's region (8 floats, BR, BL, UL, UR) or mesh attachment; nil for
    /// other slots. Vertex attachments without them (clipping) are computed from `bones`.
    public var vertices: [[Float]?]
    /// Slot indices in draw order.
    public var drawOrder: [Int]

    /// A snapshot from its arrays (per bone, per slot, and the draw order).
    public init(
        data: SkeletonData, bones: [BoneWorldTransform], boneActive: [Bool], slotColors: [Color],
        darkColors: [Color], attachments: [Int], vertices: [[Float]?], drawOrder: [Int]
    ) {
        self.data = data
        self.bones = bones
        self.boneActive = boneActive
        self.slotColors = slotColors
        self.darkColors = darkColors
        self.attachments = attachments
        self.sequenceIndices = [Int](repeating: -1, count: slotColors.count)
        self.vertices = vertices
        self.drawOrder = drawOrder
    }

    /// From the engine's copy of an instance's pose. Attachment names are resolved in `skin`
    /// first, then in the default skin (the reference's lookup order); a name found in neither
    /// leaves the slot empty.
    public init(_ pose: InstancePose, data: SkeletonData, skin: String?) {
        let skinIndex = skin.flatMap { data.findSkinIndex($0) }.map(Int32.init)
        var attachments: [Int] = []
        for (slot, name) in pose.attachments.enumerated() {
            attachments.append(Self.attachmentIndex(data: data, skin: skinIndex, slot: slot, name: name))
        }
        var active = [Bool](repeating: true, count: pose.bones.count)
        for bone in pose.inactiveBones where active.indices.contains(bone) { active[bone] = false }
        self.init(
            data: data,
            bones: pose.bones.map {
                $0.count >= 6
                    ? BoneWorldTransform(a: $0[0], b: $0[1], c: $0[2], d: $0[3], worldX: $0[4], worldY: $0[5])
                    : .identity
            },
            boneActive: active,
            slotColors: pose.colors.map { $0.count >= 4 ? Color($0[0], $0[1], $0[2], $0[3]) : .white },
            darkColors: pose.darkColors.map { $0.count >= 3 ? Color($0[0], $0[1], $0[2], 1) : Color(0, 0, 0, 1) },
            attachments: attachments, vertices: pose.vertices, drawOrder: pose.drawOrder)
    }

    /// The attachment index shown in `slot` under the attachment name `name` (the attachment's
    /// own name, which may differ from the skin key it is stored under): looked up in `skin`
    /// first, then in the default skin (the reference's order); -1 when neither has it.
    public static func attachmentIndex(data: SkeletonData, skin: Int32?, slot: Int, name: String?) -> Int {
        guard let name else { return -1 }
        for candidate in [skin, data.defaultSkin >= 0 ? data.defaultSkin : nil] {
            guard let s = candidate, s >= 0, Int(s) < data.skins.count else { continue }
            // The skin key usually equals the attachment's name.
            if let id = data.attachmentNameID(name), let index = data.attachment(skin: s, slot: Int32(slot), name: id),
                data.attachments[Int(index)].name == name
            {
                return Int(index)
            }
            for entry in data.skins[Int(s)].entries
            where entry.slot == Int32(slot) && data.attachments[Int(entry.attachment)].name == name {
                return Int(entry.attachment)
            }
        }
        return -1
    }

    /// Slots in ``drawOrder``.
    public var drawOrderCount: Int { drawOrder.count }
    /// The slot drawn `k`-th.
    public func drawOrderSlot(_ k: Int) -> Int { drawOrder[k] }
    /// The slot's colour (white past the array).
    public func slotColor(_ slot: Int) -> Color { slot < slotColors.count ? slotColors[slot] : .white }
    /// The slot's dark colour (opaque black past the array).
    public func slotDarkColor(_ slot: Int) -> Color { slot < darkColors.count ? darkColors[slot] : Color(0, 0, 0, 1) }
    /// The slot's attachment (-1 past the array).
    public func slotAttachment(_ slot: Int) -> Int { slot < attachments.count ? attachments[slot] : -1 }
    /// The slot's sequence frame (-1 past the array).
    public func slotSequenceIndex(_ slot: Int) -> Int { slot < sequenceIndices.count ? sequenceIndices[slot] : -1 }
    /// Whether the bone is active (false out of range).
    public func isBoneActive(_ bone: Int) -> Bool { bone >= 0 && bone < boneActive.count && boneActive[bone] }
    /// The bone's world transform (identity out of range).
    public func boneWorld(_ bone: Int) -> BoneWorldTransform {
        bone >= 0 && bone < bones.count ? bones[bone] : .identity
    }

    /// Writes the attachment's world vertices into `output`.
    ///
    /// # Safety
    /// `output` must hold the attachment's `worldVerticesLength` floats; nothing is written past its
    /// count.
    public func computeWorldVertices(slot: Int, attachment: Int, into output: UnsafeMutableBufferPointer<Float>) {
        if slot < vertices.count, let world = vertices[slot] {
            for k in 0..<min(world.count, output.count) { output[k] = world[k] }
            return
        }
        guard attachment >= 0 && attachment < data.attachments.count else { return }
        let slotBone = Int(data.slots[slot].bone)
        VertexAttachmentMath.computeWorldVertices(
            data.attachments[attachment], slotBone: slotBone, deform: UnsafeBufferPointer(start: nil, count: 0),
            bone: { boneWorld($0) }, into: output)
    }
}
