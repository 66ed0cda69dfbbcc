import BoneworkWorld

/// A scope owns one animation track for a set of entities (its members) and declares triggers
/// in priority order. Each frame `TriggerSystem.update()` compares every member's watched
/// values with the values it saw last time, position by position:
///
/// - the first trigger (in declared order) whose value changed wins and its action runs;
///   later triggers that also changed lose (in DEBUG builds each is reported as a conflict);
/// - values are equal only when kind and payload are both equal (`TriggerValue`), so a type
///   change (`.int(1)` to `.optionalInt(1)`) is a change;
/// - when the number of triggers changed since a member's last comparison (`setTriggers`), the
///   member's baseline is set again without any animation: what plays keeps playing;
///   replacing triggers without changing their number compares at the new positions;
/// - a member's first evaluation sets its baseline and starts, without mixing, the action of
///   the first trigger whose current value maps to an animation.
///
/// A barrier scope (`barrier: true`, or `TriggerSystem.addBarrier`) also refuses animation
/// changes on its track from outside the scope: see `TriggerSystem.setAnimation`.
public final class TriggerScope {
    /// The scope's name, as diagnostics print it.
    public let name: String
    /// The animation track the scope owns for its members.
    public let track: Int
    /// Whether changes from outside the scope on its track are refused (or undone).
    public let barrier: Bool
    /// How the scope's entries blend (`.add` for an additive layer).
    public let blend: MixBlend
    /// Whether DEBUG leak reports are made for this scope's track.
    public let warnsOnLeaks: Bool
    /// The triggers in priority order (the first that changed in a frame wins).
    public private(set) var triggers: [AnimationTrigger]
    /// The scope's position in its system.
    let id: Int

    // Per entity index.
    var isMember: EntityColumn<UInt8>
    var memberGeneration: EntityColumn<UInt32>
    /// Trigger count at the member's last comparison; -1 = not compared yet.
    var snapshotCount: EntityColumn<Int32>
    /// The values seen last, `snapshotStride` per entity.
    var snapshots: EntityColumn<TriggerValue>
    /// The entries this scope set on the member's track (slot, generation); the second is an
    /// entry it queued after the first.
    var ownedSlot: EntityColumn<Int32>
    var ownedGeneration: EntityColumn<UInt32>
    var queuedSlot: EntityColumn<Int32>
    var queuedGeneration: EntityColumn<UInt32>
    /// The last animation this scope played (-1 = empty, -2 = nothing yet) and whether it loops.
    var lastAnimation: EntityColumn<Int32>
    var lastLoop: EntityColumn<UInt8>
    /// Which trigger chose the last animation (-1 = explicit `play`).
    var lastTrigger: EntityColumn<Int32>
    /// Bumped by `setTriggers` (resolved animation tables are rebuilt).
    var version = 0

    init(
        id: Int, name: String, track: Int, triggers: [AnimationTrigger], barrier: Bool, blend: MixBlend,
        warnsOnLeaks: Bool
    ) {
        self.id = id
        self.name = name
        self.track = track
        self.triggers = triggers
        self.barrier = barrier
        self.blend = blend
        self.warnsOnLeaks = warnsOnLeaks
        isMember = EntityColumn(fill: 0)
        memberGeneration = EntityColumn(fill: 0)
        snapshotCount = EntityColumn(fill: -1)
        snapshots = EntityColumn(fill: .none, stride: max(1, triggers.count))
        ownedSlot = EntityColumn(fill: -1)
        ownedGeneration = EntityColumn(fill: 0)
        queuedSlot = EntityColumn(fill: -1)
        queuedGeneration = EntityColumn(fill: 0)
        lastAnimation = EntityColumn(fill: -2)
        lastLoop = EntityColumn(fill: 0)
        lastTrigger = EntityColumn(fill: -1)
    }

    deinit {
        isMember.free()
        memberGeneration.free()
        snapshotCount.free()
        snapshots.free()
        ownedSlot.free()
        ownedGeneration.free()
        queuedSlot.free()
        queuedGeneration.free()
        lastAnimation.free()
        lastLoop.free()
        lastTrigger.free()
    }

    func reserve(_ index: Int) {
        isMember.reserve(index)
        memberGeneration.reserve(index)
        snapshotCount.reserve(index)
        snapshots.reserve(index)
        ownedSlot.reserve(index)
        ownedGeneration.reserve(index)
        queuedSlot.reserve(index)
        queuedGeneration.reserve(index)
        lastAnimation.reserve(index)
        lastLoop.reserve(index)
        lastTrigger.reserve(index)
    }

    /// Replaces the triggers. When their number changes, every member's baseline is set again
    /// at its next evaluation, without animation; otherwise values are compared at the new
    /// positions.
    public func setTriggers(_ newTriggers: [AnimationTrigger]) {
        if newTriggers.count > snapshots.stride {
            // Old snapshots are shorter than the new count: those members re-baseline anyway.
            let grown = EntityColumn<TriggerValue>(
                fill: .none, stride: newTriggers.count, capacity: snapshots.capacity)
            snapshots.free()
            snapshots = grown
        }
        triggers = newTriggers
        version &+= 1
    }

    /// Whether `entity` is a member now.
    public func contains(_ entity: Entity) -> Bool {
        let i = Int(entity.index)
        return isMember[i] != 0 && memberGeneration[i] == entity.generation
    }

    /// The name of the trigger that chose the member's current animation (nil: none yet, or an
    /// explicit `TriggerSystem.play`).
    public func winningTrigger(_ entity: Entity) -> String? {
        guard contains(entity) else { return nil }
        let t = Int(lastTrigger[Int(entity.index)])
        return t >= 0 && t < triggers.count ? triggers[t].name : nil
    }
}
