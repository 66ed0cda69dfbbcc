import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// The bulk reads renderers use (`PoseView.writeBoneRows`, `copySlotStates`, `readDrawOrder`,
/// `World.locate(_:entity:into:)`) give exactly what the per-field accessors give.
@Suite struct PoseViewBulkReadTests {
    /// Several instances of every example skeleton (each export, with its skins and animations,
    /// a few frames in): every bone row, slot state and draw-order entry equals its accessor's.
    @Test func bulkReadsMatchTheAccessorsOnEveryExample() throws {
        var checked = 0
        for relative in TestPaths.skeletonFiles() {
            let data = try SkeletonLoader.load(
                file: TestPaths.example(relative),
                atlas: try TestPaths.atlasPath(forSkeleton: relative).map { try AtlasReader.read(file: $0) })
            let world = World(trackCount: 2)
            let skins = [nil] + data.skins.map(\.name).filter { $0 != "default" }.prefix(2).map { Optional($0) }
            var entities: [Entity] = []
            for (k, skin) in skins.enumerated() {
                let e = try world.spawn(data, skin: skin)
                if !data.animations.isEmpty {
                    try world.setAnimation(e, track: 0, data.animations[k % data.animations.count].name, loop: true)
                    try world.setAnimation(
                        e, track: 1, data.animations[(k + 1) % data.animations.count].name, loop: true)
                }
                entities.append(e)
            }
            for _ in 0..<3 { world.update(0.37) }
            for e in entities {
                let view = try world.poseView(e)
                var bones = [Float](repeating: .nan, count: view.boneCount * 6)
                bones.withUnsafeMutableBufferPointer { view.writeBoneRows(view.boneCount, into: $0.baseAddress!) }
                for k in 0..<view.boneCount {
                    let t = view.boneTransform(k)
                    let expected = [t.a, t.b, t.c, t.d, t.worldX, t.worldY]
                    #expect(
                        Array(bones[(k * 6)..<(k * 6 + 6)]).map(\.bitPattern) == expected.map(\.bitPattern),
                        "\(relative) bone \(data.bones[k].name)")
                }
                var states = [SlotDrawState](repeating: SlotDrawState(), count: view.slotCount + 2)
                states.withUnsafeMutableBufferPointer { view.copySlotStates(view.slotCount + 2, into: $0.baseAddress!) }
                for s in 0..<view.slotCount {
                    let state = states[s]
                    let color = view.color(slot: s)
                    let dark = view.darkColor(slot: s)
                    let name = "\(relative) slot \(data.slots[s].name)"
                    #expect(Int(state.attachment) == view.slotAttachment(s), "\(name): attachment")
                    #expect(Int(state.sequenceIndex) == view.slotSequenceIndex(s), "\(name): sequence index")
                    #expect(
                        (state.boneActive != 0) == view.isBoneActive(Int(data.slots[s].bone)), "\(name): bone active")
                    #expect(
                        [state.r, state.g, state.b, state.a] == [color.r, color.g, color.b, color.a], "\(name): colour")
                    #expect([state.darkR, state.darkG, state.darkB] == [dark.r, dark.g, dark.b], "\(name): dark")
                }
                #expect(states[view.slotCount].attachment == -1, "\(relative): past the slots reads as empty")
                var order = [Int32](repeating: -7, count: view.slotCount + 1)
                let (count, setup) = order.withUnsafeMutableBufferPointer {
                    view.readDrawOrder(view.slotCount + 1, into: $0.baseAddress!)
                }
                #expect(count == view.slotCount)
                let expected = (0..<view.slotCount).map { Int32(view.drawOrderSlot($0)) }
                #expect(Array(order[0..<count]) == expected, "\(relative): draw order")
                #expect(setup == (expected == (0..<view.slotCount).map { Int32($0) }), "\(relative): setup order")
                #expect(order[view.slotCount] == -7, "\(relative): nothing written past the count")
                checked += 1
            }
        }
        #expect(checked >= 40)
    }

    /// Bulk location gives every instance's (batch, row) as `locate` does, across batches, and
    /// throws `staleEntity` for a despawned one.
    @Test func bulkLocateMatchesLocateAndRefusesStaleHandles() throws {
        let world = World()
        let spineboy = try ExampleSkeletons.spineboy()
        let chibi = try ExampleSkeletons.chibi()
        var entities: [Entity] = []
        for k in 0..<40 { entities.append(try world.spawn(k % 3 == 0 ? chibi : spineboy)) }
        try world.despawn(entities[5])
        let alive = entities.enumerated().filter { $0.offset != 5 }.map(\.element).reversed().map { $0 }
        var rows = [UInt64](repeating: 0, count: alive.count)
        try rows.withUnsafeMutableBufferPointer { r in
            try world.locate(alive.count, entity: { alive[$0] }, into: r.baseAddress!)
        }
        for (k, e) in alive.enumerated() {
            let (batch, row) = try world.locate(e)
            let index = try #require(world.batches.firstIndex { $0 === batch })
            #expect(rows[k] == UInt64(index) << 32 | UInt64(row), "entity \(e)")
        }
        #expect(Set(rows.map { $0 >> 32 }).count == 2)
        let stale = [entities[0], entities[5]]
        #expect(throws: WorldError.staleEntity(entities[5])) {
            try rows.withUnsafeMutableBufferPointer { r in
                try world.locate(stale.count, entity: { stale[$0] }, into: r.baseAddress!)
            }
        }
    }
}
