import BoneworkFormat

/// libFuzzer entry for the binary reader: any input must load or end in a LoadError, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try SkeletonBinaryReader.read(bytes: bytes, file: "fuzz.skel", atlas: nil)
    } catch is LoadError {
        // Expected for malformed input.
    } catch {
        fatalError("untyped error: \(error)")
    }
    return 0
}
