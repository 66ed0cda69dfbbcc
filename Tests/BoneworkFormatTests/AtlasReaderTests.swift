import BoneworkFormat
import BoneworkImage
import BoneworkProfiling
import BoneworkTestSupport
import Foundation
import Testing

private func exampleAtlas(_ relativePath: String) throws -> Atlas {
    try AtlasReader.read(file: TestPaths.example(relativePath))
}

private func parseAtlas(_ text: String, file: String = "synthetic.atlas") throws -> Atlas {
    try AtlasReader.read(bytes: Array(text.utf8), file: file)
}

private func region(_ atlas: Atlas, _ name: String) throws -> AtlasRegion {
    let index = try #require(atlas.regionIndex(named: name), "no region \(name)")
    return atlas.regions[Int(index)]
}

/// Page and region counts of every example atlas, counted from the files' `size:` and `bounds:` lines.
private let exampleAtlasCounts: [String: (pages: Int, regions: Int)] = [
    "alien/alien-pma.atlas": (1, 27), "alien/alien.atlas": (1, 27),
    "celestial-circus/celestial-circus-pma.atlas": (1, 67), "celestial-circus/celestial-circus.atlas": (1, 67),
    "chibi-stickers/chibi-stickers-pma.atlas": (10, 164), "chibi-stickers/chibi-stickers.atlas": (10, 164),
    "cloud-pot/cloud-pot-pma.atlas": (1, 35), "cloud-pot/cloud-pot.atlas": (1, 35),
    "coin/coin-pma.atlas": (1, 7), "coin/coin.atlas": (1, 7),
    "dragon/dragon-pma.atlas": (5, 40), "dragon/dragon.atlas": (5, 40),
    "goblins/goblins-pma.atlas": (1, 41), "goblins/goblins.atlas": (1, 41),
    "hero/hero-pma.atlas": (1, 24), "hero/hero.atlas": (1, 24),
    "mix-and-match/mix-and-match-pma.atlas": (1, 148), "mix-and-match/mix-and-match.atlas": (1, 148),
    "owl/owl-pma.atlas": (1, 27), "owl/owl.atlas": (1, 27),
    "powerup/powerup-pma.atlas": (1, 3), "powerup/powerup.atlas": (1, 3),
    "raptor/raptor-pma.atlas": (1, 38), "raptor/raptor.atlas": (1, 38),
    "sack/sack-pma.atlas": (1, 3), "sack/sack.atlas": (1, 3),
    "snowglobe/snowglobe-pma.atlas": (5, 77), "snowglobe/snowglobe.atlas": (5, 77),
    "speedy/speedy-pma.atlas": (1, 27), "speedy/speedy.atlas": (1, 27),
    "spineboy/spineboy-pma.atlas": (1, 40), "spineboy/spineboy-run.atlas": (1, 10),
    "spineboy/spineboy.atlas": (1, 40),
    "spinosaurus/spinosaurus-synthetic.atlas": (5, 5),
    "stretchyman/stretchyman-pma.atlas": (1, 5), "stretchyman/stretchyman.atlas": (1, 5),
    "tank/tank-pma.atlas": (1, 24), "tank/tank.atlas": (1, 24),
    "vine/vine-pma.atlas": (1, 1), "vine/vine.atlas": (1, 1),
    "windmill/windmill-pma.atlas": (1, 26), "windmill/windmill.atlas": (1, 26),
]

private func exampleAtlasPaths() throws -> [String] {
    var isDirectory: ObjCBool = false
    #expect(
        FileManager.default.fileExists(atPath: TestPaths.examples.path, isDirectory: &isDirectory)
            && isDirectory.boolValue, "missing example folder \(TestPaths.examples.path)")
    let all = try FileManager.default.subpathsOfDirectory(atPath: TestPaths.examples.path)
    return all.filter { $0.hasSuffix(".atlas") }.sorted()
}

