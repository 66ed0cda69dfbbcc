import BoneworkFormat
import BoneworkImage
import Foundation
import Testing

@testable import BoneworkRender

/// Headless renders of small synthetic scenes, checked pixel by pixel against values computed by
/// hand from the shader and blend rules.
@Suite(.serialized) struct RenderTests {
    /// An 8 x 8 target over the world square [0, 8]^2 (one world unit per pixel).
    struct Scene {
        let context: GLContext
        let renderer: BatchRenderer
        let target: OffscreenTarget
        var list = DrawList()
        static let viewport = WorldViewport(x: 0, y: 0, width: 8, height: 8)

        init(size: Int = 8) throws {
            let headless = try HeadlessGLContext()
            context = .headless(headless)
            renderer = try BatchRenderer(context: context)
            target = try OffscreenTarget(width: size, height: size, context: context)
        }

        /// One page filled with one premultiplied texel value.
        func solidTexture(_ texel: [UInt8], filter: TextureFilter = .linear, pma: Bool = true) throws -> AtlasTextures {
            var page = AtlasPage(name: "solid.png")
            page.minFilter = filter
            page.magFilter = filter
            page.pma = pma
            let atlas = Atlas(file: "test.atlas", pages: [page], regions: [])
            let pixels = (0..<16).flatMap { _ in texel }
            return try AtlasTextures(
                atlas: atlas, images: [Image(width: 4, height: 4, pixels: pixels)], context: context)
        }

        /// A quad over world [x0, x1] x [y0, y1] with uvs (0,0) top-left .. (1,1) bottom-right.
        mutating func quad(
            _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, texture: UInt32, blend: BlendMode,
            colors: SlotVertexColors, pma: Bool = true
        ) {
            list.append(
                positions: [x0, y0, x0, y1, x1, y1, x1, y0], uvs: [0, 1, 0, 0, 1, 0, 1, 1],
                triangles: [UInt16(0), 1, 2, 2, 3, 0], colors: colors, texture: texture, blendMode: blend,
                premultiplied: pma)
        }

        func render(background: (Float, Float, Float, Float)) -> Image {
            target.clear(background.0, background.1, background.2, background.3)
            renderer.draw(list, viewport: Self.viewport, into: target)
            return target.readImage()
        }
    }

    static let white = SlotVertexColors(
        skeleton: .white, slot: .white, attachment: .white, dark: nil, premultiplied: true)

    static func pixel(_ image: Image, _ column: Int, _ rowFromTop: Int) -> [Int] {
        let offset = (rowFromTop * image.width + column) * 4
        return image.pixels[offset..<(offset + 4)].map { Int($0) }
    }

    static func expectPixel(
        _ image: Image, _ column: Int, _ row: Int, _ expected: [Double], tolerance: Int = 1,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let actual = pixel(image, column, row)
        let rounded = expected.map { Int(($0 * 255).rounded()) }
        let close = zip(actual, rounded).allSatisfy { abs($0 - $1) <= tolerance }
        #expect(close, "pixel (\(column), \(row)) is \(actual), expected \(rounded)", sourceLocation: sourceLocation)
    }

    static func unit(_ bytes: [UInt8]) -> [Double] { bytes.map { Double($0) / 255 } }
    static func unit(_ packed: UInt32) -> [Double] { (0..<4).map { Double((packed >> (8 * $0)) & 255) / 255 } }

    // MARK: Tests

    @Test func clearAndCoverage() throws {
        var scene = try Scene()
        let texture = try scene.solidTexture([255, 255, 255, 255])
        // The top-left quarter of the viewport: world x in [0, 4], y in [4, 8].
        scene.quad(0, 4, 4, 8, texture: texture.names[0], blend: .normal, colors: Self.white)
        let image = scene.render(background: (0.2, 0.4, 0.6, 1))
        #expect(image.width == 8 && image.height == 8)
        for row in 0..<8 {
            for column in 0..<8 {
                let inside = row < 4 && column < 4
                Self.expectPixel(image, column, row, inside ? [1, 1, 1, 1] : [0.2, 0.4, 0.6, 1], tolerance: 0)
            }
        }
        #expect(scene.renderer.lastDrawCalls == 1)
    }

