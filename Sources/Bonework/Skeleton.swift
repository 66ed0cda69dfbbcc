import BoneworkFormat
import BoneworkWorld
import Foundation

/// A point or vector in skeleton or view coordinates.
public struct Point: Sendable, Equatable {
    /// Horizontal coordinate: skeleton units (y up) or view pixels (y down), as the API taking it says.
    public var x: Float
    /// Vertical coordinate: skeleton units (y up) or view pixels (y down), as the API taking it says.
    public var y: Float
    /// A point at `x`, `y`.
    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }
}

/// A width and height: view pixels for views and images, skeleton units for bounds.
public struct Size: Sendable, Equatable {
    /// Horizontal extent (pixels or skeleton units, as the API taking it says).
    public var width: Float
    /// Vertical extent (pixels or skeleton units, as the API taking it says).
    public var height: Float
    /// A size of `width` by `height`.
    public init(width: Float, height: Float) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle; `(x, y)` is its minimum corner.
public struct Rect: Sendable, Equatable {
    /// The minimum corner's x.
    public var x: Float
    /// The minimum corner's y (the bottom in skeleton coordinates, the top in view pixels).
    public var y: Float
    /// The extent along x (0 or more for a non-empty rectangle).
    public var width: Float
    /// The extent along y.
    public var height: Float
    /// A rectangle from its minimum corner and its size.
    public init(x: Float, y: Float, width: Float, height: Float) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The maximum corner's x: `x + width`.
    public var maxX: Float { x + width }
    /// The maximum corner's y: `y + height`.
    public var maxY: Float { y + height }
}

/// The skeleton of a drawable: a light handle (copy freely) over its entity.
public struct Skeleton {
    let drawable: SkeletonDrawable
    var world: World { drawable.world }
    var entity: Entity { drawable.entity }

    /// The shared, immutable skeleton data this instance was spawned from.
    public var data: SkeletonData { drawable.skeletonData }

    /// The bone named `name`, nil when the skeleton has no such bone (as the reference's
    /// `findBone`). Cheap (one dictionary lookup): keep the handle rather than looking it up
    /// every frame.
    public func findBone(_ name: String) -> Bone? {
        data.findBoneIndex(name).map { Bone(skeleton: self, index: $0) }
    }

    /// The slot named `name`, nil when the skeleton has no such slot (as the reference's
    /// `findSlot`).
    public func findSlot(_ name: String) -> Slot? {
        data.findSlotIndex(name).map { Slot(skeleton: self, index: $0) }
    }

    /// Every bone, in the data's order (parents before children); builds the array on each call.
    public var bones: [Bone] { (0..<data.bones.count).map { Bone(skeleton: self, index: $0) } }
    /// Every slot, in setup draw order; builds the array on each call.
    public var slots: [Slot] { (0..<data.slots.count).map { Slot(skeleton: self, index: $0) } }
    /// The root bone (index 0), whose position the skeleton's position adds to.
    public var rootBone: Bone { Bone(skeleton: self, index: 0) }

    /// The names of the skeleton's skins (data skins, not custom ones).
    public var skinNames: [String] { data.skins.map(\.name) }
    /// A custom skin holding a copy of the data skin `name` (to extend with `Skin.addSkin`), or nil when
    /// the skeleton has no such skin.
    public func findSkin(_ name: String) -> Skin? { try? Skin(copying: name, of: data) }

    /// Wears a skin of the skeleton data by name (nil: none).
    public func setSkin(_ name: String?) throws {
        try drawable.checkAlive()
        if let name, data.findSkinIndex(name) == nil { throw WorldError.noSuchSkin(name, skeleton: data.file) }
        drawable.customSkin = nil
        try world.setSkin(entity, name)
    }

    /// Wears a custom skin (for example several skins added together): the engine wears the
    /// skins it was assembled from as one composed skin (the attachments, bones and constraints
    /// of every part); attachments put with `Skin.setAttachment` are set after each apply.
    public func setSkin(_ skin: Skin) throws {
        try drawable.checkAlive()
        guard skin.skeletonData === data else {
            throw BoneworkError.invalidArgument("skin '\(skin.name)' belongs to another skeleton")
        }
        try world.setSkin(entity, parts: skin.parts.map { data.skins[Int($0)].name })
        drawable.customSkin = skin
        try drawable.applyCustomSkin()
    }