@Suite struct AtlasReaderExampleTests {
    @Test func everyExampleAtlasParses() throws {
        let paths = try exampleAtlasPaths()
        #expect(Set(paths) == Set(exampleAtlasCounts.keys), "example atlases differ from the expected list")
        for path in paths {
            let atlas = try exampleAtlas(path)
            let expected = try #require(exampleAtlasCounts[path])
            #expect(atlas.pages.count == expected.pages, "\(path) pages")
            #expect(atlas.regions.count == expected.regions, "\(path) regions")
            let text = try String(contentsOfFile: TestPaths.examples.path + "/" + path, encoding: .utf8)
            #expect(atlas.pages.allSatisfy { $0.pma == text.contains("pma: true") }, "\(path) pma")
            #expect(atlas.pages.contains { $0.pma } == path.hasSuffix("-pma.atlas") || path.contains("-run"))
            for (i, page) in atlas.pages.enumerated() {
                #expect(page.width > 0 && page.height > 0)
                #expect(FileManager.default.fileExists(atPath: atlas.imagePath(ofPage: i)), "\(path) page \(page.name)")
            }
            for r in atlas.regions {
                // Every example region lies inside its page.
                #expect(r.u >= 0 && r.v >= 0 && r.u2 <= 1 && r.v2 <= 1 && r.u < r.u2 && r.v < r.v2, "\(path) \(r.name)")
                #expect(r.degrees == 0 || r.degrees == 90, "\(path) \(r.name)")
                #expect(r.originalWidth >= Float(r.width) && r.originalHeight >= Float(r.height), "\(path) \(r.name)")
            }
        }
    }

    @Test func spineboyRotatedRegion() throws {
        let atlas = try exampleAtlas("spineboy/spineboy.atlas")
        let page = try #require(atlas.pages.first)
        #expect(page.name == "spineboy.png")
        #expect(page.width == 1024 && page.height == 256)
        #expect(page.minFilter == .linear && page.magFilter == .linear)
        #expect(page.scale == 0.5)
        #expect(!page.pma)
        // front-fist-open: bounds 710, 51, 43, 44; rotate: 90.
        let fist = try region(atlas, "front-fist-open")
        #expect(fist.x == 710 && fist.y == 51 && fist.width == 43 && fist.height == 44)
        #expect(fist.degrees == 90)
        #expect(fist.u == Float(710) / 1024 && fist.v == Float(51) / 256)
        #expect(fist.u2 == Float(710 + 44) / 1024 && fist.v2 == Float(51 + 43) / 256)
        #expect(fist.originalWidth == 43 && fist.originalHeight == 44)
        #expect(fist.index == -1)
        // crosshair: bounds 352, 7, 45, 45, not rotated.
        let crosshair = try region(atlas, "crosshair")
        #expect(crosshair.degrees == 0)
        #expect(crosshair.u2 == Float(352 + 45) / 1024 && crosshair.v2 == Float(7 + 45) / 256)
    }

    @Test func spineboyRunSequenceIndices() throws {
        let atlas = try exampleAtlas("spineboy/spineboy-run.atlas")
        #expect(atlas.pages[0].pma)
        #expect(atlas.pages[0].width == 1177 && atlas.pages[0].height == 685)
        // Lines 5-17: index 8, 9, then index 0 with bounds 306, 438, 245, 320, offsets 67, 1, 316, 341, rotate 90.
        #expect(atlas.regions.prefix(3).map(\.index) == [8, 9, 0])
        #expect(atlas.regions.allSatisfy { $0.name == "spineboy-pro-run" })
        #expect(Set(atlas.regions.map(\.index)) == Set(0..<10))
        let frame0 = atlas.regions[2]
        #expect(frame0.degrees == 90)
        #expect(frame0.offsetX == 67 && frame0.offsetY == 1)
        #expect(frame0.originalWidth == 316 && frame0.originalHeight == 341)
        #expect(frame0.u == Float(306) / 1177 && frame0.v == Float(438) / 685)
        #expect(frame0.u2 == Float(306 + 320) / 1177 && frame0.v2 == Float(438 + 245) / 685)
        // The first region found by name is the first in the file (index 8).
        #expect(atlas.regionIndex(named: "spineboy-pro-run") == 0)
    }

    @Test func multiPageAtlases() throws {
        let dragon = try exampleAtlas("dragon/dragon.atlas")
        #expect(
            dragon.pages.map(\.name) == ["dragon.png", "dragon_2.png", "dragon_3.png", "dragon_4.png", "dragon_5.png"])
        // dragon_3.png starts with `chest`, bounds 740, 299, 136, 122.
        let chest = try region(dragon, "chest")
        #expect(chest.page == 2)
        #expect(chest.u == Float(740) / 1024 && chest.v2 == Float(299 + 122) / 1024)
        #expect(try region(dragon, "left-wing09").page == 4)

