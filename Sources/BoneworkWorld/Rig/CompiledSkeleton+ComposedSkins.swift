import BoneworkFormat
import Synchronization

/// The per-plan tables with room for composed skins: rows `0 ..< planCount` are in use, rows up to
/// `planCapacity` are reserved so that a new plan never moves a table the systems read through
/// `RigTables` (their pointers are these, read-only).
///
/// # Safety
/// The pointers live as long as the `CompiledSkeleton` (its `FrozenBuffers`). A row is written
/// once, under `ComposedSkins`' lock, before its plan index is handed out; rows in use are never
/// written again, so readers of a plan they were given never race with a writer.
struct PlanStore: @unchecked Sendable {
    var planCapacity: Int
    var opCapacity: Int
    var planOpStart: UnsafeMutablePointer<Int32>
    var planOpCount: UnsafeMutablePointer<Int32>
    var ops: UnsafeMutablePointer<UpdateOp>
    var boneActive: UnsafeMutablePointer<UInt8>
    var slotActive: UnsafeMutablePointer<UInt8>
    var ik: UnsafeMutablePointer<UInt8>
    var transform: UnsafeMutablePointer<UInt8>
    var path: UnsafeMutablePointer<UInt8>
    var physics: UnsafeMutablePointer<UInt8>
    var attachment: UnsafeMutablePointer<Int32>

    /// The data skins' plans (`compilePlans`, child steps already replaced), with room for
    /// `composedLimit` more plans of at most `opsPerPlan` steps each.
    init(_ plans: CompiledPlans, composedLimit: Int, opsPerPlan: Int, _ b: FrozenBuffers) {
        planCapacity = plans.planCount + composedLimit
        opCapacity = plans.ops.count + composedLimit * opsPerPlan
        // Each table holds one row per plan: its row width is its length over the plans.
        let per = { (table: [UInt8]) in table.count / max(1, plans.planCount) }
        planOpStart = b.reserve(plans.planOpStart, capacity: planCapacity)
        planOpCount = b.reserve(plans.planOpCount, capacity: planCapacity)
        ops = b.reserve(plans.ops, capacity: opCapacity)
        boneActive = b.reserve(plans.planBoneActive, capacity: planCapacity * per(plans.planBoneActive))
        slotActive = b.reserve(plans.planSlotActive, capacity: planCapacity * per(plans.planSlotActive))
        ik = b.reserve(plans.planIK, capacity: planCapacity * per(plans.planIK))
        transform = b.reserve(plans.planTC, capacity: planCapacity * per(plans.planTC))
        path = b.reserve(plans.planPath, capacity: planCapacity * per(plans.planPath))
        physics = b.reserve(plans.planPhysics, capacity: planCapacity * per(plans.planPhysics))
        attachment = b.reserve(plans.planAttachment, capacity: planCapacity * plans.keyCount)
    }
}

/// Skins composed of several data skins (the reference's `Skin.addSkin`), interned per compiled
/// skeleton (one per world and skeleton data): the first instance to wear an outfit compiles its
/// plan (update program, active bones, slots and constraints, attachment table) once; every later
/// one gets the same plan index. Instances in the same outfit, or in outfits with the same
/// update program, are posed together in lanes; wearing an outfit costs nothing per frame.
struct ComposedSkins {
    /// Plans of composed skins a skeleton with several skins keeps room for; one more is a
    /// `WorldError.tooManyComposedSkins`.
    static let limit = 256

    /// The parts of every plan in use (plan 0: none; plan s + 1: data skin s; then composed).
    var parts: [[Int32]]
    /// The plan of each composed part list.
    var planOf: [[Int32]: Int32] = [:]
    /// The entries a plan's skin holds, one per (slot, name) key (a later part's replacing an
    /// earlier one's), in the order the keys first appear: what `setSkin` iterates.
    var entries: [[SkinEntry]]
    /// Update programs per plan, kept for inspection and tests.
    var programs: [UpdateProgram]
    /// Steps in use in `PlanStore.ops`.
    var opCount: Int
}

