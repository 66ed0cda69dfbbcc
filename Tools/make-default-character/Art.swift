import BoneworkImage

/// Colours shared by every part.
enum Palette {
    static let outline = RGBA(hex: 0x232834)
    static let metalLight = RGBA(hex: 0xF4F7FB)
    static let metal = RGBA(hex: 0xC8CFDA)
    static let metalDark = RGBA(hex: 0x8B95A7)
    static let jointLight = RGBA(hex: 0x6E778A)
    static let joint = RGBA(hex: 0x4A5263)
    static let jointDark = RGBA(hex: 0x2E3440)
    static let visorTop = RGBA(hex: 0x34466A)
    static let visorBottom = RGBA(hex: 0x121824)
    static let eyeCore = RGBA(hex: 0xD2FEFF)
    static let eyeGlow = RGBA(hex: 0x3FE0FF)
    static let lampLight = RGBA(hex: 0xFFE1D8)
    static let lamp = RGBA(hex: 0xE8443F)
    static let white = RGBA(1, 1, 1)
}

/// The colours that differ between the character's variants.
struct TeamColors {
    var name: String
    var light: RGBA
    var base: RGBA
    var dark: RGBA
    /// The chest lamp.
    var core: RGBA
    var coreLight: RGBA

    static let blue = TeamColors(
        name: "blue", light: RGBA(hex: 0x86C7FF), base: RGBA(hex: 0x3D82E6), dark: RGBA(hex: 0x224E9E),
        core: RGBA(hex: 0xFFC928), coreLight: RGBA(hex: 0xFFF6C4))
    static let orange = TeamColors(
        name: "orange", light: RGBA(hex: 0xFFC777), base: RGBA(hex: 0xF2872C), dark: RGBA(hex: 0xB04E14),
        core: RGBA(hex: 0x2FE3C4), coreLight: RGBA(hex: 0xD8FFF6))
}

/// One drawn image. `anchor` is the pixel (x right, y down) that sits on the owning bone's origin;
/// limb images are drawn lying along +x, the direction their bone points.
struct Part {
    var name: String
    var image: Image
    var anchorX: Double
    var anchorY: Double

    var width: Int { image.width }
    var height: Int { image.height }
}

/// Draws every part of the character: shared metal parts once, coloured parts once per team.
enum Art {
    static func parts(teams: [TeamColors]) -> [Part] {
        var parts = [head(), eyes(), eyesClosed(), antenna(), neck(), pelvis(), lowerArm(), hand(), shin(), foot()]
        for team in teams {
            parts.append(body(team))
            parts.append(upperArm(team))
            parts.append(thigh(team))
        }
        for part in parts where !hasClearBorder(part.image) {
            fatalError("make-default-character: part \(part.name) touches the edge of its image")
        }
        return parts
    }

    /// Whether the outermost rows and columns are fully transparent, so that linear filtering
    /// never blends a part with its neighbour on the page.
    static func hasClearBorder(_ image: Image) -> Bool {
        for y in 0..<image.height {
            for x in 0..<image.width where x == 0 || y == 0 || x == image.width - 1 || y == image.height - 1 {
                if image.pixels[(y * image.width + x) * 4 + 3] != 0 { return false }
            }
        }
        return true
    }

    static func head() -> Part {
        var c = Canvas(width: 98, height: 88)
        let skull = Shape.box(x: 49, y: 44, hw: 44, hh: 39, r: 24)
        c.outlined(skull, .vertical(8, Palette.metalLight, 84, RGBA(hex: 0xA3ACBC)), width: 3)
        // Chin shadow and crown highlight.
        c.fill(Shape.ellipse(x: 49, y: 92, rx: 60, ry: 22).clipped(to: skull), Palette.jointDark.with(alpha: 0.16))
        c.fill(
            Shape.capsule(ax: 22, ay: 16, bx: 48, by: 11, r: 3.5).clipped(to: skull.grown(-3)), Palette.white,
            opacity: 0.7)
        // Visor on the face side (the character faces +x).
        let visor = Shape.box(x: 65, y: 43, hw: 27, hh: 21, r: 13)
        c.outlined(visor, .vertical(22, Palette.visorTop, 64, Palette.visorBottom), width: 2)
        c.fill(Shape.capsule(ax: 48, ay: 30, bx: 60, by: 26, r: 2.2).clipped(to: visor), Palette.white, opacity: 0.35)
        c.fill(Shape.capsule(ax: 79, ay: 56, bx: 85, by: 52, r: 1.6).clipped(to: visor), Palette.white, opacity: 0.2)
        // Ear bolt.
        let ear = Shape.circle(x: 24, y: 47, r: 11)
        c.outlined(
            ear, .radial(x: 21, y: 43, radius: 14, inner: Palette.metalLight, outer: Palette.metalDark), width: 2)
        c.outlined(Shape.circle(x: 24, y: 47, r: 4.5), .solid(Palette.joint), width: 1.5)
        // Vent slits on the back of the head.
        for i in 0..<3 {
            let y = Float(60 + i * 6)
            c.fill(Shape.capsule(ax: 12, ay: y, bx: 20, by: y, r: 1.3), Palette.jointDark, opacity: 0.55)
        }
        return Part(name: "head", image: c.image(), anchorX: 49, anchorY: 44)
    }

