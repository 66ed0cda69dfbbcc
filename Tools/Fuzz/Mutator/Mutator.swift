import Glibc

// Structure-aware mutation for the `play` target: libFuzzer calls `LLVMFuzzerCustomMutator` for
// each new input. A skeleton in JSON (the input starts with `{`) is edited node by node
// (`JSONEdits`), a binary one value by value (`SkelEdits`), so that most edited inputs still get
// past the readers and reach the systems; one edit in eight (one in sixteen for JSON), and every
// input that does not parse into a structure, goes to libFuzzer's own byte mutations (`LLVMFuzzerMutate`: its dictionary and
// the comparisons it saw still reach the readers).
//
// Environment (read once, by `Tools/fuzz.sh`'s load-fraction measurement):
// - `BONEWORK_FUZZ_MUTATOR=bytes`: byte mutations only, as without this file;
// - `BONEWORK_FUZZ_STATS=1`: at exit, print how many executed inputs loaded, per format.

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

public enum MutatorSettings {
    nonisolated(unsafe) static var structureAware = true
    /// The edit that made the input executed next (for `MutationStats`' per-edit load counts).
    nonisolated(unsafe) static var lastEdit = "seed"

    /// Reads the environment (the target's `LLVMFuzzerInitialize` calls it once).
    public static func readEnvironment() {
        if let mode = getenv("BONEWORK_FUZZ_MUTATOR"), String(cString: mode) == "bytes" { structureAware = false }
        if getenv("BONEWORK_FUZZ_STATS") != nil {
            MutationStats.enabled = true
            atexit { MutationStats.report() }
        }
    }
}

@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzCustomMutator(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt)
    -> Int
{
    let started = MutationStats.enabled ? MutationStats.now() : 0
    defer { if MutationStats.enabled { MutationStats.mutatorNanoseconds += MutationStats.now() - started } }
    var random = MutationRandom(seed: UInt64(seed))
    MutatorSettings.lastEdit = "bytes"
    var size = size
    if MutatorSettings.structureAware { size = MutationBase.rewind(data, size, maxSize) }
    // Byte mutations break a JSON document's syntax far more often than a binary file's values.
    let json = size > 0 && data[0] == UInt8(ascii: "{")
    guard MutatorSettings.structureAware, size > 0, random.below(json ? 16 : 8) != 0 else {
        return LLVMFuzzerMutate(data, size, maxSize)
    }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let edited: [UInt8]?
    if json {
        edited = JSONEdits.mutate(bytes, maxSize: maxSize, random: &random)
        MutationStats.edited(json: true, structured: edited != nil)
    } else {
        edited = SkelEdits.mutate(bytes, maxSize: maxSize, random: &random)
        MutationStats.edited(json: false, structured: edited != nil)
    }
    guard let edited, !edited.isEmpty, edited.count <= maxSize else {
        MutatorSettings.lastEdit = "bytes (no structure)"
        return LLVMFuzzerMutate(data, size, maxSize)
    }
    edited.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: edited.count) }
    return edited.count
}

/// libFuzzer mutates an input up to five times in a row, running each step: one edit that the
/// reader refuses would leave every later step of the chain refused too. The target reports what
/// it ran (`loaded`, `refused`); when the input to mutate is the one just refused, the chain
/// continues from the last input that loaded instead (the step before, in a chain).
public enum MutationBase {
    nonisolated(unsafe) static var lastLoaded: [UInt8] = []
    nonisolated(unsafe) static var lastRefused: [UInt8] = []

    public static func loaded(_ bytes: UnsafeBufferPointer<UInt8>) {
        lastLoaded.removeAll(keepingCapacity: true)
        lastLoaded.append(contentsOf: bytes)
    }

    public static func refused(_ bytes: UnsafeBufferPointer<UInt8>) {
        lastRefused.removeAll(keepingCapacity: true)
        lastRefused.append(contentsOf: bytes)
    }

