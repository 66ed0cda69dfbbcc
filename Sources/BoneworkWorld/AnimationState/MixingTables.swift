import BoneworkFormat

/// What mixing needs to know about every timeline of a skeleton, computed once per batch from
/// the compiled timelines (same indices as `RigTables.timelines`):
/// - the properties each timeline writes, as dense ids (two timelines that write one property
///   compete; the first one on the stack of mixing entries decides how the others blend),
/// - per animation, which properties it keys (a bit set, for "does the next entry key this?"),
/// - how the state applies each timeline (rotation memory, attachment and draw order rules).
///
/// Property identity follows the reference exactly, including its quirks: a shearY timeline
/// shares the shearX property of its bone, every global physics timeline shares one property,
/// and the physics reset timeline has one property for all constraints.
final class MixingTables {
    /// How the state treats a timeline when applying it.
    enum Role: UInt8 {
        case plain = 0
        case rotate = 1
        case attachment = 2
        case drawOrder = 3
        case event = 4
    }

    let timelineCount: Int
    let animationCount: Int
    let propertyCount: Int
    /// The most timelines any animation has (the per-entry scratch size).
    let maxTimelines: Int
    /// The most event keys any animation has.
    let maxEventKeys: Int
    /// Per timeline: first dense property id in `properties` and how many.
    let propertyStart: UnsafePointer<Int32>
    let propertyLength: UnsafePointer<UInt8>
    let properties: UnsafePointer<Int32>
    let roles: UnsafePointer<Role>
    /// Slots some attachment timeline keys, ascending: the only slots an apply can leave in
    /// the "restore the setup attachment" state (`StateKernel.apply`).
    let attachmentSlots: UnsafePointer<Int32>
    let attachmentSlotCount: Int
    /// Per animation: `wordsPerAnimation` 64-bit words, bit p set when it keys property p.
    let keyed: UnsafePointer<UInt64>
    let wordsPerAnimation: Int
    private let buffers: FrozenBuffers

    init(_ rig: RigTables, animationCount: Int) {
        self.animationCount = animationCount
        var ids: [Int64: Int32] = [:]
        var start: [Int32] = []
        var length: [UInt8] = []
        var pool: [Int32] = []
        var roles: [Role] = []
        var total = 0
        var maxTimelines = 0
        for a in 0..<animationCount {
            let count = Int(rig.animTimelineCount[a])
            maxTimelines = max(maxTimelines, count)
            total += count
        }
        timelineCount = total
        for t in 0..<total {
            let timeline = rig.timelines[t]
            start.append(Int32(pool.count))
            let keys = Self.propertyKeys(timeline)
            length.append(UInt8(keys.count))
            for key in keys {
                if let id = ids[key] {
                    pool.append(id)
                } else {
                    let id = Int32(ids.count)
                    ids[key] = id
                    pool.append(id)
                }
            }
            roles.append(Self.role(timeline.kind))
        }
        propertyCount = ids.count
        self.maxTimelines = maxTimelines
        let words = max(1, (ids.count + 63) / 64)
        wordsPerAnimation = words
        var bits = [UInt64](repeating: 0, count: max(1, words * animationCount))
        for a in 0..<animationCount {
            let first = Int(rig.animTimelineStart[a])
            for t in first..<(first + Int(rig.animTimelineCount[a])) {
                for k in 0..<Int(length[t]) {
                    let p = Int(pool[Int(start[t]) + k])
                    bits[a * words + p / 64] |= 1 << UInt64(p % 64)
                }
            }
        }
        var eventKeys = 0
        for a in 0..<animationCount {
            var n = 0
            let first = Int(rig.animTimelineStart[a])
            for t in first..<(first + Int(rig.animTimelineCount[a])) where rig.timelines[t].kind == .event {
                n += Int(rig.timelines[t].frameCount)
            }
            eventKeys = max(eventKeys, n)
        }
        maxEventKeys = eventKeys
        var keyedSlots = Set<Int32>()
        for t in 0..<total where rig.timelines[t].kind == .attachment { keyedSlots.insert(rig.timelines[t].target) }
        let slots = keyedSlots.filter { $0 >= 0 && Int($0) < rig.slotCount }.sorted()
        attachmentSlotCount = slots.count
        let b = FrozenBuffers()
        buffers = b
        propertyStart = b.freeze(start)
        propertyLength = b.freeze(length)
        properties = b.freeze(pool)
        self.roles = b.freeze(roles)
        keyed = b.freeze(bits)
        attachmentSlots = b.freeze(slots.isEmpty ? [0] : slots)
    }

