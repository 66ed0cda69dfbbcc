import BoneworkFormat
import BoneworkRender

/// libFuzzer entry for render request files: any input must parse or end in a
/// `RenderError.request` naming the file, never trap. A request that parses is checked against
/// the bounds the renderer relies on (image size, step count, float fields).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let request = try RenderRequest(json: bytes, file: "fuzz.request.json")
        guard request.width >= 1, request.height >= 1, request.width * request.height <= RenderRequest.maxPixels,
            request.steps >= 0, request.steps <= RenderRequest.maxSteps, request.delta.isFinite,
            request.viewport.width != 0, request.viewport.height != 0, request.viewport.x.isFinite,
            request.viewport.width.isFinite
        else { fatalError("a request outside the renderer's bounds parsed: \(request)") }
    } catch {
        guard case .request(let message) = error, message.hasPrefix("fuzz.request.json: ") else {
            fatalError("unexpected error: \(error)")
        }
    }
    return 0
}
