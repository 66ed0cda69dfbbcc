// HelloBonework: what a game prototype does with Bonework, with `import Bonework` alone.
//   swift run HelloBonework [SPINE_EXAMPLES_DIR] [OUT.png]
// Loads spineboy and plays walk then run, printing the animation state's events; dresses the
// mix-and-match character in an outfit composed from parts; renders both headless into one PNG.
import Bonework
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let examples = arguments.count > 0 ? arguments[0] : "../../../shared/spine-examples"
let output = arguments.count > 1 ? arguments[1] : "hello.png"

do {
    // 1. Load once: the pool shares one immutable SkeletonData however many instances use it.
    let spineboy = try await SkeletonDrawable.load(
        .file(atlas: "\(examples)/spineboy/spineboy-pma.atlas", skeleton: "\(examples)/spineboy/spineboy-pro.skel"))
    print("loaded \(spineboy.skeletonData.file): \(spineboy.skeletonData.bones.count) bones")

    // 2. Play: walk, then run after it, mixed over 0.2 s; listen to what the state reports.
    try spineboy.animationStateData.setDefaultMix(0.2)
    let state = try spineboy.animationState
    var heard: [String] = []
    try state.setListener { type, entry, event in
        let animation = entry.name ?? "?"
        heard.append(event.map { "\(type) \(animation) \($0.name)" } ?? "\(type) \(animation)")
    }
    try state.setAnimation(0, "walk", loop: false)
    try state.addAnimation(0, "run", loop: true, delay: 0)
    for _ in 0..<90 { try spineboy.update(delta: 1.0 / 60) }
    for line in heard { print("event: \(line)") }
    guard heard.contains(where: { $0.contains("footstep") }) else { throw HelloError("no footstep event heard") }

    // 3. Compose a skin: a base body plus clothing parts, worn as one outfit.
    let girl = try await SkeletonDrawable.load(
        .file(
            atlas: "\(examples)/mix-and-match/mix-and-match-pma.atlas",
            skeleton: "\(examples)/mix-and-match/mix-and-match-pro.skel"))
    let outfit = Skin(name: "outfit", for: girl.skeletonData)
    for part in [
        "skin-base", "eyes/violet", "hair/brown", "clothes/hoodie-orange", "legs/pants-jeans", "legs/boots-red",
    ] {
        try outfit.addSkin(part)
    }
    try girl.skeleton.setSkin(outfit)
    try girl.skeleton.setSlotsToSetupPose()
    try girl.animationState.setAnimation(0, "dance", loop: true)
    try girl.update(delta: 0.5)
    print("outfit: \(outfit.name) from 6 parts")

    // 4. Render headless (no window, no display needed) and write one PNG with both side by side.
    let size = Size(width: 256, height: 256)
    let left = try spineboy.renderToImage(size: size, backgroundColor: Color(0.2, 0.2, 0.25, 1))
    let right = try girl.renderToImage(size: size, backgroundColor: Color(0.2, 0.2, 0.25, 1))
    var both = Image(width: left.width + right.width, height: left.height)
    for y in 0..<left.height {
        for (image, x0) in [(left.image, 0), (right.image, left.width)] {
            let from = y * image.width * 4
            let to = (y * both.width + x0) * 4
            both.pixels.replaceSubrange(
                to..<(to + image.width * 4), with: image.pixels[from..<(from + image.width * 4)])
        }
    }
    try PNG.write(both, to: output)
    print("wrote \(output) (\(both.width)x\(both.height))")
} catch {
    FileHandle.standardError.write(Data("HelloBonework: \(error)\n".utf8))
    exit(1)
}

struct HelloError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
