import BoneworkFormat
import Foundation

/// Read-only tables path constraints need beyond `RigTables`: each constraint's bone list and
/// modes, and per attachment the path geometry flags and curve lengths. Built once per
/// `SkeletonData` (see `PathTables.build`) and frozen into plain pointers.
struct PathTables {
    var bones: UnsafePointer<Int32>
    var boneStart: UnsafePointer<Int32>
    var boneCount: UnsafePointer<Int32>
    /// The slot whose path attachment is followed.
    var target: UnsafePointer<Int32>
    /// Raw `PositionMode`, `SpacingMode` and `RotateMode` values, 3 per constraint.
    var modes: UnsafePointer<UInt8>
    var offsetRotation: UnsafePointer<Float>
    /// Per attachment: `usable` when it is a path whose curve lengths cover its vertices,
    /// plus the `closed` and `constantSpeed` flags.
    var pathFlags: UnsafePointer<UInt8>
    var lengthStart: UnsafePointer<Int32>
    var lengthPool: UnsafePointer<Float>
    /// Floats of scratch one solve needs (see `PathScratch`).
    var scratchFloats: Int
    var maxBones: Int
    var maxWorldFloats: Int

    static let usable: UInt8 = 1
    static let closed: UInt8 = 2
    static let constantSpeed: UInt8 = 4

    static func build(_ data: SkeletonData, _ buffers: FrozenBuffers) -> PathTables {
        var bones: [Int32] = []
        var boneStart: [Int32] = []
        var boneCount: [Int32] = []
        var modes: [UInt8] = []
        var maxBones = 0
        for c in data.pathConstraints {
            boneStart.append(Int32(bones.count))
            boneCount.append(Int32(c.bones.count))
            bones.append(contentsOf: c.bones)
            modes.append(contentsOf: [c.positionMode.rawValue, c.spacingMode.rawValue, c.rotateMode.rawValue])
            maxBones = max(maxBones, c.bones.count)
        }
        var flags: [UInt8] = []
        var lengthStart: [Int32] = []
        var lengthPool: [Float] = []
        var maxWorld = 8
        for a in data.attachments {
            lengthStart.append(Int32(lengthPool.count))
            guard a.kind == .path else {
                flags.append(0)
                continue
            }
            lengthPool.append(contentsOf: a.lengths)
            let length = Int(a.worldVerticesLength)
            let curves = length / 6
            // The solver reads lengths[curveCount] and vertices up to the last curve.
            let enough =
                a.closed ? (curves >= 1 && a.lengths.count >= curves) : (curves >= 2 && a.lengths.count >= curves - 1)
            var f: UInt8 = enough && a.vertexCount * 2 == length ? usable : 0
            if a.closed { f |= closed }
            if a.constantSpeed { f |= constantSpeed }
            flags.append(f)
            if enough { maxWorld = max(maxWorld, length + 2) }
        }
        let layout = PathScratch.Layout(maxBones: maxBones, maxWorldFloats: maxWorld)
        return PathTables(
            bones: buffers.freeze(bones), boneStart: buffers.freeze(boneStart), boneCount: buffers.freeze(boneCount),
            target: buffers.freeze(data.pathConstraints.map(\.target)), modes: buffers.freeze(modes),
            offsetRotation: buffers.freeze(data.pathConstraints.map(\.offsetRotation)),
            pathFlags: buffers.freeze(flags), lengthStart: buffers.freeze(lengthStart),
            lengthPool: buffers.freeze(lengthPool), scratchFloats: layout.total, maxBones: maxBones,
            maxWorldFloats: maxWorld)
    }
}

/// What `PathConstraintSolver.prepare` leaves for placing one instance's chain: its mixes, its
/// rotation offset (signed by the target bone's reflection, in radians), its modes, and the
/// spaces, bone lengths and positions along the path in its scratch.
struct PathChain {
    var mixRotate: Float
    var mixX: Float
    var mixY: Float
    var offsetRotation: Float
    /// Chain rotation without an offset: the tip of each bone follows the path.
    var tip: Bool
    var tangents: Bool
    var scale: Bool
    var spaces: UnsafeMutablePointer<Float>
    var lengths: UnsafeMutablePointer<Float>
    /// x, y and tangent angle per space, from index 0.
    var positions: UnsafeMutablePointer<Float>
}

/// Working memory of one path solve, carved out of a caller-provided float buffer of
/// `PathTables.scratchFloats` (one buffer per worker; nothing is allocated per solve).
struct PathScratch {
    var spaces: UnsafeMutablePointer<Float>
    var lengths: UnsafeMutablePointer<Float>
    var positions: UnsafeMutablePointer<Float>
    var world: UnsafeMutablePointer<Float>
    var curves: UnsafeMutablePointer<Float>
    var segments: UnsafeMutablePointer<Float>

    struct Layout {
        var spaces = 0
        var lengths: Int
        var positions: Int
        var world: Int
        var curves: Int
        var segments: Int
        var total: Int

        init(maxBones: Int, maxWorldFloats: Int) {
            lengths = maxBones + 1
            positions = lengths + maxBones
            world = positions + (maxBones + 1) * 3 + 2
            curves = world + maxWorldFloats
            segments = curves + maxWorldFloats / 6 + 1
            total = segments + 10
        }
    }

    init(_ base: UnsafeMutablePointer<Float>, _ tables: PathTables) {
        let l = Layout(maxBones: tables.maxBones, maxWorldFloats: tables.maxWorldFloats)
        spaces = base + l.spaces
        lengths = base + l.lengths
        positions = base + l.positions
        world = base + l.world
        curves = base + l.curves
        segments = base + l.segments
    }
}

/// One scratch buffer per thread for path solves, kept for the thread's lifetime and grown (once)
/// when a skeleton needs more: after the first frame, posing allocates nothing.
enum PathScratchBuffer {
    /// Buffer layout: capacity in floats (an `Int`), then the floats.
    private static let header = MemoryLayout<Int>.stride

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { buffer in free(buffer) }
        return key
    }()

    /// At least `count` floats that only the calling thread uses.
    @inline(__always)
    static func floats(_ count: Int) -> UnsafeMutablePointer<Float> {
        if let buffer = pthread_getspecific(key), buffer.load(as: Int.self) >= count {
            return (buffer + header).assumingMemoryBound(to: Float.self)
        }
        return grow(count)
    }

    private static func grow(_ count: Int) -> UnsafeMutablePointer<Float> {
        let capacity = max(count, 1024)
        guard let buffer = malloc(header + capacity * MemoryLayout<Float>.stride) else {
            fatalError("out of memory for path scratch (\(capacity) floats)")
        }
        buffer.storeBytes(of: capacity, as: Int.self)
        free(pthread_getspecific(key))
        pthread_setspecific(key, buffer)
        return (buffer + header).assumingMemoryBound(to: Float.self)
    }
}
