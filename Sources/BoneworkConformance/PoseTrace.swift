import BoneworkFormat
import BoneworkWorld

/// Replays the reference's pose-trace procedure on one instance and records its pose at chosen
/// steps: spawn (skin set, setup pose, world transforms) = step 0, then play `animation` on
/// track 0 and run `steps` frames of `delta` seconds.
public struct PoseTrace {
    /// The skeleton traced.
    public var data: SkeletonData
    /// The skin worn, nil for the default skin.
    public var skin: String?
    /// The animation played on track 0.
    public var animation: String
    /// Whether it loops.
    public var loop: Bool
    /// Seconds per step.
    public var delta: Float
    /// Steps run after step 0.
    public var steps: Int

    /// A trace procedure from the reference trace's fields.
    public init(data: SkeletonData, skin: String?, animation: String, loop: Bool, delta: Float, steps: Int) {
        self.data = data
        self.skin = skin
        self.animation = animation
        self.loop = loop
        self.delta = delta
        self.steps = steps
    }

    /// The poses at the requested steps (0 = setup pose), in step order.
    public func run(recording wanted: Set<Int>) throws -> [(step: Int, pose: InstancePose)] {
        let world = World(trackCount: 1)
        let entity = try world.spawn(data, skin: skin)
        var frames: [(step: Int, pose: InstancePose)] = []
        if wanted.contains(0) { frames.append((0, try world.pose(entity))) }
        try world.setAnimation(entity, track: 0, animation, loop: loop)
        if steps > 0 {
            for step in 1...steps {
                world.update(delta)
                if wanted.contains(step) { frames.append((step, try world.pose(entity))) }
            }
        }
        return frames
    }
}
