import BoneworkFormat

/// An IK constraint's values in one instance (what `setIK` of the reference changes).
public struct IKConstraintPose: Equatable, Sendable {
    /// How much of the IK pose is applied, 0...1 (0: the bones keep their animated pose).
    public var mix: Float
    /// Distance in skeleton units over which a two-bone chain slows as it straightens, 0 for none.
    public var softness: Float
    /// 1 or -1.
    public var bendDirection: Int32
    /// Whether a one-bone chain scales down to reach a target nearer than its length.
    public var compress: Bool
    /// Whether the chain scales up to reach a target beyond its length.
    public var stretch: Bool

    /// The values of an IK constraint as the reference's setters take them.
    public init(mix: Float, softness: Float, bendDirection: Int32, compress: Bool, stretch: Bool) {
        self.mix = mix
        self.softness = softness
        self.bendDirection = bendDirection
        self.compress = compress
        self.stretch = stretch
    }
}

/// A transform constraint's mixes in one instance.
public struct TransformConstraintMix: Equatable, Sendable {
    /// How much of each of the target's channels the constrained bones take, each usually 0...1.
    public var mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY: Float

    /// The six mixes of a transform constraint.
    public init(mixRotate: Float, mixX: Float, mixY: Float, mixScaleX: Float, mixScaleY: Float, mixShearY: Float) {
        self.mixRotate = mixRotate
        self.mixX = mixX
        self.mixY = mixY
        self.mixScaleX = mixScaleX
        self.mixScaleY = mixScaleY
        self.mixShearY = mixShearY
    }
}

/// A path constraint's position, spacing and mixes in one instance.
public struct PathConstraintPose: Equatable, Sendable {
    /// Where along the path the bones start (`position`), how far apart they are (`spacing`, in the
    /// constraint's spacing mode), and how much rotation and translation they take (0...1).
    public var position, spacing, mixRotate, mixX, mixY: Float

    /// A path constraint's values.
    public init(position: Float, spacing: Float, mixRotate: Float, mixX: Float, mixY: Float) {
        self.position = position
        self.spacing = spacing
        self.mixRotate = mixRotate
        self.mixX = mixX
        self.mixY = mixY
    }
}

/// A physics constraint's parameters in one instance (its simulation state is not part of it).
public struct PhysicsConstraintParameters: Equatable, Sendable {
    /// The simulation's parameters as the editor names them: inertia, spring strength, damping (0...1),
    /// 1 / mass, wind and gravity (skeleton units per second squared), and how much of the simulated
    /// pose is applied (0...1).
    public var inertia, strength, damping, massInverse, wind, gravity, mix: Float

    /// A physics constraint's parameters.
    public init(
        inertia: Float, strength: Float, damping: Float, massInverse: Float, wind: Float, gravity: Float, mix: Float
    ) {
        self.inertia = inertia
        self.strength = strength
        self.damping = damping
        self.massInverse = massInverse
        self.wind = wind
        self.gravity = gravity
        self.mix = mix
    }
}

/// Per-instance constraint values, the skeleton colour and attachments by name: what an
/// application changes between frames or in the callback after apply (`World.update(_:delta:
/// afterApply:)`). Values written here stay until something writes them: the next apply
/// replaces only what an active animation keys, `setBonesToSetupPose` / `setToSetupPose` reset
/// constraints, as in the reference. Constraints are addressed by index in the data (inactive
/// ones included: their values only matter once a skin activates them).
extension World {
    private func constraintRow(
        _ entity: Entity, _ kind: String, _ k: Int, count: (SkeletonData) -> Int, row: (InstanceRows, Int) -> Int
    ) throws -> (BatchColumns, Int) {
        let (batch, r) = try locate(entity)
        guard k >= 0, k < count(batch.data) else { throw InstanceAccessError.constraintOutOfRange(kind: kind, k) }
        let cols = batch.columns()
        return (cols, row(cols.rows(r), k))
    }

