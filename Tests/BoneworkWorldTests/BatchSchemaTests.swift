import BoneworkFormat
import BoneworkTestSupport
import Foundation
import Testing

@testable import BoneworkWorld

/// The batch's storage is declared once (`BatchSchema.tables`): these tests check that the
/// declaration covers every column the systems read, and that allocation, growth, despawn copies
/// and colour-row widening keep every value.
@Suite("Batch schema")
struct BatchSchemaTests {
    /// The address a `BatchColumns` column pointer holds, when the child is one (a mutable pointer
    /// of any element type, read through `ColumnPointer` as the system views' checks do; the
    /// batch-wide `colorRowOfSlot` is read-only and no column).
    static func address(_ value: Any) -> UnsafeRawPointer? {
        guard let p = value as? ColumnPointer, p.isMutable else { return nil }
        return UnsafeRawPointer(bitPattern: p.address)
    }

    /// The applied-pose pointers belong to the pose system's per-thread scratch, not the batch.
    static let scratchFields: Set<String> = [
        "appliedX", "appliedY", "appliedRotation", "appliedScaleX", "appliedScaleY", "appliedShearX", "appliedShearY",
    ]

    // MARK: Validity

    @Test("Every BatchColumns pointer is bound to a table of the schema")
    func everyPointerIsBound() throws {
        for data in [try ExampleSkeletons.spineboy(), try ExampleSkeletons.chibi()] {
            let batch = Batch(rig: CompiledSkeleton(data))
            var checked = 0
            for child in Mirror(reflecting: batch.columns()).children {
                guard let label = child.label, let p = Self.address(child.value) else { continue }
                if Self.scratchFields.contains(label) { continue }
                #expect(
                    p != UnsafeRawPointer(UnboundColumn.storage), "BatchColumns.\(label) is not in BatchSchema.tables")
                checked += 1
            }
            // Every field of every table is one pointer, except physics (one pointer, 23 fields).
            let declared = BatchSchema.tables.reduce(0) {
                $0 + ($1.extent == .physicsConstraints && $1.fields > 1 ? 1 : $1.fields)
            }
            #expect(checked == declared, "\(checked) pointers bound, \(declared) declared")
        }
    }

    // MARK: Behaviour

    @Test("Growth, despawn and a new colour row keep every value")
    func valuesSurviveReallocation() throws {
        let data = try ExampleSkeletons.spineboy()
        let world = World()
        var entities: [Entity] = []
        for k in 0..<20 {
            let e = try world.spawn(data)
            try world.setAnimation(e, track: 0, k % 2 == 0 ? "walk" : "run", loop: true)
            entities.append(e)
        }
        for _ in 0..<5 { world.update(1.0 / 30) }
        let before = try entities.map { try world.pose($0) }
        // Grow past the capacity, then despawn the new ones again: every row moves back.
        let extra = try (0..<40).map { _ in try world.spawn(data) }
        for e in extra.reversed() { try world.despawn(e) }
        #expect(try entities.map { try world.pose($0) } == before)
        // Despawning a middle row moves the last row into its place, whole.
        let last = try world.pose(entities[19])
        try world.despawn(entities[3])
        #expect(try world.pose(entities[19]) == last)
        // Colouring a slot that had no colour row widens the colour table for every row.
        let head = try #require(data.findSlotIndex("head"))
        let untouched = try world.pose(entities[5])
        try world.setSlotColor(entities[19], slot: head, Color(1, 0, 0, 1))
        #expect(try world.pose(entities[5]) == untouched)
        #expect(try world.slotColor(entities[19], slot: head) == Color(1, 0, 0, 1))
    }
}