    static func eyes() -> Part {
        var c = Canvas(width: 44, height: 28)
        for x: Float in [14, 31] {
            c.fill(
                Shape.ellipse(x: x, y: 14, rx: 10, ry: 13),
                .radial(
                    x: x, y: 14, radius: 11, inner: Palette.eyeGlow.with(alpha: 0.55),
                    outer: Palette.eyeGlow.with(alpha: 0)))
            c.fill(Shape.box(x: x, y: 14, hw: 4.5, hh: 7.5, r: 4.5), .vertical(6, Palette.eyeCore, 22, Palette.eyeGlow))
            c.fill(Shape.circle(x: x - 1.2, y: 11, r: 1.6), Palette.white, opacity: 0.9)
        }
        return Part(name: "eyes", image: c.image(), anchorX: 22, anchorY: 14)
    }

    static func eyesClosed() -> Part {
        var c = Canvas(width: 44, height: 28)
        for x: Float in [14, 31] {
            let lid = Shape.capsule(ax: x - 6, ay: 16, bx: x + 6, by: 16, r: 2.2)
            c.fill(lid.grown(3), Palette.eyeGlow, opacity: 0.3)
            c.fill(lid, Palette.eyeCore)
        }
        return Part(name: "eyes-closed", image: c.image(), anchorX: 22, anchorY: 14)
    }

    static func antenna() -> Part {
        var c = Canvas(width: 20, height: 46)
        c.outlined(
            Shape.capsule(ax: 10, ay: 40, bx: 10, by: 16, r: 2.2), .vertical(16, Palette.metal, 40, Palette.metalDark),
            width: 2)
        c.outlined(
            Shape.circle(x: 10, y: 11, r: 6.5),
            .radial(x: 8, y: 9, radius: 8, inner: Palette.lampLight, outer: Palette.lamp),
            width: 2)
        c.fill(Shape.circle(x: 8, y: 8.5, r: 1.8), Palette.white, opacity: 0.9)
        return Part(name: "antenna", image: c.image(), anchorX: 10, anchorY: 40)
    }

    static func neck() -> Part {
        var c = Canvas(width: 30, height: 24)
        c.outlined(
            Shape.box(x: 15, y: 12, hw: 10, hh: 8, r: 3), .vertical(4, Palette.jointLight, 20, Palette.jointDark))
        for y: Float in [9, 15] {
            c.fill(Shape.capsule(ax: 8, ay: y, bx: 22, by: y, r: 0.9), Palette.metalDark, opacity: 0.8)
        }
        return Part(name: "neck", image: c.image(), anchorX: 15, anchorY: 12)
    }

    static func pelvis() -> Part {
        var c = Canvas(width: 68, height: 30)
        c.outlined(
            Shape.box(x: 34, y: 15, hw: 29, hh: 10, r: 8), .vertical(5, Palette.jointLight, 25, Palette.jointDark))
        c.outlined(
            Shape.box(x: 47, y: 15, hw: 7, hh: 6, r: 2), .vertical(9, Palette.metalLight, 21, Palette.metalDark),
            width: 1.5)
        c.fill(Shape.capsule(ax: 12, ay: 10, bx: 36, by: 10, r: 1.2), Palette.white, opacity: 0.25)
        return Part(name: "pelvis", image: c.image(), anchorX: 34, anchorY: 15)
    }

    static func body(_ team: TeamColors) -> Part {
        var c = Canvas(width: 84, height: 108)
        let shell = Shape.box(x: 42, y: 54, hw: 37, hh: 49, r: 22)
        c.outlined(shell, .vertical(6, team.light, 102, team.dark), width: 3)
        c.fill(
            Shape.ellipse(x: 30, y: 30, rx: 34, ry: 40).clipped(to: shell), team.light.with(alpha: 0.35))
        c.fill(
            Shape.capsule(ax: 13, ay: 26, bx: 13, by: 74, r: 3.2).clipped(to: shell.grown(-2)), Palette.white,
            opacity: 0.4)
        // Chest plate with the lamp, on the front side.
        let plate = Shape.box(x: 56, y: 46, hw: 17, hh: 23, r: 9)
        c.outlined(plate, .vertical(22, Palette.metalLight, 70, Palette.metal), width: 2)
        c.fill(
            Shape.circle(x: 56, y: 41, r: 13),
            .radial(x: 56, y: 41, radius: 13, inner: team.core.with(alpha: 0.5), outer: team.core.with(alpha: 0)))
        c.outlined(
            Shape.circle(x: 56, y: 41, r: 8), .radial(x: 54, y: 38, radius: 9, inner: team.coreLight, outer: team.core),
            width: 2)
        c.fill(Shape.circle(x: 53.5, y: 38.5, r: 2), Palette.white, opacity: 0.9)
        for (i, x) in [49, 56, 63].enumerated() {
            let color = i == 1 ? team.dark : Palette.joint
            c.fill(Shape.circle(x: Float(x), y: 61, r: 2.4), color)
        }
        return Part(name: "\(team.name)/body", image: c.image(), anchorX: 42, anchorY: 54)
    }

