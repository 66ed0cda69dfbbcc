import BoneworkWorld

/// Whether this build carries trigger diagnostics (DEBUG builds only). Release builds compile
/// out the conflict scan, the leak reports and their storage.
public enum TriggerDiagnosticsBuild {
    #if DEBUG
        /// True: this is a debug build.
        public static let enabled = true
    #else
        /// False: this is a release build.
        public static let enabled = false
    #endif
}

#if DEBUG
    /// A DEBUG report about animation ownership.
    public struct TriggerDiagnostic: Sendable, Equatable, CustomStringConvertible {
        /// What was reported.
        public enum Kind: String, Sendable {
            /// A trigger whose value changed in the same frame as an earlier (winning) trigger.
            case conflict
            /// An animation set on a scoped track from outside the scope (accepted).
            case leak
            /// A foreign animation change on a barrier track (refused, or undone when it was
            /// set directly on the animation state).
            case refused
        }

        /// What was reported.
        public var kind: Kind
        /// The trigger frame it happened in.
        public var frame: Int
        /// The entity concerned.
        public var entity: Entity
        /// The track concerned.
        public var track: Int
        /// The scope's name.
        public var scope: String
        /// Where the change came from: the losing trigger (conflict), the caller's label given to
        /// `TriggerSystem.setAnimation`, or `unrouted` for a change made on the animation state
        /// directly.
        public var source: String
        /// Conflict: the winning trigger. Leak/refused: the animation set from outside.
        public var detail: String

        /// The report on one line, naming frame, scope, entity, track and source.
        public var description: String {
            switch kind {
            case .conflict:
                return
                    "frame \(frame): conflict in scope '\(scope)' on \(entity) track \(track): trigger '\(source)' changed too but '\(detail)' won"
            case .leak:
                return
                    "frame \(frame): leak into scope '\(scope)' on \(entity) track \(track): '\(detail)' set from \(source)"
            case .refused:
                return
                    "frame \(frame): barrier '\(scope)' refused '\(detail)' on \(entity) track \(track) from \(source)"
            }
        }
    }

    /// The reports of a `TriggerSystem`: counts per kind and the first `limit` reports.
    public struct TriggerDiagnostics: Sendable {
        /// The most reports kept (counts go on past it).
        public var limit = 1000
        /// The first ``limit`` reports.
        public private(set) var reports: [TriggerDiagnostic] = []
        /// Conflicts counted.
        public private(set) var conflicts = 0
        /// Leaks counted.
        public private(set) var leaks = 0
        /// Refusals counted.
        public private(set) var refusals = 0

        mutating func report(_ d: TriggerDiagnostic) {
            switch d.kind {
            case .conflict: conflicts += 1
            case .leak: leaks += 1
            case .refused: refusals += 1
            }
            if reports.count < limit { reports.append(d) }
        }

        /// Every report counted, of all kinds.
        public var total: Int { conflicts + leaks + refusals }

        /// Forgets every report and count.
        public mutating func removeAll() {
            reports.removeAll()
            conflicts = 0
            leaks = 0
            refusals = 0
        }
    }
#endif