    /// The current values of IK constraint `k` (its index in `SkeletonData.ikConstraints`) in `entity`.
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError.constraintOutOfRange` for `k`.
    public func ikConstraint(_ entity: Entity, _ k: Int) throws -> IKConstraintPose {
        let (c, i) = try constraintRow(entity, "ik", k, count: { $0.ikConstraints.count }, row: { $0.ik($1) })
        return IKConstraintPose(
            mix: c.ikMix[i], softness: c.ikSoftness[i], bendDirection: c.ikBend[i], compress: c.ikCompress[i] != 0,
            stretch: c.ikStretch[i] != 0)
    }

    /// Sets IK constraint `k`'s values in `entity` until an animation keys them or the setup pose resets
    /// them.
    /// - Throws: as ``ikConstraint(_:_:)``.
    public func setIKConstraint(_ entity: Entity, _ k: Int, _ pose: IKConstraintPose) throws {
        let (c, i) = try constraintRow(entity, "ik", k, count: { $0.ikConstraints.count }, row: { $0.ik($1) })
        c.ikMix[i] = pose.mix
        c.ikSoftness[i] = pose.softness
        c.ikBend[i] = pose.bendDirection
        c.ikCompress[i] = pose.compress ? 1 : 0
        c.ikStretch[i] = pose.stretch ? 1 : 0
    }

    /// The current mixes of transform constraint `k` in `entity`.
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError.constraintOutOfRange` for `k`.
    public func transformConstraint(_ entity: Entity, _ k: Int) throws -> TransformConstraintMix {
        let (c, i) = try constraintRow(
            entity, "transform", k, count: { $0.transformConstraints.count }, row: { $0.transform($1) })
        return TransformConstraintMix(
            mixRotate: c.transformMixRotate[i], mixX: c.transformMixX[i], mixY: c.transformMixY[i],
            mixScaleX: c.transformMixScaleX[i], mixScaleY: c.transformMixScaleY[i],
            mixShearY: c.transformMixShearY[i])
    }

    /// Sets transform constraint `k`'s mixes in `entity`.
    /// - Throws: as ``transformConstraint(_:_:)``.
    public func setTransformConstraint(_ entity: Entity, _ k: Int, _ mix: TransformConstraintMix) throws {
        let (c, i) = try constraintRow(
            entity, "transform", k, count: { $0.transformConstraints.count }, row: { $0.transform($1) })
        c.transformMixRotate[i] = mix.mixRotate
        c.transformMixX[i] = mix.mixX
        c.transformMixY[i] = mix.mixY
        c.transformMixScaleX[i] = mix.mixScaleX
        c.transformMixScaleY[i] = mix.mixScaleY
        c.transformMixShearY[i] = mix.mixShearY
    }

