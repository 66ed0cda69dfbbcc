import BoneworkAssets
import BoneworkFormat
import BoneworkImage
import Foundation
import Testing

/// The bundled default character: its atlas and page image, and the skeleton loaded through the
/// ordinary loader with that atlas.
@Suite struct DefaultCharacterTests {
    static let regionNames = [
        "antenna", "blue/body", "blue/thigh", "blue/upper-arm", "eyes", "eyes-closed", "foot", "hand", "head",
        "lower-arm", "neck", "orange/body", "orange/thigh", "orange/upper-arm", "pelvis", "shin",
    ]

    /// Bones in file order with their parents.
    static let bones: [(String, String?)] = [
        ("root", nil), ("hip", "root"), ("torso", "hip"), ("neck", "torso"), ("head", "neck"), ("antenna", "head"),
        ("back-upper-arm", "torso"), ("back-lower-arm", "back-upper-arm"), ("back-hand", "back-lower-arm"),
        ("front-upper-arm", "torso"), ("front-lower-arm", "front-upper-arm"), ("front-hand", "front-lower-arm"),
        ("back-thigh", "hip"), ("back-shin", "back-thigh"), ("back-foot", "back-shin"),
        ("front-thigh", "hip"), ("front-shin", "front-thigh"), ("front-foot", "front-shin"),
        ("back-foot-target", "root"), ("front-foot-target", "root"),
    ]

    static let slots = [
        "back-upper-arm", "back-lower-arm", "back-hand", "back-thigh", "back-shin", "back-foot", "front-thigh",
        "front-shin", "front-foot", "neck", "body", "pelvis", "antenna", "head", "eyes", "front-upper-arm",
        "front-lower-arm", "front-hand",
    ]

    static func load() throws -> SkeletonData {
        try SkeletonLoader.load(
            file: DefaultCharacter.skeletonPath, atlas: AtlasReader.read(file: DefaultCharacter.atlasPath))
    }

