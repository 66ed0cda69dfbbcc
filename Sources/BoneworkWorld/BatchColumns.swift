/// Raw pointers to every column of a batch, fetched once per system run (`Batch.columns()`).
///
/// Per-element columns (bones, slots, constraints) are addressed through `InstanceRows`
/// (`base + element * stride`, see `ColumnLayout`). Per-instance blocks (draw order, deform
/// buffers, tracks) are always instance-major.
///
/// The pointers stay valid until the batch grows (a spawn past capacity); nothing in a frame
/// spawns, so systems may hold them for the frame.
struct BatchColumns {
    var layout: ColumnLayout
    var boneCount: Int
    var slotCount: Int
    var ikCount: Int
    var transformCount: Int
    var pathCount: Int
    var physicsCount: Int
    var trackCount: Int
    var deformFloats: Int

    // Local pose (what timelines write), per bone.
    var x: UnsafeMutablePointer<Float>
    var y: UnsafeMutablePointer<Float>
    var rotation: UnsafeMutablePointer<Float>
    var scaleX: UnsafeMutablePointer<Float>
    var scaleY: UnsafeMutablePointer<Float>
    var shearX: UnsafeMutablePointer<Float>
    var shearY: UnsafeMutablePointer<Float>
    var inherit: UnsafeMutablePointer<UInt8>
    // Applied pose (what constraints produce and world transforms read), per bone.
    var ax: UnsafeMutablePointer<Float>
    var ay: UnsafeMutablePointer<Float>
    var arotation: UnsafeMutablePointer<Float>
    var ascaleX: UnsafeMutablePointer<Float>
    var ascaleY: UnsafeMutablePointer<Float>
    var ashearX: UnsafeMutablePointer<Float>
    var ashearY: UnsafeMutablePointer<Float>
    // World transform, per bone.
    var a: UnsafeMutablePointer<Float>
    var b: UnsafeMutablePointer<Float>
    var c: UnsafeMutablePointer<Float>
    var d: UnsafeMutablePointer<Float>
    var worldX: UnsafeMutablePointer<Float>
    var worldY: UnsafeMutablePointer<Float>

    // Slots.
    var colorR: UnsafeMutablePointer<Float>
    var colorG: UnsafeMutablePointer<Float>
    var colorB: UnsafeMutablePointer<Float>
    var colorA: UnsafeMutablePointer<Float>
    var darkR: UnsafeMutablePointer<Float>
    var darkG: UnsafeMutablePointer<Float>
    var darkB: UnsafeMutablePointer<Float>
    /// The current attachment (index into `SkeletonData.attachments`), -1 = none.
    var attachment: UnsafeMutablePointer<Int32>
    /// Which apply last keyed the attachment (see `AnimationApplySystem`).
    var attachmentState: UnsafeMutablePointer<Int32>
    /// The frame of a sequence attachment, -1 = the sequence's setup frame.
    var sequenceIndex: UnsafeMutablePointer<Int32>
    /// Floats in use in the slot's deform buffer (0 = no deform).
    var deformLength: UnsafeMutablePointer<Int32>
    /// The attachment image to draw (index into `SkeletonData.attachmentFrames`, sequence frame
    /// resolved), -1 when the slot draws nothing; written by `SlotSystem`.
    var frame: UnsafeMutablePointer<Int32>