        // No indentation at all in this file.
        let synthetic = try exampleAtlas("spinosaurus/spinosaurus-synthetic.atlas")
        #expect(synthetic.pages.map(\.name) == ["leaves.png", "logo.png", "play.png", "quit.png", "settings.png"])
        #expect(synthetic.regions.map(\.name) == ["leaves", "logo", "play", "quit", "settings"])
        #expect(synthetic.regions.map(\.page) == [0, 1, 2, 3, 4])
        let logo = try region(synthetic, "logo")
        #expect(logo.u == 0 && logo.v == 0 && logo.u2 == 1 && logo.v2 == 1)
        #expect(synthetic.pages[1].width == 917 && synthetic.pages[1].height == 323)
    }

    @Test func imagePathsFollowTheAtlasDirectory() throws {
        let atlas = try parseAtlas("a.png\nsize: 1, 1\n\nb.png\nsize: 1, 1\n", file: "/data/x/y.atlas")
        #expect(atlas.imagePath(ofPage: 0) == "/data/x/a.png")
        #expect(try parseAtlas("a.png\nsize: 1, 1\n", file: "y.atlas").imagePath(ofPage: 0) == "a.png")
        #expect(try parseAtlas("a.png\nsize: 1, 1\n", file: "/y.atlas").imagePath(ofPage: 0) == "/a.png")
        #expect(try parseAtlas("a.png\nsize: 1, 1\n", file: "d\\y.atlas").imagePath(ofPage: 0) == "d/a.png")
    }

    @Test func missingAtlasFileIsAnIOError() {
        #expect {
            try AtlasReader.read(file: TestPaths.examples.path + "/no-such.atlas")
        } throws: { error in
            (error as? LoadError)?.kind == .io
        }
    }
}

private let everyFieldAtlas = """
    generator: 1, 2

    first.png
    \tsize: 640, 480
    \tformat: RGBA4444
    \tfilter: MipMapLinearLinear, Nearest
    \trepeat: xy
    \tpma: true
    \tscale: 0.75
    \tnewer-field: whatever
    plain
    \tbounds: 10, 20, 30, 40
    quarter
    \tbounds: 100, 50, 30, 40
    \toffsets: 1, 2, 33, 44
    \trotate: 90
    angled
    \tbounds: 200, 60, 30, 40
    \trotate: 45
    negative
    \tbounds:200,60,30,40
    \trotate: -30
    ninepatch
    \tindex: 3
    \tbounds: 0, 0, 64, 32
    \tsplit: 4, 5, 6, 7
    \tpad: 1, 2, 3, 4
    \tcustom: 1, -2, 3, 4, 5
    \tsingle: 9
    legacy
    \trotate: true
    \txy: 300, 310
    \tsize: 20, 10
    \torig: 24, 12
    \toffset: 2, 1
    \tindex: -1
    unrotated
    \tbounds: 1, 1, 1, 1
    \trotate: false

    second.png
    \tsize: 256, 128
    \trepeat: x
    lonely
    \tbounds: 128, 64, 128, 64

    third.png
    \tsize: 8, 8
    \trepeat: y
    \tfilter: Linear, MipMap
    \tpma: false
    """

@Suite struct AtlasReaderSyntheticTests {
    @Test func everyField() throws {
        let atlas = try parseAtlas(everyFieldAtlas)
        #expect(atlas.pages.count == 3)
        #expect(
            atlas.regions.map(\.name) == [
                "plain", "quarter", "angled", "negative", "ninepatch", "legacy", "unrotated", "lonely",
            ])

        let first = atlas.pages[0]
        #expect(first.name == "first.png")
        #expect(first.width == 640 && first.height == 480)
        #expect(first.format == "RGBA4444")
        #expect(first.minFilter == .mipMapLinearLinear && first.magFilter == .nearest)
        #expect(first.uWrap == .repeat && first.vWrap == .repeat)
        #expect(first.pma && first.scale == 0.75)

        let second = atlas.pages[1]
        #expect(second.format == "RGBA8888" && second.minFilter == .nearest && second.magFilter == .nearest)
        #expect(second.uWrap == .repeat && second.vWrap == .clampToEdge)
        #expect(!second.pma && second.scale == 1)
        let third = atlas.pages[2]
        #expect(third.uWrap == .clampToEdge && third.vWrap == .repeat)
        #expect(third.minFilter == .linear && third.magFilter == .mipMap)

