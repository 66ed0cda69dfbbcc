import BoneworkFormat
import BoneworkTestSupport
import BoneworkTriggers
import Foundation
import Testing

@testable import BoneworkWorld

/// A world of spineboys with a locomotion scope on track 0: triggers, in priority order,
/// "mood" (Int: 1 -> jump once... here: `jump` looping) and "speed" (bucket: idle/walk/run).
private final class TriggerFixture {
    let world = World()
    let triggers: TriggerSystem
    let speed: ValueColumn
    let mood: ValueColumn
    let hit: ValueColumn
    let locomotion: TriggerScope
    var entities: [Entity] = []

    static func moodTrigger(_ column: ValueColumn) -> AnimationTrigger {
        AnimationTrigger(
            "mood", column: column,
            cases: [(.int(1), .play("jump", loop: true)), (.int(2), .play("shoot", loop: true))], mix: 0.1)
    }
    static func speedTrigger(_ column: ValueColumn) -> AnimationTrigger {
        AnimationTrigger(
            "speed", column: column,
            cases: [
                (.bucket(0), .play("idle", loop: true)), (.bucket(1), .play("walk", loop: true)),
                (.bucket(2), .play("run", loop: true)),
            ], mix: 0.2)
    }

    init(count: Int = 3) throws {
        let data = try ExampleSkeletons.spineboy()
        triggers = TriggerSystem(world: world)
        speed = triggers.addColumn("speed")
        mood = triggers.addColumn("mood")
        hit = triggers.addColumn("hit")
        locomotion = triggers.addScope(
            "Locomotion", track: 0, triggers: [Self.moodTrigger(mood), Self.speedTrigger(speed)])
        for _ in 0..<count {
            let e = try world.spawn(data)
            triggers.set(speed, e, .bucket(0))
            triggers.set(mood, e, .int(0))
            try triggers.join(locomotion, e)
            entities.append(e)
        }
    }

    /// The animation playing on `track` of every entity (nil: empty track).
    func playing(_ track: Int = 0) throws -> [String?] {
        try entities.map { e in try world.animationState(e).getCurrent(track).flatMap { $0.name } }
    }

    func frame() {
        triggers.update()
        world.update(1 / 60)
    }
}

@Suite(.serialized) struct TriggerTests {
    @Test func firstEvaluationStartsTheFirstMappedAnimationWithoutMixing() throws {
        let f = try TriggerFixture()
        f.triggers.set(f.speed, f.entities[1], .bucket(2))
        f.triggers.set(f.mood, f.entities[2], .int(1))
        f.frame()
        #expect(try f.playing() == ["idle", "run", "jump"])
        let entry = try #require(try f.world.animationState(f.entities[1]).getCurrent(0))
        #expect(try entry.mixDuration == 0)
        #expect(f.locomotion.winningTrigger(f.entities[2]) == "mood")
        #expect(f.locomotion.winningTrigger(f.entities[1]) == "speed")
    }

    @Test func firstChangedTriggerInDeclaredOrderWins() throws {
        let f = try TriggerFixture(count: 4)
        f.frame()
        #expect(try f.playing() == ["idle", "idle", "idle", "idle"])
        // 0: both change (mood is declared first: jump). 1: only speed (walk). 2: only mood to a
        // value with no animation (keep idle; speed did not change). 3: nothing changes.
        f.triggers.set(f.mood, f.entities[0], .int(1))
        f.triggers.set(f.speed, f.entities[0], .bucket(2))
        f.triggers.set(f.speed, f.entities[1], .bucket(1))
        f.triggers.set(f.mood, f.entities[2], .int(7))
        f.triggers.set(f.speed, f.entities[3], .bucket(0))
        f.frame()
        #expect(try f.playing() == ["jump", "walk", "idle", "idle"])
        #expect(try f.world.animationState(f.entities[0]).getCurrent(0)?.mixDuration == 0.1)
        #expect(try f.world.animationState(f.entities[1]).getCurrent(0)?.mixDuration == 0.2)
        #expect(f.triggers.changesLastFrame == 2)
        // Next frame: mood unchanged, speed changes back: the speed trigger wins now.
        f.triggers.set(f.speed, f.entities[0], .bucket(1))
        f.frame()
        #expect(try f.playing() == ["walk", "walk", "idle", "idle"])
        // Mood changes while speed stays: shoot. Then mood and speed in one frame again: mood.
        f.triggers.set(f.mood, f.entities[1], .int(2))
        f.frame()
        #expect(try f.playing() == ["walk", "shoot", "idle", "idle"])
        f.triggers.set(f.mood, f.entities[1], .int(1))
        f.triggers.set(f.speed, f.entities[1], .bucket(0))
        f.frame()
        #expect(try f.playing() == ["walk", "jump", "idle", "idle"])
        #if DEBUG
            let conflicts = f.triggers.diagnostics.reports.filter { $0.kind == .conflict }
            #expect(conflicts.count == 2)
            #expect(conflicts.map(\.entity) == [f.entities[0], f.entities[1]])
            #expect(conflicts.allSatisfy { $0.source == "speed" && $0.detail == "mood" && $0.track == 0 })
            #expect(conflicts.allSatisfy { $0.scope == "Locomotion" })
            #expect(conflicts[0].description.contains("conflict in scope 'Locomotion'"))
        #endif
    }