extension CompiledSkeleton {
    /// The plan of the skin composed of data skins `parts` in order (a later part replaces an
    /// earlier one's attachment on the same (slot, name); a part given twice counts where it
    /// was given last): 0 for none, `plan(skin:)` for one, else an interned composed plan.
    /// Throws `WorldError.noSuchSkin` for an index that is not a skin of the data and
    /// `tooManyComposedSkins` when the skeleton's room for composed plans (or for their update
    /// steps) is used up; nothing is changed then.
    public func plan(parts given: [Int32]) throws(WorldError) -> Int32 {
        for p in given where p < 0 || Int(p) >= data.skins.count {
            throw .noSuchSkin("#\(p)", skeleton: data.file)
        }
        var parts: [Int32] = []
        for (i, p) in given.enumerated() where !given[(i + 1)...].contains(p) { parts.append(p) }
        if parts.isEmpty { return 0 }
        if parts.count == 1 { return parts[0] + 1 }
        return try composed.withLock { (state: inout ComposedSkins) throws(WorldError) -> Int32 in
            if let plan = state.planOf[parts] { return plan }
            let plan = state.parts.count
            guard plan < store.planCapacity else {
                throw .tooManyComposedSkins(skeleton: data.file, limit: store.planCapacity - (data.skins.count + 1))
            }
            let rows = PlanRows(data, parts: parts, keyCount: tables.keyCount) { self.key(slot: $0, name: $1) ?? -1 }
            let ops = Self.replacingChildSteps(rows.program.ops, childSteps, data)
            // A plan with an equal program shares its steps (and its instances their lanes), as
            // `compilePlans` shares them between data skins.
            let start: Int
            if let same = state.programs.firstIndex(where: { $0.ops == rows.program.ops }) {
                start = Int(store.planOpStart[same])
            } else {
                guard state.opCount + ops.count <= store.opCapacity else {
                    throw .tooManyComposedSkins(skeleton: data.file, limit: plan - (data.skins.count + 1))
                }
                start = state.opCount
                (store.ops + start).initialize(from: ops, count: ops.count)
                state.opCount += ops.count
            }
            (store.planOpStart + plan).initialize(to: Int32(start))
            (store.planOpCount + plan).initialize(to: Int32(ops.count))
            func put(_ row: [UInt8], _ table: UnsafeMutablePointer<UInt8>) {
                (table + plan * row.count).initialize(from: row, count: row.count)
            }
            put(rows.boneActive, store.boneActive)
            put(rows.slotActive, store.slotActive)
            put(rows.ik, store.ik)
            put(rows.transform, store.transform)
            put(rows.path, store.path)
            put(rows.physics, store.physics)
            (store.attachment + plan * rows.attachment.count).initialize(
                from: rows.attachment, count: rows.attachment.count)
            state.parts.append(parts)
            state.entries.append(Self.mergedEntries(data, parts))
            state.programs.append(rows.program)
            state.planOf[parts] = Int32(plan)
            return Int32(plan)
        }
    }

    /// The data skins plan `plan` is made of (none for plan 0 or a plan not handed out).
    public func parts(plan: Int32) -> [Int32] {
        composed.withLock { state in
            plan >= 0 && Int(plan) < state.parts.count ? state.parts[Int(plan)] : []
        }
    }

    /// The entries of plan `plan`'s skin (nil: no skin), one per (slot, name).
    func skinEntries(plan: Int32) -> [SkinEntry]? {
        composed.withLock { state in
            plan > 0 && Int(plan) < state.entries.count ? state.entries[Int(plan)] : nil
        }
    }

    /// Plans handed out so far: one per skin plus "no skin", then the composed ones.
    public var planCount: Int { composed.withLock { $0.parts.count } }

    /// The update program of a plan handed out (nil otherwise).
    func program(plan: Int32) -> UpdateProgram? {
        composed.withLock { state in
            plan >= 0 && Int(plan) < state.programs.count ? state.programs[Int(plan)] : nil
        }
    }

    /// The entries of the skin composed of `parts`: each (slot, name) once, holding the last
    /// part's attachment, in the order the keys first appear.
    static func mergedEntries(_ data: SkeletonData, _ parts: [Int32]) -> [SkinEntry] {
        var merged: [SkinEntry] = []
        var at: [Int64: Int] = [:]
        for p in parts {
            for entry in data.skins[Int(p)].entries {
                let key = Int64(entry.slot) << 32 | Int64(UInt32(bitPattern: entry.name))
                if let i = at[key] {
                    merged[i].attachment = entry.attachment
                } else {
                    at[key] = merged.count
                    merged.append(entry)
                }
            }
        }
        return merged
    }
}