        let plain = try region(atlas, "plain")
        #expect(plain.page == 0 && plain.index == -1 && plain.degrees == 0)
        #expect((plain.x, plain.y, plain.width, plain.height) == (10, 20, 30, 40))
        #expect(plain.u == Float(10) / 640 && plain.v == Float(20) / 480)
        #expect(plain.u2 == Float(40) / 640 && plain.v2 == Float(60) / 480)
        #expect(plain.offsetX == 0 && plain.offsetY == 0)
        #expect(plain.originalWidth == 30 && plain.originalHeight == 40)
        #expect(plain.splits == nil && plain.pads == nil && plain.values.isEmpty)

        // 90 degrees: the packed footprint is height x width.
        let quarter = try region(atlas, "quarter")
        #expect(quarter.degrees == 90)
        #expect(quarter.u == Float(100) / 640 && quarter.v == Float(50) / 480)
        #expect(quarter.u2 == Float(140) / 640 && quarter.v2 == Float(80) / 480)
        #expect(quarter.offsetX == 1 && quarter.offsetY == 2)
        #expect(quarter.originalWidth == 33 && quarter.originalHeight == 44)

        // Any other angle keeps the unrotated footprint for u2/v2.
        let angled = try region(atlas, "angled")
        #expect(angled.degrees == 45)
        #expect(angled.u2 == Float(230) / 640 && angled.v2 == Float(100) / 480)
        let negative = try region(atlas, "negative")
        #expect(negative.degrees == -30 && negative.x == 200 && negative.height == 40)

        let ninepatch = try region(atlas, "ninepatch")
        #expect(ninepatch.index == 3)
        #expect(ninepatch.splits == [4, 5, 6, 7])
        #expect(ninepatch.pads == [1, 2, 3, 4])
        #expect(
            ninepatch.values == [
                AtlasCustomValue(name: "custom", values: [1, -2, 3, 4, 5]),
                AtlasCustomValue(name: "single", values: [9]),
            ])

        let legacy = try region(atlas, "legacy")
        #expect((legacy.x, legacy.y, legacy.width, legacy.height) == (300, 310, 20, 10))
        #expect(legacy.degrees == 90 && legacy.index == -1)
        #expect(legacy.originalWidth == 24 && legacy.originalHeight == 12)
        #expect(legacy.offsetX == 2 && legacy.offsetY == 1)
        #expect(legacy.u2 == Float(310) / 640 && legacy.v2 == Float(330) / 480)

        #expect(try region(atlas, "unrotated").degrees == 0)

        let lonely = try region(atlas, "lonely")
        #expect(lonely.page == 1)
        #expect(lonely.u == 0.5 && lonely.v == 0.5 && lonely.u2 == 1 && lonely.v2 == 1)
    }

    @Test func lineEndingsAndByteOrderMark() throws {
        let unix = try parseAtlas(everyFieldAtlas)
        let windows = try AtlasReader.read(
            bytes: [0xEF, 0xBB, 0xBF] + Array(everyFieldAtlas.replacingOccurrences(of: "\n", with: "\r\n").utf8),
            file: "windows.atlas")
        let oldMac = try parseAtlas(everyFieldAtlas.replacingOccurrences(of: "\n", with: "\r") + "\r\r")
        for other in [windows, oldMac] {
            #expect(other.pages == unix.pages)
            #expect(other.regions == unix.regions)
        }
    }

    @Test func trailingWhitespaceAndLeadingBlankLines() throws {
        let atlas = try parseAtlas("\n\n  \npage.png  \n  size :  8 ,  4 \t\nname \t\n\tbounds: 0,0, 8,4   \n\n\n")
        #expect(atlas.pages.map(\.name) == ["page.png"])
        #expect(atlas.regions.map(\.name) == ["name"])
        #expect(atlas.regions[0].u2 == 1 && atlas.regions[0].v2 == 1)
    }
}

/// A text that must be rejected as `.malformed` at `line`.
struct AtlasReaderMalformedCase: Sendable, CustomTestStringConvertible {
    var label: String
    var text: String
    var line: Int
    var testDescription: String { label }
}

private let pageHead = "page.png\n\tsize: 64, 64\n"  // lines 1-2

