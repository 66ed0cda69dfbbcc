import BoneworkFormat
import BoneworkTestSupport
import Testing

@testable import BoneworkWorld

/// Each frame system receives a view of the columns it may touch (`ApplyColumns`,
/// `PoseColumns`, `SlotColumns`, `VertexColumns`): what it writes is a mutable pointer, what it
/// reads a read-only one. These tests check the views are valid input, that invalid ones are
/// refused by name, and that what the views declare is what the frame's parallel chunks can run.
@Suite("System access")
struct SystemAccessTests {
    // MARK: Validity

    @Test("A batch's system views are valid for its rig, before and after growth and colour rows")
    func viewsOfABatchAreValid() throws {
        let data = try ExampleSkeletons.spineboy()
        let batch = Batch(rig: CompiledSkeleton(data), layout: ColumnLayout(chunkSize: 8), capacity: 8)
        #expect(batch.views.problem(rig: batch.rig.tables, storage: batch.tableStorage) == nil)
        for n in 0..<40 { _ = batch.add(entity: Entity(index: UInt32(n), generation: 0), plan: 0) }
        #expect(batch.capacity >= 40)
        #expect(batch.views.problem(rig: batch.rig.tables, storage: batch.tableStorage) == nil)
        #expect(batch.views.pose.a == batch.columns().a, "the views follow the reallocated columns")
        batch.ensureColorRow(slot: 0)
        #expect(batch.views.apply.shape.colorSlots == batch.columns().shape.colorSlots)
        #expect(batch.views.problem(rig: batch.rig.tables, storage: batch.tableStorage) == nil)
    }

    @Test("A view with an unbound column, a stray pointer or another rig's counts is refused by name")
    func invalidViewsAreRefused() throws {
        let data = try ExampleSkeletons.spineboy()
        let batch = Batch(rig: CompiledSkeleton(data), capacity: 4)
        let rig = batch.rig.tables
        let storage = batch.tableStorage

        var unbound = batch.views
        unbound.pose.worldX = UnboundColumn.pointer()
        let a = try #require(unbound.problem(rig: rig, storage: storage))
        #expect(a.contains("pose view") && a.contains("worldX"), "\(a)")

        let stray = UnsafeMutablePointer<Float>.allocate(capacity: 4)
        defer { stray.deallocate() }
        var strayView = batch.views
        strayView.apply.rotation = stray
        let b = try #require(strayView.problem(rig: rig, storage: storage))
        #expect(b.contains("timeline apply view") && b.contains("rotation"), "\(b)")

        var counts = batch.views
        counts.vertices.shape.boneCount += 1
        let c = try #require(counts.problem(rig: rig, storage: storage))
        #expect(c.contains("vertices view") && c.contains("bones"), "\(c)")

        var applied = batch.views
        applied.pose.appliedX = stray
        let d = try #require(applied.problem(rig: rig, storage: storage))
        #expect(d.contains("appliedX"), "\(d)")
    }

    // MARK: Access

    @Test("Each system's view declares what it writes: apply the local pose and slots, pose the world, draw nothing")
    func declaredAccess() throws {
        let access = Dictionary(uniqueKeysWithValues: SystemAccess.frame.map { ($0.system, $0) })
        let state = try #require(access[.animationState])
        let apply = try #require(access[.timelineApply])
        let pose = try #require(access[.pose])
        let slots = try #require(access[.slots])
        let vertices = try #require(access[.vertices])
        #expect(state.reads.isEmpty && state.writes.isEmpty)
        #expect(apply.writes.isSuperset(of: ["x", "rotation", "attachment", "colorR", "deform", "drawOrder", "ikMix"]))
        #expect(apply.writes.isDisjoint(with: ["a", "worldX", "appliedX", "time", "skeletonX", "entity"]))
        #expect(apply.reads == ["plan", "time", "colorRowOfSlot"])
        #expect(pose.writes.isSuperset(of: ["a", "b", "c", "d", "worldX", "worldY", "appliedX", "physics", "time"]))
        #expect(pose.writes.isDisjoint(with: ["x", "rotation", "attachment", "ikMix", "drawOrder", "plan"]))
        #expect(pose.reads.isSuperset(of: ["x", "rotation", "ikMix", "skeletonX", "plan"]))
        #expect(slots.writes.isEmpty && vertices.writes.isEmpty)
        #expect(vertices.reads.isSuperset(of: ["a", "worldX", "deform"]))
        // Nothing the frame's systems touch is left out of the batch's columns (the colour rows
        // of slots are batch-wide, and only read).
        for system in SystemAccess.frame {
            #expect(!system.writes.contains("colorRowOfSlot"))
            let unknown = system.reads.union(system.writes).subtracting(SystemAccess.rowOwned)
                .subtracting(["colorRowOfSlot"])
            #expect(unknown.isEmpty, "\(system.system.name): \(unknown.sorted())")
        }
    }

    @Test("The frame's systems may run on parallel chunks; a system writing batch-wide data could not")
    func parallelWrites() {
        #expect(SystemAccess.parallelConflicts() == nil)
        var systems = SystemAccess.frame
        systems[2].writes.insert("colorRowOfSlot")
        let conflict = SystemAccess.parallelConflicts(systems)
        #expect(conflict?.contains("colorRowOfSlot") == true, "\(conflict ?? "none")")
    }
}
