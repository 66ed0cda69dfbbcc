import BoneworkFormat
import BoneworkImage
import BoneworkWorld
import Foundation

/// A render request (`spine-render-request-1`): a skeleton, a pose reached by playing an
/// animation for some steps, and a camera. Paths are relative to `baseDirectory`.
public struct RenderRequest: Sendable, Equatable {
    /// The skeleton file, relative to the renderer's base folder.
    public var skeleton: String
    /// The atlas file, relative to the renderer's base folder.
    public var atlas: String
    /// The skin to wear, nil for the default skin.
    public var skin: String?
    /// The animation played on track 0, nil for the setup pose.
    public var animation: String?
    /// Updates of ``delta`` seconds before the frame is drawn.
    public var steps: Int
    /// Seconds per step.
    public var delta: Float
    /// The world rectangle the image shows.
    public var viewport: WorldViewport
    /// The image's width in pixels.
    public var width: Int
    /// The image's height in pixels.
    public var height: Int
    /// Premultiplied clear colour, components 0...1.
    public var background: (Float, Float, Float, Float)

    /// A request from its fields (files relative to the renderer's base folder).
    public init(
        skeleton: String, atlas: String, skin: String? = nil, animation: String? = nil, steps: Int = 0,
        delta: Float = 1.0 / 30.0, viewport: WorldViewport, width: Int, height: Int,
        background: (Float, Float, Float, Float) = (0, 0, 0, 0)
    ) {
        self.skeleton = skeleton
        self.atlas = atlas
        self.skin = skin
        self.animation = animation
        self.steps = steps
        self.delta = delta
        self.viewport = viewport
        self.width = width
        self.height = height
        self.background = background
    }

    /// Equal when every field is (the background component by component).
    public static func == (l: RenderRequest, r: RenderRequest) -> Bool {
        l.skeleton == r.skeleton && l.atlas == r.atlas && l.skin == r.skin && l.animation == r.animation
            && l.steps == r.steps && l.delta == r.delta && l.viewport == r.viewport && l.width == r.width
            && l.height == r.height && l.background == r.background
    }

    /// The fields of a request file (`spine-render-request-1`); any other is refused.
    public static let fields: Set<String> = [
        "format", "skeleton", "atlas", "skin", "animation", "step", "dt", "viewport", "size", "background",
    ]
    /// The most updates a request may ask for before its frame is drawn.
    public static let maxSteps = 1_000_000
    /// The largest image a request may ask for: each side at most `PNG.maximumDimension`, and
    /// at most `PNG.maximumPixelCount` pixels (256 MiB of RGBA, what a PNG page may decode to).
    public static let maxPixels = PNG.maximumPixelCount