private let malformedAtlasCases: [AtlasReaderMalformedCase] = [
    .init(label: "bounds with three values", text: pageHead + "r\n\tbounds: 1, 2, 3\n", line: 4),
    .init(label: "bounds with five values", text: pageHead + "r\n\tbounds: 1, 2, 3, 4, 5\n", line: 4),
    .init(label: "indented field without colon", text: pageHead + "r\n\tbounds: 1, 2, 3, 4\n\trotate 90\n", line: 5),
    .init(label: "page field without colon", text: "page.png\n\tsize 64, 64\nr\n\tbounds: 1,2,3,4\n", line: 2),
    .init(label: "non-integer bound", text: pageHead + "r\n\tbounds: 1, 2, three, 4\n", line: 4),
    .init(label: "float bound", text: pageHead + "r\n\tbounds: 1, 2.5, 3, 4\n", line: 4),
    .init(label: "empty value", text: pageHead + "r\n\tbounds: 1, , 3, 4\n", line: 4),
    .init(label: "region field before any page", text: "bounds: 1, 2, 3, 4\npage.png\n\tsize: 4, 4\n", line: 1),
    .init(label: "page field before any page", text: "\n\tsize: 4, 4\npage.png\n", line: 2),
    .init(label: "page name is a field", text: pageHead + "r\n\tbounds: 0,0,1,1\n\nsize: 3, 4\n", line: 6),
    .init(label: "page without size", text: "page.png\n\tfilter: Linear, Linear\nr\n\tbounds: 0,0,1,1\n", line: 1),
    .init(label: "zero page size", text: "page.png\n\tsize: 0, 64\n", line: 2),
    .init(label: "absurd page size", text: "page.png\n\tsize: 100000, 64\n", line: 2),
    .init(label: "negative region x", text: pageHead + "r\n\tbounds: -1, 0, 3, 4\n", line: 4),
    .init(label: "absurd region size", text: pageHead + "r\n\tbounds: 0, 0, 3, 9999999\n", line: 4),
    .init(label: "index overflow", text: pageHead + "r\n\tbounds: 0,0,1,1\n\tindex: 99999999999\n", line: 5),
    .init(label: "region without bounds", text: pageHead + "r\n\trotate: 90\ns\n\tbounds: 0,0,1,1\n", line: 3),
    .init(label: "region with only xy", text: pageHead + "r\n\txy: 1, 2\n", line: 3),
    .init(label: "bad rotate", text: pageHead + "r\n\tbounds: 0,0,1,1\n\trotate: sideways\n", line: 5),
    .init(label: "bad pma", text: "page.png\n\tsize: 4, 4\n\tpma: yes\n", line: 3),
    .init(label: "one filter", text: "page.png\n\tsize: 4, 4\n\tfilter: Linear\n", line: 3),
    .init(label: "unknown filter", text: "page.png\n\tsize: 4, 4\n\tfilter: Linear, Blurry\n", line: 3),
    .init(label: "unknown format", text: "page.png\n\tsize: 4, 4\n\tformat: RGBA9999\n", line: 3),
    .init(label: "bad repeat", text: "page.png\n\tsize: 4, 4\n\trepeat: diagonal\n", line: 3),
    .init(label: "negative scale", text: "page.png\n\tsize: 4, 4\n\tscale: -1\n", line: 3),
    .init(label: "non-numeric scale", text: "page.png\n\tsize: 4, 4\n\tscale: big\n", line: 3),
    .init(label: "empty custom value", text: pageHead + "r\n\tbounds: 0,0,1,1\n\tfoo:\n", line: 5),
    .init(label: "non-integer custom value", text: pageHead + "r\n\tbounds: 0,0,1,1\n\tfoo: 1, x\n", line: 5),
    .init(label: "empty field name", text: pageHead + "r\n\tbounds: 0,0,1,1\n\t: 1, 2\n", line: 5),
    .init(label: "split with two values", text: pageHead + "r\n\tbounds: 0,0,1,1\n\tsplit: 1, 2\n", line: 5),
    .init(label: "empty file", text: "", line: 1),
    .init(label: "only blank lines", text: "\n \n\t\n", line: 3),
    .init(label: "only header lines", text: "generator: 1\n", line: 1),
    .init(label: "crlf line numbers", text: "page.png\r\n\tsize: 64, 64\r\nr\r\n\tbounds: 1, 2\r\n", line: 4),
    .init(label: "second page", text: pageHead + "r\n\tbounds: 0,0,1,1\n\nnext.png\n\tsize: 1, x\n", line: 7),
]