    /// Whether animation `animation` (-1 = the empty animation, which keys nothing) keys any
    /// property timeline `timeline` writes.
    @inline(__always)
    func animation(_ animation: Int32, keysAnyOf timeline: Int) -> Bool {
        guard animation >= 0 else { return false }
        let words = keyed + Int(animation) &* wordsPerAnimation
        let first = Int(propertyStart[timeline])
        for k in 0..<Int(propertyLength[timeline]) {
            let p = Int(properties[first &+ k])
            if words[p >> 6] & (1 << UInt64(p & 63)) != 0 { return true }
        }
        return false
    }

    static func role(_ kind: TimelineKind) -> Role {
        switch kind {
        case .rotate: return .rotate
        case .attachment: return .attachment
        case .drawOrder: return .drawOrder
        case .event: return .event
        default: return .plain
        }
    }

    // Property kinds, as bit flags in the high word of a property key (the reference's values).
    private enum P {
        static let rotate: Int64 = 1 << 0
        static let x: Int64 = 1 << 1
        static let y: Int64 = 1 << 2
        static let scaleX: Int64 = 1 << 3
        static let scaleY: Int64 = 1 << 4
        static let shearX: Int64 = 1 << 5
        static let shearY: Int64 = 1 << 6
        static let inherit: Int64 = 1 << 7
        static let rgb: Int64 = 1 << 8
        static let alpha: Int64 = 1 << 9
        static let rgb2: Int64 = 1 << 10
        static let attachment: Int64 = 1 << 11
        static let deform: Int64 = 1 << 12
        static let event: Int64 = 1 << 13
        static let drawOrder: Int64 = 1 << 14
        static let ik: Int64 = 1 << 15
        static let transform: Int64 = 1 << 16
        static let pathPosition: Int64 = 1 << 17
        static let pathSpacing: Int64 = 1 << 18
        static let pathMix: Int64 = 1 << 19
        static let physicsInertia: Int64 = 1 << 20
        static let physicsStrength: Int64 = 1 << 21
        static let physicsDamping: Int64 = 1 << 22
        static let physicsMass: Int64 = 1 << 23
        static let physicsWind: Int64 = 1 << 24
        static let physicsGravity: Int64 = 1 << 25
        static let physicsMix: Int64 = 1 << 26
        static let physicsReset: Int64 = 1 << 27
        static let sequence: Int64 = 1 << 28
    }

    /// The reference's 64-bit property ids of a timeline: the property kind in the high word,
    /// the target (sign-extended, as the reference computes it) in the low word.
    static func propertyKeys(_ t: CompiledTimeline) -> [Int64] {
        let target = Int64(t.target)
        @inline(__always) func id(_ p: Int64, _ low: Int64) -> Int64 { (p << 32) | low }
        let packed = (target << 16 | Int64(t.attachment)) & 0xffff_ffff
        switch t.kind {
        case .rotate: return [id(P.rotate, target)]
        case .translate: return [id(P.x, target), id(P.y, target)]
        case .translateX: return [id(P.x, target)]
        case .translateY: return [id(P.y, target)]
        case .scale: return [id(P.scaleX, target), id(P.scaleY, target)]
        case .scaleX: return [id(P.scaleX, target)]
        case .scaleY: return [id(P.scaleY, target)]
        case .shear: return [id(P.shearX, target), id(P.shearY, target)]
        case .shearX: return [id(P.shearX, target)]
        case .shearY: return [id(P.shearX, target)]  // the reference's id for shearY timelines
        case .inherit: return [id(P.inherit, target)]
        case .rgba: return [id(P.rgb, target), id(P.alpha, target)]
        case .rgb: return [id(P.rgb, target)]
        case .alpha: return [id(P.alpha, target)]
        case .rgba2: return [id(P.rgb, target), id(P.alpha, target), id(P.rgb2, target)]
        case .rgb2: return [id(P.rgb, target), id(P.rgb2, target)]
        case .attachment: return [id(P.attachment, target)]
        case .deform: return [id(P.deform, packed)]
        case .sequence: return [id(P.sequence, packed)]
        case .drawOrder: return [id(P.drawOrder, 0)]
        case .event: return [id(P.event, 0)]
        case .ik: return [id(P.ik, target)]
        case .transform: return [id(P.transform, target)]
        case .pathPosition: return [id(P.pathPosition, target)]
        case .pathSpacing: return [id(P.pathSpacing, target)]
        case .pathMix: return [id(P.pathMix, target)]
        case .physicsInertia: return [id(P.physicsInertia, target)]
        case .physicsStrength: return [id(P.physicsStrength, target)]
        case .physicsDamping: return [id(P.physicsDamping, target)]
        case .physicsMass: return [id(P.physicsMass, target)]
        case .physicsWind: return [id(P.physicsWind, target)]
        case .physicsGravity: return [id(P.physicsGravity, target)]
        case .physicsMix: return [id(P.physicsMix, target)]
        case .physicsReset: return [id(P.physicsReset, 0)]
        }
    }
}
