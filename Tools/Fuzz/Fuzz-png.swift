import BoneworkImage

/// libFuzzer entry for PNG decoding (libpng's simplified API behind `PNG.decode`): any input must
/// decode or end in a `PNGError`, never trap. Decoding is capped at 2^20 pixels (4 MiB of RGBA)
/// so that the fuzzer's allocation limit catches only allocations the size checks should have
/// prevented; a decoded image must hold exactly its pixels.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let image = try PNG.decode(bytes: bytes, file: "fuzz.png", maximumPixelCount: 1 << 20)
        guard image.width > 0, image.height > 0, image.pixels.count == image.width * image.height * 4 else {
            fatalError("decoded \(image.width)x\(image.height) with \(image.pixels.count) bytes")
        }
    } catch is PNGError {
        // Expected for malformed input.
    } catch {
        fatalError("untyped error: \(error)")
    }
    return 0
}
