import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// `World.update` regroups a batch whose rows skins, spawns and despawns left interleaved by plan
/// (`Batch.regroupByPlan`): rows move, and everything that names an instance follows it (handles,
/// track entries, per-instance listeners, composed skins), while poses stay bit for bit what each
/// instance alone gives.
@Suite("Rows regrouped by plan")
struct RegroupTests {
    final class Heard: @unchecked Sendable {
        /// Per instance: the animations of the events its own listener heard.
        var animations: [Int: Set<String>] = [:]
        var starts: [Int: Int] = [:]
    }

    @Test func interleavedOutfitsAreRegroupedAndEverythingFollowsItsInstance() throws {
        let data = try ComposedSkinTests.data()
        let outfits = [
            ["skin-base", "hair/brown", "eyes/violet", "accessories/bag"],
            ["skin-base", "hair/blue", "clothes/hoodie-orange"],
            ["skin-base", "hair/pink", "legs/pants-jeans", "accessories/hat-red-yellow"],
            ["skin-base", "nose/long", "clothes/dress-green", "accessories/cape-red"],
        ]
        let world = World()
        let heard = Heard()
        var plays: [(entity: Entity, outfit: Int, animation: String, entry: TrackEntry)] = []
        for i in 0..<64 {
            let e = try world.spawn(data)
            try world.setSkin(e, parts: outfits[i % 4])
            let state = try world.animationState(e)
            try state.setListener { type, entry, _ in
                heard.animations[i, default: []].insert(entry.name ?? "?")
                if type == .start { heard.starts[i, default: 0] += 1 }
            }
            _ = try state.setAnimation(0, "idle", loop: true)
            plays.append((e, i % 4, "idle", try #require(try state.getCurrent(0))))
        }
        let batch = world.batch(for: data)
        #expect(batch.mixedGroups().mixed == batch.mixedGroups().groups, "spawned interleaved")
        world.update(1 / 30)
        // Grouped: only groups straddling two outfits hold more than one plan.
        #expect(batch.mixedGroups().mixed <= outfits.count - 1)
        #expect(batch.planBoundaries() == (outfits.count - 1, outfits.count - 1))
        heard.animations = [:]
        heard.starts = [:]
        for (i, p) in plays.enumerated() {
            let (b, row) = try world.locate(p.entity)
            #expect(b.entity(atRow: row) == p.entity)
            #expect(try world.skinParts(p.entity).map { data.skins[Int($0)].name } == outfits[p.outfit])
            #expect(p.entry.name == "idle")
            // After the rows moved: new entries, their events heard by the instance's own listener.
            let animation = i % 3 == 0 ? "dance" : "walk"
            let entry = try world.animationState(p.entity).setAnimation(0, animation, loop: true)
            plays[i] = (p.entity, p.outfit, animation, entry)
        }
        // A track entry still drives its own instance: the first one stops.
        try plays[0].entry.setTimeScale(0)
        let stopped = try plays[0].entry.trackTime
        for _ in 0..<19 { world.update(1 / 30) }
        #expect(try plays[0].entry.trackTime == stopped)
        #expect(try plays[1].entry.trackTime > stopped)
        for (i, p) in plays.enumerated() {
            #expect(heard.animations[i]?.contains(p.animation) == true, "instance \(i)")
            #expect(heard.animations[i]?.isSubset(of: [p.animation, "idle"]) == true, "instance \(i)")
            #expect(heard.starts[i] == 1, "instance \(i)")
        }
        for p in plays.dropFirst() {
            let alone = World(layout: .instanceMajor)
            let f = try alone.spawn(data)
            try alone.setSkin(f, parts: outfits[p.outfit])
            try alone.setAnimation(f, track: 0, "idle", loop: true)
            alone.update(1 / 30)
            try alone.setAnimation(f, track: 0, p.animation, loop: true)
            for _ in 0..<19 { alone.update(1 / 30) }
            let crowd = try world.pose(p.entity)
            let lone = try alone.pose(f)
            for k in 0..<data.bones.count {
                #expect(
                    zip(crowd.bones[k], lone.bones[k]).allSatisfy { FloatBits.same($0, $1) },
                    "outfit \(p.outfit) bone \(data.bones[k].name)")
            }
            #expect(crowd.attachments == lone.attachments)
        }
    }

    @Test func churnKeepsEveryHandleAndRegroups() throws {
        let data = try ComposedSkinTests.data()
        let outfits = [["skin-base", "hair/brown"], ["skin-base", "hair/blue"], ["skin-base", "eyes/violet"]]
        let world = World()
        var alive: [(Entity, Int)] = []
        for i in 0..<96 {
            let e = try world.spawn(data)
            try world.setSkin(e, parts: outfits[i % 3])
            alive.append((e, i % 3))
        }
        world.update(1 / 60)
        for round in 0..<6 {
            // Despawn every fourth, spawn as many in rotating outfits, switch some skins.
            var kept: [(Entity, Int)] = []
            for (k, a) in alive.enumerated() {
                if k % 4 == round % 4 { try world.despawn(a.0) } else { kept.append(a) }
            }
            while kept.count < 96 {
                let o = (kept.count + round) % 3
                let e = try world.spawn(data)
                try world.setSkin(e, parts: outfits[o])
                kept.append((e, o))
            }
            for k in stride(from: round, to: kept.count, by: 7) {
                let o = (kept[k].1 + 1) % 3
                try world.setSkin(kept[k].0, parts: outfits[o])
                kept[k].1 = o
            }
            alive = kept
            world.update(1 / 60)
            let batch = world.batch(for: data)
            #expect(batch.count == 96)
            let order = batch.planBoundaries()
            #expect(order.boundaries - order.fewest <= batch.count / 16)
            for (e, o) in alive {
                let (b, row) = try world.locate(e)
                #expect(b.entity(atRow: row) == e)
                #expect(try world.skinParts(e).map { data.skins[Int($0)].name } == outfits[o])
            }
        }
    }
}

extension Batch {
    /// The groups of 8 consecutive rows (the widest lane) holding more than one plan, and the
    /// groups in all.
    func mixedGroups() -> (mixed: Int, groups: Int) {
        let plan = columns().plan
        var mixed = 0
        for start in stride(from: 0, to: count, by: 8)
        where (start..<min(count, start + 8)).contains(where: {
            plan[$0] != plan[start]
        }) {
            mixed += 1
        }
        return (mixed, (count + 7) / 8)
    }
}