    // IK constraints.
    var ikMix: UnsafeMutablePointer<Float>
    var ikSoftness: UnsafeMutablePointer<Float>
    var ikBend: UnsafeMutablePointer<Int32>
    var ikCompress: UnsafeMutablePointer<Int32>
    var ikStretch: UnsafeMutablePointer<Int32>
    // Transform constraints.
    var tcMixRotate: UnsafeMutablePointer<Float>
    var tcMixX: UnsafeMutablePointer<Float>
    var tcMixY: UnsafeMutablePointer<Float>
    var tcMixScaleX: UnsafeMutablePointer<Float>
    var tcMixScaleY: UnsafeMutablePointer<Float>
    var tcMixShearY: UnsafeMutablePointer<Float>
    // Path constraints.
    var pathPosition: UnsafeMutablePointer<Float>
    var pathSpacing: UnsafeMutablePointer<Float>
    var pathMixRotate: UnsafeMutablePointer<Float>
    var pathMixX: UnsafeMutablePointer<Float>
    var pathMixY: UnsafeMutablePointer<Float>
    // Physics constraints: 7 parameters (`PhysicsField.inertia ... .mix`) then the simulation state.
    var physics: UnsafeMutablePointer<Float>
    var physicsFieldStride: Int
    var physicsReset: UnsafeMutablePointer<Int32>

    // Per instance.
    var time: UnsafeMutablePointer<Float>
    var skeletonX: UnsafeMutablePointer<Float>
    var skeletonY: UnsafeMutablePointer<Float>
    var skeletonScaleX: UnsafeMutablePointer<Float>
    var skeletonScaleY: UnsafeMutablePointer<Float>
    var stateTimeScale: UnsafeMutablePointer<Float>
    /// The update plan (0 = no skin, s + 1 = skin s).
    var plan: UnsafeMutablePointer<Int32>
    var unkeyedState: UnsafeMutablePointer<Int32>
    var entity: UnsafeMutablePointer<Entity>

    // Per-instance blocks.
    var drawOrder: UnsafeMutablePointer<Int32>
    var deform: UnsafeMutablePointer<Float>

    var tracks: TrackColumns

    /// Where instance `i`'s rows start in each column.
    @inline(__always)
    func rows(_ i: Int) -> InstanceRows {
        InstanceRows(
            instance: i,
            bone: layout.base(i, perInstance: boneCount),
            slot: layout.base(i, perInstance: slotCount),
            ik: layout.base(i, perInstance: ikCount),
            transform: layout.base(i, perInstance: transformCount),
            path: layout.base(i, perInstance: pathCount),
            physics: layout.base(i, perInstance: physicsCount),
            stride: layout.stride,
            drawOrder: i &* slotCount,
            deform: i &* deformFloats,
            track: i &* trackCount)
    }
}

/// The start of one instance's rows in each column of a batch (see `BatchColumns.rows`).
struct InstanceRows {
    var instance: Int
    var bone: Int
    var slot: Int
    var ik: Int
    var transform: Int
    var path: Int
    var physics: Int
    /// Distance between consecutive elements of the instance in per-element columns.
    var stride: Int
    var drawOrder: Int
    var deform: Int
    var track: Int

    @inline(__always) func bone(_ k: Int) -> Int { bone &+ k &* stride }
    @inline(__always) func slot(_ k: Int) -> Int { slot &+ k &* stride }
    @inline(__always) func ik(_ k: Int) -> Int { ik &+ k &* stride }
    @inline(__always) func transform(_ k: Int) -> Int { transform &+ k &* stride }
    @inline(__always) func path(_ k: Int) -> Int { path &+ k &* stride }
    @inline(__always) func physics(_ k: Int) -> Int { physics &+ k &* stride }
    @inline(__always) func track(_ k: Int) -> Int { track &+ k }
}

/// Indices of the physics constraint fields in `BatchColumns.physics` (each field is a column
/// of `physicsFieldStride` floats).
enum PhysicsField {
    static let inertia = 0
    static let strength = 1
    static let damping = 2
    static let massInverse = 3
    static let wind = 4
    static let gravity = 5
    static let mix = 6
    // Simulation state (solved in a later system).
    static let ux = 7
    static let uy = 8
    static let cx = 9
    static let cy = 10
    static let tx = 11
    static let ty = 12
    static let xOffset = 13
    static let xVelocity = 14
    static let yOffset = 15
    static let yVelocity = 16
    static let rotateOffset = 17
    static let rotateVelocity = 18
    static let scaleOffset = 19
    static let scaleVelocity = 20
    static let remaining = 21
    static let lastTime = 22
    static let count = 23
}

