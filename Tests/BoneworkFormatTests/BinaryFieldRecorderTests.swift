import BoneworkTestSupport
import Testing

@testable import BoneworkFormat

/// The binary reader's value recorder (`BinaryFieldRecorder`), which the fuzzers' structure-aware
/// mutator edits `.skel` files with: it must note every value the reader reads, once, where its
/// bytes lie, with the kind that says how to rewrite it.
@Suite("Binary field recorder")
struct BinaryFieldRecorderTests {
    static func record(_ bytes: [UInt8]) throws -> (fields: [BinaryField], strings: [String]) {
        let recorded = BinaryFieldRecorder.record(bytes)
        if let error = recorded.error { throw error }
        return (recorded.fields, recorded.strings)
    }

    @Test(
        "The values noted for an export tile the whole file, in reading order",
        arguments: ["coin/coin-pro.skel", "spineboy/spineboy-pro.skel", "chibi-stickers/chibi-stickers.skel"])
    func fieldsTileTheFile(_ file: String) throws {
        let bytes = try SkeletonLoader.readFile(TestPaths.example(file))
        let (fields, _) = try Self.record(bytes)
        var end = 0
        for field in fields {
            #expect(field.offset == end, "\(file): \(field) after byte \(end)")
            #expect(field.length > 0, "\(file): \(field)")
            end = field.offset + field.length
        }
        #expect(end == bytes.count, "\(file): values end at \(end) of \(bytes.count) bytes")
    }

    @Test("Each kind is noted with its encoding's length and its table's size")
    func kindsAndBounds() throws {
        let bytes = try SkeletonLoader.readFile(TestPaths.example("spineboy/spineboy-pro.skel"))
        let (fields, strings) = try Self.record(bytes)
        let kinds = Set(fields.map(\.kind))
        for kind in [BinaryFieldKind.byte, .bool, .int, .float, .varint, .color, .string, .stringRef, .count, .index] {
            #expect(kinds.contains(kind), "no \(kind) noted")
        }
        for field in fields {
            switch field.kind {
            case .float, .int, .color: #expect(field.length == 4, "\(field)")
            case .byte, .bool: #expect(field.length == 1, "\(field)")
            case .floats: #expect(field.length == 4 * field.bound, "\(field)")
            case .stringRef: #expect(field.bound == strings.count, "\(field)")
            case .index: #expect(field.bound > 0, "\(field)")
            case .varint, .signedVarint, .count: #expect((1...5).contains(field.length), "\(field)")
            case .string:
                // The length varint (length + 1; 0 for none), then that many bytes less one.
                var length = 0
                var shift = 0
                var i = field.offset
                while true {
                    length |= Int(bytes[i] & 0x7F) << shift
                    i += 1
                    if bytes[i - 1] & 0x80 == 0 { break }
                    shift += 7
                }
                #expect(field.offset + field.length == i + max(0, length - 1), "\(field)")
            }
        }
    }

    @Test("A file the reader refuses is noted up to the value it stopped at")
    func refusedFilesAreNotedUpToTheFailure() throws {
        var bytes = try SkeletonLoader.readFile(TestPaths.example("coin/coin-pro.skel"))
        let (fields, _) = try Self.record(bytes)
        let float = try #require(fields.first { $0.kind == .float && $0.offset > 100 })
        bytes.replaceSubrange(float.offset..<(float.offset + 4), with: [0x7F, 0xC0, 0, 0])  // NaN
        let refused = BinaryFieldRecorder.record(bytes)
        #expect(refused.error?.expected == "a finite float")
        #expect(refused.fields.last.map { $0.offset + $0.length } == float.offset)
    }
}
