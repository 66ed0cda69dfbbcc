import BoneworkFormat
import BoneworkWorld

/// The steps of a scenario: operations on the animation state, format 2's controls, and the
/// values and records they carry.
extension Scenario {
    /// A value a `setEntry` step writes into a track entry field.
    public enum Value: Sendable, Equatable {
        /// A number.
        case number(Double)
        /// A boolean.
        case bool(Bool)
        /// A string.
        case text(String)
    }

    /// Which updates of an `update` step are recorded as frames: each, the last, or none.
    public enum Record: String, Sendable {
        /// Every update is recorded.
        case each
        /// Only the last update is recorded.
        case last
        /// Nothing is recorded.
        case none
    }

    /// One operation of the script.
    public enum Step: Sendable {
        /// `AnimationState.setAnimation` by name.
        case setAnimation(track: Int, animation: String, loop: Bool)
        /// `AnimationState.addAnimation` by name.
        case addAnimation(track: Int, animation: String, loop: Bool, delay: Float)
        /// `setEmptyAnimation`: mix the track out to the setup pose.
        case setEmptyAnimation(track: Int, mixDuration: Float)
        /// `addEmptyAnimation`: queue a mix out to the setup pose.
        case addEmptyAnimation(track: Int, mixDuration: Float, delay: Float)
        /// Sets a field of the track's current entry (`alpha`, `timeScale`, `holdPrevious`...).
        case setEntry(field: String, value: Value)
        /// Sets the state's time scale.
        case setTimeScale(Float)
        /// Empties a track.
        case clearTrack(Int)
        /// Empties every track.
        case clearTracks
        /// Wears a data skin (nil: none).
        case setSkin(String?)
        /// Bones and slots to the setup pose.
        case setToSetupPose
        /// Bones to the setup pose.
        case setBonesToSetupPose
        /// Slots to the setup pose.
        case setSlotsToSetupPose
        /// Runs `count` updates of `dt`; `each` (format 2) runs after every apply, before world
        /// transforms.
        case update(dt: Float, count: Int, record: Record, each: [Control])
        /// Format 2: a skin composed of data skins, in order, then the slots' setup pose.
        case setSkinComposed(name: String, skins: [String])
        /// Format 2: an application operation between updates.
        case control(Control)
    }

    /// What format 2 lets an application do to the skeleton, between updates or in `each`.
    /// Optional values left out (nil) leave that property as it is.
    public enum Control: Sendable {
        /// Sets a bone's local pose fields.
        case setBone(
            bone: String, x: Float?, y: Float?, rotation: Float?, scaleX: Float?, scaleY: Float?,
            shearX: Float?, shearY: Float?)
        /// Sets the skeleton's position and scale.
        case setSkeleton(x: Float?, y: Float?, scaleX: Float?, scaleY: Float?)
        /// Moves the skeleton by an offset (physics sees the motion).
        case moveSkeleton(dx: Float, dy: Float)
        /// Sets the skeleton colour.
        case setSkeletonColor(Color)
        /// Sets a slot's colour.
        case setSlotColor(slot: String, Color)
        /// nil empties the slot.
        case setAttachment(slot: String, attachment: String?)
        /// Sets an IK constraint's values.
        case setIK(
            constraint: String, mix: Float?, softness: Float?, bendDirection: Int32?, compress: Bool?, stretch: Bool?)
        /// Sets a transform constraint's mixes.
        case setTransformMix(
            constraint: String, mixRotate: Float?, mixX: Float?, mixY: Float?, mixScaleX: Float?, mixScaleY: Float?,
            mixShearY: Float?)
        /// Sets a path constraint's position, spacing and mixes.
        case setPathMix(
            constraint: String, position: Float?, spacing: Float?, mixRotate: Float?, mixX: Float?, mixY: Float?)
        /// Sets a physics constraint's parameters.
        case setPhysics(
            constraint: String, inertia: Float?, strength: Float?, damping: Float?, massInverse: Float?, wind: Float?,
            gravity: Float?, mix: Float?)
        /// Moves every physics constraint's simulation as if the skeleton moved by (x, y).
        case physicsTranslate(x: Float, y: Float)
        /// Rotates every physics constraint's simulation about (x, y) by `degrees`.
        case physicsRotate(x: Float, y: Float, degrees: Float)
        /// Recomputes world transforms with the given physics mode.
        case updateWorldTransform(Physics)
    }
}