    @Test func valuesCompareByKindAndPayload() throws {
        let f = try TriggerFixture(count: 4)
        let scope = f.triggers.addScope(
            "Aim", track: 1,
            triggers: [
                AnimationTrigger(
                    "target", column: f.hit, cases: [(.optionalInt(3), .play("aim", loop: true))], otherwise: .empty,
                    mix: 0)
            ])
        for e in f.entities {
            f.triggers.set(f.hit, e, .int(3))
            try f.triggers.join(scope, e)
        }
        f.frame()
        // Int(3) maps to nothing (otherwise: empty): the first evaluation plays the empty animation.
        #expect(try f.playing(1) == ["<empty>", "<empty>", "<empty>", "<empty>"])
        // Same number, other type: a change. Same type and value: no change. nil vs 0: a change.
        f.triggers.set(f.hit, f.entities[0], .optionalInt(3))
        f.triggers.set(f.hit, f.entities[1], .int(3))
        f.triggers.set(f.hit, f.entities[2], .float(3))
        f.triggers.set(f.hit, f.entities[3], .optionalInt(nil))
        f.frame()
        #expect(f.triggers.changesLastFrame == 3)
        #expect(try f.playing(1)[0] == "aim")
        #expect(f.triggers.value(f.hit, f.entities[3]) != .optionalInt(0))
        #expect(TriggerValue.float(0) == .float(-0.0))
        #expect(TriggerValue.bucket(1) != .int(1))
        #expect(TriggerValue.bucket(4.5, bounds: [1, 4]) == .bucket(2))
        // Unchanged values make no new entry.
        let before = try #require(try f.world.animationState(f.entities[0]).getCurrent(1))
        f.frame()
        #expect(f.triggers.changesLastFrame == 0)
        #expect(try f.world.animationState(f.entities[0]).getCurrent(1) == before)
    }

    @Test func aChangedTriggerCountResetsTheBaselineWithoutAnimation() throws {
        let f = try TriggerFixture(count: 2)
        f.frame()
        // Three triggers now: values change in the same frame, yet nothing plays.
        let team = f.triggers.addColumn("team")
        f.triggers.set(team, f.entities[0], .int(1))
        f.triggers.set(team, f.entities[1], .int(1))
        f.locomotion.setTriggers([
            AnimationTrigger("team", column: team, cases: [(.int(2), .play("death", loop: false))]),
            TriggerFixture.moodTrigger(f.mood), TriggerFixture.speedTrigger(f.speed),
        ])
        f.triggers.set(f.speed, f.entities[0], .bucket(2))
        f.triggers.set(f.mood, f.entities[1], .int(1))
        f.frame()
        #expect(try f.playing() == ["idle", "idle"])
        #expect(f.triggers.changesLastFrame == 0)
        // From the new baseline, changes act again at their new positions.
        f.triggers.set(team, f.entities[0], .int(2))
        f.triggers.set(f.speed, f.entities[0], .bucket(1))
        f.triggers.set(f.speed, f.entities[1], .bucket(1))
        f.frame()
        #expect(try f.playing() == ["death", "walk"])
        // Same count, reordered: compared at the new positions. Entity 1's speed sits where the
        // team value was (bucket(1) vs int(1): a type change) so it plays walk again (new entry).
        let walk = try #require(try f.world.animationState(f.entities[1]).getCurrent(0))
        f.locomotion.setTriggers([
            TriggerFixture.speedTrigger(f.speed), TriggerFixture.moodTrigger(f.mood),
            AnimationTrigger("team", column: team, cases: [(.int(2), .play("death", loop: false))]),
        ])
        f.frame()
        #expect(try f.playing() == ["walk", "walk"])
        #expect(try f.world.animationState(f.entities[1]).getCurrent(0) != walk)
    }

