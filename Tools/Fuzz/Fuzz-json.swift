import BoneworkFormat

/// libFuzzer entry for the json reader: any input must load or end in a LoadError, never trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try SkeletonJSONReader.read(bytes: bytes, file: "fuzz.json", atlas: nil)
    } catch is LoadError {
        // Expected for malformed input.
    } catch {
        fatalError("untyped error: \(error)")
    }
    return 0
}