    /// Replaces `data` by the last input that loaded when it holds the last one refused; returns
    /// the size of what `data` holds then.
    static func rewind(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int {
        guard !lastLoaded.isEmpty, lastLoaded.count <= maxSize, size == lastRefused.count,
            lastRefused.withUnsafeBufferPointer({ memcmp($0.baseAddress!, data, size) == 0 })
        else { return size }
        lastLoaded.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        return lastLoaded.count
    }
}

/// SplitMix64 from libFuzzer's seed: the same seed gives the same edit.
struct MutationRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 0x9e37_79b9_7f4a_7c15 }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (0 when `bound` is 0 or less).
    mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(next() % UInt64(bound)) : 0 }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }

    /// An index chosen with the given weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var r = below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }
}

/// Values that sit on the edges of what the engine handles: zero, signs, the float range's ends,
/// denormals, the 16- and 24-bit integer edges float still holds exactly, and 32-bit limits.
enum EdgeValues {
    static let floats: [Float] = [
        0, -0.0, 1, -1, 0.5, 2, 90, 360, -360, 1e-6, .leastNonzeroMagnitude, .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 1e30, -1e30, 1e6, 65535, 65536, 16_777_216, 16_777_218,
        2_147_483_648,
    ]
    static let integers: [Int64] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 1000, 16383, 16384, 65535, 65536,
        1 << 20, 1 << 24, (1 << 24) + 1, Int64(Int32.max), 1 << 31, Int64(UInt32.max), -1, -2, -128,
        Int64(Int32.min),
    ]
}

/// What the executed inputs did, for measuring the mutator (`BONEWORK_FUZZ_STATS`): per format the
/// inputs that loaded, per edit the inputs it made and how many of those loaded, and the readers'
/// most frequent reasons for refusing.
public enum MutationStats {
    nonisolated(unsafe) static var enabled = false
    /// [json, skel] x [loaded, executed, structure-aware edits, inputs without a structure]
    nonisolated(unsafe) static var counts = [[Int]](repeating: [0, 0, 0, 0], count: 2)
    nonisolated(unsafe) static var edits: [String: (loaded: Int, executed: Int)] = [:]
    nonisolated(unsafe) static var refusals: [String: Int] = [:]
    nonisolated(unsafe) static var mutatorNanoseconds: UInt64 = 0

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Notes one executed input (`refusal`: what the reader expected, when it refused).
    public static func executed(json: Bool, loaded: Bool, refusal: String? = nil) {
        guard enabled else { return }
        let f = json ? 0 : 1
        counts[f][1] += 1
        var e = edits[MutatorSettings.lastEdit, default: (0, 0)]
        e.executed += 1
        if loaded {
            counts[f][0] += 1
            e.loaded += 1
        }
        edits[MutatorSettings.lastEdit] = e
        if let refusal { refusals[String(refusal.prefix(70)), default: 0] += 1 }
    }

    static func edited(json: Bool, structured: Bool) {
        guard enabled else { return }
        counts[json ? 0 : 1][structured ? 2 : 3] += 1
    }

    static func report() {
        for (f, name) in ["json", "skel"].enumerated() {
            let c = counts[f]
            let percent = c[1] > 0 ? 100 * c[0] / c[1] : 0
            print(
                "mutation stats: \(name): \(c[0]) of \(c[1]) executed inputs loaded (\(percent) %); "
                    + "structure-aware edits \(c[2]), inputs without a structure \(c[3])")
        }
        print("mutation stats: \(mutatorNanoseconds / 1_000_000) ms spent mutating")
        for (edit, e) in edits.sorted(by: { $0.key < $1.key }) {
            print("mutation stats: edit \(edit): \(e.loaded) of \(e.executed) loaded")
        }
        for (reason, count) in refusals.sorted(by: { $0.value > $1.value }).prefix(20) {
            print("mutation stats: refused \(count): \(reason)")
        }
    }
}
