import BoneworkImage
import Foundation

// Generates Bonework's default character "bonebot": draws its parts, packs them into one atlas
// page and writes bonebot.png, bonebot.atlas and bonebot.json into the given directory.
// Usage: make-default-character <output directory>
// The output depends only on this program: running it again gives the same bytes.

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: make-default-character <output directory>\n".utf8))
    exit(2)
}
let outputDirectory = arguments[1]
let baseName = "bonebot"

let teams = [TeamColors.blue, TeamColors.orange]
let parts = Art.parts(teams: teams)
guard let page = AtlasPage.pack(parts, sizes: [(256, 256), (512, 256), (512, 512), (1024, 512)]) else {
    FileHandle.standardError.write(Data("make-default-character: the parts do not fit on one page\n".utf8))
    exit(1)
}
let rig = Rig(parts: parts, teams: teams)
let skeleton = SkeletonDocument.text(rig: rig, animations: Choreography.all(), boundsSkins: ["default", teams[0].name])

do {
    try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
    let directory = URL(fileURLWithPath: outputDirectory)
    try PNG.write(page.image(), to: directory.appendingPathComponent("\(baseName).png").path)
    try Data(page.atlasText(pageFile: "\(baseName).png").utf8).write(
        to: directory.appendingPathComponent("\(baseName).atlas"))
    try Data(skeleton.utf8).write(to: directory.appendingPathComponent("\(baseName).json"))
    print(
        "make-default-character: wrote \(baseName).png (\(page.width)x\(page.height), \(page.regions.count) regions), "
            + "\(baseName).atlas and \(baseName).json to \(outputDirectory)")
} catch {
    FileHandle.standardError.write(Data("make-default-character: \(error)\n".utf8))
    exit(1)
}