    /// The current values of path constraint `k` in `entity`.
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError.constraintOutOfRange` for `k`.
    public func pathConstraint(_ entity: Entity, _ k: Int) throws -> PathConstraintPose {
        let (c, i) = try constraintRow(entity, "path", k, count: { $0.pathConstraints.count }, row: { $0.path($1) })
        return PathConstraintPose(
            position: c.pathPosition[i], spacing: c.pathSpacing[i], mixRotate: c.pathMixRotate[i],
            mixX: c.pathMixX[i], mixY: c.pathMixY[i])
    }

    /// Sets path constraint `k`'s values in `entity`.
    /// - Throws: as ``pathConstraint(_:_:)``.
    public func setPathConstraint(_ entity: Entity, _ k: Int, _ pose: PathConstraintPose) throws {
        let (c, i) = try constraintRow(entity, "path", k, count: { $0.pathConstraints.count }, row: { $0.path($1) })
        c.pathPosition[i] = pose.position
        c.pathSpacing[i] = pose.spacing
        c.pathMixRotate[i] = pose.mixRotate
        c.pathMixX[i] = pose.mixX
        c.pathMixY[i] = pose.mixY
    }

    /// The current parameters of physics constraint `k` in `entity`.
    /// - Throws: `WorldError` for a stale entity, `InstanceAccessError.constraintOutOfRange` for `k`.
    public func physicsConstraint(_ entity: Entity, _ k: Int) throws -> PhysicsConstraintParameters {
        let (c, i) = try constraintRow(
            entity, "physics", k, count: { $0.physicsConstraints.count }, row: { $0.physics($1) })
        func field(_ f: Int) -> Float { c.physics[f &* c.physicsFieldStride &+ i] }
        return PhysicsConstraintParameters(
            inertia: field(PhysicsField.inertia), strength: field(PhysicsField.strength),
            damping: field(PhysicsField.damping), massInverse: field(PhysicsField.massInverse),
            wind: field(PhysicsField.wind), gravity: field(PhysicsField.gravity), mix: field(PhysicsField.mix))
    }

    /// Sets physics constraint `k`'s parameters in `entity` (its simulation state is kept).
    /// - Throws: as ``physicsConstraint(_:_:)``.
    public func setPhysicsConstraint(_ entity: Entity, _ k: Int, _ p: PhysicsConstraintParameters) throws {
        let (c, i) = try constraintRow(
            entity, "physics", k, count: { $0.physicsConstraints.count }, row: { $0.physics($1) })
        func set(_ f: Int, _ v: Float) { c.physics[f &* c.physicsFieldStride &+ i] = v }
        set(PhysicsField.inertia, p.inertia)
        set(PhysicsField.strength, p.strength)
        set(PhysicsField.damping, p.damping)
        set(PhysicsField.massInverse, p.massInverse)
        set(PhysicsField.wind, p.wind)
        set(PhysicsField.gravity, p.gravity)
        set(PhysicsField.mix, p.mix)
    }

    /// The instance's colour (the reference's skeleton colour, white at spawn). No slot colour
    /// includes it: renderers multiply it in.
    public func skeletonColor(_ entity: Entity) throws -> Color {
        let (batch, row) = try locate(entity)
        let c = batch.columns()
        return Color(c.skeletonR[row], c.skeletonG[row], c.skeletonB[row], c.skeletonA[row])
    }

    /// Sets the instance's colour (see ``skeletonColor(_:)``).
    public func setSkeletonColor(_ entity: Entity, _ color: Color) throws {
        let (batch, row) = try locate(entity)
        let c = batch.columns()
        c.skeletonR[row] = color.r
        c.skeletonG[row] = color.g
        c.skeletonB[row] = color.b
        c.skeletonA[row] = color.a
    }

    /// The attachment a slot would show for `name`, as the reference's `Skeleton::getAttachment`
    /// finds it: the worn skin first (a composed skin's parts, the last first), then the data's
    /// default skin. Nil when neither has it.
    public func findAttachment(_ entity: Entity, slot: Int, name: String) throws -> Int32? {
        let data = try skeletonData(entity)
        guard slot >= 0, slot < data.slots.count else { throw InstanceAccessError.slotOutOfRange(slot) }
        guard let id = data.attachmentNameID(name) else { return nil }
        for part in try skinParts(entity).reversed() {
            if let a = data.attachment(skin: part, slot: Int32(slot), name: id) { return a }
        }
        return data.attachment(skin: data.defaultSkin, slot: Int32(slot), name: id)
    }

    /// Shows the attachment named `name` in a slot (`findAttachment`), or empties the slot for
    /// nil: the reference's `Skeleton::setAttachment`. A name neither skin has is
    /// `WorldError.noSuchAttachment` naming it, the slot and the skeleton; nothing changes.
    public func setAttachment(_ entity: Entity, slot: Int, name: String?) throws {
        guard let name else { return try setSlotAttachment(entity, slot: slot, -1) }
        guard let a = try findAttachment(entity, slot: slot, name: name) else {
            let data = try skeletonData(entity)
            throw WorldError.noSuchAttachment(name, slot: data.slots[slot].name, skeleton: data.file)
        }
        try setSlotAttachment(entity, slot: slot, a)
    }
}
