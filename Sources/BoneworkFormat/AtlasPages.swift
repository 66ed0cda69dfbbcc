import BoneworkImage

extension Atlas {
    /// The path of a page's image: the page name taken relative to the atlas file's directory.
    public func imagePath(ofPage page: Int) -> String {
        let name = pages[page].name
        let utf8 = Array(file.utf8)
        guard let slash = utf8.lastIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) else {
            return name
        }
        // Keep the root slash of a file that sits directly in `/`.
        let directory = String(decoding: utf8[..<(slash == 0 ? 1 : slash)], as: UTF8.self)
        let last = directory.utf8.last
        let needsSlash = last != UInt8(ascii: "/") && last != UInt8(ascii: "\\")
        return needsSlash ? directory + "/" + name : directory + name
    }

    /// Decodes one page's PNG and checks it against the page's `size:` line.
    ///
    /// With `premultiplied` true the result always has premultiplied alpha: a page stored with
    /// straight alpha (`pma: false`) is converted, a `pma: true` page is returned as stored. With
    /// `premultiplied` false the pixels are returned exactly as stored and `pages[page].pma` says
    /// which kind of alpha they carry.
    public func loadPageImage(_ page: Int, premultiplied: Bool) throws -> Image {
        let path = imagePath(ofPage: page)
        let description = pages[page]
        var image: Image
        do {
            image = try PNG.read(file: path)
        } catch let error as PNGError {
            let kind: LoadError.Kind
            switch error.kind {
            case .io: kind = .io
            case .corrupt, .invalidImage: kind = .malformed
            case .limitExceeded: kind = .limitExceeded
            }
            throw LoadError(
                kind, file: path, at: .file, expected: "the PNG image of page `\(description.name)` of \(file)",
                found: error.reason)
        }
        guard image.width == Int(description.width) && image.height == Int(description.height) else {
            throw LoadError(
                .malformed, file: path, at: .file,
                expected:
                    "\(description.width)x\(description.height) pixels, as the `size:` line of page `\(description.name)` in \(file) says",
                found: "\(image.width)x\(image.height) pixels")
        }
        if premultiplied && !description.pma { image.premultiplyAlpha() }
        return image
    }

    /// Decodes every page's PNG, in page order; see `loadPageImage(_:premultiplied:)`.
    public func loadPageImages(premultiplied: Bool) throws -> [Image] {
        try pages.indices.map { try loadPageImage($0, premultiplied: premultiplied) }
    }
}
