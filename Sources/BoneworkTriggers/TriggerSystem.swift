import BoneworkFormat
import BoneworkWorld

/// Value-driven animation triggers for a whole world: value columns (one `TriggerValue` per
/// entity each), scopes that own a track for their members and declare triggers in priority
/// order, and barriers. `update()` evaluates every scope over every batch's rows as one pass
/// over columns (see `TriggerScope` for the rules), then applies the chosen animation changes.
/// Call it after writing the frame's values and before `World.update`.
///
/// Ownership: a scope's own changes go through this system and are stamped with the entry they
/// created. Other changes on a scoped track are
/// - through `setAnimation(_:track:_:loop:source:)`: refused with
///   `TriggerError.refusedByBarrier` on a barrier track; accepted on a plain scoped track
///   (DEBUG: reported as a leak);
/// - made on the animation state directly (unrouted): found at the next `update()` because the
///   track's current entry carries no stamp of the scope. On a barrier track they are undone
///   (the scope's last animation is set again, without mixing); on a plain scoped track they
///   are kept. DEBUG builds report both (refused / leak), naming entity, track and source.
public final class TriggerSystem {
    /// The world whose entities the triggers animate.
    public let world: World
    private var columns: [EntityColumn<TriggerValue>] = []
    /// The value columns' names, in the order added (a column's index).
    public private(set) var columnNames: [String] = []
    /// The scopes, in the order added (evaluated in that order).
    public private(set) var scopes: [TriggerScope] = []
    /// Frames evaluated so far.
    public private(set) var frame = 0
    /// Entity indices every column and scope has room for.
    private var capacity = 64
    private var decisions: [Decision] = []
    private var resolved: [ResolveKey: [ResolvedAction]] = [:]
    private var columnScratch: UnsafeMutablePointer<UnsafeMutablePointer<TriggerValue>>
    private var valueScratch: UnsafeMutablePointer<TriggerValue>
    private var scratchCount = 0
    /// Animation changes the last `update()` made.
    public private(set) var changesLastFrame = 0

    #if DEBUG
        /// Conflict, leak and refusal reports (DEBUG builds only).
        public var diagnostics = TriggerDiagnostics()
    #endif

    /// A trigger system for `world`, with no columns or scopes yet.
    public init(world: World) {
        self.world = world
        columnScratch = .allocate(capacity: 1)
        valueScratch = .allocate(capacity: 1)
    }

    deinit {
        for c in columns { c.free() }
        columnScratch.deallocate()
        valueScratch.deallocate()
    }

    // MARK: - Columns

    /// Adds a value column (every entity starts with `.none`).
    public func addColumn(_ name: String) -> ValueColumn {
        columns.append(EntityColumn(fill: .none, capacity: capacity))
        columnNames.append(name)
        return ValueColumn(index: columns.count - 1, name: name)
    }

    private func reserve(_ index: Int) {
        guard index >= capacity else { return }
        var n = capacity
        while n <= index { n *= 2 }
        for c in columns.indices { columns[c].reserve(n - 1) }
        for s in scopes { s.reserve(n - 1) }
        capacity = n
    }

    /// Writes an entity's value.
    public func set(_ column: ValueColumn, _ entity: Entity, _ value: TriggerValue) {
        reserve(Int(entity.index))
        columns[column.index][Int(entity.index)] = value
    }

    /// An entity's value in `column` (`.none` when never written).
    public func value(_ column: ValueColumn, _ entity: Entity) -> TriggerValue {
        let i = Int(entity.index)
        return i < capacity ? columns[column.index][i] : .none
    }

    /// The raw column, indexed by `Entity.index`, valid for indices below `reserve(upTo:)`'s
    /// argument until a later call grows the columns (for writing a whole crowd's values).
    ///
    /// # Safety
    /// Index only below the `reserve(upTo:)` argument, and drop the pointer at the next call that
    /// grows the columns (a larger `reserve`, a spawn past it). Write from one thread at a time,
    /// outside `update()`.
    public func values(_ column: ValueColumn) -> UnsafeMutablePointer<TriggerValue> { columns[column.index].base }

    /// Makes room for entity indices up to `index`.
    public func reserve(upTo index: Int) { reserve(index) }

    // MARK: - Scopes

    /// Adds a scope owning `track` of its members.
    public func addScope(
        _ name: String, track: Int, triggers: [AnimationTrigger], barrier: Bool = false, blend: MixBlend = .replace,
        warnsOnLeaks: Bool = true
    ) -> TriggerScope {
        let scope = TriggerScope(
            id: scopes.count, name: name, track: track, triggers: triggers, barrier: barrier, blend: blend,
            warnsOnLeaks: warnsOnLeaks)
        scope.reserve(capacity - 1)
        scopes.append(scope)
        return scope
    }

