import BoneworkFormat
import Foundation

/// Checks that each file named on the command line is in the place it belongs (a skeleton export
/// where a skeleton goes, an atlas after `--atlas`, a `.png` where a PNG is written) before a
/// command reads it, so that a mix-up fails at once with the likely fix instead of as a reader's
/// confused error deep inside the wrong file. Only names are looked at here; the readers look at
/// the bytes (`FileContentKind` words what a misnamed file contains).
enum FileRoles {
    /// What a path's extension says the file is.
    enum Kind: Equatable {
        case skeleton, atlas, image, other

        init(_ path: String) {
            switch (path as NSString).pathExtension.lowercased() {
            case "json", "skel": self = .skeleton
            case "atlas": self = .atlas
            case "png", "jpg", "jpeg", "webp": self = .image
            default: self = .other
            }
        }
    }

    /// Throws a `UsageError` when `skeleton` (named by `skeletonName`: `SKELETON` or `--skeleton`)
    /// and `atlas` (given with `--atlas`) look swapped, or either names the other kind of file.
    static func check(skeleton: String, as skeletonName: String = "SKELETON", atlas: String?) throws {
        let skeletonKind = Kind(skeleton)
        let atlasKind = atlas.map(Kind.init)
        if skeletonKind == .atlas, atlasKind == .skeleton, let atlas {
            throw UsageError(
                "\(skeletonName) \(skeleton) is an atlas and --atlas \(atlas) a skeleton: are they swapped? "
                    + "Give the skeleton as \(skeletonName) and the atlas with --atlas: \(atlas) --atlas \(skeleton)")
        }
        switch skeletonKind {
        case .atlas:
            throw UsageError(
                "\(skeletonName) \(skeleton) is an atlas, expected a skeleton export (.json or .skel); "
                    + "give the atlas with --atlas")
        case .image:
            throw UsageError(
                "\(skeletonName) \(skeleton) is an image, expected a skeleton export (.json or .skel)")
        case .skeleton, .other: break
        }
        guard let atlas, let atlasKind else { return }
        switch atlasKind {
        case .skeleton:
            throw UsageError(
                "--atlas \(atlas) is a skeleton export, expected an atlas (.atlas text); "
                    + "the skeleton goes as \(skeletonName)")
        case .image:
            let beside = (atlas as NSString).deletingPathExtension + ".atlas"
            let hint =
                FileManager.default.fileExists(atPath: beside)
                ? "; try --atlas \(beside)" : "; give the .atlas beside it"
            throw UsageError("--atlas \(atlas) is the atlas's page image, expected the atlas text (.atlas)" + hint)
        case .atlas, .other: break
        }
    }

    /// Throws a `UsageError` unless `path`, given with `option`, names a PNG: Bonework writes PNG
    /// only, and writing PNG bytes under another extension would mislead whoever opens it.
    static func checkPNG(_ path: String, option: String) throws {
        guard (path as NSString).pathExtension.lowercased() != "png" else { return }
        let stem = (path as NSString).pathExtension.isEmpty ? path : (path as NSString).deletingPathExtension
        throw UsageError("\(option) \(path): only PNG is written; name the file \(stem).png")
    }
}

/// A name the user gave (an animation, a skin) that the skeleton does not have: the message names
/// the file, suggests the nearest name and lists those there are.
struct UnknownName: Error, CustomStringConvertible {
    /// `animation` or `skin`.
    let kind: String
    let name: String
    let file: String
    let available: [String]

    /// At most this many names are listed; the rest are counted (`bonework inspect` lists all).
    static let listed = 24

    var description: String {
        var text = "\(file) has no \(kind) `\(name)`"
        if let near = Suggestion.nearest(to: name, among: available) { text += " (did you mean `\(near)`?)" }
        if available.isEmpty { return text + "; it has no \(kind)s" }
        let shown = available.prefix(Self.listed).joined(separator: ", ")
        let more = available.count > Self.listed ? ", and \(available.count - Self.listed) more" : ""
        return text + "; its \(kind)s: \(shown)\(more)"
    }

    /// Throws unless `data` has an animation called `name`.
    static func checkAnimation(_ name: String, in data: SkeletonData) throws {
        guard data.findAnimation(name) == nil else { return }
        throw UnknownName(kind: "animation", name: name, file: data.file, available: data.animations.map(\.name))
    }

    /// Throws unless `data` has a skin called `name`.
    static func checkSkin(_ name: String, in data: SkeletonData) throws {
        guard data.findSkinIndex(name) == nil else { return }
        throw UnknownName(kind: "skin", name: name, file: data.file, available: data.skins.map(\.name))
    }
}
