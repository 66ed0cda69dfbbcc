/// Resolves region and mesh attachments (and every frame of their sequences) against an atlas:
/// the region attachment's vertex offsets and texture coordinates, and the mesh's texture
/// coordinates, computed once at load exactly as the reference's updateRegion does.
enum AttachmentImageResolver {
    static func resolve(builder b: SkeletonDataBuilder, atlas: Atlas?) throws -> ([AttachmentFrame], [Float]) {
        var frames: [AttachmentFrame] = []
        var uvs: [Float] = []
        for (index, attachment) in b.attachments.enumerated() {
            guard attachment.kind == .region || attachment.kind == .mesh else { continue }
            let count = max(1, Int(attachment.sequence?.count ?? 1))
            for frame in 0..<count {
                let path = attachment.sequence.map { $0.path(base: attachment.path, frame: frame) } ?? attachment.path
                var region: AtlasRegion?
                var result = AttachmentFrame()
                if let atlas {
                    guard let regionIndex = atlas.regionIndex(named: path) else {
                        throw LoadError(
                            .unknownName, file: b.file, at: b.attachmentLocations[index],
                            expected: "atlas region '\(path)' for attachment '\(attachment.name)' in \(atlas.file)",
                            found: "no such region")
                    }
                    region = atlas.regions[Int(regionIndex)]
                    result.region = regionIndex
                    result.page = region!.page
                }
                if attachment.kind == .region {
                    (result.offsets, result.uvs) = regionGeometry(attachment, region)
                } else {
                    result.meshUVStart = Int32(uvs.count)
                    uvs.append(contentsOf: meshUVs(attachment, region))
                }
                frames.append(result)
            }
        }
        return (frames, uvs)
    }

    /// Corner order BL, UL, UR, BR (x, y each), as the reference stores them.
    static func regionGeometry(_ a: AttachmentData, _ region: AtlasRegion?) -> (SIMD8<Float>, SIMD8<Float>) {
        // Without an atlas the image is taken to fill the attachment exactly.
        let regionWidth = region.map { Float($0.width) } ?? a.width
        let regionHeight = region.map { Float($0.height) } ?? a.height
        let originalWidth = region?.originalWidth ?? a.width
        let originalHeight = region?.originalHeight ?? a.height
        let offsetX = region?.offsetX ?? 0
        let offsetY = region?.offsetY ?? 0
        let regionScaleX = a.width / originalWidth * a.scaleX
        let regionScaleY = a.height / originalHeight * a.scaleY
        let localX = -a.width / 2 * a.scaleX + offsetX * regionScaleX
        let localY = -a.height / 2 * a.scaleY + offsetY * regionScaleY
        let localX2 = localX + regionWidth * regionScaleX
        let localY2 = localY + regionHeight * regionScaleY
        let cos = SpineMath.cosDeg(a.rotation)
        let sin = SpineMath.sinDeg(a.rotation)
        let localXCos = localX * cos + a.x
        let localXSin = localX * sin
        let localYCos = localY * cos + a.y
        let localYSin = localY * sin
        let localX2Cos = localX2 * cos + a.x
        let localX2Sin = localX2 * sin
        let localY2Cos = localY2 * cos + a.y
        let localY2Sin = localY2 * sin
        let offsets = SIMD8<Float>(
            localXCos - localYSin, localYCos + localXSin,  // BL
            localXCos - localY2Sin, localY2Cos + localXSin,  // UL
            localX2Cos - localY2Sin, localY2Cos + localX2Sin,  // UR
            localX2Cos - localYSin, localYCos + localX2Sin)  // BR
        guard let r = region else { return (offsets, SIMD8(0, 0, 0, 1, 1, 1, 1, 0)) }
        let uvs: SIMD8<Float>
        if r.degrees == 90 {
            uvs = SIMD8(r.u2, r.v, r.u2, r.v2, r.u, r.v2, r.u, r.v)
        } else {
            uvs = SIMD8(r.u2, r.v2, r.u, r.v2, r.u, r.v, r.u2, r.v)
        }
        return (offsets, uvs)
    }

    static func meshUVs(_ a: AttachmentData, _ region: AtlasRegion?) -> [Float] {
        let source = a.regionUVs
        var uvs = [Float](repeating: 0, count: source.count)
        guard let r = region else { return source }
        var u = r.u
        var v = r.v
        let width = Float(r.width)
        let height = Float(r.height)
        var i = 0
        switch r.degrees {
        case 90:
            let textureWidth = height / (r.u2 - r.u)
            let textureHeight = width / (r.v2 - r.v)
            u -= (r.originalHeight - r.offsetY - height) / textureWidth
            v -= (r.originalWidth - r.offsetX - width) / textureHeight
            let w = r.originalHeight / textureWidth
            let h = r.originalWidth / textureHeight
            while i < source.count {
                uvs[i] = u + source[i + 1] * w
                uvs[i + 1] = v + (1 - source[i]) * h
                i += 2
            }
        case 180:
            let textureWidth = width / (r.u2 - r.u)
            let textureHeight = height / (r.v2 - r.v)
            u -= (r.originalWidth - r.offsetX - width) / textureWidth
            v -= r.offsetY / textureHeight
            let w = r.originalWidth / textureWidth
            let h = r.originalHeight / textureHeight
            while i < source.count {
                uvs[i] = u + (1 - source[i]) * w
                uvs[i + 1] = v + (1 - source[i + 1]) * h
                i += 2
            }
        case 270:
            let textureHeight = height / (r.v2 - r.v)
            let textureWidth = width / (r.u2 - r.u)
            u -= r.offsetY / textureWidth
            v -= r.offsetX / textureHeight
            let w = r.originalHeight / textureWidth
            let h = r.originalWidth / textureHeight
            while i < source.count {
                uvs[i] = u + (1 - source[i + 1]) * w
                uvs[i + 1] = v + source[i] * h
                i += 2
            }
        default:
            let textureWidth = width / (r.u2 - r.u)
            let textureHeight = height / (r.v2 - r.v)
            u -= r.offsetX / textureWidth
            v -= (r.originalHeight - r.offsetY - height) / textureHeight
            let w = r.originalWidth / textureWidth
            let h = r.originalHeight / textureHeight
            while i < source.count {
                uvs[i] = u + source[i] * w
                uvs[i + 1] = v + source[i + 1] * h
                i += 2
            }
        }
        return uvs
    }
}
