import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Skins composed of several data skins in the World (`World.setSkin(_:parts:)`): what they
/// activate and show, derived from the data's skins (never from the engine's own output), how
/// they are interned, and what bad input gets.
@Suite("Composed skins")
struct ComposedSkinTests {
    static let skeleton = "mix-and-match/mix-and-match-pro.skel"
    static let atlas = "mix-and-match/mix-and-match.atlas"
    static let outfit = [
        "skin-base", "nose/short", "eyelids/girly", "eyes/violet", "hair/brown", "clothes/hoodie-orange",
        "legs/pants-jeans", "accessories/bag", "accessories/hat-red-yellow",
    ]

    /// A fresh load, so that the composed plans a test interns are its own.
    static func data() throws -> SkeletonData { try ExampleSkeletons.load(skeleton, atlas: atlas) }

    // Validity first.

    @Test func anUnknownPartIsATypedErrorNamingItAndTheSkeletonAndChangesNothing() throws {
        let data = try Self.data()
        let world = World()
        let e = try world.spawn(data, skin: "skin-base")
        let plans = try world.locate(e).batch.rig.planCount
        #expect(throws: WorldError.noSuchSkin("accessories/cape", skeleton: data.file)) {
            try world.setSkin(e, parts: ["skin-base", "accessories/cape"])
        }
        #expect(try world.skinParts(e) == [Int32(try #require(data.findSkinIndex("skin-base")))])
        #expect(try world.locate(e).batch.rig.planCount == plans, "no plan was compiled")
        let rig = try world.locate(e).batch.rig
        #expect(throws: WorldError.noSuchSkin("#\(data.skins.count)", skeleton: data.file)) {
            try rig.plan(parts: [0, Int32(data.skins.count)])
        }
        let stale = try world.spawn(data)
        try world.despawn(stale)
        #expect(throws: WorldError.staleEntity(stale)) { try world.setSkin(stale, parts: Self.outfit) }
    }

    @Test func theRoomForComposedSkinsIsBoundedAndRefusingChangesNothing() throws {
        let data = try Self.data()
        let world = World()
        let e = try world.spawn(data)
        let rig = try world.locate(e).batch.rig
        let base = data.skins.count + 1
        var made = 0
        outer: for a in 0..<data.skins.count {
            for b in 0..<data.skins.count where b != a {
                if made == ComposedSkins.limit { break outer }
                _ = try rig.plan(parts: [Int32(a), Int32(b)])
                made += 1
            }
        }
        #expect(rig.planCount == base + ComposedSkins.limit)
        #expect(throws: WorldError.tooManyComposedSkins(skeleton: data.file, limit: ComposedSkins.limit)) {
            try world.setSkin(e, parts: ["skin-base", "accessories/bag", "accessories/hat-red-yellow"])
        }
        #expect(try world.skinParts(e).isEmpty)
        #expect(rig.planCount == base + ComposedSkins.limit)
        // Outfits already interned are still handed out.
        #expect(try rig.plan(parts: [0, 1]) == Int32(base))
    }

    // What a composed skin is.

    @Test func aComposedSkinActivatesEveryPartsBonesAndConstraints() throws {
        let data = try Self.data()
        let world = World()
        let e = try world.spawn(data)
        try world.setSkin(e, parts: Self.outfit)
        let parts = Self.outfit.map { Int32(data.findSkinIndex($0)!) }
        #expect(try world.skinParts(e) == parts)
        #expect(try world.skinIndex(e) == nil, "a composed skin is not one data skin")
        let rig = try world.locate(e).batch.rig
        let plan = try rig.plan(parts: parts)
        // Expected from the data: a skin-required bone is active when some part lists it or a
        // descendant of it; other bones always are.
        var required = Set<Int32>()
        for p in parts {
            for bone in data.skins[Int(p)].bones {
                var b = bone
                while b >= 0 {
                    required.insert(b)
                    b = data.bones[Int(b)].parent
                }
            }
        }
        for (k, bone) in data.bones.enumerated() {
            let expected = !bone.skinRequired || required.contains(Int32(k))
            #expect(rig.isBoneActive(plan: plan, bone: k) == expected, "bone \(bone.name)")
        }
        let program = try #require(rig.program(plan: plan))
        for (c, ik) in data.ikConstraints.enumerated() where ik.skinRequired {
            let listed = parts.contains { data.skins[Int($0)].constraints.contains(ConstraintRef(.ik, Int32(c))) }
            let target = !data.bones[Int(ik.target)].skinRequired || required.contains(ik.target)
            #expect(program.ikActive[c] == (listed && target), "ik \(ik.name)")
        }
    }

    @Test(arguments: [false, true])
    func aComposedSkinShowsTheLastPartsAttachmentOnEachKey(reversed: Bool) throws {
        let data = try Self.data()
        let world = World()
        let e = try world.spawn(data)
        let names = reversed ? Self.outfit.reversed() : Self.outfit
        try world.setSkin(e, parts: names)
        // Expected from the data: coming from no skin, each slot whose setup attachment name the
        // composed skin holds shows the last part's attachment under that name; the default
        // skin's (or none) otherwise.
        var expected: [Int32: Int32] = [:]
        for name in names {
            for entry in data.skins[data.findSkinIndex(name)!].entries
            where entry.name == data.slots[Int(entry.slot)].attachmentName {
                expected[entry.slot] = entry.attachment
            }
        }
        let world2 = World()
        let bare = try world2.spawn(data)
        for s in 0..<data.slots.count {
            let want = try expected[Int32(s)] ?? world2.slotAttachment(bare, slot: s)
            #expect(try world.slotAttachment(e, slot: s) == want, "slot \(data.slots[s].name)")
        }
        // The bag and the hat are on: some slot shows an attachment of each.
        for part in ["accessories/bag", "accessories/hat-red-yellow"] {
            let own = Set(data.skins[data.findSkinIndex(part)!].entries.map(\.attachment))
            let shown = try (0..<data.slots.count).map { try world.slotAttachment(e, slot: $0) }
            #expect(shown.contains { own.contains($0) }, "\(part) shows")
        }
    }

    @Test func outfitsAreInternedOnceAndShareTheirPlan() throws {
        let data = try Self.data()
        let world = World()
        let a = try world.spawn(data)
        let b = try world.spawn(data)
        let rig = try world.locate(a).batch.rig
        let before = rig.planCount
        try world.setSkin(a, parts: Self.outfit)
        try world.setSkin(b, parts: Self.outfit)
        #expect(rig.planCount == before + 1, "one compilation for one outfit")
        // One part, or one part given twice, is the data skin itself.
        try world.setSkin(a, parts: ["skin-base", "skin-base"])
        #expect(try world.skinIndex(a) == data.findSkinIndex("skin-base").map(Int32.init))
        #expect(rig.planCount == before + 1)
        // A repeated part counts where it was given last.
        #expect(try rig.plan(parts: [1, 2, 1]) == (try rig.plan(parts: [2, 1])))
    }

    @Test func aComposedCrowdPosesAsEachInstanceAlone() throws {
        let data = try Self.data()
        let skins = data.skins.map(\.name).filter { !$0.hasPrefix("full-skins/") && $0 != "default" }
        let world = World(layout: ColumnLayout(chunkSize: 8))
        var plays: [(entity: Entity, outfit: [String], animation: String)] = []
        for i in 0..<24 {
            let outfit = ["skin-base", skins[(i * 5) % skins.count], skins[(i * 11 + 3) % skins.count]]
            let animation = i % 2 == 0 ? "walk" : "dance"
            let e = try world.spawn(data)
            try world.setSkin(e, parts: outfit)
            try world.setAnimation(e, track: 0, animation, loop: true)
            plays.append((e, outfit, animation))
        }
        for _ in 0..<20 { world.update(1 / 30) }
        for play in plays {
            let alone = World(layout: .instanceMajor)
            let f = try alone.spawn(data)
            try alone.setSkin(f, parts: play.outfit)
            try alone.setAnimation(f, track: 0, play.animation, loop: true)
            for _ in 0..<20 { alone.update(1 / 30) }
            let crowd = try world.pose(play.entity)
            let lone = try alone.pose(f)
            for k in 0..<data.bones.count {
                #expect(
                    zip(crowd.bones[k], lone.bones[k]).allSatisfy { FloatBits.same($0, $1) },
                    "\(play.outfit) bone \(data.bones[k].name)")
            }
            #expect(crowd.attachments == lone.attachments, "\(play.outfit)")
        }
    }
}
