import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// A `ColumnMemory` on the heap that records what the World asks of it.
final class RecordingColumnMemory: ColumnMemory {
    var live: [UnsafeMutableRawPointer: Int] = [:]
    var allocations = 0
    var frees = 0
    var waits = 0
    /// Allocations refused from this one on (nil: none refused).
    var refuseFrom: Int? = nil

    func allocate(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        if let refuseFrom, allocations >= refuseFrom { return nil }
        allocations += 1
        let p = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: alignment)
        p.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        live[p] = byteCount
        return p
    }

    func deallocate(_ storage: UnsafeMutableRawPointer) {
        #expect(live.removeValue(forKey: storage) != nil, "freed what it did not allocate")
        frees += 1
        storage.deallocate()
    }

    func waitForReaders() { waits += 1 }

    func holds(_ pointer: UnsafeRawPointer) -> Bool {
        live.contains { UnsafeRawPointer($0.key) <= pointer && pointer < UnsafeRawPointer($0.key) + $0.value }
    }
}

/// `World.columnMemory`: the tables the schema marks shared (world transforms, slot attachments)
/// live where a renderer reads them, through growth, despawns, regrouping and moves, with the
/// same values as on the heap, and the World waits for readers before it writes them.
@Suite("Column memory")
struct ColumnMemoryTests {
    /// A crowd of spineboys and chibis in several outfits, played for a few frames, with
    /// despawns and spawns past the first capacity; the same script on any world.
    static func play(_ world: World) throws -> [Entity] {
        let boy = try ExampleSkeletons.spineboy()
        let chibi = try ExampleSkeletons.chibi()
        var entities: [Entity] = []
        for k in 0..<40 {
            let data = k % 3 == 0 ? chibi : boy
            let e = try world.spawn(data, skin: k % 3 == 0 ? data.skins.last?.name : nil)
            try world.setAnimation(e, track: 0, data.animations[k % data.animations.count].name, loop: true)
            entities.append(e)
        }
        for frame in 0..<6 {
            world.update(1.0 / 30)
            if frame == 2 {
                for e in entities[5..<12] { try world.despawn(e) }
                entities.removeSubrange(5..<12)
                for _ in 0..<30 { entities.append(try world.spawn(boy)) }
            }
        }
        return entities
    }

    /// The poses of `entities` (world transforms, attachments, colours, vertices).
    static func state(_ world: World, _ entities: [Entity]) throws -> [InstancePose] {
        try entities.map { try world.pose($0) }
    }

    /// Plays the script on `world` and on a world without a memory: the poses must be the same.
    static func expectSamePosesAsOnTheHeap(_ world: World, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws
    {
        let entities = try play(world)
        let reference = World()
        let same = try play(reference)
        #expect(try state(world, entities) == state(reference, same), sourceLocation: sourceLocation)
    }

    @Test("Shared tables are allocated from the memory and hold what the heap holds")
    func sharedTablesLiveInTheMemory() throws {
        let memory = RecordingColumnMemory()
        let world = World()
        world.columnMemory = memory
        try Self.expectSamePosesAsOnTheHeap(world)
        let shared = BatchSchema.tables.filter(\.shared).count
        #expect(shared == 2, "world transforms and slot attachments")
        #expect(memory.live.count == world.batches.count * shared)
        for batch in world.batches {
            let c = batch.columns()
            #expect(memory.holds(c.a) && memory.holds(c.worldY) && memory.holds(c.attachment))
            #expect(!memory.holds(c.x) && !memory.holds(c.colorR), "only the shared tables")
        }
        #expect(memory.frees > 0, "growth handed old storage back")
        #expect(memory.allocations - memory.frees == memory.live.count)
    }

    @Test("Setting the memory moves existing batches there and back, values kept")
    func settingTheMemoryMovesTheBatches() throws {
        let world = World()
        let entities = try Self.play(world)
        let before = try Self.state(world, entities)
        let memory = RecordingColumnMemory()
        world.columnMemory = memory
        #expect(memory.live.count == world.batches.count * 2)
        #expect(try Self.state(world, entities) == before)
        world.columnMemory = nil
        #expect(memory.live.isEmpty, "every table back on the heap")
        #expect(try Self.state(world, entities) == before)
        for batch in world.batches { #expect(!memory.holds(batch.columns().a)) }
    }

    @Test("A memory that refuses leaves the tables on the heap")
    func refusalFallsBackToTheHeap() throws {
        let memory = RecordingColumnMemory()
        memory.refuseFrom = 1
        let world = World()
        world.columnMemory = memory
        try Self.expectSamePosesAsOnTheHeap(world)
        #expect(memory.live.count <= 1)
    }

    @Test("The World waits for readers before it writes")
    func waitsBeforeWriting() throws {
        let memory = RecordingColumnMemory()
        let world = World()
        world.columnMemory = memory
        let data = try ExampleSkeletons.spineboy()
        var waits = memory.waits
        let e = try world.spawn(data)
        #expect(memory.waits > waits, "spawn")
        waits = memory.waits
        world.update(1.0 / 60)
        #expect(memory.waits > waits, "update")
        waits = memory.waits
        try world.setAnimation(e, track: 0, "walk", loop: true)
        #expect(memory.waits > waits, "a change to one instance")
        waits = memory.waits
        try world.despawn(e)
        #expect(memory.waits > waits, "despawn")
    }
}