    @Test func aBarrierRefusesForeignChanges() throws {
        let f = try TriggerFixture(count: 2)
        let reaction = f.triggers.addScope(
            "Reaction", track: 1,
            triggers: [
                AnimationTrigger("hit", column: f.hit, cases: [(.bool(true), .playOnce("shoot", fadeOut: 0.1))])
            ],
            barrier: true, blend: .add)
        for e in f.entities {
            f.triggers.set(f.hit, e, .bool(false))
            try f.triggers.join(reaction, e)
        }
        f.frame()
        #expect(try f.playing(1) == [nil, nil])
        // Routed foreign change: typed error, nothing changes.
        #expect(
            throws: TriggerError.refusedByBarrier(entity: f.entities[0], track: 1, barrier: "Reaction", source: "game")
        ) {
            try f.triggers.setAnimation(f.entities[0], track: 1, "jump", loop: false, source: "game")
        }
        #expect(try f.playing(1) == [nil, nil])
        // The scope's own change passes its barrier, additive, followed by a queued fade out.
        f.triggers.set(f.hit, f.entities[1], .bool(true))
        f.frame()
        #expect(try f.playing(1) == [nil, "shoot"])
        let shoot = try #require(try f.world.animationState(f.entities[1]).getCurrent(1))
        #expect(try shoot.mixBlend == .add)
        #expect(try shoot.next?.name == "<empty>")
        // Unrouted change straight on the animation state: undone at the next evaluation.
        try f.world.animationState(f.entities[0]).setAnimation(1, "jump", loop: true)
        try f.world.animationState(f.entities[1]).setAnimation(1, "jump", loop: true)
        f.frame()
        // Entity 0 had nothing from the scope yet: its track is cleared. Entity 1 goes back to
        // the end state of its reaction (the empty animation).
        #expect(try f.playing(1) == [nil, "<empty>"])
        // A plain scope accepts a foreign change (a leak) and keeps it.
        try f.triggers.setAnimation(f.entities[0], track: 0, "jump", loop: true, source: "game")
        try f.world.animationState(f.entities[1]).setAnimation(0, "death", loop: true)
        f.frame()
        #expect(try f.playing() == ["jump", "death"])
        #if DEBUG
            let reports = f.triggers.diagnostics.reports
            let refused = reports.filter { $0.kind == .refused }
            #expect(refused.map(\.entity) == [f.entities[0], f.entities[0], f.entities[1]])
            #expect(refused.map(\.source) == ["game", "unrouted", "unrouted"])
            #expect(refused.allSatisfy { $0.track == 1 && $0.scope == "Reaction" && $0.detail == "jump" })
            let leaks = reports.filter { $0.kind == .leak }
            #expect(leaks.map(\.entity) == [f.entities[0], f.entities[1]])
            #expect(leaks.map(\.source) == ["game", "unrouted"])
            #expect(leaks.map(\.detail) == ["jump", "death"])
            #expect(f.triggers.diagnostics.conflicts == 0)
            // Reported once each: later frames find the accepted entries already stamped.
            f.frame()
            #expect(f.triggers.diagnostics.total == 5)
        #endif
    }

    @Test func scopesOwnTracksAlone() throws {
        let f = try TriggerFixture(count: 1)
        let other = f.triggers.addBarrier("Other", track: 0)
        #expect(throws: TriggerError.trackAlreadyScoped(entity: f.entities[0], track: 0, scope: "Locomotion")) {
            try f.triggers.join(other, f.entities[0])
        }
        // The scope's explicit operation is its own change: no leak.
        f.frame()
        try f.triggers.play(f.locomotion, f.entities[0], "run", loop: true)
        f.frame()
        #expect(try f.playing() == ["run"])
        #if DEBUG
            #expect(f.triggers.diagnostics.total == 0)
        #endif
    }

    @Test func despawnedMembersLeaveAndReusedIndicesStartFresh() throws {
        let f = try TriggerFixture(count: 2)
        f.frame()
        try f.world.despawn(f.entities[0])
        let data = try ExampleSkeletons.spineboy()
        let reused = try f.world.spawn(data)
        #expect(reused.index == f.entities[0].index)
        #expect(!f.locomotion.contains(reused))
        f.triggers.set(f.speed, reused, .bucket(2))
        f.frame()
        #expect(try f.world.animationState(reused).getCurrent(0) == nil)
        try f.triggers.join(f.locomotion, reused)
        f.frame()
        #expect(try f.world.animationState(reused).getCurrent(0)?.name == "run")
    }

    @Test func diagnosticsExistOnlyInDebugBuilds() throws {
        #if DEBUG
            #expect(TriggerDiagnosticsBuild.enabled)
        #else
            #expect(!TriggerDiagnosticsBuild.enabled)
        #endif
        let f = try TriggerFixture(count: 1)
        f.frame()
        f.triggers.set(f.mood, f.entities[0], .int(1))
        f.triggers.set(f.speed, f.entities[0], .bucket(1))
        f.frame()
        #expect(try f.playing() == ["jump"])
        #if DEBUG
            #expect(f.triggers.diagnostics.conflicts == 1)
        #endif
    }
}