    static func upperArm(_ team: TeamColors) -> Part {
        var c = Canvas(width: 58, height: 32)
        c.outlined(Shape.capsule(ax: 17, ay: 16, bx: 44, by: 16, r: 9.5), .vertical(7, team.light, 25, team.dark))
        c.outlined(
            Shape.circle(x: 17, y: 16, r: 12), .radial(x: 13, y: 11, radius: 16, inner: team.light, outer: team.base),
            width: 2.5)
        c.fill(Shape.capsule(ax: 12, ay: 10, bx: 19, by: 8, r: 1.8), Palette.white, opacity: 0.6)
        return Part(name: "\(team.name)/upper-arm", image: c.image(), anchorX: 17, anchorY: 16)
    }

    static func lowerArm() -> Part {
        var c = Canvas(width: 52, height: 26)
        c.outlined(
            Shape.capsule(ax: 12, ay: 13, bx: 40, by: 13, r: 7.5),
            .vertical(6, Palette.metalLight, 20, Palette.metalDark))
        c.outlined(
            Shape.circle(x: 12, y: 13, r: 6.5),
            .radial(x: 10, y: 11, radius: 8, inner: Palette.jointLight, outer: Palette.jointDark),
            width: 2)
        c.fill(Shape.capsule(ax: 20, ay: 9, bx: 36, by: 9, r: 1.3), Palette.white, opacity: 0.6)
        return Part(name: "lower-arm", image: c.image(), anchorX: 12, anchorY: 13)
    }

    static func hand() -> Part {
        var c = Canvas(width: 32, height: 30)
        c.outlined(
            Shape.box(x: 7, y: 15, hw: 4, hh: 7, r: 2), .vertical(8, Palette.jointLight, 22, Palette.jointDark),
            width: 2)
        let fist = Shape.circle(x: 18, y: 15, r: 9.5)
        c.outlined(fist, .radial(x: 15, y: 11, radius: 13, inner: Palette.metalLight, outer: Palette.metalDark))
        c.fill(Shape.capsule(ax: 19, ay: 15, bx: 27, by: 15, r: 1.1), Palette.jointDark, opacity: 0.7)
        c.fill(Shape.capsule(ax: 19, ay: 19.5, bx: 26, by: 19.5, r: 1.1), Palette.jointDark, opacity: 0.5)
        return Part(name: "hand", image: c.image(), anchorX: 6, anchorY: 15)
    }

    static func thigh(_ team: TeamColors) -> Part {
        var c = Canvas(width: 72, height: 32)
        c.outlined(Shape.capsule(ax: 15, ay: 16, bx: 56, by: 16, r: 11), .vertical(5, team.light, 27, team.dark))
        c.fill(Shape.capsule(ax: 18, ay: 10, bx: 50, by: 10, r: 1.8), Palette.white, opacity: 0.45)
        return Part(name: "\(team.name)/thigh", image: c.image(), anchorX: 15, anchorY: 16)
    }

    static func shin() -> Part {
        var c = Canvas(width: 70, height: 28)
        c.outlined(
            Shape.capsule(ax: 13, ay: 14, bx: 58, by: 14, r: 8.5),
            .vertical(6, Palette.metalLight, 22, Palette.metalDark))
        c.fill(Shape.capsule(ax: 22, ay: 10, bx: 52, by: 10, r: 1.4), Palette.white, opacity: 0.6)
        c.outlined(
            Shape.circle(x: 13, y: 14, r: 8),
            .radial(x: 11, y: 11, radius: 10, inner: Palette.jointLight, outer: Palette.jointDark),
            width: 2)
        c.fill(Shape.circle(x: 13, y: 14, r: 2.5), Palette.metal)
        return Part(name: "shin", image: c.image(), anchorX: 13, anchorY: 14)
    }

    static func foot() -> Part {
        var c = Canvas(width: 58, height: 32)
        let boot = Shape.box(x: 30, y: 15, hw: 24, hh: 11, r: 10) + Shape.box(x: 30, y: 21, hw: 24, hh: 5, r: 3)
        c.outlined(boot, .vertical(5, Palette.metalLight, 24, Palette.metalDark))
        c.fill(Shape.box(x: 30, y: 24, hw: 24, hh: 2.5, r: 1.5), Palette.jointDark)
        c.fill(Shape.ellipse(x: 44, y: 11, rx: 7, ry: 4).clipped(to: boot), Palette.white, opacity: 0.45)
        return Part(name: "foot", image: c.image(), anchorX: 20, anchorY: 12)
    }
}