/// How a timeline's value combines with the current pose (the reference's MixBlend).
public enum MixBlend: Int32, Sendable {
    /// Replace the pose with setup + (value - setup) * alpha; before the first key: the setup pose.
    case setup = 0
    /// Like replace, but before the first key mix towards the setup pose.
    case first = 1
    /// Mix from the current pose towards the value.
    case replace = 2
    /// Add the value (relative to setup) to the current pose.
    case add = 3
}

/// Whether an animation is mixing in or out (the reference's MixDirection).
public enum MixDirection: Sendable {
    case mixIn
    case mixOut
}

/// Per-track animation state, `trackCount` entries per instance (index `InstanceRows.track(t)`).
/// The fields follow the reference's TrackEntry, so that mixing and queues fit without a new
/// layout; this systems use one looping track without mixing.
struct TrackColumns {
    /// The animation index, -1 = empty track.
    var animation: UnsafeMutablePointer<Int32>
    var loop: UnsafeMutablePointer<Int32>
    var reverse: UnsafeMutablePointer<Int32>
    var shortestRotation: UnsafeMutablePointer<Int32>
    var holdPrevious: UnsafeMutablePointer<Int32>
    /// `MixBlend` raw value.
    var mixBlend: UnsafeMutablePointer<Int32>
    /// Reserved for mixing: the track entry slot mixing out, -1 = none.
    var mixingFrom: UnsafeMutablePointer<Int32>
    var trackTime: UnsafeMutablePointer<Float>
    var trackLast: UnsafeMutablePointer<Float>
    var nextTrackLast: UnsafeMutablePointer<Float>
    var trackEnd: UnsafeMutablePointer<Float>
    var animationStart: UnsafeMutablePointer<Float>
    var animationEnd: UnsafeMutablePointer<Float>
    var animationLast: UnsafeMutablePointer<Float>
    var nextAnimationLast: UnsafeMutablePointer<Float>
    var delay: UnsafeMutablePointer<Float>
    var timeScale: UnsafeMutablePointer<Float>
    var alpha: UnsafeMutablePointer<Float>
    var mixTime: UnsafeMutablePointer<Float>
    var mixDuration: UnsafeMutablePointer<Float>
    var interruptAlpha: UnsafeMutablePointer<Float>
    var totalAlpha: UnsafeMutablePointer<Float>
    var eventThreshold: UnsafeMutablePointer<Float>
    var alphaAttachmentThreshold: UnsafeMutablePointer<Float>
    var mixAttachmentThreshold: UnsafeMutablePointer<Float>
    var mixDrawOrderThreshold: UnsafeMutablePointer<Float>

    static let intFields = 7
    static let floatFields = 19

    init(ints: ColumnTable<Int32>, floats: ColumnTable<Float>) {
        animation = ints.field(0)
        loop = ints.field(1)
        reverse = ints.field(2)
        shortestRotation = ints.field(3)
        holdPrevious = ints.field(4)
        mixBlend = ints.field(5)
        mixingFrom = ints.field(6)
        trackTime = floats.field(0)
        trackLast = floats.field(1)
        nextTrackLast = floats.field(2)
        trackEnd = floats.field(3)
        animationStart = floats.field(4)
        animationEnd = floats.field(5)
        animationLast = floats.field(6)
        nextAnimationLast = floats.field(7)
        delay = floats.field(8)
        timeScale = floats.field(9)
        alpha = floats.field(10)
        mixTime = floats.field(11)
        mixDuration = floats.field(12)
        interruptAlpha = floats.field(13)
        totalAlpha = floats.field(14)
        eventThreshold = floats.field(15)
        alphaAttachmentThreshold = floats.field(16)
        mixAttachmentThreshold = floats.field(17)
        mixDrawOrderThreshold = floats.field(18)
    }
}
