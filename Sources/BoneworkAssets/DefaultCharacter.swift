import Foundation

/// Bonework's own default character, shipped as a package resource.
public enum DefaultCharacter {
    public static var directory: URL {
        Bundle.module.resourceURL!.appendingPathComponent("DefaultCharacter")
    }
    public static var skeletonPath: String { directory.appendingPathComponent("bonebot.json").path }
    public static var atlasPath: String { directory.appendingPathComponent("bonebot.atlas").path }
}
