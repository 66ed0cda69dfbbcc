import BoneworkWorld

/// Whether this build carries trigger diagnostics (DEBUG builds only). Release builds compile
/// out the conflict scan, the leak reports and their storage.
public enum TriggerDiagnosticsBuild {
    #if DEBUG
        public static let enabled = true
    #else
        public static let enabled = false
    #endif
}

#if DEBUG
    /// A DEBUG report about animation ownership.
    public struct TriggerDiagnostic: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// A trigger whose value changed in the same frame as an earlier (winning) trigger.
            case conflict
            /// An animation set on a scoped track from outside the scope (accepted).
            case leak
            /// A foreign animation change on a barrier track (refused, or undone when it was
            /// set directly on the animation state).
            case refused
        }

        public var kind: Kind
        public var frame: Int
        public var entity: Entity
        public var track: Int
        public var scope: String
        /// Where the change came from: the losing trigger (conflict), the caller's label given to
        /// `TriggerSystem.setAnimation`, or `unrouted` for a change made on the animation state
        /// directly.
        public var source: String
        /// Conflict: the winning trigger. Leak/refused: the animation set from outside.
        public var detail: String

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
        public var limit = 1000
        public private(set) var reports: [TriggerDiagnostic] = []
        public private(set) var conflicts = 0
        public private(set) var leaks = 0
        public private(set) var refusals = 0

        mutating func report(_ d: TriggerDiagnostic) {
            switch d.kind {
            case .conflict: conflicts += 1
            case .leak: leaks += 1
            case .refused: refusals += 1
            }
            if reports.count < limit { reports.append(d) }
        }

        public var total: Int { conflicts + leaks + refusals }

        public mutating func removeAll() {
            reports.removeAll()
            conflicts = 0
            leaks = 0
            refusals = 0
        }
    }
#endif