    /// Parses a request file's JSON; every field is checked, errors name the file and the field
    /// (`FILE: `field` must be ...`). Numbers must fit a 32-bit float where the renderer keeps
    /// them as one, the image must fit ``maxPixels``, and a field the format does not define is
    /// refused (a misspelt one would otherwise be ignored).
    public init(json bytes: [UInt8], file: String) throws(RenderError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw .request("\(file): not JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error))")
        }
        guard let root = object as? [String: Any] else { throw .request("\(file): expected a JSON object") }
        for key in root.keys.sorted() where !Self.fields.contains(key) {
            throw .request(
                "\(file): `\(key)` is not a request field (\(Self.fields.sorted().joined(separator: ", ")))")
        }
        func string(_ key: String) throws(RenderError) -> String {
            guard let value = root[key] as? String else { throw .request("\(file): `\(key)` must be a string") }
            return value
        }
        func optionalString(_ key: String) throws(RenderError) -> String? {
            guard let value = root[key], !(value is NSNull) else { return nil }
            guard let text = value as? String else { throw .request("\(file): `\(key)` must be a string or null") }
            return text
        }
        /// `count` numbers, each finite and within float range (the renderer keeps 32-bit floats).
        func floats(_ key: String, _ count: Int) throws(RenderError) -> [Float] {
            guard let array = root[key] as? [Any], array.count == count else {
                throw .request("\(file): `\(key)` must be an array of \(count) numbers")
            }
            var result: [Float] = []
            for element in array {
                guard let number = element as? NSNumber, Float(number.doubleValue).isFinite else {
                    throw .request("\(file): `\(key)` must hold finite numbers within float range (|x| < 3.4e38)")
                }
                result.append(Float(number.doubleValue))
            }
            return result
        }
        guard try string("format") == "spine-render-request-1" else {
            throw .request("\(file): `format` must be \"spine-render-request-1\"")
        }
        skeleton = try string("skeleton")
        atlas = try string("atlas")
        skin = try optionalString("skin")
        animation = try optionalString("animation")
        guard let step = root["step"] as? NSNumber, let steps = Int(exactly: step.doubleValue), steps >= 0,
            steps <= Self.maxSteps
        else {
            throw .request("\(file): `step` must be an integer in 0...\(Self.maxSteps)")
        }
        self.steps = steps
        guard let dt = root["dt"] as? NSNumber, Float(dt.doubleValue).isFinite, dt.doubleValue >= 0 else {
            throw .request("\(file): `dt` must be a number >= 0 within float range")
        }
        delta = Float(dt.doubleValue)
        let v = try floats("viewport", 4)
        // Checked as the floats the projection divides by (1e-300 is not 0 as a double).
        guard v[2] != 0, v[3] != 0 else { throw .request("\(file): `viewport` width and height must not be 0") }
        viewport = WorldViewport(x: v[0], y: v[1], width: v[2], height: v[3])
        guard let size = root["size"] as? [Any], size.count == 2, let wn = size[0] as? NSNumber,
            let hn = size[1] as? NSNumber, let w = Int(exactly: wn.doubleValue), let h = Int(exactly: hn.doubleValue),
            (1...PNG.maximumDimension).contains(w), (1...PNG.maximumDimension).contains(h), w * h <= Self.maxPixels
        else {
            throw .request(
                "\(file): `size` must be two integers in 1...\(PNG.maximumDimension), at most \(Self.maxPixels) pixels")
        }
        width = w
        height = h
        let b = try floats("background", 4)
        guard b.allSatisfy({ (0...1).contains($0) }) else {
            throw .request("\(file): `background` must hold four numbers in 0...1")
        }
        background = (b[0], b[1], b[2], b[3])
    }

    /// The largest request file read (requests are a few hundred bytes).
    public static let maxFileBytes = 1 << 20

    /// Reads and parses a request file (at most ``maxFileBytes``).
    public init(file: String) throws {
        try self.init(json: SkeletonLoader.readFile(file, limit: Self.maxFileBytes), file: file)
    }
}

/// Which renderer draws: the GPU path (skinned on the GPU, one draw call per frame) or the CPU
/// vertex path (world-space triangles built on the CPU); both give the same picture.
public enum RenderPath: String, Sendable, CaseIterable {
    /// `GPURenderer`.
    case gpu
    /// `FrameBuilder` and `BatchRenderer`.
    case cpu
}

/// Carries out render requests headlessly: loads (and caches) skeletons, atlases and their
/// textures, poses one instance with the engine, draws it with the CPU path.
public final class RequestRenderer {
    /// The GL context drawn in (headless unless one was given).
    public let context: GLContext
    /// The CPU-path renderer.
    public let renderer: BatchRenderer
    /// Folder the request paths are relative to.
    public let baseDirectory: String
    private var skeletons: [String: (data: SkeletonData, draw: SkeletonDrawData)] = [:]
    private var atlases: [String: (atlas: Atlas, textures: AtlasTextures)] = [:]
    private var builder = FrameBuilder()
    private var list = DrawList()
    private var gpu: GPURenderer? = nil
    private var gpuKinds: [ObjectIdentifier: Int] = [:]
    /// What the last render drew.
    public var lastStats: FrameStats { builder.stats }

    /// A renderer resolving request paths against `baseDirectory`, in `context` or a new headless one.
    /// - Throws: `RenderError.eglUnavailable` when no headless context can be made.
    public init(baseDirectory: String, context: GLContext? = nil) throws {
        let context = try context ?? .headless(HeadlessGLContext())
        self.context = context
        self.baseDirectory = baseDirectory
        renderer = try BatchRenderer(context: context)
    }