@Suite struct AtlasReaderMalformedTests {
    @Test(arguments: malformedAtlasCases)
    func malformedLine(_ testCase: AtlasReaderMalformedCase) {
        do {
            let atlas = try parseAtlas(testCase.text, file: "bad.atlas")
            Issue.record("accepted with \(atlas.pages.count) pages, \(atlas.regions.count) regions")
        } catch let error as LoadError {
            #expect(error.kind == .malformed, "\(error)")
            #expect(error.location == .line(testCase.line), "\(error)")
            #expect(error.file == "bad.atlas")
            #expect(!error.expected.isEmpty && !error.found.isEmpty)
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    /// Truncations and byte corruptions of a real atlas either load or throw `LoadError`; none traps.
    @Test func corruptedExampleNeverTraps() throws {
        let original = try SkeletonLoader.readFile(TestPaths.examples.path + "/spineboy/spineboy-run.atlas")
        var random = SplitMix64(seed: 0x5EED)
        var failures = 0
        for round in 0..<400 {
            var bytes = original
            if round % 4 == 0 {
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            } else {
                for _ in 0...(round % 5) {
                    let index = Int(random.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            do {
                let atlas = try AtlasReader.read(bytes: bytes, file: "corrupt.atlas")
                #expect(!atlas.pages.isEmpty)
            } catch let error as LoadError {
                failures += 1
                #expect(error.file == "corrupt.atlas")
            }
        }
        #expect(failures > 0)
    }
}

@Suite struct AtlasPageImageTests {
    @Test func everyExamplePageDecodesAtItsDeclaredSize() throws {
        for path in try exampleAtlasPaths() {
            let atlas = try exampleAtlas(path)
            let images = try atlas.loadPageImages(premultiplied: false)
            #expect(images.count == atlas.pages.count)
            for (page, image) in zip(atlas.pages, images) {
                #expect(image.width == Int(page.width) && image.height == Int(page.height), "\(path) \(page.name)")
                #expect(image.pixels.contains { $0 != 0 }, "\(path) \(page.name) is blank")
            }
        }
    }

    @Test func premultipliedStraightPageMatchesTheExportedPMAPage() throws {
        let straight = try exampleAtlas("alien/alien.atlas")
        let exported = try exampleAtlas("alien/alien-pma.atlas")
        let converted = try straight.loadPageImage(0, premultiplied: true)
        let asStored = try straight.loadPageImage(0, premultiplied: false)
        let pma = try exported.loadPageImage(0, premultiplied: true)
        // A pma page is never premultiplied twice.
        #expect(try exported.loadPageImage(0, premultiplied: false) == pma)
        #expect(converted != asStored)
        #expect(converted.pixels.count == pma.pixels.count)
        var largest = 0
        var translucent = 0
        for i in 0..<converted.pixels.count {
            largest = max(largest, abs(Int(converted.pixels[i]) - Int(pma.pixels[i])))
            if i % 4 == 3 && converted.pixels[i] != 0 && converted.pixels[i] != 255 { translucent += 1 }
        }
        #expect(translucent > 0)
        #expect(largest <= 1, "premultiplied pixels differ from the exported pma page by up to \(largest)")
    }

    @Test func pageErrorsNameTheImage() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bonework-atlas-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(
            atPath: TestPaths.examples.path + "/vine/vine.png", toPath: directory + "/vine.png")  // 128 x 1024
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/broken.png"))
        let atlasPath = directory + "/test.atlas"
        try Data(
            "vine.png\nsize: 128, 1024\n\nvine.png\nsize: 128, 512\n\nmissing.png\nsize: 4, 4\n\nbroken.png\nsize: 4, 4\n"
                .utf8
        ).write(to: URL(fileURLWithPath: atlasPath))
        let atlas = try AtlasReader.read(file: atlasPath)

        #expect(try atlas.loadPageImage(0, premultiplied: true).height == 1024)
        let cases: [(page: Int, kind: LoadError.Kind, file: String)] = [
            (1, .malformed, directory + "/vine.png"), (2, .io, directory + "/missing.png"),
            (3, .malformed, directory + "/broken.png"),
        ]
        for c in cases {
            #expect {
                try atlas.loadPageImage(c.page, premultiplied: false)
            } throws: { error in
                guard let error = error as? LoadError else { return false }
                return error.kind == c.kind && error.file == c.file && error.found.count > 0
            }
        }
        #expect(throws: LoadError.self) { try atlas.loadPageImages(premultiplied: false) }
    }
}
