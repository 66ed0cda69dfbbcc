import BoneworkImage

/// Where one part landed on the page (pixels, y down from the top-left corner).
struct PackedRegion {
    var part: Part
    var x: Int
    var y: Int
}

/// Packs parts into a single page with a shelf packer and writes the 4.x `.atlas` text.
struct AtlasPage {
    var width: Int
    var height: Int
    var regions: [PackedRegion]

    /// Tries the page sizes in order and keeps the first one everything fits on. Parts go tallest
    /// first (ties by name) onto left-to-right shelves, `padding` pixels apart.
    static func pack(_ parts: [Part], sizes: [(Int, Int)], padding: Int = 2) -> AtlasPage? {
        let ordered = parts.sorted {
            $0.height != $1.height ? $0.height > $1.height : $0.name < $1.name
        }
        for (width, height) in sizes {
            var regions: [PackedRegion] = []
            var x = padding
            var y = padding
            var shelfHeight = 0
            var fits = true
            for part in ordered {
                if x + part.width + padding > width {
                    x = padding
                    y += shelfHeight + padding
                    shelfHeight = 0
                }
                if x + part.width + padding > width || y + part.height + padding > height {
                    fits = false
                    break
                }
                regions.append(PackedRegion(part: part, x: x, y: y))
                x += part.width + padding
                shelfHeight = max(shelfHeight, part.height)
            }
            if fits { return AtlasPage(width: width, height: height, regions: regions) }
        }
        return nil
    }

    func region(_ name: String) -> PackedRegion? { regions.first { $0.part.name == name } }

    /// The page image: every part copied to its place.
    func image() -> Image {
        var page = Image(width: width, height: height)
        for region in regions {
            let source = region.part.image
            for row in 0..<source.height {
                let from = row * source.width * 4
                let to = ((region.y + row) * width + region.x) * 4
                page.pixels.replaceSubrange(
                    to..<(to + source.width * 4), with: source.pixels[from..<(from + source.width * 4)])
            }
        }
        return page
    }

    /// The `.atlas` text: the page header, then regions sorted by name.
    func atlasText(pageFile: String) -> String {
        var lines = [pageFile, "\tsize: \(width), \(height)", "\tfilter: Linear, Linear", "\tpma: false"]
        for region in regions.sorted(by: { $0.part.name < $1.part.name }) {
            lines.append(region.part.name)
            lines.append("\tbounds: \(region.x), \(region.y), \(region.part.width), \(region.part.height)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
