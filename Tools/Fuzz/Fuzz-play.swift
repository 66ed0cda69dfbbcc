import BoneworkFormat
import BoneworkWorld

/// libFuzzer entry that plays what it loads: a skeleton (JSON when the input starts with `{`, else
/// binary) that loads is spawned with each of its skins and a composed one, its animations are
/// played alone and mixed on two tracks, and frames of varied deltas (0, tiny, usual, long, NaN,
/// negative) run through every system on one thread and on two; then every pose is read back
/// (world transforms, attachments, world vertices). Any trap or sanitizer report is a finding;
/// a `WorldError` (such as the memory limit) is an answer, as a `LoadError` is for the readers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let skeleton: SkeletonData
    do {
        if bytes.first == UInt8(ascii: "{") {
            skeleton = try SkeletonJSONReader.read(bytes: bytes, file: "fuzz.json", atlas: nil)
        } else {
            skeleton = try SkeletonBinaryReader.read(bytes: bytes, file: "fuzz.skel", atlas: nil)
        }
    } catch is LoadError {
        return 0
    } catch {
        fatalError("untyped load error: \(error)")
    }
    for threads in [1, 2] {
        do {
            try play(skeleton, threads: threads)
        } catch is WorldError {
            // Refused (e.g. past the memory limit): an answer, not a finding.
        } catch is AnimationStateError {
        } catch {
            fatalError("untyped world error: \(error)")
        }
    }
    return 0
}

/// At most this many skins and animations of one input are played (keeps an input under a second).
let playedSkins = 6
let playedAnimations = 6
let deltas: [Float] = [0, 1e-6, 1.0 / 60, 0.5, 3, -0.02, .nan, 1.0 / 30]

func play(_ data: SkeletonData, threads: Int) throws {
    let world = World(scheduler: Scheduler(capacity: 16, threads: threads), memoryLimit: 64 << 20)
    var entities = [try world.spawn(data)]
    for skin in data.skins.prefix(playedSkins) { entities.append(try world.spawn(data, skin: skin.name)) }
    if data.skins.count >= 2 {
        let parts = [data.skins[data.skins.count - 1].name, data.skins[0].name, data.skins[1].name]
        let composed = try world.spawn(data)
        try world.setSkin(composed, parts: parts)
        entities.append(composed)
    }
    let animations = data.animations.prefix(playedAnimations).map(\.name)
    for (i, name) in animations.enumerated() {
        let e = entities[i % entities.count]
        try world.setAnimation(e, track: 0, name, loop: i % 2 == 0)
        // Mixed into another on a second track.
        try world.setAnimation(e, track: 1, animations[(i + 1) % animations.count], loop: true)
    }
    for delta in deltas {
        world.update(delta)
        for e in entities { _ = try world.pose(e) }
    }
    // Entries replaced mid-mix, then cleared.
    if let first = animations.first {
        for e in entities { try world.setAnimation(e, track: 0, first, loop: false) }
        world.update(1.0 / 60)
    }
    for e in entities.prefix(2) { try world.clearTrack(e, track: 0) }
    world.update(1.0 / 60)
    try world.despawn(entities[0])
    world.update(1.0 / 60)
    for e in entities.dropFirst() { _ = try world.pose(e) }
}
