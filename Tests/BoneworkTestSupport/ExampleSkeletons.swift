import BoneworkFormat
import Foundation

/// Loads the example exports in `TestPaths.examples` the way an application does: the atlas with
/// `AtlasReader.read(file:)`, then the skeleton with `SkeletonLoader.load(file:atlas:)`. Every
/// call reads the files again; nothing is cached.
public enum ExampleSkeletons {
    /// The atlas at `relative` (such as "spineboy/spineboy.atlas") in the examples folder.
    public static func atlas(_ relative: String) throws -> Atlas {
        try AtlasReader.read(file: TestPaths.example(relative))
    }

    /// The skeleton at `skeleton` in the examples folder, its attachments resolved against the
    /// atlas at `atlas` (read first; nil: no atlas). Both paths are relative to the folder.
    public static func load(_ skeleton: String, atlas: String?) throws -> SkeletonData {
        let pages = try atlas.map { try self.atlas($0) }
        return try SkeletonLoader.load(file: TestPaths.example(skeleton), atlas: pages)
    }

    /// spineboy-pro.skel with its straight-alpha atlas, spineboy.atlas.
    public static func spineboy() throws -> SkeletonData {
        try load("spineboy/spineboy-pro.skel", atlas: "spineboy/spineboy.atlas")
    }

    /// chibi-stickers.json with its straight-alpha atlas, chibi-stickers.atlas.
    public static func chibi() throws -> SkeletonData {
        try load("chibi-stickers/chibi-stickers.json", atlas: "chibi-stickers/chibi-stickers.atlas")
    }
}