    private func path(_ relative: String) -> String {
        relative.hasPrefix("/") || baseDirectory.isEmpty ? relative : baseDirectory + "/" + relative
    }

    private func loadAtlas(_ relative: String) throws -> (atlas: Atlas, textures: AtlasTextures) {
        if let cached = atlases[relative] { return cached }
        let atlas = try AtlasReader.read(file: path(relative))
        let entry = (atlas, try AtlasTextures(atlas: atlas, context: context))
        atlases[relative] = entry
        return entry
    }

    private func loadSkeleton(_ relative: String, atlasKey: String, atlas: Atlas) throws -> (
        data: SkeletonData, draw: SkeletonDrawData
    ) {
        let key = relative + "\u{0}" + atlasKey
        if let cached = skeletons[key] { return cached }
        let data = try SkeletonLoader.load(file: path(relative), atlas: atlas)
        let entry = (data, SkeletonDrawData(data))
        skeletons[key] = entry
        return entry
    }

    /// Poses the request's skeleton and returns its draw list's pose (for inspection).
    public func pose(_ request: RenderRequest) throws -> PoseSnapshot {
        let (atlas, _) = try loadAtlas(request.atlas)
        let (data, _) = try loadSkeleton(request.skeleton, atlasKey: request.atlas, atlas: atlas)
        return try Self.pose(request, data: data)
    }

    /// The request's pose procedure on a fresh instance: skin, setup pose, then `steps` updates
    /// of `delta` with the animation looping on track 0. Returns a copy of the pose (allocates;
    /// for inspection and tests).
    public static func pose(_ request: RenderRequest, data: SkeletonData) throws -> PoseSnapshot {
        let (world, entity) = try posedWorld(request, data: data)
        return PoseSnapshot(try world.pose(entity), data: data, skin: request.skin)
    }

    /// The request's pose procedure, leaving the posed instance in its world (read it through
    /// `World.poseView`).
    public static func posedWorld(_ request: RenderRequest, data: SkeletonData) throws -> (World, Entity) {
        if let skin = request.skin, data.findSkinIndex(skin) == nil {
            throw RenderError.request("\(data.file) has no skin `\(skin)`")
        }
        if let animation = request.animation, data.findAnimation(animation) == nil {
            throw RenderError.request("\(data.file) has no animation `\(animation)`")
        }
        let world = World(trackCount: 1)
        let entity = try world.spawn(data, skin: request.skin)
        if let animation = request.animation { try world.setAnimation(entity, track: 0, animation, loop: true) }
        for _ in 0..<request.steps { world.update(request.delta) }
        return (world, entity)
    }

    /// Renders a request into an image (rows top-down, premultiplied RGBA). The frame builder reads
    /// the engine's columns through a `PoseView` (no pose copy).
    public func render(_ request: RenderRequest) throws -> Image {
        let (atlas, textures) = try loadAtlas(request.atlas)
        let (data, draw) = try loadSkeleton(request.skeleton, atlasKey: request.atlas, atlas: atlas)
        let (world, entity) = try Self.posedWorld(request, data: data)
        return try withExtendedLifetime(world) {
            try render(try world.poseView(entity), drawData: draw, pages: textures.bindings, request: request)
        }
    }

    /// Draws an already posed instance with the request's camera.
    public func render(
        _ pose: some PosedSkeleton, drawData: SkeletonDrawData, pages: PageBindings, request: RenderRequest
    ) throws -> Image {
        list.removeAll()
        builder.build(pose, drawData: drawData, pages: pages, into: &list)
        let target = try OffscreenTarget(width: request.width, height: request.height, context: context)
        let b = request.background
        target.clear(b.0, b.1, b.2, b.3)
        renderer.draw(list, viewport: request.viewport, into: target)
        return target.readImage()
    }