    /// The data skin's name, or the custom skin's.
    public var skinName: String? {
        get throws {
            if let custom = drawable.customSkin { return custom.name }
            return try world.skinIndex(entity).map { data.skins[Int($0)].name }
        }
    }

    /// Bones and slots back to the setup pose (the animation state is left as it is).
    /// - Throws: `WorldError` for a disposed drawable's stale entity.
    public func setToSetupPose() throws { try world.setToSetupPose(entity) }
    /// Slots (attachments, colours, draw order) back to the setup pose; bones keep their pose.
    public func setSlotsToSetupPose() throws {
        try drawable.checkAlive()
        var locals: [BoneLocalPose] = []
        for b in 0..<data.bones.count { locals.append(try world.boneLocal(entity, bone: b)) }
        try world.setToSetupPose(entity)
        for (b, pose) in locals.enumerated() { try world.setBoneLocal(entity, bone: b, pose) }
        try drawable.applyCustomSkin()
    }

    /// World transforms (and vertices) from the current local pose.
    public func updateWorldTransform() throws { try drawable.updateWorldTransforms() }

    /// The skeleton's position (added to the root bone's world position).
    public var position: Point {
        get throws {
            let t = try world.skeletonTransform(entity)
            return Point(x: t.x, y: t.y)
        }
    }
    /// Moves the skeleton: `p` in world units, added to the root bone's world position on the next
    /// world-transform update. The scale is kept.
    public func setPosition(_ p: Point) throws {
        let t = try world.skeletonTransform(entity)
        try world.setSkeletonTransform(entity, x: p.x, y: p.y, scaleX: t.scaleX, scaleY: t.scaleY)
    }
    /// Scales the whole skeleton (negative flips it); the position is kept. Applied on the next
    /// world-transform update.
    public func setScale(x: Float, y: Float) throws {
        let t = try world.skeletonTransform(entity)
        try world.setSkeletonTransform(entity, x: t.x, y: t.y, scaleX: x, scaleY: y)
    }

    /// The bounding box of the current pose as the reference's `getBounds` with a clipper
    /// computes it: region and mesh vertices of slots whose bone is active, clipped by clipping
    /// attachments (an empty rect when none). See `World.bounds(_:clipping:)`.
    public func bounds() throws -> Rect {
        try drawable.checkAlive()
        return try Bounds.of(world, entity)
    }

    /// The skeleton colour (white at first): slot colours do not include it; renderers multiply
    /// it in.
    public var color: Color { get throws { try world.skeletonColor(entity) } }
    /// Sets the skeleton colour (multiplied into every slot's colour when drawn).
    public func setColor(_ color: Color) throws { try world.setSkeletonColor(entity, color) }
}

/// One bone of a skeleton.
public struct Bone {
    /// The skeleton this bone belongs to.
    public let skeleton: Skeleton
    /// The bone's index in `SkeletonData.bones`.
    public let index: Int
    var world: World { skeleton.world }
    var entity: Entity { skeleton.entity }

    /// The bone's setup data (name, parent, setup pose, inherit mode).
    public var data: BoneData { skeleton.data.bones[index] }
    /// The bone's name.
    public var name: String { data.name }
    /// The parent bone, nil for the root.
    public var parent: Bone? { data.parent >= 0 ? Bone(skeleton: skeleton, index: Int(data.parent)) : nil }

    /// The bone's current local pose (what animations set; x, y in the parent's frame, degrees).
    /// - Throws: `WorldError` for a stale entity.
    public var local: BoneLocalPose { get throws { try world.boneLocal(entity, bone: index) } }
    /// Replaces the bone's local pose; world transforms follow on the next update.
    public func setLocal(_ pose: BoneLocalPose) throws { try world.setBoneLocal(entity, bone: index, pose) }

    /// Local position (x, y).
    public var position: Point {
        get throws {
            let l = try local
            return Point(x: l.x, y: l.y)
        }
    }
    /// Sets the local position (in the parent bone's frame), keeping rotation, scale and shear.
    public func setPosition(_ p: Point) throws {
        var l = try local
        l.x = p.x
        l.y = p.y
        try setLocal(l)
    }
    /// Sets the local rotation in degrees, counterclockwise from the parent's x axis.
    public func setRotation(_ degrees: Float) throws {
        var l = try local
        l.rotation = degrees
        try setLocal(l)
    }

