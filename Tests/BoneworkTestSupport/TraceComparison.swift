import Foundation

/// Compares a scenario trace with a reference trace (both parsed JSON) by the rules of
/// `shared/tools/compare-trace.py`: events exact (numbers in them within the tolerance), every
/// reference frame present, numbers within 1e-3 relative (`|a - b| <= 1e-3 * max(1, |b|)`),
/// attachments, draw orders and track names exact; `vertices`, `bounds` and `skeletonColor`
/// compared when the reference frame has them. Differences name the bone, slot, track or event.
public struct TraceComparison {
    /// Compared values and the differing ones.
    public private(set) var values = 0
    public private(set) var count = 0
    /// The first few differences, by name.
    public private(set) var first: [String] = []

    let bones: [String]
    let slots: [String]

    /// Compares `actual` with `expected`; `bones` and `slots` are the skeleton's names in data
    /// order (they name what differs).
    public init(expected: [String: Any], actual: [String: Any], bones: [String], slots: [String]) {
        self.bones = bones
        self.slots = slots
        compareEvents(expected["events"] as? [[String: Any]] ?? [], actual["events"] as? [[String: Any]] ?? [])
        var frames: [Int: [String: Any]] = [:]
        for f in actual["frames"] as? [[String: Any]] ?? [] {
            if let u = Self.number(f["update"]) { frames[Int(u)] = f }
        }
        for f in expected["frames"] as? [[String: Any]] ?? [] {
            let update = Int(Self.number(f["update"]) ?? -1)
            guard let g = frames[update] else {
                check(false, "update \(update): frame missing")
                continue
            }
            compareFrame(update, f, g)
        }
    }

    /// A one-line summary for a test expectation.
    public var summary: String { "\(count) of \(values) values differ; first: \(first.joined(separator: "; "))" }