    /// A barrier: a scope without triggers that only keeps foreign changes off its track.
    public func addBarrier(_ name: String, track: Int, warnsOnLeaks: Bool = true) -> TriggerScope {
        addScope(name, track: track, triggers: [], barrier: true, warnsOnLeaks: warnsOnLeaks)
    }

    /// Makes `entity` a member of `scope`; its baseline is taken at the next `update()`.
    public func join(_ scope: TriggerScope, _ entity: Entity) throws {
        _ = try world.locate(entity)
        for other in scopes where other !== scope && other.track == scope.track && other.contains(entity) {
            throw TriggerError.trackAlreadyScoped(entity: entity, track: scope.track, scope: other.name)
        }
        let i = Int(entity.index)
        reserve(i)
        scope.isMember[i] = 1
        scope.memberGeneration[i] = entity.generation
        scope.snapshotCount[i] = -1
        scope.ownedSlot[i] = -1
        scope.queuedSlot[i] = -1
        scope.lastAnimation[i] = -2
        scope.lastTrigger[i] = -1
        // The current entry, if any, was there before the scope: it is not a leak.
        if let (batch, row) = try? world.locate(entity),
            let entry = batch.animationStates.current(row: row, track: scope.track)
        {
            scope.ownedSlot[i] = entry.poolSlot
            scope.ownedGeneration[i] = entry.poolGeneration
        }
    }

    /// Takes `entity` out of `scope`: its track is no longer driven or guarded by it (what plays keeps
    /// playing).
    public func leave(_ scope: TriggerScope, _ entity: Entity) {
        guard scope.contains(entity) else { return }
        scope.isMember[Int(entity.index)] = 0
    }

    /// Removes `entity` from every scope (call before despawning, or not: a despawned entity's
    /// memberships end with its handle).
    public func forget(_ entity: Entity) {
        for s in scopes { leave(s, entity) }
    }

    private func owner(_ entity: Entity, track: Int) -> TriggerScope? {
        for s in scopes where s.track == track && s.contains(entity) { return s }
        return nil
    }

    // MARK: - Changes from outside the triggers

    /// Plays an animation on a track for code outside the scopes (`source` names the caller in
    /// diagnostics). On a barrier track it throws `TriggerError.refusedByBarrier` and changes
    /// nothing; on a plain scoped track it plays (DEBUG: reported as a leak).
    @discardableResult
    public func setAnimation(_ entity: Entity, track: Int, _ animation: String, loop: Bool, source: String) throws
        -> TrackEntry
    {
        let (batch, row) = try world.locate(entity)
        guard let a = batch.data.findAnimation(animation) else { throw TriggerError.unknownAnimation(animation) }
        let scope = owner(entity, track: track)
        if let scope {
            if scope.barrier {
                #if DEBUG
                    if scope.warnsOnLeaks {
                        diagnostics.report(
                            TriggerDiagnostic(
                                kind: .refused, frame: frame, entity: entity, track: track, scope: scope.name,
                                source: source, detail: animation))
                    }
                #endif
                throw TriggerError.refusedByBarrier(entity: entity, track: track, barrier: scope.name, source: source)
            }
            #if DEBUG
                if scope.warnsOnLeaks {
                    diagnostics.report(
                        TriggerDiagnostic(
                            kind: .leak, frame: frame, entity: entity, track: track, scope: scope.name, source: source,
                            detail: animation))
                }
            #endif
        }
        let entry = try batch.animationStates.setAnimation(row: row, track: track, animation: a, loop: loop)
        if let scope {
            // Reported once here; the scan does not report it again.
            let i = Int(entity.index)
            scope.ownedSlot[i] = entry.poolSlot
            scope.ownedGeneration[i] = entry.poolGeneration
            scope.queuedSlot[i] = -1
        }
        return entry
    }

    /// The scope's explicit operation: plays an animation on its track for a member, as its own
    /// change (never a leak, passes its own barrier).
    @discardableResult
    public func play(_ scope: TriggerScope, _ entity: Entity, _ animation: String, loop: Bool, mix: Float = 0.2)
        throws -> TrackEntry
    {
        let (batch, row) = try world.locate(entity)
        guard let a = batch.data.findAnimation(animation) else { throw TriggerError.unknownAnimation(animation) }
        guard scope.contains(entity) else {
            return try setAnimation(entity, track: scope.track, animation, loop: loop, source: "scope '\(scope.name)'")
        }
        let entry = try apply(
            Decision(
                entity: entity, scope: Int32(scope.id), trigger: -1, kind: .play, animation: a, loop: loop, mix: mix,
                fadeOut: 0),
            batch: batch, row: row)
        return entry!
    }