    /// The bone's world transform as the last world-transform update left it.
    /// - Throws: `WorldError` for a stale entity.
    public var worldTransform: BoneWorldTransform { get throws { try world.boneWorld(entity, bone: index) } }
    /// Overwrites the bone's world transform until the next update recomputes it (for constraints
    /// applied by hand after an update).
    public func setWorldTransform(_ pose: BoneWorldTransform) throws {
        try world.setBoneWorld(entity, bone: index, pose)
    }
    /// The bone's origin in world coordinates (skeleton units).
    public var worldPosition: Point {
        get throws {
            let w = try worldTransform
            return Point(x: w.worldX, y: w.worldY)
        }
    }
    /// The world rotation of the bone's x axis, in degrees.
    public var worldRotationX: Float {
        get throws {
            let w = try worldTransform
            return atan2f(w.c, w.a) * 180 / .pi
        }
    }

    /// A world point in this bone's local coordinates.
    public func worldToLocal(_ p: Point) throws -> Point { Self.inverse(try worldTransform, p) }
    /// A point in this bone's local coordinates in world coordinates.
    public func localToWorld(_ p: Point) throws -> Point {
        let w = try worldTransform
        return Point(x: w.a * p.x + w.b * p.y + w.worldX, y: w.c * p.x + w.d * p.y + w.worldY)
    }
    /// A world point in the coordinates of this bone's parent (where its local x, y live); the
    /// skeleton's own frame for the root.
    public func worldToParent(_ p: Point) throws -> Point {
        if let parent { return try parent.worldToLocal(p) }
        let t = try world.skeletonTransform(entity)
        return Point(
            x: t.scaleX != 0 ? (p.x - t.x) / t.scaleX : 0, y: t.scaleY != 0 ? (p.y - t.y) / t.scaleY : 0)
    }

    static func inverse(_ w: BoneWorldTransform, _ p: Point) -> Point {
        let det = w.a * w.d - w.b * w.c
        guard det != 0, det.isFinite else { return Point(x: 0, y: 0) }
        let x = p.x - w.worldX
        let y = p.y - w.worldY
        return Point(x: (x * w.d - y * w.b) / det, y: (y * w.a - x * w.c) / det)
    }
}

/// One slot of a skeleton.
public struct Slot {
    /// The skeleton this slot belongs to.
    public let skeleton: Skeleton
    /// The slot's index in `SkeletonData.slots` (its setup draw order).
    public let index: Int
    /// The slot's setup data (name, bone, setup colour and attachment, blend mode).
    public var data: SlotData { skeleton.data.slots[index] }
    /// The slot's name.
    public var name: String { data.name }
    /// The bone the slot's attachment follows.
    public var bone: Bone { Bone(skeleton: skeleton, index: Int(data.bone)) }

    /// The slot's current colour (straight alpha), as animations and `setColor` left it.
    public var color: Color { get throws { try skeleton.world.slotColor(skeleton.entity, slot: index) } }
    /// Sets the slot's colour until an animation's colour timeline or the setup pose changes it.
    public func setColor(_ color: Color) throws { try skeleton.world.setSlotColor(skeleton.entity, slot: index, color) }

    /// Shows the attachment stored under `name` for this slot (custom skin, then the current
    /// skin, then the default skin); nil empties the slot.
    public func setAttachment(_ name: String?) throws {
        let world = skeleton.world
        let entity = skeleton.entity
        guard let name else {
            try world.setSlotAttachment(entity, slot: index, -1)
            return
        }
        let data = skeleton.data
        guard let id = data.attachmentNameID(name) else {
            throw BoneworkError.invalidArgument("no attachment '\(name)'")
        }
        // A custom skin's own attachments first, then the worn skin's parts and the default skin.
        var found = skeleton.drawable.customSkin?.attachment(slot: Int32(index), nameID: id)
        if found == nil { found = try world.findAttachment(entity, slot: index, name: name) }
        guard let attachment = found else {
            throw BoneworkError.invalidArgument("slot '\(self.name)' has no attachment '\(name)' in its skins")
        }
        try world.setSlotAttachment(entity, slot: index, attachment)
    }

    /// The slot's attachment (nil when none).
    public var attachment: AttachmentData? {
        get throws {
            let a = try skeleton.world.slotAttachment(skeleton.entity, slot: index)
            return a >= 0 ? skeleton.data.attachments[Int(a)] : nil
        }
    }
}
