/// Writes the rig and animations as skeleton JSON in the 4.2 editor export layout.
enum SkeletonDocument {
    static let version = "4.2.22"

    static func text(rig: Rig, animations: [AnimationBuilder], boundsSkins: [String]) -> String {
        // The hash is computed over the document with an empty hash, then filled in.
        let draft = document(rig: rig, animations: animations, boundsSkins: boundsSkins, hash: "").printed()
        return document(rig: rig, animations: animations, boundsSkins: boundsSkins, hash: hash(draft)).printed()
    }

    private static func document(rig: Rig, animations: [AnimationBuilder], boundsSkins: [String], hash: String)
        -> JSONValue
    {
        var root = JSONObject()

        var skeleton = JSONObject()
        let (x, y, width, height) = rig.bounds(skins: boundsSkins)
        skeleton.set("hash", hash)
        skeleton.set("spine", version)
        skeleton.set("x", x)
        skeleton.set("y", y)
        skeleton.set("width", width)
        skeleton.set("height", height)
        skeleton.set("images", "./images/")
        skeleton.set("audio", "")
        root.set("skeleton", skeleton.value)

        root.set("bones", .array(rig.bones.map(bone)))
        root.set("slots", .array(rig.slots.map(slot)))
        root.set(
            "ik",
            .array(
                rig.ik.enumerated().map { order, ik in
                    var object = JSONObject()
                    object.set("name", ik.name)
                    object.set("order", Double(order), omitting: 0)
                    object.set("bones", .array(ik.bones.map { .string($0) }))
                    object.set("target", ik.target)
                    if !ik.bendPositive { object.set("bendPositive", .bool(false)) }
                    return object.value
                }))
        root.set("skins", .array(rig.skins.map { skin($0, rig: rig) }))

        let defaults = Choreography.footstepDefaults
        var footstep = JSONObject()
        footstep.set("int", Num.json(defaults.int))
        footstep.set("float", defaults.float)
        footstep.set("string", defaults.string)
        root.set("events", .object([(Choreography.footstep, footstep.value)]))

        let slotOrder = rig.slots.map(\.name)
        let boneOrder = rig.bones.map(\.name)
        root.set(
            "animations",
            .object(
                animations.sorted { $0.name < $1.name }.map {
                    ($0.name, $0.json(slotOrder: slotOrder, boneOrder: boneOrder))
                }))
        return root.value
    }

    private static func bone(_ bone: BoneDef) -> JSONValue {
        var object = JSONObject()
        object.set("name", bone.name)
        if let parent = bone.parent { object.set("parent", parent) }
        object.set("length", bone.length, omitting: 0)
        object.set("rotation", bone.rotation, omitting: 0)
        object.set("x", bone.x, omitting: 0)
        object.set("y", bone.y, omitting: 0)
        if bone.inherit != "normal" { object.set("inherit", bone.inherit) }
        if let color = bone.color { object.set("color", color) }
        if let icon = bone.icon { object.set("icon", icon) }
        return object.value
    }

    private static func slot(_ slot: SlotDef) -> JSONValue {
        var object = JSONObject()
        object.set("name", slot.name)
        object.set("bone", slot.bone)
        if let color = slot.color { object.set("color", color) }
        if let attachment = slot.attachment { object.set("attachment", attachment) }
        return object.value
    }

    private static func skin(_ skin: SkinDef, rig: Rig) -> JSONValue {
        var slots: [(String, [(String, JSONValue)])] = []
        for attachment in skin.attachments {
            let entry: (String, JSONValue)
            switch attachment {
            case .region(let r): entry = (r.key, region(r))
            case .mesh(let m): entry = (m.key, mesh(m))
            }
            if let i = slots.firstIndex(where: { $0.0 == attachment.slot }) {
                slots[i].1.append(entry)
            } else {
                slots.append((attachment.slot, [entry]))
            }
        }
        var object = JSONObject()
        object.set("name", skin.name)
        object.set("attachments", .object(slots.map { ($0.0, .object($0.1)) }))
        return object.value
    }

    private static func region(_ r: RegionDef) -> JSONValue {
        var object = JSONObject()
        if r.region != r.key { object.set("name", r.region) }
        object.set("x", r.x, omitting: 0)
        object.set("y", r.y, omitting: 0)
        object.set("rotation", r.rotation, omitting: 0)
        object.set("width", Double(r.width))
        object.set("height", Double(r.height))
        return object.value
    }

    private static func mesh(_ m: MeshDef) -> JSONValue {
        var object = JSONObject()
        if m.region != m.key { object.set("name", m.region) }
        object.set("type", "mesh")
        object.set("uvs", .array(m.uvs.map { Num.json($0, decimals: 5) }))
        object.set("triangles", .array(m.triangles.map { Num.json($0) }))
        var vertices: [JSONValue] = []
        for influences in m.influences {
            vertices.append(Num.json(influences.count))
            for influence in influences {
                vertices.append(Num.json(influence.bone))
                vertices.append(Num.json(influence.x))
                vertices.append(Num.json(influence.y))
                vertices.append(Num.json(influence.weight, decimals: 5))
            }
        }
        object.set("vertices", .array(vertices))
        object.set("hull", Double(m.hull))
        object.set("edges", .array(m.edges.map { Num.json($0) }))
        object.set("width", Double(m.width))
        object.set("height", Double(m.height))
        return object.value
    }

    /// An 11-character base64 digest (64-bit FNV-1a) of the document text, in the style of the
    /// editor's skeleton hashes.
    static func hash(_ text: String) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        for i in 0..<11 {
            let shift = 58 - i * 6
            let index = shift >= 0 ? Int((h >> UInt64(shift)) & 63) : Int((h << 2) & 63)
            out.append(alphabet[index])
        }
        return out
    }
}