    @Test func textureRowsAndUVOrientation() throws {
        var scene = try Scene()
        var page = AtlasPage(name: "quads.png")
        page.minFilter = .nearest
        page.magFilter = .nearest
        page.pma = true
        let atlas = Atlas(file: "test.atlas", pages: [page], regions: [])
        // 2 x 2 texels, row 0 (top of the PNG): red, green; row 1: blue, white.
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]
        let textures = try AtlasTextures(
            atlas: atlas, images: [Image(width: 2, height: 2, pixels: pixels)], context: scene.context)
        scene.quad(0, 0, 8, 8, texture: textures.names[0], blend: .normal, colors: Self.white)
        let image = scene.render(background: (0, 0, 0, 0))
        // v = 0 is the top of the page and the image is written top row first.
        Self.expectPixel(image, 1, 1, [1, 0, 0, 1], tolerance: 0)
        Self.expectPixel(image, 6, 1, [0, 1, 0, 1], tolerance: 0)
        Self.expectPixel(image, 1, 6, [0, 0, 1, 1], tolerance: 0)
        Self.expectPixel(image, 6, 6, [1, 1, 1, 1], tolerance: 0)
    }

    /// D = the framebuffer before, S = the fragment colour; each blend mode by its formula.
    @Test(arguments: [BlendMode.normal, .additive, .multiply, .screen])
    func blendModes(mode: BlendMode) throws {
        var scene = try Scene()
        let texel: [UInt8] = [120, 60, 30, 160]  // premultiplied
        let texture = try scene.solidTexture(texel)
        let colors = SlotVertexColors(
            skeleton: .white, slot: Color(1, 0.5, 0.8, 0.75), attachment: .white, dark: nil, premultiplied: true)
        scene.quad(0, 0, 8, 8, texture: texture.names[0], blend: mode, colors: colors)
        let background: [Double] = [0.3, 0.5, 0.2, 0.8]
        let image = scene.render(background: (0.3, 0.5, 0.2, 0.8))
        let t = Self.unit(texel)
        let light = Self.unit(colors.light)
        let d = background.map { ($0 * 255).rounded() / 255 }
        let s = (0..<4).map { t[$0] * light[$0] }
        var expected: [Double] = []
        for c in 0..<3 {
            switch mode {
            case .normal: expected.append(s[c] + d[c] * (1 - s[3]))
            case .additive: expected.append(s[c] + d[c])
            case .multiply: expected.append(s[c] * d[c] + d[c] * (1 - s[3]))
            case .screen: expected.append(s[c] + d[c] * (1 - s[c]))
            }
        }
        switch mode {
        case .normal, .multiply: expected.append(s[3] + d[3] * (1 - s[3]))
        case .additive: expected.append(s[3] + d[3])
        case .screen: expected.append(s[3] + d[3] * (1 - s[3]))
        }
        expected = expected.map { min(1, $0) }
        for (column, row) in [(0, 0), (3, 4), (7, 7)] { Self.expectPixel(image, column, row, expected) }
    }

    @Test func tintBlack() throws {
        var scene = try Scene()
        let texel: [UInt8] = [200, 100, 40, 220]
        let texture = try scene.solidTexture(texel)
        let colors = SlotVertexColors(
            skeleton: Color(1, 1, 1, 0.9), slot: Color(0.6, 0.9, 1, 0.8), attachment: .white,
            dark: Color(0.2, 0.7, 0.4, 1), premultiplied: true)
        scene.quad(0, 0, 8, 8, texture: texture.names[0], blend: .normal, colors: colors)
        let image = scene.render(background: (0, 0, 0, 0))
        let t = Self.unit(texel)
        let light = Self.unit(colors.light)
        let dark = Self.unit(colors.dark)
        #expect(colors.dark >> 24 == 255)
        var expected = (0..<3).map { (t[3] - t[$0]) * dark[$0] + t[$0] * light[$0] }
        expected.append(t[3] * light[3])
        Self.expectPixel(image, 4, 4, expected)
        // Not the untinted colour: the dark colour shows in the texel's translucent part.
        let untinted = (0..<3).map { t[$0] * light[$0] }
        #expect(abs(untinted[1] - expected[1]) > 0.05)
    }

    @Test func drawOrderAndBatching() throws {
        var scene = try Scene()
        let red = try scene.solidTexture([255, 0, 0, 255])
        let green = try scene.solidTexture([0, 128, 0, 128])
        scene.quad(0, 0, 8, 8, texture: red.names[0], blend: .normal, colors: Self.white)
        scene.quad(0, 0, 4, 8, texture: green.names[0], blend: .normal, colors: Self.white)
        scene.quad(4, 0, 8, 8, texture: green.names[0], blend: .normal, colors: Self.white)  // same batch
        scene.quad(0, 0, 8, 4, texture: green.names[0], blend: .additive, colors: Self.white)
        #expect(scene.list.batches.count == 3)
        let image = scene.render(background: (0, 0, 0, 0))
        #expect(scene.renderer.lastDrawCalls == 3)
        // Top half: green (premultiplied, alpha 0.5) over red.
        Self.expectPixel(image, 2, 1, [127.0 / 255, 128.0 / 255, 0, 1])
        // Bottom half: plus the additive green again.
        Self.expectPixel(image, 2, 6, [127.0 / 255, 1, 0, 1])
    }

    @Test func vertexColorQuantisation() {
        // floor(x * 255), premultiplied by alpha, dark alpha 1.
        let colors = SlotVertexColors(
            skeleton: .white, slot: Color(1, 0.5, 0.25, 0.5), attachment: .white, dark: Color(1, 1, 0, 0.3),
            premultiplied: true)
        #expect(colors.light == 127 | 63 << 8 | 31 << 16 | 127 << 24)
        #expect(colors.dark == 127 | 127 << 8 | 0 << 16 | 255 << 24)
        let plain = SlotVertexColors(skeleton: .white, slot: .white, attachment: .white, dark: nil, premultiplied: true)
        #expect(plain.light == 0xFFFF_FFFF && plain.dark == 0xFF00_0000)
        #expect(SlotVertexColors.quantize(.nan) == 0 && SlotVertexColors.quantize(2) == 255)
        #expect(SlotVertexColors.quantize(-1) == 0 && SlotVertexColors.quantize(0.999) == 254)
    }

    @Test func badSizesAreTypedErrors() throws {
        let context = GLContext.headless(try HeadlessGLContext())
        #expect(throws: RenderError.self) { try OffscreenTarget(width: 0, height: 4, context: context) }
        let atlas = Atlas(file: "x.atlas", pages: [AtlasPage(name: "p.png")], regions: [])
        #expect(throws: RenderError.self) {
            try AtlasTextures(atlas: atlas, images: [Image(width: 2, height: 2, pixels: [1, 2, 3])], context: context)
        }
        #expect(throws: RenderError.self) { try AtlasTextures(atlas: atlas, images: [], context: context) }
    }
}

@Suite struct WindowContextTests {
    /// Without a window system the window context reports a typed error instead of crashing; with
    /// one, it opens an OpenGL 3.3 core window.
    @Test func windowOrTypedError() throws {
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
        let result = Result { () throws(RenderError) -> GLFWWindowContext in
            try GLFWWindowContext(width: 64, height: 48, title: "bonework test", visible: false)
        }
        switch result {
        case .success(let window):
            #expect(hasDisplay)
            #expect(window.isCurrent)
            let description = GLContext.window(window).rendererDescription
            #expect(description.contains("3.3") || description.contains("4."))
        case .failure(.noDisplay(let message)):
            #expect(!hasDisplay, "a display is set but GLFW reported: \(message)")
            #expect(!message.isEmpty)
        case .failure(let error):
            Issue.record("unexpected error \(error)")
        }
    }
}
