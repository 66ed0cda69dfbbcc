import BoneworkFormat
import BoneworkImage
import BoneworkRender
import BoneworkWorld
import Dispatch

/// One skeleton instance with its animation state, ready to update and draw: an entity in a
/// `World`, sharing its `Atlas` and `SkeletonData` (and GL textures) with every other drawable of
/// the same files.
///
/// Dropping the last reference despawns the entity at once (deterministically); `dispose()` does
/// the same earlier, after which every use throws `BoneworkError.disposed`.
public final class SkeletonDrawable {
    /// The shared atlas and skeleton data this drawable is an instance of.
    public let assets: SkeletonAssets
    /// The world holding the instance (its own unless one was given).
    public let world: World
    /// The instance's handle in ``world``.
    public let entity: Entity
    /// Whether ``dispose()`` ran; every use afterwards throws `BoneworkError.disposed`.
    public private(set) var isDisposed = false
    /// The custom skin set through `Skeleton.setSkin(_ skin: Skin)`, nil when a data skin is used.
    var customSkin: Skin?
    let skinKeys: SkinKeys

    /// The atlas the attachments' regions come from.
    public var atlas: Atlas { assets.atlas }
    /// The shared, immutable skeleton data.
    public var skeletonData: SkeletonData { assets.skeletonData }

    /// A new instance of `assets` in `world` (a world of its own by default; drawables in one world
    /// with the same skeleton data share one batch).
    public init(assets: SkeletonAssets, world: World? = nil, skin: String? = nil) throws {
        self.assets = assets
        self.world = world ?? World(trackCount: 4)
        if let skin, assets.skeletonData.findSkinIndex(skin) == nil {
            throw WorldError.noSuchSkin(skin, skeleton: assets.skeletonData.file)
        }
        entity = try self.world.spawn(assets.skeletonData, skin: skin)
        skinKeys = SkinKeys(assets.skeletonData)
    }

    /// Shares the atlas and skeleton data of `other` (in `other`'s world unless another is given).
    public convenience init(sharing other: SkeletonDrawable, world: World? = nil, skin: String? = nil) throws {
        try other.checkAlive()
        try self.init(assets: other.assets, world: world ?? other.world, skin: skin)
    }

    /// Loads a source (asynchronously for `.http`) and makes a drawable of it.
    public static func load(_ source: SkeletonSource, world: World? = nil, skin: String? = nil) async throws
        -> SkeletonDrawable
    {
        if case .drawable(let drawable) = source { return drawable }
        return try SkeletonDrawable(assets: await SkeletonAssets.load(source), world: world, skin: skin)
    }

    /// Loads an atlas and a skeleton file (`.json` or `.skel`) through the shared pool.
    /// - Throws: `LoadError` naming the file and the place, or a file error with the system's reason.
    public static func fromFile(atlasFile: String, skeletonFile: String) async throws -> SkeletonDrawable {
        try await load(.file(atlas: atlasFile, skeleton: skeletonFile))
    }

    deinit {
        if !isDisposed { try? world.despawn(entity) }
    }

    /// Despawns the entity now; later use of this drawable throws `BoneworkError.disposed`.
    public func dispose() {
        guard !isDisposed else { return }
        isDisposed = true
        try? world.despawn(entity)
    }

    func checkAlive() throws {
        if isDisposed { throw BoneworkError.disposed("SkeletonDrawable(\(skeletonData.file))") }
    }

    /// The skeleton: bones, slots, skins, position.
    public var skeleton: Skeleton {
        get throws {
            try checkAlive()
            return Skeleton(drawable: self)
        }
    }

    /// The instance's animation state (tracks, queueing, listeners).
    public var animationState: AnimationState {
        get throws {
            try checkAlive()
            try installPendingStateData()
            return try world.animationState(entity)
        }
    }

    private var pendingStateData: AnimationStateData?

    /// The mix durations of this skeleton's animation states (shared by the instances of the
    /// skeleton in this world). Mixes can be set until the first animation is queued: the data
    /// returned here is installed when the animation state is next used.
    public var animationStateData: AnimationStateData {
        get throws {
            try checkAlive()
            if let pending = pendingStateData { return pending }
            let current = try world.animationState(entity).data
            if !current.isFrozen { return current }
            let editable = AnimationStateData(skeletonData: skeletonData, defaultMix: current.defaultMix)
            pendingStateData = editable
            return editable
        }
    }

    func installPendingStateData() throws {
        guard let pending = pendingStateData else { return }
        pendingStateData = nil
        try world.setAnimationStateData(pending)
    }

    /// Advances the animation state by `delta` seconds, applies it, and computes the new pose.
    public func update(delta: Float) throws {
        try update(delta: delta, beforeWorldTransforms: nil, afterWorldTransforms: nil)
    }

