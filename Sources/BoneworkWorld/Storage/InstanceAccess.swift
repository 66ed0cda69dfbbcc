import BoneworkFormat

/// A bone's local pose: what timelines write and world transforms start from.
public struct BoneLocalPose: Sendable, Equatable {
    /// Offset from the parent bone along its x axis, in skeleton units.
    public var x: Float
    /// Offset from the parent bone along its y axis, in skeleton units.
    public var y: Float
    /// Rotation relative to the parent, in degrees, counterclockwise.
    public var rotation: Float
    /// Scale along the bone's x axis; 1 is unscaled, negative mirrors.
    public var scaleX: Float
    /// Scale along the bone's y axis; 1 is unscaled, negative mirrors.
    public var scaleY: Float
    /// Shear of the x axis, in degrees.
    public var shearX: Float
    /// Shear of the y axis, in degrees.
    public var shearY: Float

    /// Makes a local pose; the defaults are the identity pose (no offset, rotation or shear, unit scale).
    public init(
        x: Float = 0, y: Float = 0, rotation: Float = 0, scaleX: Float = 1, scaleY: Float = 1, shearX: Float = 0,
        shearY: Float = 0
    ) {
        self.x = x
        self.y = y
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.shearX = shearX
        self.shearY = shearY
    }
}

/// One bone's world transform as stored: `world = (a x + b y + worldX, c x + d y + worldY)`.
/// What `World.boneWorld`, pose views and renderers read.
public struct BoneWorldTransform: Sendable, Equatable {
    /// Linear part, row 1 column 1: how much local x moves world x.
    public var a: Float
    /// Linear part, row 1 column 2: how much local y moves world x.
    public var b: Float
    /// Linear part, row 2 column 1: how much local x moves world y.
    public var c: Float
    /// Linear part, row 2 column 2: how much local y moves world y.
    public var d: Float
    /// World x of the bone's origin, in skeleton units.
    public var worldX: Float
    /// World y of the bone's origin, in skeleton units.
    public var worldY: Float

    /// Makes a transform from its matrix entries and translation, as laid out in the type's formula.
    public init(a: Float, b: Float, c: Float, d: Float, worldX: Float, worldY: Float) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.worldX = worldX
        self.worldY = worldY
    }

    /// No rotation, scale, shear or translation.
    public static let identity = BoneWorldTransform(a: 1, b: 0, c: 0, d: 1, worldX: 0, worldY: 0)
}

/// The former name of `BoneWorldTransform`.
@available(*, deprecated, renamed: "BoneWorldTransform")
public typealias BoneWorldPose = BoneWorldTransform

/// Per-instance reads and writes for application code (one element at a time, outside the
/// systems): bone local and world poses, slot colours and attachments, skeleton position.
extension World {
    private func checked(_ entity: Entity, bone: Int) throws -> (BatchColumns, Int) {
        let (batch, row) = try locate(entity)
        guard bone >= 0, bone < batch.data.bones.count else { throw InstanceAccessError.boneOutOfRange(bone) }
        let cols = batch.columns()
        return (cols, cols.rows(row).bone(bone))
    }

    private func checked(_ entity: Entity, slot: Int) throws -> (BatchColumns, InstanceRows, Batch) {
        let (batch, row) = try locate(entity)
        guard slot >= 0, slot < batch.data.slots.count else { throw InstanceAccessError.slotOutOfRange(slot) }
        let cols = batch.columns()
        return (cols, cols.rows(row), batch)
    }

    /// The skeleton data an instance was spawned from.
    public func skeletonData(_ entity: Entity) throws -> SkeletonData { try locate(entity).batch.data }

    /// A bone's current local pose (index into `SkeletonData.bones`).
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError` for a bone out of range.
    public func boneLocal(_ entity: Entity, bone: Int) throws -> BoneLocalPose {
        let (c, i) = try checked(entity, bone: bone)
        return BoneLocalPose(
            x: c.x[i], y: c.y[i], rotation: c.rotation[i], scaleX: c.scaleX[i], scaleY: c.scaleY[i],
            shearX: c.shearX[i], shearY: c.shearY[i])
    }

    /// Sets a bone's local pose (world transforms follow with the next update).
    public func setBoneLocal(_ entity: Entity, bone: Int, _ pose: BoneLocalPose) throws {
        let (c, i) = try checked(entity, bone: bone)
        c.x[i] = pose.x
        c.y[i] = pose.y
        c.rotation[i] = pose.rotation
        c.scaleX[i] = pose.scaleX
        c.scaleY[i] = pose.scaleY
        c.shearX[i] = pose.shearX
        c.shearY[i] = pose.shearY
    }

    /// A bone's world transform as the last update (or ``setBoneWorld(_:bone:_:)``) left it.
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError` for a bone out of range.
    public func boneWorld(_ entity: Entity, bone: Int) throws -> BoneWorldTransform {
        let (c, i) = try checked(entity, bone: bone)
        return BoneWorldTransform(a: c.a[i], b: c.b[i], c: c.c[i], d: c.d[i], worldX: c.worldX[i], worldY: c.worldY[i])
    }