    @Test func generatedFilesAreBundledAndSmall() throws {
        for path in [DefaultCharacter.skeletonPath, DefaultCharacter.atlasPath, DefaultCharacter.pageImagePath] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = try #require(attributes[.size] as? NSNumber).intValue
            #expect(size > 0, "\(path) is empty")
            #expect(size < 300_000, "\(path) is \(size) bytes")
        }
    }

    @Test func atlasHasOnePageWithEveryPart() throws {
        let atlas = try AtlasReader.read(file: DefaultCharacter.atlasPath)
        #expect(atlas.pages.count == 1)
        let page = try #require(atlas.pages.first)
        #expect(page.name == "bonebot.png")
        #expect(page.pma == false)
        #expect(page.minFilter == .linear && page.magFilter == .linear)
        #expect(atlas.regions.map(\.name).sorted() == Self.regionNames)
        for region in atlas.regions {
            #expect(region.degrees == 0, "\(region.name) is rotated")
            #expect(region.x >= 0 && region.y >= 0, "\(region.name)")
            #expect(region.x + region.width <= page.width && region.y + region.height <= page.height, "\(region.name)")
        }
    }

    /// Every region holds drawn pixels, and its one-pixel border is transparent so that linear
    /// filtering never picks up a neighbour.
    @Test func pageImageHoldsTheArt() throws {
        let atlas = try AtlasReader.read(file: DefaultCharacter.atlasPath)
        let image = try atlas.loadPageImage(0, premultiplied: false)
        #expect(image.width == Int(atlas.pages[0].width) && image.height == Int(atlas.pages[0].height))
        func alpha(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4 + 3] }
        for region in atlas.regions {
            let x0 = Int(region.x)
            let y0 = Int(region.y)
            let x1 = x0 + Int(region.width) - 1
            let y1 = y0 + Int(region.height) - 1
            var opaque = 0
            var border = 0
            for y in y0...y1 {
                for x in x0...x1 where alpha(x, y) > 0 {
                    if alpha(x, y) == 255 { opaque += 1 }
                    if x == x0 || x == x1 || y == y0 || y == y1 { border += 1 }
                }
            }
            #expect(opaque > Int(region.width * region.height) / 20, "\(region.name) has \(opaque) opaque pixels")
            #expect(border == 0, "\(region.name) touches its bounds")
        }
    }

    @Test func skeletonHasTheBoneHierarchy() throws {
        let data = try Self.load()
        #expect(data.version.hasPrefix("4.2."))
        #expect(data.bones.map(\.name) == Self.bones.map(\.0))
        for (i, (name, parent)) in Self.bones.enumerated() {
            let expected = parent.flatMap { data.findBone32($0) } ?? -1
            #expect(data.bones[i].parent == expected, "parent of \(name)")
        }
        // Feet keep their own rotation whatever the shin does.
        for foot in ["back-foot", "front-foot"] {
            let index = try #require(data.findBone32(foot))
            #expect(data.bones[Int(index)].inherit == .noRotationOrReflection)
        }
        #expect(data.slots.map(\.name) == Self.slots)
        let body = try #require(data.findSlot32("body"))
        #expect(data.slots[Int(body)].bone == data.findBone32("torso"))
        #expect(data.width > 50 && data.height > 250, "bounds \(data.width) x \(data.height)")
    }

    @Test func legsAreDrivenByIK() throws {
        let data = try Self.load()
        #expect(data.ikConstraints.map(\.name) == ["back-leg-ik", "front-leg-ik"])
        for (constraint, side) in zip(data.ikConstraints, ["back", "front"]) {
            let thigh = try #require(data.findBone32("\(side)-thigh"))
            let shin = try #require(data.findBone32("\(side)-shin"))
            #expect(constraint.bones == [thigh, shin])
            #expect(constraint.target == data.findBone32("\(side)-foot-target"))
            #expect(constraint.bendDirection == -1)
            #expect(constraint.mix == 1)
        }
    }

    @Test func skinsDressTheCharacter() throws {
        let data = try Self.load()
        #expect(data.skins.map(\.name) == ["default", "blue", "orange"])
        #expect(data.defaultSkin == data.findSkin32("default"))
        for name in DefaultCharacter.skinNames { #expect(data.findSkin32(name) != nil, "skin \(name)") }

        let bodySlot = try #require(data.findSlot32("body"))
        let bodyName = try #require(data.attachmentNameID("body"))
        #expect(data.attachment(skin: data.defaultSkin, slot: bodySlot, name: bodyName) == nil)
        let hip = try #require(data.findBone32("hip"))
        let torso = try #require(data.findBone32("torso"))
        let neck = try #require(data.findBone32("neck"))
        let atlas = try #require(data.atlas)
        for team in ["blue", "orange"] {
            let skin = try #require(data.findSkin32(team))
            let index = try #require(data.attachment(skin: skin, slot: bodySlot, name: bodyName), "\(team) body")
            let mesh = data.attachments[Int(index)]
            #expect(mesh.name == "\(team)/body")
            #expect(mesh.kind == .mesh)
            #expect(mesh.isWeighted)
            #expect(mesh.vertexCount == 15)
            #expect(mesh.triangles.count == 16 * 3)
            #expect(mesh.hullLength == 12)
            #expect(mesh.regionUVs.count == 30)
            // Per vertex: a bone count, then that many bone indices.
            var influencedBones = Set<Int32>()
            var cursor = 0
            var vertices = 0
            while cursor < mesh.bones.count {
                let count = Int(mesh.bones[cursor])
                #expect(count >= 1 && count <= 2)
                influencedBones.formUnion(mesh.bones[(cursor + 1)...(cursor + count)])
                cursor += count + 1
                vertices += 1
            }
            #expect(vertices == 15)
            #expect(influencedBones == [hip, torso, neck])
            let frame = data.attachmentFrames[Int(mesh.firstFrame)]
            #expect(frame.region == atlas.regionIndex(named: "\(team)/body"))

            for slotName in ["front-upper-arm", "back-thigh"] {
                let slot = try #require(data.findSlot32(slotName))
                let setupName = data.slots[Int(slot)].attachmentName
                let part = try #require(data.attachment(skin: skin, slot: slot, name: setupName), "\(slotName)")
                #expect(data.attachments[Int(part)].kind == .region)
                #expect(data.attachments[Int(part)].name.hasPrefix("\(team)/"))
            }
        }

        let eyes = try #require(data.findSlot32("eyes"))
        #expect(data.slots[Int(eyes)].attachmentName == data.attachmentNameID("eyes"))
        for name in ["eyes", "eyes-closed"] {
            let id = try #require(data.attachmentNameID(name))
            #expect(data.attachment(skin: data.defaultSkin, slot: eyes, name: id) != nil, "\(name)")
        }
    }

    @Test func animationsAndFootsteps() throws {
        let data = try Self.load()
        #expect(data.animations.map(\.name).sorted() == DefaultCharacter.animationNames.sorted())
        let footstep = try #require(data.findEvent(DefaultCharacter.footstepEventName))
        let event = data.events[Int(footstep)]
        #expect(event.intValue == 1 && event.floatValue == 0.5 && event.stringValue == "front")

        let expected: [(name: String, duration: Float, contact: Float, loudness: Float)] = [
            ("walk", 1, 0.5, 0.5), ("run", 0.6, 0.3, 1),
        ]
        for gait in expected {
            let index = try #require(data.findAnimation(gait.name))
            let animation = data.animations[Int(index)]
            #expect(abs(animation.duration - gait.duration) < 1e-4, "\(gait.name) duration")
            #expect(animation.timelines.contains { $0.kind == .event && $0.frameCount == 2 })
            #expect(animation.events.count == 2)
            if animation.events.count == 2 {
                let (front, back) = (animation.events[0], animation.events[1])
                #expect(front.event == footstep && back.event == footstep)
                #expect(front.time == 0 && abs(back.time - gait.contact) < 1e-4)
                #expect(front.intValue == 1 && front.stringValue == "front" && front.floatValue == gait.loudness)
                #expect(back.intValue == 2 && back.stringValue == "back" && back.floatValue == gait.loudness)
            }
            // Legs swing through their IK targets; arms swing too.
            for bone in ["back-foot-target", "front-foot-target"] {
                let target = try #require(data.findBone32(bone))
                #expect(animation.timelines.contains { $0.kind == .translate && $0.target == target }, "\(bone)")
            }
            let arm = try #require(data.findBone32("front-upper-arm"))
            #expect(animation.timelines.contains { $0.kind == .rotate && $0.target == arm })
            #expect(curveMarkers(animation).contains { $0 >= CurveType.bezier }, "\(gait.name) has no bezier")
        }

        let idle = data.animations[Int(try #require(data.findAnimation("idle")))]
        #expect(abs(idle.duration - 2) < 1e-4)
        #expect(idle.events.isEmpty)
        #expect(idle.timelines.contains { $0.kind == .attachment })
        let lamp = try #require(idle.timelines.first { $0.kind == .rgba })
        #expect(lamp.target == data.findSlot32("antenna"))
        #expect(curveMarkers(idle, only: lamp).contains(CurveType.stepped))
    }

    /// The per-frame curve markers (linear, stepped, or bezier + offset) of an animation's
    /// timelines, leaving out each timeline's last frame (which has no curve).
    private func curveMarkers(_ animation: AnimationData, only: TimelineData? = nil) -> [Float] {
        var markers: [Float] = []
        for timeline in animation.timelines where timeline.curvesStart >= 0 {
            if let only, only != timeline { continue }
            let start = Int(timeline.curvesStart)
            let end = start + Int(timeline.frameCount) - 1
            guard start >= 0, end <= animation.curves.count, start < end else { continue }
            markers += animation.curves[start..<end]
        }
        return markers
    }
}
