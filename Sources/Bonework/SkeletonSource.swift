import BoneworkAssets
import BoneworkFormat
import BoneworkRender
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a skeleton and its atlas come from.
public enum SkeletonSource {
    /// Files on disk; the atlas's page images lie beside it.
    case file(atlas: String, skeleton: String)
    /// Resources of a bundle (e.g. a package's `Bundle.module`), searched at the top level and
    /// one folder down.
    case bundle(atlasFileName: String, skeletonFileName: String, bundle: Bundle = .main)
    /// Downloaded over HTTP(S): the atlas, the skeleton, and every page image named in the atlas
    /// (fetched from beside the atlas URL).
    case http(atlasURL: URL, skeletonURL: URL)
    /// An existing drawable (its atlas and skeleton data are shared).
    case drawable(SkeletonDrawable)
    /// Bonework's own character (see `DefaultCharacter`).
    case defaultCharacter
}

/// An atlas and the skeleton data loaded with it: immutable, shared by every drawable made from
/// the same files (through `SkeletonDataPool.shared`).
public final class SkeletonAssets: @unchecked Sendable {
    /// The atlas (pages and regions; textures are uploaded per GL context).
    public let atlas: Atlas
    /// The immutable skeleton data.
    public let skeletonData: SkeletonData
    /// The draw tables the renderer walks (built once per skeleton data).
    public let drawData: SkeletonDrawData

    /// Assets from data already loaded; builds the draw tables once.
    public init(skeletonData: SkeletonData, atlas: Atlas) {
        self.skeletonData = skeletonData
        self.atlas = atlas
        drawData = SkeletonDrawData(skeletonData)
    }

    private static let cache = Mutex<[ObjectIdentifier: SkeletonAssets]>([:])

    /// The shared assets of loaded skeleton data (one `SkeletonAssets` per `SkeletonData`).
    public static func shared(_ data: SkeletonData) throws -> SkeletonAssets {
        guard let atlas = data.atlas else {
            throw BoneworkError.invalidArgument("\(data.file) was loaded without an atlas")
        }
        return cache.withLock { table in
            if let hit = table[ObjectIdentifier(data)], hit.skeletonData === data { return hit }
            let assets = SkeletonAssets(skeletonData: data, atlas: atlas)
            table[ObjectIdentifier(data)] = assets
            return assets
        }
    }

    /// Loads (or finds in the pool) the files of a source. Files and bundles load on the calling
    /// task; `.http` downloads first.
    public static func load(_ source: SkeletonSource) async throws -> SkeletonAssets {
        switch source {
        case .file(let atlas, let skeleton):
            return try shared(SkeletonDataPool.shared.load(skeleton: skeleton, atlas: atlas))
        case .bundle(let atlasName, let skeletonName, let bundle):
            let atlas = try resource(atlasName, in: bundle)
            let skeleton = try resource(skeletonName, in: bundle)
            return try shared(SkeletonDataPool.shared.load(skeleton: skeleton, atlas: atlas))
        case .http(let atlasURL, let skeletonURL):
            let folder = try await HTTPDownload.fetch(atlasURL: atlasURL, skeletonURL: skeletonURL)
            return try shared(
                SkeletonDataPool.shared.load(
                    skeleton: folder.appendingPathComponent(skeletonURL.lastPathComponent).path,
                    atlas: folder.appendingPathComponent(atlasURL.lastPathComponent).path))
        case .drawable(let drawable):
            return drawable.assets
        case .defaultCharacter:
            return try shared(
                SkeletonDataPool.shared.load(
                    skeleton: DefaultCharacter.skeletonPath, atlas: DefaultCharacter.atlasPath))
        }
    }

    static func resource(_ name: String, in bundle: Bundle) throws -> String {
        let fm = FileManager.default
        guard let root = bundle.resourceURL else { throw BoneworkError.resourceNotFound(name) }
        let direct = root.appendingPathComponent(name)
        if fm.fileExists(atPath: direct.path) { return direct.path }
        let children = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
        for child in children.sorted() {
            let candidate = root.appendingPathComponent(child).appendingPathComponent(name)
            if fm.fileExists(atPath: candidate.path) { return candidate.path }
        }
        throw BoneworkError.resourceNotFound(name)
    }
}

/// Downloads a skeleton, its atlas and the atlas's page images into a cache folder.
enum HTTPDownload {
    /// Fetches one URL; non-200 statuses and bodies shorter than their Content-Length throw.
    static func get(_ url: URL) async throws -> Data {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = 20
        let session = URLSession(configuration: config)
        defer { session.finishTasksAndInvalidate() }
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: url) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                task.resume()
            }
        } catch {
            // A body cut short before its Content-Length surfaces as a lost connection.
            let ns = error as NSError
            let message = ns.localizedDescription
            if (ns.domain == NSURLErrorDomain && ns.code == NSURLErrorNetworkConnectionLost)
                || message.contains("remaining to read")
            {
                throw BoneworkError.truncated(url: url.absoluteString, expected: -1, received: -1)
            }
            throw BoneworkError.network(url: url.absoluteString, message: message)
        }
        guard let http = response as? HTTPURLResponse else {
            throw BoneworkError.network(url: url.absoluteString, message: "not an HTTP response")
        }
        guard http.statusCode == 200 else {
            throw BoneworkError.httpStatus(url: url.absoluteString, status: http.statusCode)
        }
        if let lengthText = http.value(forHTTPHeaderField: "Content-Length"), let length = Int(lengthText),
            length != data.count
        {
            throw BoneworkError.truncated(url: url.absoluteString, expected: length, received: data.count)
        }
        return data
    }

    static func fetch(atlasURL: URL, skeletonURL: URL) async throws -> URL {
        let atlasData = try await get(atlasURL)
        let skeletonData = try await get(skeletonURL)
        let key = String(
            UInt64(
                bitPattern: Int64(truncatingIfNeeded: (atlasURL.absoluteString + skeletonURL.absoluteString).hashValue)),
            radix: 16)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bonework-http-\(getpid())-\(key)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let atlasFile = folder.appendingPathComponent(atlasURL.lastPathComponent)
        try atlasData.write(to: atlasFile)
        try skeletonData.write(to: folder.appendingPathComponent(skeletonURL.lastPathComponent))
        // The page images named in the atlas, fetched from beside it.
        let atlas = try AtlasReader.read(bytes: [UInt8](atlasData), file: atlasFile.path)
        let base = atlasURL.deletingLastPathComponent()
        for page in atlas.pages {
            guard !page.name.contains(".."), !page.name.hasPrefix("/") else {
                throw BoneworkError.invalidArgument("atlas page name '\(page.name)' leaves the atlas folder")
            }
            let pageData = try await get(base.appendingPathComponent(page.name))
            let target = folder.appendingPathComponent(page.name)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try pageData.write(to: target)
        }
        return folder
    }
}
