import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// `StateKernel.apply(rows:)` applies the bone and constraint timelines of rows whose track 0
/// plays plainly in groups, timeline by timeline over the rows sharing an animation and plan;
/// every other row and timeline row by row. Both ways must give every instance the same pose,
/// bit for bit.
@Suite("Timeline groups")
struct TimelineGroupTests {
    /// Instances of spineboy (IK and transform timelines), mix-and-match (transform timelines,
    /// several skins, so several plans) and tank (a path timeline) in states
    /// that are plain and that are not: reversed, mixing in, half alpha, a second track, a
    /// delay, a non-looping entry running past its end. More than one run of rows
    /// (`StateWorkspace.runCapacity`). Returns the poses every few frames.
    static func poses(groups: Bool, layout: ColumnLayout) throws -> [[[UInt32]]] {
        let spineboy = try ExampleSkeletons.spineboy()
        let mixAndMatch = try ExampleSkeletons.load(
            "mix-and-match/mix-and-match-pro.skel", atlas: "mix-and-match/mix-and-match.atlas")
        let tank = try ExampleSkeletons.load("tank/tank-pro.skel", atlas: "tank/tank.atlas")
        let skins = mixAndMatch.skins.map(\.name).filter { $0 != "default" }.prefix(4)
        let world = World(layout: layout, trackCount: 2)
        var entities: [Entity] = []
        for n in 0..<150 {
            let data = [spineboy, mixAndMatch, tank][n % 3]
            let e = try world.spawn(data, skin: data === mixAndMatch ? skins[n % skins.count] : nil)
            try world.locate(e).batch.animationStates.groupsTimelines = groups
            let names = data.animations.map(\.name)
            let state = try world.animationState(e)
            let entry = try state.setAnimation(0, names[n % names.count], loop: n % 11 != 4)
            try entry.setTrackTime(Float(n % 17) * 0.061)
            switch n % 9 {
            case 0: try entry.setReverse(true)
            case 1:
                let next = try state.addAnimation(0, names[(n + 1) % names.count], loop: true, delay: 0.1)
                try next.setMixDuration(0.4, delay: 0.1)
            case 2: try entry.setAlpha(0.5)
            case 3: _ = try state.setAnimation(1, names[(n + 2) % names.count], loop: true)
            case 4: try entry.setDelay(0.15)
            default: break
            }
            entities.append(e)
        }
        var poses: [[[UInt32]]] = []
        for frame in 0..<48 {
            world.update(1 / 30)
            if frame % 6 == 5 { poses.append(try entities.map { ParallelTraceTests.bits(try world.pose($0)) }) }
        }
        return poses
    }

    @Test("Grouped and row-by-row bone timelines give the same poses, bit for bit", arguments: [1, 8])
    func sameAsRowByRow(chunk: Int) throws {
        let layout = chunk == 1 ? ColumnLayout.instanceMajor : ColumnLayout(chunkSize: chunk)
        let grouped = try Self.poses(groups: true, layout: layout)
        let rowByRow = try Self.poses(groups: false, layout: layout)
        #expect(grouped.count == rowByRow.count)
        var differences = 0
        for (k, (a, b)) in zip(grouped, rowByRow).enumerated() {
            for n in a.indices where a[n] != b[n] {
                if differences == 0 { Issue.record("snapshot \(k), instance \(n): poses differ") }
                differences += 1
            }
        }
        #expect(differences == 0)
    }

    @Test("Only plain rows join a group: track 0 at full alpha, not mixing, not delayed, not ending")
    func plainRows() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World(trackCount: 2)
        var entities: [Entity] = []
        for _ in 0..<7 { entities.append(try world.spawn(data)) }
        func state(_ n: Int) throws -> AnimationState { try world.animationState(entities[n]) }
        _ = try state(0).setAnimation(0, "walk", loop: true)
        try state(1).setAnimation(0, "run", loop: true).setReverse(true)
        try state(2).setAnimation(0, "walk", loop: true).setAlpha(0.5)
        _ = try state(3).setAnimation(0, "walk", loop: true)
        try state(4).setAnimation(0, "walk", loop: true).setDelay(1)
        // Row 5 ends: its last apply mixes to the setup pose.
        try state(5).setAnimation(0, "walk", loop: true).setTrackEnd(0.02)
        // Row 6: no animation.
        world.update(1 / 60)
        // Row 3 mixes from walk to run.
        try state(3).setAnimation(0, "run", loop: true).setMixDuration(0.5)
        world.update(1 / 60)
        let (batch, _) = try world.locate(entities[0])
        let store = batch.animationStates
        let ws = store.workspace(0)
        store.kernel.applyGroupedTimelines(0..<7, batch.views.apply, ws)
        let flags = (0..<7).map { ws.groupedApplied[$0] }
        #expect(flags == [1, 1, 0, 0, 0, 0, 0])
    }
}