    static func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }

    static func close(_ actual: Any?, _ expected: Any?) -> Bool {
        guard let a = number(actual), let e = number(expected) else { return false }
        if e.isNaN { return a.isNaN }
        return abs(a - e) <= 1e-3 * max(1, abs(e))
    }

    mutating func check(_ ok: Bool, _ what: @autoclosure () -> String) {
        values += 1
        if !ok {
            count += 1
            if first.count < 5 { first.append(what()) }
        }
    }

    static func name(_ names: [String], _ i: Int, _ kind: String) -> String {
        i < names.count ? "\(kind) '\(names[i])'" : "\(kind) #\(i)"
    }

    /// Numbers or nested lists of numbers (nulls must match nulls).
    mutating func compareNumbers(_ what: String, _ e: Any?, _ a: Any?) {
        let eNull = e == nil || e is NSNull
        let aNull = a == nil || a is NSNull
        if eNull || aNull {
            check(eNull && aNull, "\(what): expected \(e ?? "nil"), got \(a ?? "nil")")
            return
        }
        if let el = e as? [Any] {
            guard let al = a as? [Any] else { return check(false, "\(what): expected a list, got \(a ?? "nil")") }
            check(el.count == al.count, "\(what): expected \(el.count) values, got \(al.count)")
            for (i, (x, y)) in zip(el, al).enumerated() { compareNumbers("\(what)[\(i)]", x, y) }
            return
        }
        check(Self.close(a, e), "\(what): expected \(e ?? "nil"), got \(a ?? "nil")")
    }

    mutating func compareFrame(_ update: Int, _ e: [String: Any], _ a: [String: Any]) {
        let tag = "update \(update)"
        let bones = self.bones
        let slots = self.slots
        let name = Self.name
        let fields = ["a", "b", "c", "d", "worldX", "worldY"]
        let eb = e["bones"] as? [[Any]] ?? []
        let ab = a["bones"] as? [[Any]] ?? []
        check(eb.count == ab.count, "\(tag): \(eb.count) bones expected, got \(ab.count)")
        for (b, (x, y)) in zip(eb, ab).enumerated() {
            for (k, (p, q)) in zip(x, y).enumerated() {
                check(
                    Self.close(q, p),
                    "\(tag): \(name(bones, b, "bone")) \(k < fields.count ? fields[k] : "[\(k)]") expected \(p), got \(q)"
                )
            }
        }
        if let ev = e["vertices"] as? [Any] {
            let av = a["vertices"] as? [Any] ?? []
            check(ev.count == av.count, "\(tag): vertices of \(ev.count) slots expected, got \(av.count)")
            for (s, (x, y)) in zip(ev, av).enumerated() {
                compareNumbers("\(tag): vertices of \(name(slots, s, "slot"))", x, y)
            }
        }
        for key in ["bounds", "skeletonColor"] where e[key] != nil { compareNumbers("\(tag): \(key)", e[key], a[key]) }
        let es = e["slots"] as? [[String: Any]] ?? []
        let asl = a["slots"] as? [[String: Any]] ?? []
        check(es.count == asl.count, "\(tag): \(es.count) slots expected, got \(asl.count)")
        for (s, (x, y)) in zip(es, asl).enumerated() {
            let ea = x["attachment"] as? String
            let aa = y["attachment"] as? String
            check(
                ea == aa, "\(tag): \(name(slots, s, "slot")) attachment expected \(ea ?? "null"), got \(aa ?? "null")")
            compareNumbers("\(tag): \(name(slots, s, "slot")) color", x["color"], y["color"])
        }
        let eo = (e["drawOrder"] as? [Any] ?? []).compactMap(Self.number)
        let ao = (a["drawOrder"] as? [Any] ?? []).compactMap(Self.number)
        check(eo == ao, "\(tag): draw order expected \(eo), got \(ao)")
        let et = e["tracks"] as? [[String: Any]] ?? []
        let at = a["tracks"] as? [[String: Any]] ?? []
        check(et.count == at.count, "\(tag): \(et.count) tracks expected, got \(at.count)")
        for (x, y) in zip(et, at) {
            let track = "\(tag): track \(x["track"] ?? "?")"
            check(Self.number(x["track"]) == Self.number(y["track"]), "\(track) index")
            for k in ["animation", "mixingFrom"] {
                check(
                    x[k] as? String == y[k] as? String,
                    "\(track) \(k) expected \(x[k] ?? "null"), got \(y[k] ?? "null")")
            }
            check(
                Self.close(y["trackTime"], x["trackTime"]),
                "\(track) trackTime expected \(x["trackTime"] ?? "nil"), got \(y["trackTime"] ?? "nil")")
        }
    }

    mutating func compareEvents(_ expected: [[String: Any]], _ actual: [[String: Any]]) {
        check(expected.count == actual.count, "\(expected.count) events expected, got \(actual.count)")
        for (i, (x, y)) in zip(expected, actual).enumerated() {
            let what = "event \(i) (update \(x["update"] ?? "?"), \(x["type"] ?? "?") on \(x["animation"] ?? "?"))"
            for k in ["type", "animation"] {
                check(x[k] as? String == y[k] as? String, "\(what) \(k): got \(y[k] ?? "nil")")
            }
            for k in ["update", "track"] {
                check(Self.number(x[k]) == Self.number(y[k]), "\(what) \(k): got \(y[k] ?? "nil")")
            }
            if let xe = x["event"] as? [String: Any] {
                let ye = y["event"] as? [String: Any] ?? [:]
                for k in ["name", "string"] {
                    check(xe[k] as? String == ye[k] as? String, "\(what) event \(k): got \(ye[k] ?? "nil")")
                }
                check(Self.number(xe["int"]) == Self.number(ye["int"]), "\(what) event int: got \(ye["int"] ?? "nil")")
                for k in ["float", "time", "volume", "balance"] where xe[k] != nil {
                    check(Self.close(ye[k], xe[k]), "\(what) event \(k): expected \(xe[k]!), got \(ye[k] ?? "nil")")
                }
            }
        }
    }
}