    // MARK: - The frame

    private func resolve(_ scope: TriggerScope, _ batch: Batch) -> [ResolvedAction] {
        let key = ResolveKey(batch: ObjectIdentifier(batch), scope: scope.id, version: scope.version)
        if let r = resolved[key] { return r }
        var table: [ResolvedAction] = []
        func make(_ action: TriggerAction) -> ResolvedAction {
            switch action {
            case .keep: return ResolvedAction(kind: .keep, animation: -1, loop: false, fadeOut: 0)
            case .empty: return ResolvedAction(kind: .empty, animation: -1, loop: false, fadeOut: 0)
            case .play(let name, let loop):
                guard let a = batch.data.findAnimation(name) else {
                    return ResolvedAction(kind: .keep, animation: -1, loop: false, fadeOut: 0)
                }
                return ResolvedAction(kind: .play, animation: a, loop: loop, fadeOut: 0)
            case .playOnce(let name, let fadeOut):
                guard let a = batch.data.findAnimation(name) else {
                    return ResolvedAction(kind: .keep, animation: -1, loop: false, fadeOut: 0)
                }
                return ResolvedAction(kind: .playOnce, animation: a, loop: false, fadeOut: fadeOut)
            }
        }
        // Per trigger: its cases in order, then `otherwise`.
        for t in scope.triggers {
            for c in t.cases { table.append(make(c.action)) }
            table.append(make(t.otherwise))
        }
        resolved[key] = table
        return table
    }

    /// Evaluates every scope over every member and applies the animation changes.
    public func update() {
        decisions.removeAll(keepingCapacity: true)
        for batch in world.batches where batch.count > 0 {
            let entities = batch.entityColumn
            let tracks = batch.animationStates.trackCursor
            for scope in scopes {
                evaluate(scope, batch, entities: entities, tracks: tracks)
            }
        }
        changesLastFrame = 0
        for d in decisions {
            guard let (batch, row) = try? world.locate(d.entity) else { continue }
            if (try? apply(d, batch: batch, row: row)) != nil { changesLastFrame += 1 }
        }
        frame += 1
    }

    private func evaluate(
        _ scope: TriggerScope, _ batch: Batch, entities: UnsafeMutablePointer<Entity>, tracks: TrackCursor
    ) {
        let n = scope.triggers.count
        if n > scratchCount {
            columnScratch.deallocate()
            valueScratch.deallocate()
            columnScratch = .allocate(capacity: n)
            valueScratch = .allocate(capacity: n)
            scratchCount = n
        }
        for t in 0..<n { columnScratch[t] = columns[scope.triggers[t].column.index].base }
        let table = n > 0 ? resolve(scope, batch) : []
        let track = scope.track
        let stride = scope.snapshots.stride
        let isMember = scope.isMember.base
        let memberGeneration = scope.memberGeneration.base
        let snapshotCount = scope.snapshotCount.base
        let snapshots = scope.snapshots.base
        let ownedSlot = scope.ownedSlot.base
        let ownedGeneration = scope.ownedGeneration.base
        let queuedSlot = scope.queuedSlot.base
        let queuedGeneration = scope.queuedGeneration.base
        let cap = capacity
        let values = valueScratch
        let cols = columnScratch
        for row in 0..<batch.count {
            let e = entities[row]
            let i = Int(e.index)
            guard i < cap, isMember[i] != 0 else { continue }
            guard memberGeneration[i] == e.generation else {
                isMember[i] = 0
                continue
            }
            // Ownership of the track's current entry.
            let current: Int32 =
                tracks.currentEntry(row: row, track: track)
            if current >= 0 {
                let generation = tracks.generation(ofEntry: current)
                let stamped =
                    (current == ownedSlot[i] && generation == ownedGeneration[i])
                    || (current == queuedSlot[i] && generation == queuedGeneration[i])
                if !stamped {
                    #if DEBUG
                        if scope.warnsOnLeaks {
                            let a = tracks.animation(ofEntry: current)
                            diagnostics.report(
                                TriggerDiagnostic(
                                    kind: scope.barrier ? .refused : .leak, frame: frame, entity: e, track: track,
                                    scope: scope.name, source: "unrouted",
                                    detail: a >= 0 ? batch.data.animations[Int(a)].name : "<empty>"))
                        }
                    #endif
                    if scope.barrier {
                        decisions.append(restoreDecision(scope, e, i))
                    } else {
                        ownedSlot[i] = current
                        ownedGeneration[i] = generation
                        queuedSlot[i] = -1
                    }
                }
            }
            guard n > 0 else { continue }
            for t in 0..<n { values[t] = cols[t][i] }
            let snap = snapshots + i &* stride
            let previousCount = Int(snapshotCount[i])
            var winner = -1
            var initial = false
            if previousCount == -1 {
                initial = true
                for t in 0..<n where actionIndex(scope, table, t, values[t]).kind != .keep {
                    winner = t
                    break
                }
            } else if previousCount == n {
                for t in 0..<n where snap[t] != values[t] {
                    winner = t
                    break
                }
                #if DEBUG
                    if winner >= 0 {
                        var t = winner + 1
                        while t < n {
                            if snap[t] != values[t] {
                                diagnostics.report(
                                    TriggerDiagnostic(
                                        kind: .conflict, frame: frame, entity: e, track: track, scope: scope.name,
                                        source: scope.triggers[t].name, detail: scope.triggers[winner].name))
                            }
                            t += 1
                        }
                    }
                #endif
            }
            // A changed trigger count re-baselines without animation (winner stays -1).
            for t in 0..<n { snap[t] = values[t] }
            snapshotCount[i] = Int32(n)
            if winner >= 0 {
                let action = actionIndex(scope, table, winner, values[winner])
                if action.kind != .keep {
                    decisions.append(
                        Decision(
                            entity: e, scope: Int32(scope.id), trigger: Int32(winner), kind: action.kind,
                            animation: action.animation, loop: action.loop,
                            mix: initial ? 0 : scope.triggers[winner].mix, fadeOut: action.fadeOut))
                } else {
                    scope.lastTrigger[i] = Int32(winner)
                }
            }
        }
    }

