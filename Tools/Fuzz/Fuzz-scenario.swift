import BoneworkConformance

/// libFuzzer entry for scenario scripts (formats 1 and 2): any input must parse or end in a
/// `Scenario.FormatError` naming the file, never trap. A script that parses is checked against
/// the bounds the runner relies on (update work, recorded frames).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let scenario = try Scenario(json: bytes, file: "fuzz.scenario.json")
        var work = 0
        var recorded = 0
        for step in scenario.steps {
            guard case .update(let dt, let count, let record, let each) = step else { continue }
            guard dt.isFinite, count >= 0 else { fatalError("an update outside bounds parsed: \(step)") }
            work += count * (1 + each.count)
            recorded += record == .each ? count : (record == .last && count > 0 ? 1 : 0)
        }
        guard work <= Scenario.maxUpdateWork, recorded <= Scenario.maxRecordedFrames else {
            fatalError("a script of \(work) updates and \(recorded) recorded frames parsed")
        }
    } catch let error as Scenario.FormatError {
        guard error.description.hasPrefix("fuzz.scenario.json: ") else { fatalError("unnamed error: \(error)") }
    } catch {
        fatalError("untyped error: \(error)")
    }
    return 0
}