    /// Renders a request into an image through `path`: the CPU vertex path (`render(_:)`) or the
    /// GPU path (`GPURenderer`), which must give the same picture.
    public func render(_ request: RenderRequest, path: RenderPath) throws -> Image {
        guard path == .gpu else { return try render(request) }
        let (atlas, textures) = try loadAtlas(request.atlas)
        let (data, draw) = try loadSkeleton(request.skeleton, atlasKey: request.atlas, atlas: atlas)
        let (world, entity) = try Self.posedWorld(request, data: data)
        let target = try OffscreenTarget(width: request.width, height: request.height, context: context)
        let b = request.background
        target.clear(b.0, b.1, b.2, b.3)
        try withExtendedLifetime(world) {
            try drawGPU(try world.poseView(entity), drawData: draw, textures: textures, viewport: request.viewport)
        }
        return target.readImage()
    }

    /// The GPU-path renderer sharing this renderer's context (made on first use).
    /// - Throws: `RenderError` when the context cannot run the GPU path.
    public func gpuRenderer() throws(RenderError) -> GPURenderer {
        if let gpu { return gpu }
        let made = try GPURenderer(context: context)
        gpu = made
        return made
    }

    /// The GPU path's kind index for a skeleton's draw tables and atlas textures (registered once).
    public func gpuKind(_ drawData: SkeletonDrawData, textures: AtlasTextures) throws(RenderError) -> Int {
        if let kind = gpuKinds[ObjectIdentifier(drawData)] { return kind }
        let kind = try gpuRenderer().register(GPUSkeletonGeometry(drawData), textures: textures)
        gpuKinds[ObjectIdentifier(drawData)] = kind
        return kind
    }

    /// Draws one posed instance through the GPU path into the bound framebuffer.
    /// - Throws: `RenderError` when the GPU path cannot run or its frame cannot be opened.
    public func drawGPU(
        _ pose: some DeformedPose, drawData: SkeletonDrawData, textures: AtlasTextures, viewport: WorldViewport
    ) throws(RenderError) {
        let kind = try gpuKind(drawData, textures: textures)
        let renderer = try gpuRenderer()
        renderer.draw(kinds: [Int32(kind)], viewport: viewport) { _ in pose }
        if let error = renderer.lastError { throw error }
    }

    /// Draws one engine instance through the GPU path straight from its batch's columns (what the
    /// crowd uses; an instance in its setup draw order without a clip costs no per-slot work on the
    /// CPU) into the bound framebuffer.
    /// - Throws: `RenderError` when the GPU path cannot run or its frame cannot be opened.
    public func drawGPU(
        _ view: PoseView, drawData: SkeletonDrawData, textures: AtlasTextures, viewport: WorldViewport
    ) throws(RenderError) {
        let kind = Int32(try gpuKind(drawData, textures: textures))
        let renderer = try gpuRenderer()
        let batches = [view.batch]
        let rows = [UInt64(view.row)]
        let kinds = [kind]
        try batches.withUnsafeBufferPointer { b throws(RenderError) in
            try rows.withUnsafeBufferPointer { r throws(RenderError) in
                try kinds.withUnsafeBufferPointer { k throws(RenderError) in
                    _ = try renderer.draw(batches: b, rows: r, kinds: k, viewport: viewport)
                }
            }
        }
    }

    /// Renders a request file and writes the PNG.
    public func render(requestFile: String, output: String) throws {
        let request = try RenderRequest(file: requestFile)
        try PNG.write(try render(request), to: output)
    }

    /// Forgets every loaded skeleton and atlas; their textures are deleted once nothing else holds
    /// them.
    public func unloadAll() {
        skeletons.removeAll()
        atlases.removeAll()
    }

    /// The textures of an atlas (loaded once).
    public func textures(atlas relative: String) throws -> AtlasTextures { try loadAtlas(relative).textures }
    /// The skeleton and its draw tables (loaded once).
    public func skeleton(_ relative: String, atlas atlasRelative: String) throws -> (SkeletonData, SkeletonDrawData) {
        let atlas = try loadAtlas(atlasRelative).atlas
        let entry = try loadSkeleton(relative, atlasKey: atlasRelative, atlas: atlas)
        return (entry.data, entry.draw)
    }
}