    /// Overwrites a bone's world transform (children keep theirs until the next update).
    public func setBoneWorld(_ entity: Entity, bone: Int, _ pose: BoneWorldTransform) throws {
        let (c, i) = try checked(entity, bone: bone)
        c.a[i] = pose.a
        c.b[i] = pose.b
        c.c[i] = pose.c
        c.d[i] = pose.d
        c.worldX[i] = pose.worldX
        c.worldY[i] = pose.worldY
    }

    /// A slot's current colour (straight alpha; the skeleton colour not multiplied in).
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError` for a slot out of range.
    public func slotColor(_ entity: Entity, slot: Int) throws -> Color {
        let (c, r, batch) = try checked(entity, slot: slot)
        let color = c.slotColor(batch.rig.tables, r, slot: slot)
        return Color(color.0, color.1, color.2, color.3)
    }

    /// Sets a slot's colour (the first time for a slot no timeline colours, every instance of the
    /// batch gets a colour row for it: storage grows, outside frames).
    public func setSlotColor(_ entity: Entity, slot: Int, _ color: Color) throws {
        var (c, r, batch) = try checked(entity, slot: slot)
        if c.colorRow(batch.rig.tables, r, slot: slot) < 0 {
            batch.ensureColorRow(slot: slot)
            c = batch.columns()
            r = c.rows(r.instance)
        }
        let i = c.colorRow(batch.rig.tables, r, slot: slot)
        guard i >= 0 else { return }
        c.colorR[i] = color.r
        c.colorG[i] = color.g
        c.colorB[i] = color.b
        c.colorA[i] = color.a
    }

    /// The slot's attachment (index into `SkeletonData.attachments`), -1 when none.
    public func slotAttachment(_ entity: Entity, slot: Int) throws -> Int32 {
        let (c, r, _) = try checked(entity, slot: slot)
        return c.attachment[r.slot(slot)]
    }

    /// Shows `attachment` (index into `SkeletonData.attachments`, -1 = none) in a slot.
    public func setSlotAttachment(_ entity: Entity, slot: Int, _ attachment: Int32) throws {
        let (c, r, batch) = try checked(entity, slot: slot)
        guard attachment >= -1, Int(attachment) < batch.data.attachments.count else {
            throw InstanceAccessError.attachmentOutOfRange(attachment)
        }
        SetupPose.setAttachment(ApplyColumns(c), batch.rig.tables, r, slot: slot, attachment)
    }

    /// The instance's position and scale (applied to the root bone's world transform).
    public func skeletonTransform(_ entity: Entity) throws -> (x: Float, y: Float, scaleX: Float, scaleY: Float) {
        let (batch, row) = try locate(entity)
        let c = batch.columns()
        return (c.skeletonX[row], c.skeletonY[row], c.skeletonScaleX[row], c.skeletonScaleY[row])
    }

    /// Sets the instance's position (world units) and scale (negative flips), applied to the root bone
    /// on the next update.
    /// - Throws: `WorldError` for a stale entity.
    public func setSkeletonTransform(_ entity: Entity, x: Float, y: Float, scaleX: Float = 1, scaleY: Float = 1)
        throws
    {
        let (batch, row) = try locate(entity)
        let c = batch.columns()
        c.skeletonX[row] = x
        c.skeletonY[row] = y
        c.skeletonScaleX[row] = scaleX
        c.skeletonScaleY[row] = scaleY
    }

    /// The data skin an instance wears (index into `SkeletonData.skins`): nil for none, and for a
    /// composed skin (see `skinParts(_:)`).
    public func skinIndex(_ entity: Entity) throws -> Int32? {
        let parts = try skinParts(entity)
        return parts.count == 1 ? parts[0] : nil
    }

    /// The data skins the instance's skin is made of, in order (one for a data skin, none for
    /// no skin).
    public func skinParts(_ entity: Entity) throws -> [Int32] {
        let (batch, row) = try locate(entity)
        return batch.rig.parts(plan: batch.columns().plan[row])
    }
}
