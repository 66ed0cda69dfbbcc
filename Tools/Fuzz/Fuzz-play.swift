import BoneworkFuzzMutator
import BoneworkFuzzPlay
import BoneworkWorld
import Dispatch
import Glibc

@testable import BoneworkFormat

/// libFuzzer entry that plays what it loads: a skeleton (JSON when the input starts with `{`, else
/// binary) is read, resolved against an atlas made up for it and played through every system on
/// one and two threads, then drawn (world vertices, the CPU draw list with clipping, bounds, the
/// GPU path's packing into heap tables), as
/// `FuzzPlay` (Tools/Fuzz/Play) describes. Inputs are edited by the structure-aware mutator
/// (Tools/Fuzz/Mutator). Any trap, sanitizer report or `FuzzPlay.Finding` is a finding; a
/// `LoadError`, `WorldError` or `AnimationStateError` is an answer.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    MutatorSettings.readEnvironment()
    // libdispatch keeps the work items its worker threads free in per-thread caches until those
    // hold several thousand: until then every frame on two threads allocates more than it frees,
    // which libFuzzer takes for a possible leak and answers by running the input again under a
    // full LeakSanitizer scan (six times the input's own cost). Filling the caches once here
    // takes a few milliseconds.
    for _ in 0..<20_000 { DispatchQueue.concurrentPerform(iterations: 2) { _ in } }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let json = bytes.first == UInt8(ascii: "{")
    var choices = FuzzChoices(bytes)
    let skeleton: SkeletonData
    do {
        let builder: SkeletonDataBuilder
        if json {
            builder = try SkeletonJSONReader.readBuilder(bytes: bytes, file: "fuzz.json")
        } else {
            var parser = BinarySkeletonParser(bytes: bytes, file: "fuzz.skel", scale: 1)
            builder = try parser.parse()
        }
        skeleton = try FuzzPlay.load(builder, choices: &choices)
    } catch let error as LoadError {
        MutationBase.refused(UnsafeBufferPointer(start: data, count: size))
        MutationStats.executed(json: json, loaded: false, refusal: error.expected)
        // Kept out of the corpus: the reader targets (json, binary) fuzz the refusals; this one
        // mutates what loads, so that its edits start from inputs that reach the systems.
        return -1
    } catch {
        fatalError("untyped load error: \(error)")
    }
    MutationBase.loaded(UnsafeBufferPointer(start: data, count: size))
    MutationStats.executed(json: json, loaded: true)
    do {
        try FuzzPlay.play(skeleton, choices: &choices)
    } catch is WorldError {
        // Refused (e.g. past the memory limit): an answer, not a finding.
    } catch is AnimationStateError {
    } catch let finding as FuzzPlay.Finding {
        fatalError("finding: \(finding)")
    } catch {
        fatalError("untyped world error: \(error)")
    }
    return 0
}