    /// `update(delta:)` with hooks just before and just after world transforms are computed.
    public func update(
        delta: Float, beforeWorldTransforms: (() throws -> Void)?, afterWorldTransforms: (() throws -> Void)?
    ) throws {
        try checkAlive()
        guard delta.isFinite, delta >= 0 else { throw BoneworkError.invalidArgument("delta \(delta)") }
        try installPendingStateData()
        // One frame of the world's scheduler over this instance's row; the custom skin and the
        // caller's hook run between timeline apply and world transforms.
        var failure: (any Error)?
        try world.update(entity, delta: delta) {
            do {
                try self.applyCustomSkin()
                try beforeWorldTransforms?()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        try afterWorldTransforms?()
        let scheduler = world.scheduler
        func seconds(_ system: SystemID) -> Double { Double(scheduler.nanoseconds(system) ?? 0) / 1e9 }
        lastTimings = UpdateTimings(
            animationState: seconds(.animationState), apply: seconds(.timelineApply),
            worldTransforms: seconds(.pose), vertices: seconds(.slots) + seconds(.vertices))
    }

    /// What the last `update` spent in each system (seconds; callbacks excluded).
    public private(set) var lastTimings = UpdateTimings()

    /// Recomputes world transforms and vertices from the current local pose (no animation).
    public func updateWorldTransforms() throws {
        try checkAlive()
        try applyCustomSkin()
        try world.updateWorldTransforms(entity)
    }

    /// Replaces each slot's attachment by the custom skin's attachment of the same key. A slot the
    /// engine left empty shows the custom skin's setup attachment when the engine's own skin has
    /// no attachment under that key (the engine could not have found it).
    func applyCustomSkin() throws {
        // The composed skin the World wears resolves every part's attachment itself.
        guard let skin = customSkin, skin.hasCustomAttachments else { return }
        let data = skeletonData
        let engineSkin = try world.skinIndex(entity)
        for (s, slot) in data.slots.enumerated() {
            let current = try world.slotAttachment(entity, slot: s)
            var key: Int32 = -1
            if current >= 0 {
                key = skinKeys.keyOfAttachment[Int(current)]
            } else if slot.attachmentName >= 0 {
                let engineHas =
                    engineSkin.flatMap { data.attachment(skin: $0, slot: Int32(s), name: slot.attachmentName) } != nil
                    || (data.defaultSkin >= 0
                        && data.attachment(skin: data.defaultSkin, slot: Int32(s), name: slot.attachmentName) != nil)
                if !engineHas { key = slot.attachmentName }
            }
            guard key >= 0, let replacement = skin.attachment(slot: Int32(s), nameID: key), replacement != current
            else { continue }
            try world.setSlotAttachment(entity, slot: s, replacement)
        }
    }

    /// A copy of the current pose in the renderer's terms.
    public func snapshot() throws -> PoseSnapshot {
        try checkAlive()
        let pose = try world.pose(entity)
        var attachments: [Int] = []
        for s in 0..<skeletonData.slots.count { attachments.append(Int(try world.slotAttachment(entity, slot: s))) }
        var snapshot = PoseSnapshot(pose, data: skeletonData, skin: nil)
        snapshot.attachments = attachments
        snapshot.skeletonColor = try world.skeletonColor(entity)
        return snapshot
    }

    /// Draws the current pose into an image of `size` points times `scaleFactor` pixels, the
    /// skeleton's setup-pose bounds fitted and centred, over `backgroundColor` (straight alpha).
    public func renderToImage(size: Size, backgroundColor: Color = Color(0, 0, 0, 0), scaleFactor: Float = 1)
        throws -> RenderedImage
    {
        try checkAlive()
        let width = Int((size.width * scaleFactor).rounded())
        let height = Int((size.height * scaleFactor).rounded())
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw BoneworkError.invalidArgument("image size \(width) x \(height)")
        }
        let bounds = try SetupPoseBounds().computeBounds(self)
        let layout = Layout(
            bounds: bounds, viewSize: Size(width: Float(width), height: Float(height)), mode: .fit,
            alignment: .center)
        return try OffscreenRenderer.withShared { renderer in
            let image = try renderer.renderImage(width: width, height: height, background: backgroundColor) {
                try renderer.draw(self, layout: layout, targetSize: Size(width: Float(width), height: Float(height)))
            }
            return RenderedImage(image)
        }
    }
}

/// Time spent per system in one drawable update.
public struct UpdateTimings: Sendable, Equatable {
    /// Advancing track times and queued entries.
    public var animationState: Double = 0
    /// Applying timelines to the local pose (and the custom skin).
    public var apply: Double = 0
    /// Computing bones' world transforms and constraints.
    public var worldTransforms: Double = 0
    /// Slot images and world vertices.
    public var vertices: Double = 0
    /// The four systems together, in seconds.
    public var total: Double { animationState + apply + worldTransforms + vertices }
}

/// A rendered picture: RGBA8 rows top-down with straight (not premultiplied) alpha.
public struct RenderedImage: Sendable {
    /// The pixels: RGBA8, rows top-down, straight alpha.
    public var image: Image
    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels.
    public var height: Int { image.height }

    /// From the renderer's premultiplied pixels.
    public init(premultiplied: Image) {
        var image = premultiplied
        var k = 0
        while k + 3 < image.pixels.count {
            let a = Int(image.pixels[k + 3])
            if a > 0 && a < 255 {
                for c in 0..<3 { image.pixels[k + c] = UInt8(min(255, (Int(image.pixels[k + c]) * 255 + a / 2) / a)) }
            }
            k += 4
        }
        self.image = image
    }

    init(_ premultiplied: Image) { self.init(premultiplied: premultiplied) }

    /// The pixel at (x, y) as (r, g, b, a).
    public func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0, 0) }
        let i = (y * width + x) * 4
        return (image.pixels[i], image.pixels[i + 1], image.pixels[i + 2], image.pixels[i + 3])
    }

    /// The image encoded as PNG bytes.
    public func pngData() throws -> [UInt8] { try PNG.encode(image) }
    /// Writes the image as a PNG file.
    /// - Throws: an error naming `path` with the system's reason when it cannot be written.
    public func writePNG(to path: String) throws { try PNG.write(image, to: path) }
}