    /// The resolved action of trigger `t` for `value`.
    @inline(__always)
    private func actionIndex(_ scope: TriggerScope, _ table: [ResolvedAction], _ t: Int, _ value: TriggerValue)
        -> ResolvedAction
    {
        var base = 0
        for k in 0..<t { base += scope.triggers[k].cases.count + 1 }
        let cases = scope.triggers[t].cases
        for c in 0..<cases.count where cases[c].value == value { return table[base + c] }
        return table[base + cases.count]
    }

    private func restoreDecision(_ scope: TriggerScope, _ entity: Entity, _ i: Int) -> Decision {
        let last = scope.lastAnimation[i]
        let kind: ActionKind = last == -2 ? .clear : (last == -1 ? .empty : .play)
        return Decision(
            entity: entity, scope: Int32(scope.id), trigger: scope.lastTrigger[i], kind: kind, animation: last,
            loop: scope.lastLoop[i] != 0, mix: 0, fadeOut: 0)
    }

    /// Applies one decision as the scope's own change and stamps the entries it created.
    @discardableResult
    private func apply(_ d: Decision, batch: Batch, row: Int) throws -> TrackEntry? {
        let scope = scopes[Int(d.scope)]
        let store = batch.animationStates
        let i = Int(d.entity.index)
        var entry: TrackEntry? = nil
        var queued: TrackEntry? = nil
        switch d.kind {
        case .keep: return nil
        case .clear:
            try store.clearTrack(row: row, track: scope.track)
        case .empty:
            entry = try store.setEmptyAnimation(row: row, track: scope.track, mixDuration: d.mix)
        case .play, .playOnce:
            let e = try store.setAnimation(
                row: row, track: scope.track, animation: d.animation, loop: d.kind == .play && d.loop)
            try e.setMixDuration(d.mix)
            if scope.blend != .replace { try e.setMixBlend(scope.blend) }
            entry = e
            if d.kind == .playOnce {
                queued = try store.addEmptyAnimation(row: row, track: scope.track, mixDuration: d.fadeOut, delay: 0)
            }
        }
        scope.ownedSlot[i] = entry?.poolSlot ?? -1
        scope.ownedGeneration[i] = entry?.poolGeneration ?? 0
        scope.queuedSlot[i] = queued?.poolSlot ?? -1
        scope.queuedGeneration[i] = queued?.poolGeneration ?? 0
        // What a barrier restores: a looping animation, or else the end state of the change.
        scope.lastAnimation[i] = d.kind == .play ? d.animation : (d.kind == .clear ? -2 : -1)
        scope.lastLoop[i] = d.kind == .play && d.loop ? 1 : 0
        scope.lastTrigger[i] = d.trigger
        return entry
    }
}

enum ActionKind: UInt8 {
    case keep, play, playOnce, empty, clear
}

struct ResolvedAction {
    var kind: ActionKind
    var animation: Int32
    var loop: Bool
    var fadeOut: Float
}

struct ResolveKey: Hashable {
    var batch: ObjectIdentifier
    var scope: Int
    var version: Int
}

struct Decision {
    var entity: Entity
    var scope: Int32
    var trigger: Int32
    var kind: ActionKind
    var animation: Int32
    var loop: Bool
    var mix: Float
    var fadeOut: Float
}
